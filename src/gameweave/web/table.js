// The table: one seat's live view of a match, drawn from `state` frames (docs/PROTOCOL.md
// §4.3).  Every legal action of the seat is a control carrying its §VII text in
// `data-action`; nothing the page shows comes from anywhere but the seat's view (R21).

import { api, ApiError, saveSeat, seatFor, TableSocket } from "./api.js";
import { backEl, cardEl, cardRow, deadGrid, handOrder, short, spoken, spokenList } from "./cards.js";
import { openHelp, profileTitle } from "./help.js";
import { banner, botPace, h, toast } from "./ui.js";
import { checkCommitment } from "./verify.js";
import {
  dangerText, describeChoice, forcedOnMe, logLines, namer, opponentName, stakesLine, statusText,
} from "./words.js";

/** Moves shown on a narrow screen until "Show all" is pressed. */
const LOG_SHORT = 4;

const ERROR_WORDS = {
  not_your_turn: "It is not your turn.",
  illegal: "That move is not legal now.",
  stale: "The table moved on — here is the current position.",
  deal_over: "This deal is already over.",
  deal_not_over: "The deal is still being played.",
  match_over: "The match is over.",
  bad_token: "This browser's seat token was not accepted for this table.",
  unknown_match: "There is no such match on this server.",
  rate_limited: "Too many messages — slow down a little.",
};

/** Why an invite cannot be used, by the code of join / invite-status (PROTOCOL §3.3). */
const JOIN_WORDS = {
  already_joined: "Someone has already taken the second seat of this match.",
  bad_invite: "This invite link is not valid for this match — check that it was copied whole.",
  unknown_match: "There is no such match on this server.",
  not_a_friend_match: "This match is against the computer; nobody can join it.",
};

function noSeatPage(main, matchId) {
  main.replaceChildren(
    h("section", { class: "panel" },
      h("h1", {}, "You have no seat at this table"),
      h("p", {}, `This browser holds no seat for match ${matchId}. A seat is kept in the browser that created or joined the match.`),
      h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, "Back to the lobby"))),
  );
  return { close() {} };
}

/** /join/{id}/{invite}: take seat 2 (once), remember it, then open the table. */
export function joinAndOpen(main, matchId, invite, ctx) {
  let inner = null;
  let closed = false;
  const mine = seatFor(matchId);
  if (mine) {
    history.replaceState({}, "", `/table/${matchId}`);
    return openTable(main, matchId, ctx);
  }
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, "Taking your seat…")));
  const path = `/api/matches/${encodeURIComponent(matchId)}`;
  // Ask first (always 200) so that a used or wrong invite is explained without a refused
  // request, which the browser would log as an error in its console.
  api("POST", `${path}/invite-status`, { body: { invite } })
    .then((st) => {
      if (!st.open) throw new ApiError(200, st.code, JOIN_WORDS[st.code] || "This invite cannot be used.");
      return api("POST", `${path}/join`, { body: { invite } });
    })
    .then((res) => {
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: "friend" });
      if (closed) return;
      history.replaceState({}, "", res.table_url || `/table/${res.match_id}`);
      inner = openTable(main, res.match_id, ctx);
    })
    .catch((err) => {
      if (closed) return;
      const why = (err instanceof ApiError && JOIN_WORDS[err.code]) || err.message;
      main.replaceChildren(
        h("section", { class: "panel" },
          h("h1", {}, "Could not join this match"),
          h("p", { class: "error" }, why),
          h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, "Go to the lobby"))),
      );
    });
  return { close() { closed = true; if (inner) inner.close(); } };
}

/** Meld choices up to this many are shown as buttons at once; more open the R18 chooser. */
const CHOOSER_FROM = 9;

/** Cards a seat needs on its table to win the deal (R16). */
const ELEVEN = 11;

/** True on a touch screen: a tap on a hand card selects it, a second tap (or the
 * confirm button) throws it. */
function touchScreen() {
  return window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
}

/** The choices of a frame: the server's `choices` (PROTOCOL §4.3, one per legal action in
 * the order of view.legal, built from the seat's view) described for their controls, as
 * [{a, d}].  Nothing is read back from the action text. */
function frameChoices(f, names) {
  return (f.choices || []).map((c) => ({ a: c.action, d: describeChoice(c, f.view, names) }));
}

/** The frame's progress (PROTOCOL §4.3): cards melded per seat and the seats one from eleven. */
function frameProgress(f) {
  if (f.progress && f.progress.melded) return f.progress;
  const tc = f.view.table_counts || {};
  const melded = { 1: tc["1"] ?? 0, 2: tc["2"] ?? 0 };
  return { melded, one_from_eleven: [1, 2].filter((s) => melded[s] === ELEVEN - 1) };
}

const key = (cards) => handOrder(cards || []).join(" ");

/** /table/{id}: the live table for the seat this browser holds. */
export function openTable(main, matchId, { go }) {
  const seatInfo = seatFor(matchId);
  if (!seatInfo) return noSeatPage(main, matchId);
  document.title = "Gameweave — your table";

  // The page skeleton, built once; each state frame refills its parts.
  const el = {};
  el.score = h("div", { class: "scorebar", "data-testid": "score" });
  el.status = h("p", { class: "status", "data-testid": "status", role: "status", "aria-live": "polite" }, "Connecting to the table…");
  el.invite = h("div", { class: "panel invite-panel", hidden: true });
  el.notice = h("div", { class: "notice", role: "alert", hidden: true, "data-testid": "forced-notice" });
  el.result = h("section", { class: "panel result", hidden: true, "aria-labelledby": "result-title" });
  el.oppName = h("h2", { class: "seat-name" });
  el.oppHand = h("div", { class: "opp-hand", "data-testid": "opponent-hand" });
  el.oppTable = h("div", { class: "melds" });
  el.stock = h("div", { class: "stock", "data-testid": "stock" });
  el.live = h("div", { class: "live", "data-testid": "live-card" });
  el.dead = h("div", { class: "dead", "data-testid": "dead-cards" });
  el.actions = h("div", { class: "actions", role: "group", "aria-label": "Your choices", "data-testid": "actions" });
  el.myTable = h("div", { class: "melds" });
  el.hand = h("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": "Your hand" });
  el.myName = h("h2", { class: "seat-name" }, "Your hand");
  el.log = h("ol", { class: "log-list collapsed", "data-testid": "log" });
  // On a narrow screen the log shows the last few moves; this shows them all (CSS hides
  // the button where the log sits beside the table and scrolls).
  let logOpen = false;
  el.logToggle = h("button", { type: "button", class: "btn small log-toggle", "aria-expanded": "false", hidden: true,
    onclick: () => { logOpen = !logOpen; syncLog(); } });
  el.log.addEventListener("scroll", () => el.log.classList.toggle("scrolled", el.log.scrollTop > 2), { passive: true });
  function syncLog() {
    const n = el.log.children.length;
    el.log.classList.toggle("collapsed", !logOpen);
    el.logToggle.hidden = n <= LOG_SHORT;
    el.logToggle.setAttribute("aria-expanded", String(logOpen));
    el.logToggle.textContent = logOpen ? "Show only the last moves" : `Show all ${n} moves`;
    el.log.scrollTop = el.log.scrollHeight;
    el.log.classList.toggle("scrolled", el.log.scrollTop > 2);
  }
  const root = h(
    "div", { class: "table-page", "data-testid": "table-page" },
    h("div", { class: "board" },
      el.score, el.status, el.invite, el.notice, el.result,
      h("section", { class: "seat opp", "aria-label": "Your opponent" }, el.oppName, el.oppHand, el.oppTable),
      h("section", { class: "centre", "aria-label": "Stock, live card and dead cards" }, el.stock, el.live, el.dead),
      el.actions,
      h("section", { class: "seat me", "aria-label": "You" }, el.myTable, el.myName, el.hand),
    ),
    h("aside", { class: "panel log", "aria-label": "Moves" }, h("h2", {}, "Moves"), el.log, el.logToggle,
      h("p", { class: "muted small" }, h("a", { href: "/", "data-nav": "" }, "← Lobby"))),
  );
  main.replaceChildren(root);

  let frame = null; // the frame shown now
  let sending = false;
  let closed = false;
  let replaced = false; // another tab holds the seat: every control is disabled
  const pending = [];
  let pumpTimer = null;
  let logKey = "";
  const verified = {}; // deal number -> check result
  let lastLive = null;
  let rulesTitle = null; // the profile's title, from the help data
  let picked = new Set(); // R18 chooser: the hand cards picked to add
  let selectedThrow = null; // touch screens: the card selected to throw
  let choiceVersion = null; // the version `picked` and `selectedThrow` belong to
  let cue = { version: null, deal: null, before: null, changed: { 1: new Set(), 2: new Set() } };

  const sock = new TableSocket(matchId, seatInfo.seat, seatInfo.token, {
    onState(f) {
      // A presence update re-sends the same version: replace a queued frame of that version.
      const last = pending[pending.length - 1];
      if (last && last.version === f.version) pending[pending.length - 1] = f;
      else pending.push(f);
      pump();
    },
    onError(f) {
      sending = false;
      const words = ERROR_WORDS[f.code] || "The server refused that.";
      toast(f.code === "illegal" && f.message ? `${words} (${f.message})` : words, "error");
      if (frame) render(frame);
      if (f.code === "bad_token" || f.code === "unknown_match") {
        el.status.textContent = words;
      }
    },
    onStatus(s) {
      if (closed) return;
      if (s === "open") {
        banner(null);
        if (replaced) {
          replaced = false;
          delete root.dataset.replaced;
        }
      } else if (s === "lost") banner("Connection lost — reconnecting…");
      else if (s === "replaced") {
        // Another tab or window took the seat: this one must not look playable.
        replaced = true;
        root.dataset.replaced = "true";
        closeDanger();
        disableAll();
        banner("This table is open in another window or tab.", { label: "Play here", run: () => sock.reclaim() });
      }
    },
  });

  // Bot (and friend) moves appear one at a time: frames that only record the opponent's
  // step are shown at least `botPace()` ms apart.
  function pump() {
    if (pumpTimer || closed || !pending.length) return;
    const f = pending.shift();
    const prevVersion = frame ? frame.version : null;
    render(f);
    const hist = f.view.history || [];
    const lastEv = hist[hist.length - 1];
    const byOpp = lastEv && lastEv.seat !== f.seat && f.version !== prevVersion;
    const pace = byOpp && pending.length ? botPace() : 0;
    if (pending.length) {
      pumpTimer = setTimeout(() => {
        pumpTimer = null;
        pump();
      }, pace);
    }
  }

  function disableAll() {
    for (const b of root.querySelectorAll("[data-action], [data-pick], [data-send], [data-testid=next-deal], [data-testid=rematch]")) b.disabled = true;
  }

  function send(msg) {
    if (sending || !frame || replaced) return;
    if (!sock.send({ ...msg, version: frame.version })) {
      toast("Not connected — your move was not sent. Reconnecting…", "error");
      return;
    }
    sending = true;
    closeDanger();
    disableAll();
  }

  function act(action) {
    send({ type: "action", action });
  }

  // ---------------------------------------------------------------- the danger dialog
  let dangerDlg = null;
  function closeDanger() {
    if (dangerDlg) {
      const d = dangerDlg;
      dangerDlg = null;
      if (d.open) d.close();
      d.remove();
      if (d.returnTo && d.returnTo.isConnected && !sending) d.returnTo.focus({ preventScroll: true });
    }
  }
  /** Ask before a move that publicly gives the opponent eleven (R16). */
  function confirmDanger(action, d, from) {
    closeDanger();
    const v = frame.view;
    const names = namer(v.seat, opponentName((frame.match || {}).opponent, v.seat === 1 ? 2 : 1));
    const cancel = h("button", { type: "button", class: "btn", "data-testid": "cancel-danger" }, "Cancel — choose again");
    const go = h("button", { type: "button", class: "btn danger-go", "data-action": action }, `${d.label} anyway`);
    const dlg = h("dialog", { class: "danger-dialog", "data-testid": "confirm-danger", "aria-labelledby": "danger-title", "aria-describedby": "danger-text" },
      h("h2", { id: "danger-title" }, `This hands ${names.who(v.seat === 1 ? 2 : 1)} the deal`),
      h("p", { id: "danger-text" }, dangerText(d, v, names)),
      h("div", { class: "result-buttons" }, cancel, go));
    cancel.addEventListener("click", () => closeDanger());
    dlg.addEventListener("cancel", (ev) => { ev.preventDefault(); closeDanger(); });
    dlg.returnTo = from;
    root.append(dlg);
    dangerDlg = dlg;
    dlg.showModal();
    cancel.focus();
  }

  root.addEventListener("click", (ev) => {
    if (replaced) return;
    const pick = ev.target.closest("[data-pick]");
    if (pick && !pick.disabled && root.contains(pick)) {
      const c = pick.dataset.pick;
      if (picked.has(c)) picked.delete(c);
      else picked.add(c);
      render(frame, { focus: `[data-pick="${c}"]` });
      return;
    }
    const sendBtn = ev.target.closest("[data-send]");
    if (sendBtn && !sendBtn.disabled && root.contains(sendBtn)) {
      act(sendBtn.dataset.send);
      return;
    }
    const clear = ev.target.closest("[data-clear]");
    if (clear && root.contains(clear)) {
      if (clear.dataset.clear === "picks") picked = new Set();
      else selectedThrow = null;
      render(frame, { focus: "first" });
      return;
    }
    const btn = ev.target.closest("[data-action]");
    if (!btn || btn.disabled || !root.contains(btn)) return;
    const action = btn.dataset.action;
    if (btn.closest("dialog")) {
      act(action);
      return;
    }
    const item = (current.items || []).find((x) => x.a === action);
    if (item && item.d.kind === "throw" && !item.d.force && btn.matches("button.card") && touchScreen() && selectedThrow !== action) {
      selectedThrow = action; // select first; the second tap or the confirm button throws
      render(frame, { focus: `[data-send="${CSS.escape(action)}"]` });
      return;
    }
    if (item && item.d.danger) {
      confirmDanger(action, item.d, btn);
      return;
    }
    act(action);
  });

  let current = { items: [] };

  function meldsEl(list, owner, names, highlightCard) {
    const who = owner === frame.seat ? "Your" : `${names.whose(owner)[0].toUpperCase()}${names.whose(owner).slice(1)}`;
    const wrap = h("div", { class: "melds-inner", "data-testid": `table-${owner}`, "aria-label": `${who} melds` });
    if (!list.length) {
      wrap.append(h("p", { class: "muted empty" }, "No melds yet."));
      return wrap;
    }
    const ol = h("ol", { class: "meld-list" });
    const changed = cue.changed[owner] || new Set();
    list.forEach((m, i) => {
      const row = cardRow(m, { size: "sm", highlight: highlightCard });
      const isNew = changed.has(key(m));
      ol.append(h("li", { class: `meld${isNew ? " changed" : ""}`, "data-meld": i + 1, "aria-label": `Meld ${i + 1}${isNew ? " (new or changed)" : ""}: ${spokenList(m)}` },
        h("span", { class: "meld-no", "aria-hidden": "true" }, String(i + 1)), row));
    });
    wrap.append(ol);
    return wrap;
  }

  /** Which melds are new or changed since the frame before (a visual cue: in profiles
   * that rearrange, melds are renumbered as the table changes). */
  function updateCue(f) {
    if (cue.version === f.version) return;
    const deal = (f.deal && f.deal.number) || (f.match || {}).deal_number;
    const melds = f.view.melds || {};
    const now = { 1: new Set((melds["1"] || []).map(key)), 2: new Set((melds["2"] || []).map(key)) };
    const changed = { 1: new Set(), 2: new Set() };
    if (cue.before && cue.deal === deal) {
      for (const s of [1, 2]) for (const k of now[s]) if (!cue.before[s].has(k)) changed[s].add(k);
    }
    cue = { version: f.version, deal, before: now, changed };
  }

  function seatBadges(s, prog) {
    const n = (prog.melded || {})[String(s)] ?? 0;
    const parts = [h("span", { class: `meld-count${n >= ELEVEN - 1 ? " hot" : ""}`, "data-testid": `meld-count-${s}`, "data-count": String(n) }, `${n} of ${ELEVEN} melded`)];
    if ((prog.one_from_eleven || []).includes(s)) {
      parts.push(h("span", { class: "badge eleven", "data-testid": "one-from-eleven", "data-seat": String(s) }, "one card from winning"));
    }
    return parts;
  }

  function render(f, opts = {}) {
    const prevFocus = document.activeElement;
    const hadFocusInside = prevFocus && root.contains(prevFocus) && prevFocus !== document.body && !prevFocus.closest("dialog");
    const focusAction = hadFocusInside ? prevFocus.dataset.action || prevFocus.dataset.testid : null;
    const focusPick = hadFocusInside ? prevFocus.dataset.pick || prevFocus.dataset.send : null;
    if (!frame || f.version !== frame.version) closeDanger();
    if (choiceVersion !== f.version) {
      choiceVersion = f.version;
      picked = new Set();
      selectedThrow = null;
    }
    frame = f;
    sending = false;
    const v = f.view;
    const m = f.match || {};
    const me = v.seat;
    const opp = me === 1 ? 2 : 1;
    const oppName = opponentName(m.opponent, opp);
    const names = namer(me, oppName);
    const prog = frameProgress(f);
    updateCue(f);
    root.dataset.version = String(f.version);
    root.dataset.seat = String(me);
    root.dataset.status = v.status;
    root.dataset.deal = String((f.deal && f.deal.number) || m.deal_number || "");
    root.dataset.myTurn = String(v.to_act === me);
    root.dataset.rules = v.rules || m.rules || "";
    // this deal was dealt from `serve --test-decks` (chosen, not shuffled)
    const testDeal = f.deal && "test" in f.deal ? !!f.deal.test : !!m.test;
    root.dataset.testDeal = String(testDeal);

    // Score bar: the score, the rules (opens their summary), stakes, format, deal
    const sc = m.score || {};
    const fmt = m.format === "first_to" ? `first to ${m.target}` : m.format === "stakes" ? "stakes" : "running tally";
    const rules = v.rules || m.rules || "gameweave";
    if (!rulesTitle) profileTitle(rules).then((t) => { rulesTitle = t; const b = root.querySelector("[data-testid=rules-name]"); if (b) b.textContent = `${t} rules`; });
    // Each part is its own chip, so a narrow screen wraps whole chips (no separators).
    el.score.replaceChildren(
      h("span", { class: "score" }, h("strong", {}, `You ${sc[String(me)] ?? 0}`), " – ", h("strong", {}, `${sc[String(opp)] ?? 0} ${oppName}`)),
      m.stakes ? h("span", { class: "chip stakes", "data-testid": "stakes" }, stakesLine(m.stakes, me, oppName)) : "",
      sc.tablas ? h("span", { class: "chip" }, `${sc.tablas} tablas`) : "",
      h("button", { type: "button", class: "chip rules-chip", "data-testid": "rules-name", "data-rules": rules, "aria-label": `${rulesTitle || rules} rules: how to play`,
        onclick: (ev) => openHelp(rules, ev.currentTarget) }, `${rulesTitle || rules} rules`),
      m.stakes ? "" : h("span", { class: "chip" }, fmt),
      h("span", { class: "chip" }, `deal ${m.deal_number ?? ""}`),
      testDeal ? h("span", { class: "chip test", title: "dealt from gameweave serve --test-decks" }, "test deck") : "",
      m.opponent && m.opponent.kind === "person"
        ? h("span", { class: `chip presence ${m.opponent.joined === false ? "off" : m.opponent.connected ? "on" : "off"}` },
          m.opponent.joined === false ? `${oppName} has not joined yet` : m.opponent.connected ? `${oppName} online` : `${oppName} away`)
        : "",
      h("button", { type: "button", class: "chip help-chip", "data-testid": "open-help", "aria-label": "How to play", onclick: (ev) => openHelp(rules, ev.currentTarget) }, "?"),
    );

    // Invite while the friend has not joined
    if (m.invite_url) {
      const url = new URL(m.invite_url, location.origin).href;
      const input = h("input", { type: "text", readonly: true, value: url, "data-testid": "invite-link", class: "invite-input", "aria-label": "Invite link" });
      input.addEventListener("focus", () => input.select());
      el.invite.hidden = false;
      el.invite.replaceChildren(
        h("p", {}, "Waiting for your friend. Send them this link:"),
        h("div", { class: "invite-row" }, input,
          h("button", { type: "button", class: "btn", onclick: () => navigator.clipboard.writeText(url).then(() => toast("Invite link copied."), () => toast("Select the link and copy it.")) }, "Copy link")),
      );
    } else {
      el.invite.hidden = true;
      el.invite.replaceChildren();
    }

    // Status in words
    el.status.textContent = statusText(v, names, { choices: f.choices || [] });
    el.status.classList.toggle("mine", v.to_act === me);

    // Forced notice
    const forced = forcedOnMe(v);
    if (forced) {
      el.notice.hidden = false;
      el.notice.replaceChildren(...(forced.pending
        ? [
          h("strong", {}, "You were forced. "),
          forced.how === "forced back"
            ? `${oppName} forced ${short(forced.card)}, the card you turned and refused, back onto you. `
            : `${oppName} ${forced.how} ${short(forced.card)} and forced it on you. `,
          "Meld it (your choices below); it counts towards your eleven.",
        ]
        : [
          h("strong", {}, "You were forced. "),
          `${oppName} ${forced.how} ${short(forced.card)} onto your meld: `,
          cardRow(forced.meld, { size: "xs", highlight: forced.card }),
          ". It counts towards your eleven. Now throw a card.",
        ]));
    } else {
      el.notice.hidden = true;
      el.notice.replaceChildren();
    }

    // Opponent: name, hand count, progress towards eleven
    const oppCount = (v.hand_counts || {})[String(opp)] ?? 0;
    el.oppName.replaceChildren(oppName, h("span", { class: "muted small" }, `${oppCount} card${oppCount === 1 ? "" : "s"} in hand`), ...seatBadges(opp, prog));
    if (v.opponent_hand) {
      // The deal is over: their hand face up, here only (the result box points to it).
      el.oppHand.classList.add("revealed");
      el.oppHand.replaceChildren(
        h("span", { class: "hand-label", "aria-hidden": "true" }, `${oppName}'s hand, face up:`),
        v.opponent_hand.length ? cardRow(v.opponent_hand, { size: "sm" }) : h("p", { class: "muted empty" }, "No cards left in hand."),
      );
      el.oppHand.setAttribute("aria-label", v.opponent_hand.length ? `${oppName}'s hand: ${spokenList(v.opponent_hand)}` : `${oppName} has no cards left in hand`);
    } else {
      el.oppHand.classList.remove("revealed");
      const backs = h("span", { class: "backs" });
      for (let i = 0; i < oppCount; i++) backs.append(backEl("xs", ""));
      for (const b of backs.children) b.setAttribute("aria-hidden", "true");
      el.oppHand.replaceChildren(backs);
      el.oppHand.setAttribute("aria-label", `${oppName} holds ${oppCount} cards`);
    }
    const melds = v.melds || {};
    const lastEv = (v.history || [])[(v.history || []).length - 1];
    const hl = lastEv && lastEv.kind === "meld" ? lastEv.card : forced ? forced.card : null;
    el.oppTable.replaceChildren(meldsEl(melds[String(opp)] || [], opp, names, hl));
    el.myTable.replaceChildren(meldsEl(melds[String(me)] || [], me, names, hl));

    // Centre: stock, live card, and the dead cards as a grid by suit (always shown)
    el.stock.replaceChildren(
      v.stock > 0 ? backEl("md", `stock: ${v.stock} cards`) : h("span", { class: "card empty md", role: "img", "aria-label": "the stock is empty" }),
      h("span", { class: "caption" }, h("strong", {}, String(v.stock)), " in stock"),
    );
    if (v.live) {
      const by = v.live_from ? (v.live_from === me ? "you let it go" : `${oppName} let it go`) : (v.to_act === me ? "you turned it" : `${oppName} turned it`);
      const card = cardEl(v.live, { size: "lg", label: `live card: ${spoken(v.live)}, ${by}` });
      if (lastLive !== `${f.version}:${v.live}` && lastLive?.split(":")[1] !== v.live) card.classList.add("enter");
      lastLive = `${f.version}:${v.live}`;
      el.live.replaceChildren(card, h("span", { class: "caption" }, v.live_from ? "Live — " : "Turned — ", by));
    } else if (v.forced) {
      // R18e: a forced card waits for its seat's meld; nothing is live meanwhile
      lastLive = null;
      const on = v.to_act === me ? "you must meld it" : `${oppName} must meld it`;
      el.live.replaceChildren(cardEl(v.forced, { size: "lg", label: `forced card: ${spoken(v.forced)}, ${on}` }),
        h("span", { class: "caption" }, "Forced — ", on));
    } else {
      lastLive = null;
      el.live.replaceChildren(h("span", { class: "card empty lg", role: "img", "aria-label": "no live card" }), h("span", { class: "caption" }, "No live card"));
    }
    const dead = v.dead || [];
    el.dead.dataset.count = String(dead.length);
    el.dead.replaceChildren(h("span", { class: "caption dead-title" }, h("strong", {}, String(dead.length)), " dead"), deadGrid(dead));

    // Choices
    const items = frameChoices(f, names);
    current = { items };
    renderChoices(items, v, names);

    // Result at the end of a deal (and the match-end screen)
    renderResult(f, names, oppName);

    // Move log (appended, so a screen reader hears only what is new)
    const lines = logLines(v, names);
    const lk = `${root.dataset.deal}`;
    if (lk !== logKey) {
      el.log.replaceChildren();
      logKey = lk;
    }
    const have = el.log.children.length;
    if (lines.length < have) el.log.replaceChildren();
    lines.slice(el.log.children.length).forEach((line) => {
      // explicit numbers: on a phone the older lines are hidden and must not renumber these
      el.log.append(h("li", { value: el.log.children.length + 1, class: `log-${line.kind} ${line.seat === me ? "by-me" : line.seat ? "by-opp" : ""}` }, line.text));
    });
    syncLog();

    if (replaced) disableAll();

    // Focus: where it was (the same control again), or the first choice when the turn
    // comes back to this seat, so the keyboard never falls back to <body>.
    const myTurn = v.to_act === me && v.status === "playing";
    const active = document.activeElement;
    const lost = !active || active === document.body || (hadFocusInside && !root.contains(prevFocus));
    const first = () => root.querySelector(".actions [data-action]:not([disabled]), .actions [data-send], .hand [data-action]:not([disabled]), .hand [data-pick], [data-testid=next-deal], [data-testid=rematch]");
    let target = null;
    if (opts.focus) target = opts.focus === "first" ? first() : root.querySelector(opts.focus);
    else if (hadFocusInside && !root.contains(prevFocus)) {
      target = (focusAction && root.querySelector(`[data-action="${CSS.escape(focusAction)}"], [data-testid="${CSS.escape(focusAction)}"]`))
        || (focusPick && root.querySelector(`[data-pick="${CSS.escape(focusPick)}"], [data-send="${CSS.escape(focusPick)}"]`))
        || first() || el.status;
    } else if ((myTurn || v.status !== "playing") && lost && !document.querySelector("dialog[open]")) {
      // (a control disabled while a move is sent drops the focus to <body>)
      target = first();
    }
    if (target && target.focus) target.focus({ preventScroll: true });
  }

  /** The choice controls, and the hand (cards are buttons when throwing, or picks in the
   * R18 chooser).  Meld choices are the primary action (R12/R18). */
  function renderChoices(items, v, names) {
    const hand = v.hand || [];
    const throws = new Map(items.filter((x) => x.d.kind === "throw" && !x.d.force).map((x) => [x.d.card, x]));
    const meldItems = items.filter((x) => x.d.kind === "meld");
    const chooser = meldItems.length >= CHOOSER_FROM;
    const hasMeld = meldItems.length > 0;
    const controls = [];
    const meldButton = (a, d) => {
      const rows = [];
      (d.groups || []).forEach((g, i) => {
        if (i) rows.push(h("span", { class: "meld-sep", "aria-hidden": "true" }, "/"));
        rows.push(cardRow(g, { size: "xs", highlight: v.forced || v.live }));
      });
      return h("button", { type: "button", class: "btn primary choice meld-choice", "data-action": a, "aria-label": `${d.label}: ${(d.groups || []).map(spokenList).join("; ")}` },
        h("span", { class: "choice-label" }, d.label), h("span", { class: "choice-cards" }, ...rows));
    };
    let pickable = new Set();
    if (chooser) {
      // R18 chooser: pick the hand cards to add; the tables that use exactly those follow.
      for (const { d } of meldItems) for (const c of d.uses || []) pickable.add(c);
      const want = key([...picked]);
      const exact = meldItems.filter(({ d }) => key(d.uses) === want);
      const more = meldItems.filter(({ d }) => [...picked].every((c) => (d.uses || []).includes(c))).length - exact.length;
      const card = v.forced || v.live;
      const head = picked.size
        ? `${picked.size} card${picked.size === 1 ? "" : "s"} picked: ${exact.length === 1 ? "1 table uses" : `${exact.length} tables use`} exactly ${picked.size === 1 ? "it" : "these"}${more > 0 ? ` (${more} more use other cards too — pick more)` : ""}.`
        : `${meldItems.length} ways to meld ${card ? short(card) : "the card"}: pick the cards from your hand to add (marked in your hand).`;
      controls.push(h("div", { class: "chooser", "data-testid": "chooser" },
        h("p", { class: "chooser-head" }, head,
          picked.size ? h("button", { type: "button", class: "btn small", "data-clear": "picks" }, "Clear the picks") : ""),
        exact.length ? h("div", { class: "chooser-tables" }, exact.slice(0, 12).map(({ a, d }) => meldButton(a, d))) : ""));
    } else {
      for (const { a, d } of meldItems) controls.push(meldButton(a, d));
    }
    if (selectedThrow && throws.has(selectedThrow.split(" ")[1])) {
      const c = selectedThrow.split(" ")[1];
      controls.push(h("div", { class: "throw-confirm" },
        h("button", { type: "button", class: "btn primary", "data-send": selectedThrow }, `Throw ${short(c)}`),
        h("button", { type: "button", class: "btn", "data-clear": "throw" }, "Keep it")));
    }
    const oppWho = names.who(v.seat === 1 ? 2 : 1);
    const warn = (d) => (d.danger ? h("span", { class: "danger-tag" }, `⚠ hands ${oppWho} the deal`) : "");
    for (const { a, d } of items) {
      if (d.kind === "meld" || (d.kind === "throw" && !d.force)) continue;
      if (d.force) {
        const landed = [...(d.target || []), d.card || v.live].filter(Boolean);
        controls.push(h("button", { type: "button", class: `btn choice force-choice${d.danger ? " danger" : ""}`, "data-action": a,
          "aria-label": `${d.label}: ${spokenList(d.target || [])}${d.danger ? `; this hands ${oppWho} the deal` : ""}` },
        h("span", { class: "choice-label" }, d.label), cardRow(handOrder(landed), { size: "xs", highlight: d.card || v.live }), warn(d)));
      } else {
        // the passive move is primary only when nothing can be melded (and it is safe)
        const primary = !hasMeld && !d.danger && (d.kind === "turn" || d.kind === "refuse");
        controls.push(h("button", { type: "button", class: `btn ${primary ? "primary" : "passive"} choice${d.danger ? " danger" : ""}`, "data-action": a,
          "aria-label": d.danger ? `${d.label}; this hands ${oppWho} the deal` : null }, h("span", { class: "choice-label" }, d.label), warn(d)));
      }
    }
    el.actions.hidden = !controls.length;
    el.actions.classList.toggle("choosing", chooser);
    el.actions.replaceChildren(...(controls.length ? [h("h2", { class: "visually-hidden" }, "Your choices"), ...controls] : []));

    el.myName.replaceChildren("Your hand",
      h("span", { class: "muted small" }, `${hand.length} card${hand.length === 1 ? "" : "s"}${throws.size ? (touchScreen() ? " · tap a card to throw it" : " · click a card to throw it") : chooser ? " · pick the cards to add" : ""}`),
      ...seatBadges(v.seat, frameProgress(frame)));
    el.hand.classList.toggle("throwing", throws.size > 0);
    el.hand.classList.toggle("picking", chooser);
    el.hand.replaceChildren(...hand.map((c) => {
      if (throws.has(c)) {
        const t = throws.get(c);
        const b = cardEl(c, { tag: "button", size: "lg", label: `Throw ${spoken(c)}${t.d.danger ? `; this hands ${names.who(v.seat === 1 ? 2 : 1)} the deal` : ""}` });
        b.dataset.action = t.a;
        if (t.d.danger) b.classList.add("danger");
        if (selectedThrow === b.dataset.action) b.classList.add("selected");
        return b;
      }
      if (chooser && pickable.has(c)) {
        const on = picked.has(c);
        const b = cardEl(c, { tag: "button", size: "lg", label: `${on ? "Picked" : "Pick"} ${spoken(c)} to add to your table` });
        b.dataset.pick = c;
        b.setAttribute("aria-pressed", String(on));
        if (on) b.classList.add("picked");
        return b;
      }
      return cardEl(c, { size: "lg" });
    }));
    if (!hand.length) el.hand.append(h("p", { class: "muted" }, "No cards in hand."));
  }

  async function rematch(btn) {
    btn.disabled = true;
    try {
      const res = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/rematch`, { token: seatInfo.token });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: seatInfo.opponent || ((frame.match || {}).opponent || {}).kind });
      go(res.table_url || `/table/${res.match_id}`);
    } catch (err) {
      btn.disabled = false;
      toast(`Could not start a rematch: ${err.message}`, "error");
    }
  }

  function renderResult(f, names, oppName) {
    const v = f.view;
    const m = f.match || {};
    if (v.status === "playing") {
      el.result.hidden = true;
      el.result.removeAttribute("data-testid");
      el.result.classList.remove("match-end");
      el.result.replaceChildren();
      return;
    }
    const me = v.seat;
    const opp = me === 1 ? 2 : 1;
    const dealNo = (f.deal && f.deal.number) || m.deal_number;
    el.result.hidden = false;
    el.result.setAttribute("data-testid", "result");
    el.result.classList.toggle("match-end", !!m.over);
    let title;
    if (v.status === "tablas") title = "Tablas — the stock ran out. Nobody wins this deal.";
    else if (v.winner === me) title = "You won the deal!";
    else title = `${oppName} won the deal.`;
    const sc = m.score || {};
    const children = [];
    if (m.over) {
      const won = m.winner === me;
      const line = m.format === "first_to" ? ` ${sc[String(won ? me : opp)]}–${sc[String(won ? opp : me)]}` : "";
      children.push(h("h2", { id: "result-title", "data-testid": "match-winner" }, won ? `You won the match${line}!` : `${oppName} won the match${line}.`));
      children.push(h("p", { class: "deal-line" }, `Deal ${dealNo}: ${title}`));
    } else {
      children.push(h("h2", { id: "result-title" }, title));
      children.push(h("p", { class: "match-line" }, `Match: you ${sc[String(me)] ?? 0} – ${sc[String(opp)] ?? 0} ${oppName}${sc.tablas ? `, ${sc.tablas} tablas` : ""}${m.format === "first_to" ? ` (first to ${m.target})` : ""}.`));
    }
    if (m.stakes) children.push(h("p", { class: "stakes-line", "data-testid": "stakes-balance" }, stakesLine(m.stakes, me, oppName).replace(/^stakes/, "Stakes")));
    if (m.over && Array.isArray(m.results) && m.results.length) {
      children.push(h("ol", { class: "deal-results", "data-testid": "deal-results", "aria-label": "Every deal of the match" },
        m.results.map((w, i) => h("li", {},
          h("a", { href: `/replay/${matchId}/${i + 1}`, "data-nav": "" }, `Deal ${i + 1}`), ": ",
          w == null ? "tablas" : w === me ? "you won" : `${oppName} won`))));
    }
    if (v.opponent_hand && v.opponent_hand.length) {
      children.push(h("p", { class: "reveal-hand" }, `${oppName}'s hand (${v.opponent_hand.length} card${v.opponent_hand.length === 1 ? "" : "s"}) is face up in their area.`));
    }
    const check = h("p", { class: "deck-check small", "data-testid": "deck-check" }, "Checking the shuffle…");
    children.push(check);
    const reveal = f.deal && f.deal.reveal;
    if (reveal) {
      children.push(h("details", { class: "deck small" }, h("summary", {}, "The deal's deck order"),
        h("p", { class: "mono small" }, reveal.deck), h("p", { class: "mono small" }, `salt ${reveal.salt}`),
        h("p", { class: "mono small" }, `commitment ${f.deal.commitment}`)));
    }
    const buttons = h("div", { class: "result-buttons" });
    if (!m.over) {
      buttons.append(h("button", { type: "button", class: "btn primary", "data-testid": "next-deal", onclick: () => send({ type: "next_deal" }) }, "Next deal"));
    } else {
      buttons.append(h("button", { type: "button", class: "btn primary", "data-testid": "rematch", onclick: (ev) => rematch(ev.currentTarget) }, "Rematch, same settings"));
      buttons.append(h("a", { class: "btn", href: "/", "data-nav": "" }, "Back to the lobby"));
    }
    buttons.append(h("a", { class: "btn", href: `/replay/${matchId}/${dealNo}`, "data-nav": "", "data-testid": "replay-link" }, "Replay this deal"));
    children.push(buttons);
    el.result.replaceChildren(...children);

    // this deal dealt from `serve --test-decks`: chosen, not shuffled (a later deal of the
    // match may be shuffled again)
    const test = f.deal && "test" in f.deal ? !!f.deal.test : !!m.test;
    if (!reveal) {
      check.textContent = "The deck has not been revealed yet.";
      return;
    }
    const ck = `${dealNo}:${f.deal.commitment}`;
    const show = (r) => {
      check.className = `deck-check small ${r.ok ? "ok" : "bad"}`;
      check.dataset.ok = String(r.ok);
      if (test) check.textContent = "Dealt from a test deck (gameweave serve --test-decks): chosen, not shuffled — no fair-shuffle claim.";
      else check.textContent = r.ok ? "✓ Fair shuffle: the deck is the one promised before the deal." : "✗ Warning: the deck is NOT the one promised before the deal.";
    };
    if (verified[ck]) show(verified[ck]);
    else {
      checkCommitment(reveal.deck, reveal.salt, f.deal.commitment).then((r) => {
        verified[ck] = r;
        if (frame === f) show(r);
      }, () => { check.textContent = "The shuffle could not be checked in this browser; run `gameweave verify` on the record."; });
    }
  }

  sock.connect();
  return {
    close() {
      closed = true;
      clearTimeout(pumpTimer);
      closeDanger();
      sock.close();
      banner(null);
    },
  };
}

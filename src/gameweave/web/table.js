// The table: one seat's live view of a match, drawn from `state` frames (docs/PROTOCOL.md
// §4.3).  Every legal action of the seat is a control carrying its §VII text in
// `data-action`; nothing the page shows comes from anywhere but the seat's view (R21).

import { api, ApiError, saveSeat, seatFor, TableSocket } from "./api.js";
import { backEl, cardEl, cardRow, handOrder, short, spoken, spokenList } from "./cards.js";
import { banner, botPace, h, toast } from "./ui.js";
import { checkCommitment } from "./verify.js";
import { describeAction, forcedOnMe, logLines, namer, opponentName, statusText } from "./words.js";

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
  el.dead = h("div", { class: "dead" });
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
      h("section", { class: "centre", "aria-label": "Stock and live card" }, el.stock, el.live, el.dead),
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
  const pending = [];
  let pumpTimer = null;
  let logKey = "";
  let verified = {}; // deal number -> check result
  let lastLive = null;

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
      if (s === "open") banner(null);
      else if (s === "lost") banner("Connection lost — reconnecting…");
      else if (s === "replaced") {
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

  function send(msg) {
    if (sending || !frame) return;
    if (!sock.send({ ...msg, version: frame.version })) {
      toast("Not connected — your move was not sent. Reconnecting…", "error");
      return;
    }
    sending = true;
    for (const b of root.querySelectorAll("[data-action], [data-testid=next-deal]")) b.disabled = true;
  }

  function act(action) {
    send({ type: "action", action });
  }

  root.addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-action]");
    if (btn && !btn.disabled && root.contains(btn)) act(btn.dataset.action);
  });

  function meldsEl(list, owner, names, highlightCard) {
    const who = owner === frame.seat ? "Your" : `${names.whose(owner)[0].toUpperCase()}${names.whose(owner).slice(1)}`;
    const wrap = h("div", { class: "melds-inner", "data-testid": `table-${owner}`, "aria-label": `${who} melds` });
    if (!list.length) {
      wrap.append(h("p", { class: "muted empty" }, owner === frame.seat ? "No melds yet." : "No melds yet."));
      return wrap;
    }
    const ol = h("ol", { class: "meld-list" });
    list.forEach((m, i) => {
      const row = cardRow(m, { size: "sm", highlight: highlightCard });
      ol.append(h("li", { class: "meld", "data-meld": i + 1, "aria-label": `Meld ${i + 1}: ${spokenList(m)}` },
        h("span", { class: "meld-no", "aria-hidden": "true" }, String(i + 1)), row));
    });
    wrap.append(ol);
    return wrap;
  }

  function render(f) {
    const prevFocus = document.activeElement;
    const hadFocusInside = prevFocus && root.contains(prevFocus) && prevFocus !== document.body;
    const focusAction = hadFocusInside ? prevFocus.dataset.action || prevFocus.dataset.testid : null;
    frame = f;
    sending = false;
    const v = f.view;
    const m = f.match || {};
    const me = v.seat;
    const opp = me === 1 ? 2 : 1;
    const oppName = opponentName(m.opponent, opp);
    const names = namer(me, oppName);
    root.dataset.version = String(f.version);
    root.dataset.seat = String(me);
    root.dataset.status = v.status;
    root.dataset.deal = String((f.deal && f.deal.number) || m.deal_number || "");
    root.dataset.myTurn = String(v.to_act === me);

    // Score
    const sc = m.score || {};
    const fmt = m.format === "first_to" ? `first to ${m.target}` : "running tally";
    // Each part is its own chip, so a narrow screen wraps whole chips (no separators).
    el.score.replaceChildren(
      h("span", { class: "score" }, h("strong", {}, `You ${sc[String(me)] ?? 0}`), " – ", h("strong", {}, `${sc[String(opp)] ?? 0} ${oppName}`)),
      sc.tablas ? h("span", { class: "chip" }, `${sc.tablas} tablas`) : "",
      h("span", { class: "chip" }, fmt),
      h("span", { class: "chip" }, `deal ${m.deal_number ?? ""}`),
      m.opponent && m.opponent.kind === "person"
        ? h("span", { class: `chip presence ${m.opponent.joined === false ? "off" : m.opponent.connected ? "on" : "off"}` },
          m.opponent.joined === false ? `${oppName} has not joined yet` : m.opponent.connected ? `${oppName} online` : `${oppName} away`)
        : "",
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
    el.status.textContent = statusText(v, names);
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
          "Choose how to meld it into your table (your choices below); it counts towards your eleven.",
        ]
        : [
          h("strong", {}, "You were forced. "),
          `${oppName} ${forced.how} ${short(forced.card)} and forced it onto your meld; it is now `,
          cardRow(forced.meld, { size: "sm", highlight: forced.card }),
          ". It counts towards your eleven. Now throw a card from your hand.",
        ]));
    } else {
      el.notice.hidden = true;
      el.notice.replaceChildren();
    }

    // Opponent
    const oppCount = (v.hand_counts || {})[String(opp)] ?? 0;
    el.oppName.replaceChildren(oppName, h("span", { class: "muted small" }, ` · seat ${opp} · ${oppCount} card${oppCount === 1 ? "" : "s"} in hand`));
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

    // Centre: stock and live card
    el.stock.replaceChildren(
      v.stock > 0 ? backEl("md", `stock: ${v.stock} cards`) : h("span", { class: "card empty md", role: "img", "aria-label": "the stock is empty" }),
      h("span", { class: "caption" }, h("strong", {}, String(v.stock)), " in stock"),
    );
    if (v.live) {
      const by = v.live_from ? (v.live_from === me ? "you let it go" : `${oppName} let it go`) : (v.to_act === me ? "you turned it" : `${oppName} turned it`);
      const card = cardEl(v.live, { size: "lg", label: `live card: ${spoken(v.live)}, ${by}` });
      if (lastLive !== `${f.version}:${v.live}` && lastLive?.split(":")[1] !== v.live) card.classList.add("enter");
      lastLive = `${f.version}:${v.live}`;
      el.live.replaceChildren(card, h("span", { class: "caption" }, v.live_from ? "Live card — " : "Turned — ", by));
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
    el.dead.replaceChildren(
      dead.length
        ? h("details", {}, h("summary", {}, `${dead.length} dead card${dead.length === 1 ? "" : "s"}`), cardRow(dead, { size: "xs" }))
        : h("span", { class: "muted small" }, "No dead cards"),
    );

    // Actions
    const legal = v.legal || [];
    const described = legal.map((a) => ({ a, d: describeAction(a, v, names) }));
    const throwable = new Set(described.filter((x) => x.d.kind === "throw" && !x.d.force).map((x) => x.d.card));
    const controls = [];
    for (const { a, d } of described) {
      if (d.kind === "throw" && !d.force) continue; // thrown by clicking the card in the hand
      if (d.kind === "meld") {
        const groups = d.groups && d.groups.length ? d.groups : [d.cards];
        const rows = [];
        groups.forEach((g, i) => {
          if (i) rows.push(h("span", { class: "meld-sep", "aria-hidden": "true" }, "/"));
          rows.push(cardRow(g, { size: "xs", highlight: v.forced || v.live }));
        });
        controls.push(h("button", { type: "button", class: "btn choice meld-choice", "data-action": a, "aria-label": `${d.label}: ${groups.map(spokenList).join("; ")}` },
          h("span", { class: "choice-label" }, d.label), ...rows));
      } else if (d.force) {
        const landed = [...(d.target || []), d.kind === "throw" ? d.card : v.live].filter(Boolean);
        controls.push(h("button", { type: "button", class: "btn choice force-choice", "data-action": a, "aria-label": `${d.label}: ${spokenList(d.target || [])}` },
          h("span", { class: "choice-label" }, d.label), cardRow(handOrder(landed), { size: "xs", highlight: d.kind === "throw" ? d.card : v.live })));
      } else {
        controls.push(h("button", { type: "button", class: `btn ${d.kind === "turn" ? "primary" : ""} choice`, "data-action": a }, d.label));
      }
    }
    el.actions.hidden = !controls.length;
    el.actions.replaceChildren(...(controls.length ? [h("h2", { class: "visually-hidden" }, "Your choices"), ...controls] : []));

    // Hand: cards are buttons when throwing
    const hand = v.hand || [];
    el.myName.replaceChildren("Your hand", h("span", { class: "muted small" }, ` · seat ${me} · ${hand.length} card${hand.length === 1 ? "" : "s"}${throwable.size ? " · click a card to throw it" : ""}`));
    el.hand.classList.toggle("throwing", throwable.size > 0);
    el.hand.replaceChildren(...hand.map((c) => (throwable.has(c)
      ? (() => { const b = cardEl(c, { tag: "button", size: "lg", label: `Throw ${spoken(c)}` }); b.dataset.action = `throw ${c}`; return b; })()
      : cardEl(c, { size: "lg" }))));
    if (!hand.length) el.hand.append(h("p", { class: "muted" }, "No cards in hand."));

    // Result at the end of a deal
    renderResult(f, names, oppName);

    // Move log (appended, so a screen reader hears only what is new)
    const lines = logLines(v, names);
    const key = `${root.dataset.deal}`;
    if (key !== logKey) {
      el.log.replaceChildren();
      logKey = key;
    }
    const have = el.log.children.length;
    if (lines.length < have) el.log.replaceChildren();
    lines.slice(el.log.children.length).forEach((line) => {
      // explicit numbers: on a phone the older lines are hidden and must not renumber these
      el.log.append(h("li", { value: el.log.children.length + 1, class: `log-${line.kind} ${line.seat === me ? "by-me" : line.seat ? "by-opp" : ""}` }, line.text));
    });
    syncLog();

    // Keep keyboard focus in the table across redraws.
    if (hadFocusInside && !root.contains(prevFocus)) {
      const again = focusAction && root.querySelector(`[data-action="${CSS.escape(focusAction)}"], [data-testid="${CSS.escape(focusAction)}"]`);
      const first = root.querySelector("[data-action]:not([disabled]), [data-testid=next-deal]");
      (again || first || el.status).focus?.();
    }
  }

  function renderResult(f, names, oppName) {
    const v = f.view;
    const m = f.match || {};
    if (v.status === "playing") {
      el.result.hidden = true;
      el.result.removeAttribute("data-testid");
      el.result.replaceChildren();
      return;
    }
    const me = v.seat;
    const dealNo = (f.deal && f.deal.number) || m.deal_number;
    el.result.hidden = false;
    el.result.setAttribute("data-testid", "result");
    let title;
    if (v.status === "tablas") title = "Tablas — the stock ran out. Nobody wins this deal.";
    else if (v.winner === me) title = "You won the deal!";
    else title = `${oppName} won the deal.`;
    const sc = m.score || {};
    const opp = me === 1 ? 2 : 1;
    let matchLine = `Match: you ${sc[String(me)] ?? 0} – ${sc[String(opp)] ?? 0} ${oppName}${sc.tablas ? `, ${sc.tablas} tablas` : ""}.`;
    if (m.over) matchLine = m.winner === me ? `You won the match ${sc[String(me)]}–${sc[String(opp)]}!` : `${oppName} won the match ${sc[String(opp)]}–${sc[String(me)]}.`;
    const check = h("p", { class: "deck-check", "data-testid": "deck-check" }, "Checking the shuffle…");
    const reveal = f.deal && f.deal.reveal;
    const children = [
      h("h2", { id: "result-title" }, title),
      h("p", { class: "match-line" }, matchLine),
      v.opponent_hand
        ? h("p", { class: "reveal-hand" }, v.opponent_hand.length
          ? `${oppName}'s hand (${v.opponent_hand.length} card${v.opponent_hand.length === 1 ? "" : "s"}) is face up in their area below.`
          : `${oppName} has no cards left in hand.`)
        : "",
      check,
    ];
    if (reveal) {
      children.push(h("details", { class: "deck" }, h("summary", {}, "The deal's deck order"),
        h("p", { class: "mono small" }, reveal.deck), h("p", { class: "mono small" }, `salt ${reveal.salt}`),
        h("p", { class: "mono small" }, `commitment ${f.deal.commitment}`)));
    }
    const buttons = h("div", { class: "result-buttons" });
    if (!m.over) {
      buttons.append(h("button", { type: "button", class: "btn primary", "data-testid": "next-deal", onclick: () => send({ type: "next_deal" }) }, "Next deal"));
    } else {
      buttons.append(h("a", { class: "btn primary", href: "/", "data-nav": "" }, "Back to the lobby"));
    }
    buttons.append(h("a", { class: "btn", href: `/replay/${matchId}/${dealNo}`, "data-nav": "", "data-testid": "replay-link" }, "Replay this deal"));
    children.push(buttons);
    el.result.replaceChildren(...children);

    if (!reveal) {
      check.textContent = "The deck has not been revealed yet.";
      return;
    }
    const key = `${dealNo}:${f.deal.commitment}`;
    const show = (r) => {
      check.className = `deck-check ${r.ok ? "ok" : "bad"}`;
      check.dataset.ok = String(r.ok);
      check.textContent = r.ok
        ? "✓ Fair shuffle: the revealed deck matches the commitment sent before the deal."
        : "✗ Warning: the revealed deck does NOT match the commitment sent before the deal.";
    };
    if (verified[key]) show(verified[key]);
    else {
      checkCommitment(reveal.deck, reveal.salt, f.deal.commitment).then((r) => {
        verified[key] = r;
        if (frame === f) show(r);
      }, () => { check.textContent = "The shuffle could not be checked in this browser; run `gameweave verify` on the record."; });
    }
  }

  sock.connect();
  return {
    close() {
      closed = true;
      clearTimeout(pumpTimer);
      sock.close();
      banner(null);
    },
  };
}

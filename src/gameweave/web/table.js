// The table: one seat's live view of a match, drawn from `state` frames (docs/PROTOCOL.md
// §4.3).  Every legal action of the seat is a control carrying its §VII text in
// `data-action`; nothing the page shows comes from anywhere but the seat's view (R21).

import { hintControl } from "./advice.js";
import { api, ApiError, saveSeat, seatFor, TableSocket } from "./api.js";
import { backEl, cardEl, cardRow, deadGrid, handOrder, short, spoken, spokenList } from "./cards.js";
import { openHelp, profileTitle } from "./help.js";
import { clearTurn, markTurn } from "./attention.js";
import { errorText, keysWithPrefix, t, tn } from "./i18n.js";
import { nothingHere } from "./notfound.js";
import { banner, botPace, h, toast } from "./ui.js";
import { checkCommitment } from "./verify.js";
import {
  dangerText, describeChoice, forcedOnMe, logLines, namer, nameProblem, seatName, stakesLine, statusText, turnerOf,
} from "./words.js";

/** Moves shown on a narrow screen until "Show all" is pressed. */
const LOG_SHORT = 4;

/** The quick phrases a seat may send: the fixed list of tables/phrases.py, whose catalog
 * keys are phrase.<key> (no free text from a person ever reaches the other). */
const phraseKeys = () => keysWithPrefix("phrase.").map((k) => k.slice("phrase.".length));

function noSeatPage(main, matchId) {
  main.replaceChildren(
    h("section", { class: "panel" },
      h("h1", {}, t("page.no_seat.title")),
      h("p", {}, t("page.no_seat.text", { id: matchId })),
      h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, t("page.back_to_lobby")))),
  );
  return { close() {} };
}

/** /join/{id}/{invite}: ask the friend's name, take seat 2 (once), remember it, then open
 * the table. */
export function joinAndOpen(main, matchId, invite, ctx) {
  let inner = null;
  let closed = false;
  const mine = seatFor(matchId);
  if (mine) {
    history.replaceState({}, "", `/table/${matchId}`);
    return openTable(main, matchId, ctx);
  }
  document.title = t("page.title.table");
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("page.join.checking"))));
  const path = `/api/matches/${encodeURIComponent(matchId)}`;
  const fail = (err) => {
    if (closed) return;
    main.replaceChildren(
      h("section", { class: "panel" },
        h("h1", {}, t("page.join.failed")),
        h("p", { class: "error", "data-testid": "join-error" }, err.message),
        h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, t("page.go_to_lobby")))),
    );
  };
  // Ask first (always 200) so that a used or wrong invite is explained without a refused
  // request, which the browser would log as an error in its console.
  api("POST", `${path}/invite-status`, { body: { invite } })
    .then((st) => {
      if (!st.open) throw new ApiError(200, st.code, st.code, st.params || {});
      if (closed) return;
      let saved = "";
      try { saved = (JSON.parse(localStorage.getItem("gameweave.lobby") || "{}") || {}).name || ""; } catch { saved = ""; }
      const input = h("input", { type: "text", id: "join-name", "data-testid": "name-input", maxlength: 96, autocomplete: "nickname",
        value: saved, placeholder: t("page.name_placeholder"), "aria-describedby": "join-problem" });
      const problem = h("p", { class: "error small", id: "join-problem", role: "alert", hidden: true });
      const btn = h("button", { type: "submit", class: "btn primary", "data-testid": "join-seat" }, t("page.join.take_seat"));
      const form = h("form", { class: "panel join-form" },
        h("h1", {}, t("page.join.title")),
        h("p", {}, t("page.join.text")),
        st.hints ? h("p", { class: "notice join-hints", "data-testid": "join-hints" }, t("page.join.hints")) : "",
        h("div", { class: "name-row" }, h("label", { for: "join-name" }, t("page.your_name")), input),
        problem, h("p", {}, btn));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const why = nameProblem(input.value);
        if (why) {
          problem.textContent = why;
          problem.hidden = false;
          input.focus();
          return;
        }
        btn.disabled = true;
        const name = input.value.trim();
        api("POST", `${path}/join`, { body: { invite, name: name || null } })
          .then((res) => {
            saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: "friend" });
            if (closed) return;
            history.replaceState({}, "", res.table_url || `/table/${res.match_id}`);
            inner = openTable(main, res.match_id, ctx);
          })
          .catch((err) => {
            if (err.code === "bad_name") {
              btn.disabled = false;
              problem.textContent = err.message;
              problem.hidden = false;
              return;
            }
            fail(err);
          });
      });
      main.replaceChildren(form);
      input.focus();
    })
    .catch(fail);
  return { close() { closed = true; if (inner) inner.close(); } };
}

/** /watch/{id}/{watch_key}: the match as a spectator sees it (public only, R21). */
export function openWatch(main, matchId, watchKey, ctx) {
  return openTable(main, matchId, ctx, { watch: watchKey });
}

/** Names for a spectator: every seat by its name, every sentence in the third person. */
function spectatorNamer(m) {
  const who = (s) => seatName(m, s);
  return {
    me: null,
    oppName: who(2),
    who,
    whom: who,
    mine: () => false,
    x: (key, s, params = {}) => t(`${key}.opp`, { who: who(s), ...params }),
  };
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
export function openTable(main, matchId, { go }, { watch = null } = {}) {
  const spectator = !!watch;
  const seatInfo = spectator ? { seat: null, token: null } : seatFor(matchId);
  if (!seatInfo) return noSeatPage(main, matchId);
  const baseTitle = spectator ? t("page.title.watch") : t("page.title.table");
  document.title = baseTitle;

  // The page skeleton, built once; each state frame refills its parts.
  const el = {};
  el.score = h("div", { class: "scorebar", "data-testid": "score" });
  el.status = h("p", { class: "status", "data-testid": "status", role: "status", "aria-live": "polite" }, t("page.table.connecting"));
  el.invite = h("div", { class: "panel invite-panel", hidden: true });
  el.notice = h("div", { class: "notice", role: "alert", hidden: true, "data-testid": "forced-notice" });
  el.result = h("section", { class: "panel result", hidden: true, "aria-labelledby": "result-title" });
  // Between deals: the notice that this seat waits for the other to move on (by name).
  el.waiting = h("p", { class: "notice waiting", "data-testid": "waiting-for", role: "status", hidden: true });
  // People: presence, clocks, spectators, the watch link, quick phrases, resign.
  el.phrases = h("div", { class: "phrases", "data-testid": "phrases", role: "group", "aria-label": t("page.phrases.label") });
  el.said = h("div", { class: "said", "data-testid": "phrase-shown", role: "status", "aria-live": "polite", hidden: true });
  el.extra = h("div", { class: "table-extra" });
  el.oppName = h("h2", { class: "seat-name" });
  el.oppHand = h("div", { class: "opp-hand", "data-testid": "opponent-hand" });
  el.oppTable = h("div", { class: "melds" });
  el.stock = h("div", { class: "stock", "data-testid": "stock" });
  el.live = h("div", { class: "live", "data-testid": "live-card" });
  el.dead = h("div", { class: "dead", "data-testid": "dead-cards" });
  el.actions = h("div", { class: "actions", role: "group", "aria-label": t("page.table.your_choices"), "data-testid": "actions" });
  el.myTable = h("div", { class: "melds" });
  el.hand = h("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("page.table.your_hand") });
  el.myName = h("h2", { class: "seat-name" }, t("page.table.your_hand"));
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
    el.logToggle.textContent = logOpen ? t("page.table.log_less") : t("page.table.log_all", { n });
    el.log.scrollTop = el.log.scrollHeight;
    el.log.classList.toggle("scrolled", el.log.scrollTop > 2);
  }
  const root = h(
    "div", { class: "table-page", "data-testid": "table-page" },
    h("div", { class: "board" },
      el.score, el.status, el.waiting, el.said, el.invite, el.notice, el.result,
      h("section", { class: "seat opp", "aria-label": spectator ? t("page.table.seat_2") : t("page.table.your_opponent") }, el.oppName, el.oppHand, el.oppTable),
      h("section", { class: "centre", "aria-label": t("page.table.centre") }, el.stock, el.live, el.dead),
      el.actions,
      h("section", { class: "seat me", "aria-label": spectator ? t("page.table.seat_1") : t("page.you") }, el.myTable, el.myName, el.hand),
    ),
    h("aside", { class: "panel log", "aria-label": t("page.table.moves") }, h("h2", {}, t("page.table.moves")), el.log, el.logToggle,
      el.extra,
      h("p", { class: "muted small" }, h("a", { href: "/", "data-nav": "" }, t("page.table.lobby_link")))),
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

  let clockTimer = null;
  let clockBase = null; // {at: performance.now() when the frame came, ms: deadline_in_ms, seat}
  let saidTimer = null;
  const sock = new TableSocket(matchId, seatInfo.seat, seatInfo.token, {
    onPhrase(f) {
      // a received quick phrase, shown briefly (a fixed key: never text typed by a person)
      const who = frame ? (f.seat === frame.seat ? t("page.you") : seatName(frame.match || {}, f.seat)) : seatName({}, f.seat);
      el.said.replaceChildren(h("span", { class: "said-line", "data-phrase": f.key, "data-seat": String(f.seat) },
        t("page.phrases.said", { who, phrase: t(`phrase.${f.key}`) })));
      el.said.hidden = false;
      clearTimeout(saidTimer);
      saidTimer = setTimeout(() => { el.said.hidden = true; el.said.replaceChildren(); }, 4000);
    },
    onState(f) {
      // A presence update re-sends the same version: replace a queued frame of that version.
      const last = pending[pending.length - 1];
      if (last && last.version === f.version) pending[pending.length - 1] = f;
      else pending.push(f);
      pump();
    },
    onError(f) {
      sending = false;
      const words = errorText(f);
      const fatal = f.code === "bad_token" || f.code === "unknown_match" || f.code === "bad_watch_key";
      if (fatal && !frame) {
        // refused before any table was shown (a wrong watch or seat link): say so once,
        // alone, not under an empty table
        closed = true;
        sock.close();
        nothingHere(main, words);
        return;
      }
      toast(words, "error");
      if (frame) render(frame);
      if (fatal) el.status.textContent = words;
    },
    onStatus(s) {
      if (closed) return;
      if (s === "open") {
        banner(null);
        if (replaced) {
          replaced = false;
          delete root.dataset.replaced;
        }
      } else if (s === "lost") banner(t("page.table.reconnecting"));
      else if (s === "replaced") {
        // Another tab or window took the seat: this one must not look playable.
        replaced = true;
        root.dataset.replaced = "true";
        closeDanger();
        disableAll();
        banner(t("page.table.replaced"), { label: t("page.table.play_here"), run: () => sock.reclaim() });
      }
    },
  }, { watch });

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
    for (const b of root.querySelectorAll("[data-action], [data-pick], [data-send], [data-testid=next-deal], [data-testid=rematch], [data-testid=resign], [data-phrase]")) b.disabled = true;
  }

  function send(msg) {
    if (sending || !frame || replaced || spectator) return;
    if (!sock.send({ ...msg, version: frame.version })) {
      toast(t("page.table.not_sent"), "error");
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
    const names = namer(v.seat, seatName(frame.match || {}, v.seat === 1 ? 2 : 1));
    const cancel = h("button", { type: "button", class: "btn", "data-testid": "cancel-danger" }, t("page.danger.cancel"));
    const go = h("button", { type: "button", class: "btn danger-go", "data-action": action }, t("page.danger.anyway", { label: d.label }));
    const dlg = h("dialog", { class: "danger-dialog", "data-testid": "confirm-danger", "aria-labelledby": "danger-title", "aria-describedby": "danger-text" },
      h("h2", { id: "danger-title" }, t("page.danger.title", { opp: names.who(v.seat === 1 ? 2 : 1) })),
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
    if (replaced || spectator) return;
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
    const btn = ev.target.closest("button[data-action]");
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
    const wrap = h("div", { class: "melds-inner", "data-testid": `table-${owner}`, "aria-label": names.x("page.table.melds_of", owner) });
    if (!list.length) {
      wrap.append(h("p", { class: "muted empty" }, t("page.table.no_melds")));
      return wrap;
    }
    const ol = h("ol", { class: "meld-list" });
    const changed = cue.changed[owner] || new Set();
    list.forEach((m, i) => {
      const row = cardRow(m, { size: "sm", highlight: highlightCard });
      const isNew = changed.has(key(m));
      ol.append(h("li", { class: `meld${isNew ? " changed" : ""}`, "data-meld": i + 1, "aria-label": t(isNew ? "page.table.meld_label_new" : "page.table.meld_label", { n: i + 1, cards: spokenList(m) }) },
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
    const parts = [h("span", { class: `meld-count${n >= ELEVEN - 1 ? " hot" : ""}`, "data-testid": `meld-count-${s}`, "data-count": String(n) }, t("page.table.melded", { n, of: ELEVEN }))];
    if ((prog.one_from_eleven || []).includes(s)) {
      parts.push(h("span", { class: "badge eleven", "data-testid": "one-from-eleven", "data-seat": String(s) }, t("page.table.one_from_winning")));
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
    // a spectator sees seat 1 at the bottom and seat 2 at the top, both by name
    const me = spectator ? 1 : v.seat;
    const opp = me === 1 ? 2 : 1;
    const oppName = seatName(m, opp);
    const names = spectator ? spectatorNamer(m) : namer(me, oppName);
    const prog = frameProgress(f);
    updateCue(f);
    root.dataset.version = String(f.version);
    root.dataset.seat = String(me);
    root.dataset.status = v.status;
    root.dataset.deal = String((f.deal && f.deal.number) || m.deal_number || "");
    root.dataset.myTurn = String(!spectator && v.to_act === me);
    root.dataset.spectator = String(spectator);
    root.dataset.rules = v.rules || m.rules || "";
    // this deal was dealt from `serve --test-decks` (chosen, not shuffled)
    const testDeal = f.deal && "test" in f.deal ? !!f.deal.test : !!m.test;
    root.dataset.testDeal = String(testDeal);

    // Score bar: the score, the rules (opens their summary), stakes, format, deal
    const sc = m.score || {};
    const fmt = m.format === "first_to" ? t("page.format.first_to", { n: m.target }) : m.format === "stakes" ? t("page.format.stakes") : t("page.format.tally");
    const rules = v.rules || m.rules || "gameweave";
    if (!rulesTitle) profileTitle(rules).then((title) => { rulesTitle = title; const b = root.querySelector("[data-testid=rules-name]"); if (b) b.textContent = t("page.table.rules_chip", { rules: rulesTitle }); });
    // Each part is its own chip, so a narrow screen wraps whole chips (no separators).
    el.score.replaceChildren(
      h("span", { class: "score" }, h("strong", {}, `${names.who(me)} ${sc[String(me)] ?? 0}`), " – ", h("strong", {}, `${sc[String(opp)] ?? 0} ${oppName}`)),
      m.stakes ? h("span", { class: "chip stakes", "data-testid": "stakes" }, stakesLine(m.stakes, me, oppName)) : "",
      sc.tablas ? h("span", { class: "chip" }, t("page.table.tablas_count", { n: sc.tablas })) : "",
      h("button", { type: "button", class: "chip rules-chip", "data-testid": "rules-name", "data-rules": rules, "aria-label": t("page.table.rules_label", { rules: rulesTitle || rules }),
        onclick: (ev) => openHelp(rules, ev.currentTarget) }, t("page.table.rules_chip", { rules: rulesTitle || rules })),
      m.stakes ? "" : h("span", { class: "chip" }, fmt),
      h("span", { class: "chip" }, t("page.table.deal_chip", { n: m.deal_number ?? "" })),
      testDeal ? h("span", { class: "chip test", title: t("page.table.test_deck_title") }, t("page.table.test_deck")) : "",
      !m.players && m.opponent && m.opponent.kind === "person"
        ? h("span", { class: `chip presence ${m.opponent.joined === false ? "off" : m.opponent.connected ? "on" : "off"}` },
          m.opponent.joined === false ? t("page.presence.not_joined", { who: oppName }) : m.opponent.connected ? t("page.presence.online", { who: oppName }) : t("page.presence.away", { who: oppName }))
        : "",
      h("button", { type: "button", class: "chip help-chip", "data-testid": "open-help", "aria-label": t("page.how_to_play"), onclick: (ev) => openHelp(rules, ev.currentTarget) }, "?"),
    );
    renderPeople(f, names);

    // Invite while the friend has not joined
    if (m.invite_url) {
      const url = new URL(m.invite_url, location.origin).href;
      const input = h("input", { type: "text", readonly: true, value: url, "data-testid": "invite-link", class: "invite-input", "aria-label": t("page.invite_link") });
      input.addEventListener("focus", () => input.select());
      el.invite.hidden = false;
      el.invite.replaceChildren(
        h("p", {}, t("page.table.invite_waiting")),
        h("div", { class: "invite-row" }, input,
          h("button", { type: "button", class: "btn", onclick: () => navigator.clipboard.writeText(url).then(() => toast(t("page.copied")), () => toast(t("page.copy_by_hand"))) }, t("page.copy_link"))),
      );
    } else {
      el.invite.hidden = true;
      el.invite.replaceChildren();
    }

    // Status in words
    el.status.textContent = statusText(v, names, { choices: f.choices || [] });
    el.status.classList.toggle("mine", !spectator && v.to_act === me);
    markTurn(!spectator && v.status === "playing" && v.to_act === me, baseTitle);

    // Forced notice
    const forced = spectator ? null : forcedOnMe(v);
    if (forced) {
      el.notice.hidden = false;
      el.notice.replaceChildren(...(forced.pending
        ? [
          h("strong", {}, t("page.forced.title")), " ",
          t(`page.forced.pending.${forced.how}`, { opp: oppName, card: short(forced.card) }), " ",
          t("page.forced.meld_it"),
        ]
        : [
          h("strong", {}, t("page.forced.title")), " ",
          t(`page.forced.onto.${forced.how}`, { opp: oppName, card: short(forced.card) }), " ",
          cardRow(forced.meld, { size: "xs", highlight: forced.card }),
          " ", t("page.forced.now_throw"),
        ]));
    } else {
      el.notice.hidden = true;
      el.notice.replaceChildren();
    }

    // Opponent: name, hand count, progress towards eleven
    const oppCount = (v.hand_counts || {})[String(opp)] ?? 0;
    el.oppName.replaceChildren(oppName, h("span", { class: "muted small" }, tn("page.table.cards_in_hand", oppCount)), ...seatBadges(opp, prog));
    const oppHand = spectator ? (v.hands ? v.hands[String(opp)] : null) : v.opponent_hand;
    if (oppHand) {
      // The deal is over: their hand face up, here only (the result box points to it).
      el.oppHand.classList.add("revealed");
      el.oppHand.replaceChildren(
        h("span", { class: "hand-label", "aria-hidden": "true" }, t("page.table.face_up", { who: oppName })),
        oppHand.length ? cardRow(oppHand, { size: "sm" }) : h("p", { class: "muted empty" }, t("page.table.no_cards_left")),
      );
      el.oppHand.setAttribute("aria-label", oppHand.length ? t("page.table.hand_label", { who: oppName, cards: spokenList(oppHand) }) : t("page.table.no_cards_label", { who: oppName }));
    } else {
      el.oppHand.classList.remove("revealed");
      const backs = h("span", { class: "backs" });
      for (let i = 0; i < oppCount; i++) backs.append(backEl("xs", ""));
      for (const b of backs.children) b.setAttribute("aria-hidden", "true");
      el.oppHand.replaceChildren(backs);
      el.oppHand.setAttribute("aria-label", tn("page.table.holds", oppCount, { who: oppName }));
    }
    const melds = v.melds || {};
    const lastEv = (v.history || [])[(v.history || []).length - 1];
    const hl = lastEv && lastEv.kind === "meld" ? lastEv.card : forced ? forced.card : null;
    el.oppTable.replaceChildren(meldsEl(melds[String(opp)] || [], opp, names, hl));
    el.myTable.replaceChildren(meldsEl(melds[String(me)] || [], me, names, hl));

    // Centre: stock, live card, and the dead cards as a grid by suit (always shown)
    el.stock.replaceChildren(
      v.stock > 0 ? backEl("md", t("page.table.stock_label", { n: v.stock })) : h("span", { class: "card empty md", role: "img", "aria-label": t("page.table.stock_empty") }),
      h("span", { class: "caption" }, h("strong", {}, String(v.stock)), " ", t("page.table.in_stock")),
    );
    if (v.live) {
      const by = v.live_from ? names.x("page.table.let_go", v.live_from) : names.x("page.table.turned_it", turnerOf(v));
      const card = cardEl(v.live, { size: "lg", label: t("page.table.live_label", { card: spoken(v.live), by }) });
      if (lastLive !== `${f.version}:${v.live}` && lastLive?.split(":")[1] !== v.live) card.classList.add("enter");
      lastLive = `${f.version}:${v.live}`;
      el.live.replaceChildren(card, h("span", { class: "caption" }, v.live_from ? t("page.table.live_caption") : t("page.table.turned_caption"), " — ", by));
    } else if (v.forced) {
      // R18e: a forced card waits for its seat's meld; nothing is live meanwhile
      lastLive = null;
      const on = names.x("page.must_meld", v.to_act);
      el.live.replaceChildren(cardEl(v.forced, { size: "lg", label: t("page.table.forced_label", { card: spoken(v.forced), on }) }),
        h("span", { class: "caption" }, t("page.table.forced_caption"), " — ", on));
    } else {
      lastLive = null;
      el.live.replaceChildren(h("span", { class: "card empty lg", role: "img", "aria-label": t("page.table.no_live") }), h("span", { class: "caption" }, t("page.table.no_live_caption")));
    }
    const dead = v.dead || [];
    el.dead.dataset.count = String(dead.length);
    el.dead.replaceChildren(h("span", { class: "caption dead-title" }, h("strong", {}, String(dead.length)), " ", t("page.table.dead")), deadGrid(dead));

    // Choices
    const items = frameChoices(f, names);
    current = { items };
    renderChoices(items, v, names);

    // Result at the end of a deal (and the match-end screen)
    renderResult(f, names, oppName);

    // Move log (appended, so a screen reader hears only what is new)
    const lines = logLines(v, names, { resigned: (f.deal && f.deal.resigned) || null });
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
    const myTurn = !spectator && v.to_act === me && v.status === "playing";
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
        ? `${tn("page.chooser.picked", picked.size, { tables: tn("page.chooser.tables_use", exact.length) })}${more > 0 ? ` ${t("page.chooser.more", { more })}` : ""}.`
        : t("page.chooser.ways", { n: meldItems.length, card: card ? short(card) : t("page.it") });
      controls.push(h("div", { class: "chooser", "data-testid": "chooser" },
        h("p", { class: "chooser-head" }, head,
          picked.size ? h("button", { type: "button", class: "btn small", "data-clear": "picks" }, t("page.chooser.clear")) : ""),
        exact.length ? h("div", { class: "chooser-tables" }, exact.slice(0, 12).map(({ a, d }) => meldButton(a, d))) : ""));
    } else if (meldItems.length) {
      // one box for the meld choices: on a phone it scrolls when there are many, so
      // the refuse/force choices and the hand stay on screen
      controls.push(h("div", { class: "meld-choices", "data-testid": "meld-choices" }, meldItems.map(({ a, d }) => meldButton(a, d))));
    }
    if (selectedThrow && throws.has(selectedThrow.split(" ")[1])) {
      const c = selectedThrow.split(" ")[1];
      controls.push(h("div", { class: "throw-confirm" },
        h("button", { type: "button", class: "btn primary", "data-send": selectedThrow }, t("page.choice.throw", { card: short(c) })),
        h("button", { type: "button", class: "btn", "data-clear": "throw" }, t("page.table.keep_it"))));
    }
    const oppWho = names.who(v.seat === 1 ? 2 : 1);
    const warn = (d) => (d.danger ? h("span", { class: "danger-tag" }, `⚠ ${t("page.danger.tag", { opp: oppWho })}`) : "");
    for (const { a, d } of items) {
      if (d.kind === "meld" || (d.kind === "throw" && !d.force)) continue;
      if (d.force) {
        const landed = [...(d.target || []), d.card || v.live].filter(Boolean);
        controls.push(h("button", { type: "button", class: `btn choice force-choice${d.danger ? " danger" : ""}`, "data-action": a,
          "aria-label": `${d.label}: ${spokenList(d.target || [])}${d.danger ? `; ${t("page.danger.tag", { opp: oppWho })}` : ""}` },
        h("span", { class: "choice-label" }, d.label), cardRow(handOrder(landed), { size: "xs", highlight: d.card || v.live }), warn(d)));
      } else {
        // the passive move is primary only when nothing can be melded (and it is safe)
        const primary = !hasMeld && !d.danger && (d.kind === "turn" || d.kind === "refuse");
        controls.push(h("button", { type: "button", class: `btn ${primary ? "primary" : "passive"} choice${d.danger ? " danger" : ""}`, "data-action": a,
          "aria-label": d.danger ? `${d.label}; ${t("page.danger.tag", { opp: oppWho })}` : null }, h("span", { class: "choice-label" }, d.label), warn(d)));
      }
    }
    el.actions.hidden = !controls.length;
    el.actions.classList.toggle("choosing", chooser);
    el.actions.replaceChildren(...(controls.length ? [h("h2", { class: "visually-hidden" }, t("page.table.your_choices")), ...controls] : []));
    const hintBox = spectator ? null : hintControl({ matchId, token: seatInfo.token, frame: () => frame, root, names: (a) => (items.find((x) => x.a === a) || { d: { label: a } }).d.label });
    if (hintBox) el.actions.append(hintBox);

    if (spectator) {
      // seat 1, seen from outside: its name and the backs of its cards (R21), the hand
      // face up once the deal is over
      const n = (v.hand_counts || {})["1"] ?? 0;
      const shown = v.hands ? v.hands["1"] || [] : null;
      el.myName.replaceChildren(names.who(1), h("span", { class: "muted small" }, tn("page.table.cards_in_hand", n)), ...seatBadges(1, frameProgress(frame)));
      if (shown) el.hand.replaceChildren(...(shown.length ? shown.map((c) => cardEl(c, { size: "lg" })) : [h("p", { class: "muted" }, t("page.table.no_cards_left"))]));
      else {
        const backs = [];
        for (let i = 0; i < n; i++) backs.push(backEl("sm", ""));
        for (const b of backs) b.setAttribute("aria-hidden", "true");
        el.hand.replaceChildren(...backs);
      }
      el.hand.setAttribute("aria-label", tn("page.table.holds", n, { who: names.who(1) }));
      return;
    }
    const hint = throws.size ? (touchScreen() ? t("page.table.tap_to_throw") : t("page.table.click_to_throw")) : chooser ? t("page.table.pick_to_add") : "";
    el.myName.replaceChildren(t("page.table.your_hand"),
      h("span", { class: "muted small" }, tn("page.table.cards", hand.length) + (hint ? ` · ${hint}` : "")),
      ...seatBadges(v.seat, frameProgress(frame)));
    el.hand.classList.toggle("throwing", throws.size > 0);
    el.hand.classList.toggle("picking", chooser);
    el.hand.replaceChildren(...hand.map((c) => {
      if (throws.has(c)) {
        const x = throws.get(c);
        const b = cardEl(c, { tag: "button", size: "lg", label: `${t("page.choice.throw", { card: spoken(c) })}${x.d.danger ? `; ${t("page.danger.tag", { opp: names.who(v.seat === 1 ? 2 : 1) })}` : ""}` });
        b.dataset.action = x.a;
        if (x.d.danger) b.classList.add("danger");
        if (selectedThrow === b.dataset.action) b.classList.add("selected");
        return b;
      }
      if (chooser && pickable.has(c)) {
        const on = picked.has(c);
        const b = cardEl(c, { tag: "button", size: "lg", label: t(on ? "page.table.picked_label" : "page.table.pick_label", { card: spoken(c) }) });
        b.dataset.pick = c;
        b.setAttribute("aria-pressed", String(on));
        if (on) b.classList.add("picked");
        return b;
      }
      return cardEl(c, { size: "lg" });
    }));
    if (!hand.length) el.hand.append(h("p", { class: "muted" }, t("page.table.no_cards")));
  }

  async function rematch(btn) {
    btn.disabled = true;
    try {
      const res = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/rematch`, { token: seatInfo.token });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: seatInfo.opponent || ((frame.match || {}).opponent || {}).kind });
      go(res.table_url || `/table/${res.match_id}`);
    } catch (err) {
      btn.disabled = false;
      toast(t("page.table.rematch_failed", { why: err.message }), "error");
    }
  }

  function renderResult(f, names, oppName) {
    const v = f.view;
    const m = f.match || {};
    const waiting = (m.waiting_for || []).map(Number);
    el.waiting.hidden = true;
    el.waiting.replaceChildren();
    if (v.status === "playing") {
      el.result.hidden = true;
      el.result.removeAttribute("data-testid");
      el.result.classList.remove("match-end");
      el.result.replaceChildren();
      return;
    }
    const me = spectator ? 1 : v.seat;
    const opp = me === 1 ? 2 : 1;
    const dealNo = (f.deal && f.deal.number) || m.deal_number;
    el.result.hidden = false;
    el.result.setAttribute("data-testid", "result");
    el.result.classList.toggle("match-end", !!m.over);
    const resigned = (f.deal && f.deal.resigned) || null; // the seat that resigned this deal
    let title;
    if (v.status === "tablas") title = t("page.result.tablas");
    else title = names.x("page.result.deal_won", v.winner);
    const sc = m.score || {};
    const children = [];
    if (m.over) {
      const line = m.format === "first_to" ? ` ${sc[String(m.winner)] ?? 0}–${sc[String(m.winner === 1 ? 2 : 1)] ?? 0}` : "";
      const abandoned = m.abandoned || m.status === "abandoned";
      const key = !m.resigned ? "page.result.match_won" : !spectator && m.resigned === me ? "page.result.i_resigned" : "page.result.match_resigned";
      children.push(h("h2", { id: "result-title", "data-testid": "match-winner" },
        abandoned ? t("page.result.abandoned") : names.x(key, m.winner, { line, loser: names.whom(m.resigned || (m.winner === 1 ? 2 : 1)) })));
      children.push(h("p", { class: "deal-line" }, t("page.result.deal_line", { n: dealNo, title })));
    } else {
      children.push(h("h2", { id: "result-title" }, title));
      children.push(h("p", { class: "match-line" }, t(m.format === "first_to" ? "page.result.match_line_first_to" : "page.result.match_line", {
        mine: sc[String(me)] ?? 0, theirs: sc[String(opp)] ?? 0, who: names.who(me), opp: oppName,
        tablas: sc.tablas ? t("page.result.tablas_part", { n: sc.tablas }) : "", target: m.target })));
    }
    if (resigned) children.push(h("p", { class: "resigned-line", "data-testid": "resigned" }, names.x("page.result.resigned_deal", Number(resigned))));
    if (m.stakes) children.push(h("p", { class: "stakes-line", "data-testid": "stakes-balance" }, stakesLine(m.stakes, me, oppName).replace(/^./, (c) => c.toUpperCase())));
    if (m.over && Array.isArray(m.results) && m.results.length) {
      children.push(h("ol", { class: "deal-results", "data-testid": "deal-results", "aria-label": t("page.result.every_deal") },
        m.results.map((w, i) => h("li", {},
          h("a", { href: `/replay/${matchId}/${i + 1}`, "data-nav": "" }, t("page.result.deal_n", { n: i + 1 })), ": ",
          w == null ? t("term.tablas") : names.x("page.result.won_short", w)))));
    }
    const revealed = spectator ? v.hands : v.opponent_hand;
    if (!spectator && v.opponent_hand && v.opponent_hand.length) {
      children.push(h("p", { class: "reveal-hand" }, tn("page.result.reveal", v.opponent_hand.length, { who: oppName })));
    } else if (spectator && revealed) {
      children.push(h("p", { class: "reveal-hand" }, t("page.result.reveal_both")));
    }
    const check = h("p", { class: "deck-check small", "data-testid": "deck-check" }, t("page.result.checking"));
    children.push(check);
    const reveal = f.deal && f.deal.reveal;
    if (reveal) {
      children.push(h("details", { class: "deck small" }, h("summary", {}, t("page.result.deck_order")),
        h("p", { class: "mono small" }, reveal.deck), h("p", { class: "mono small" }, t("page.result.salt", { salt: reveal.salt })),
        h("p", { class: "mono small" }, t("page.result.commitment", { commitment: f.deal.commitment }))));
    }
    // Each seat's own pace (issue 10): this seat's screen stays until it moves on; once it
    // has, it waits (by name) for the other.
    const iWait = !spectator && !m.over && waiting.length && !waiting.includes(me);
    if (!m.over && waiting.length) {
      const others = waiting.filter((s) => spectator || s !== me);
      if (others.length) {
        el.waiting.hidden = false;
        el.waiting.dataset.seats = others.join(" ");
        el.waiting.textContent = spectator
          ? t("page.waiting.spectator", { who: others.map((s) => names.who(s)).join(", ") })
          : iWait ? t("page.waiting.for", { who: seatName(m, others[0]) }) : t("page.waiting.other_ready", { who: seatName(m, opp) });
        if (!iWait && !spectator) el.waiting.hidden = true; // the other is ready: said in the button's line below
      }
    }
    const buttons = h("div", { class: "result-buttons" });
    if (spectator) {
      // a spectator never acts
    } else if (!m.over) {
      const ready = iWait;
      buttons.append(h("button", { type: "button", class: "btn primary", "data-testid": "next-deal", disabled: ready, "aria-describedby": ready ? "waiting-line" : null,
        onclick: () => send({ type: "next_deal" }) }, ready ? t("page.result.ready") : t("page.result.next_deal")));
      if (!ready && waiting.length && !waiting.includes(opp)) {
        children.push(h("p", { class: "muted small", "data-testid": "other-ready" }, t("page.waiting.other_ready", { who: oppName })));
      }
    } else {
      buttons.append(h("button", { type: "button", class: "btn primary", "data-testid": "rematch", onclick: (ev) => rematch(ev.currentTarget) }, t("page.result.rematch")));
      buttons.append(h("a", { class: "btn", href: "/", "data-nav": "" }, t("page.back_to_lobby")));
    }
    if (!spectator) buttons.append(h("a", { class: "btn", href: `/replay/${matchId}/${dealNo}`, "data-nav": "", "data-testid": "replay-link" }, t("page.result.replay")));
    children.push(buttons);
    el.result.replaceChildren(...children);

    // this deal dealt from `serve --test-decks`: chosen, not shuffled (a later deal of the
    // match may be shuffled again)
    const test = f.deal && "test" in f.deal ? !!f.deal.test : !!m.test;
    if (!reveal) {
      check.textContent = t("page.result.not_revealed");
      return;
    }
    const ck = `${dealNo}:${f.deal.commitment}`;
    const show = (r) => {
      check.className = `deck-check small ${r.ok ? "ok" : "bad"}`;
      check.dataset.ok = String(r.ok);
      if (test) check.textContent = t("page.result.test_deck");
      else check.textContent = r.ok ? t("page.result.fair") : t("page.result.unfair");
    };
    if (verified[ck]) show(verified[ck]);
    else {
      checkCommitment(reveal.deck, reveal.salt, f.deal.commitment).then((r) => {
        verified[ck] = r;
        if (frame === f) show(r);
      }, () => { check.textContent = t("page.result.cannot_check"); });
    }
  }

  // ------------------------------------------------------------ people (issue 10)
  /** Presence, clocks, spectators, the watch link, resign, quick phrases and the last
   * deal's replay, from match.players / clock / spectators / watch_url / last_deal. */
  function renderPeople(f, names) {
    const m = f.match || {};
    const v = f.view;
    const players = m.players || null;
    const chips = [];
    // presence in a match between people (a bot is always there)
    const people = players && [1, 2].every((s) => (players[String(s)] || {}).kind !== "bot");
    if (people) {
      for (const s of [1, 2]) {
        const p = players[String(s)] || {};
        const online = p.kind === "bot" ? true : !!p.online;
        const notJoined = s !== frame.seat && m.opponent && m.opponent.joined === false;
        const state = p.kind === "bot" ? "bot" : notJoined ? "not_joined" : p.away ? "away" : online ? "online" : "offline";
        const self = !spectator && s === frame.seat;
        chips.push(h("span", { class: `chip presence ${online && !p.away ? "on" : "off"}${self ? " self" : ""}`, "data-testid": `presence-${s}`, "data-online": String(online), "data-away": String(!!p.away), "data-seat": String(s) },
          h("span", { class: "presence-text" }, t(`page.presence.${state}`, { who: names.who(s) }))));
      }
    }
    const clock = m.clock || null;
    clockBase = clock ? { at: performance.now(), ms: clock.deadline_in_ms, seat: clock.to_act, bank: clock.bank || {}, per: clock.per_decision } : null;
    if (clock) {
      for (const s of [1, 2]) {
        chips.push(h("span", { class: "chip clock", "data-testid": `clock-${s}`, "data-seat": String(s), "data-seconds": "" }));
      }
    }
    // the server played for a seat whose clock ran out (say so while that move is the last)
    if (m.timed_out && m.timed_out.version === f.version) {
      chips.push(h("span", { class: "chip timed-out", "data-testid": "timed-out", "data-seat": String(m.timed_out.seat) },
        t("page.clock.timed_out", { who: names.who(m.timed_out.seat) })));
    }
    if (!spectator && m.spectators != null && (people || m.spectators > 0)) {
      chips.push(h("span", { class: "chip spectators", "data-testid": "spectators", "data-count": String(m.spectators) }, tn("page.spectators", m.spectators)));
    }
    el.score.append(...chips);
    tickClocks();
    clearInterval(clockTimer);
    clockTimer = clock ? setInterval(tickClocks, 250) : null;

    // the aside: last deal's replay, the watch link, phrases, resign
    const extra = [];
    if (m.last_deal && v.status === "playing") {
      extra.push(h("p", { class: "small" }, h("a", { href: `/replay/${matchId}/${m.last_deal}`, "data-nav": "", "data-testid": "last-deal-replay" }, t("page.table.last_deal_replay", { n: m.last_deal }))));
    }
    if (!spectator && m.watch_url) {
      const url = new URL(m.watch_url, location.origin).href;
      const input = h("input", { type: "text", readonly: true, value: url, class: "invite-input", "data-testid": "watch-link", "aria-label": t("page.watch.link_label") });
      input.addEventListener("focus", () => input.select());
      extra.push(h("details", { class: "watch small" }, h("summary", {}, t("page.watch.invite")), h("p", { class: "muted small" }, t("page.watch.text")), input));
    }
    if (!spectator && people) {
      const cool = phraseCooling();
      el.phrases.replaceChildren(h("h3", { class: "small" }, t("page.phrases.title")),
        ...phraseKeys().map((k) => h("button", { type: "button", class: "btn small phrase", "data-phrase": k, disabled: cool || replaced,
          onclick: () => sendPhrase(k) }, t(`phrase.${k}`))));
      extra.push(el.phrases);
    }
    if (!spectator && !m.over) {
      extra.push(h("p", {}, h("button", { type: "button", class: "btn small resign", "data-testid": "resign", disabled: replaced,
        onclick: (ev) => confirmResign(ev.currentTarget) }, t("page.resign.button"))));
    }
    if (spectator) extra.push(h("p", { class: "muted small", "data-testid": "spectator-note" }, t("page.watch.note")));
    el.extra.replaceChildren(...extra);
  }

  /** The clocks count down locally from the frame's deadline_in_ms (the server's clock;
   * what is shown is only a display of it). */
  function tickClocks() {
    if (!clockBase) return;
    for (const s of [1, 2]) {
      const c = root.querySelector(`[data-testid=clock-${s}]`);
      if (!c) continue;
      let secs;
      const running = clockBase.seat === s && clockBase.ms != null;
      if (running) secs = Math.max(0, Math.ceil((clockBase.ms - (performance.now() - clockBase.at)) / 1000));
      else secs = clockBase.per;
      const bank = Math.round(clockBase.bank[String(s)] ?? 0);
      // The deadline counts the decision's seconds first, then the bank: show them apart,
      // so "4 s (bank 15 s)" is never read as 19 s when only 4 are left.
      const inBank = running ? Math.min(bank, secs) : bank;
      const decision = running ? secs - inBank : secs;
      c.dataset.seconds = String(secs);
      c.dataset.running = String(running);
      c.classList.toggle("running", running);
      c.classList.toggle("low", running && secs <= 10);
      c.textContent = running && decision === 0
        ? t("page.clock.in_bank", { who: names_(s), s: inBank })
        : t(running ? "page.clock.running" : "page.clock.idle", { who: names_(s), s: decision, bank: inBank });
    }
  }
  const names_ = (s) => {
    const m = (frame && frame.match) || {};
    if (spectator) return seatName(m, s);
    return s === frame.seat ? t("page.you") : seatName(m, s);
  };

  let phraseAt = 0;
  const PHRASE_GAP_MS = 3000;
  const phraseCooling = () => performance.now() - phraseAt < PHRASE_GAP_MS;
  function sendPhrase(k) {
    if (phraseCooling() || replaced || spectator) return;
    if (!sock.send({ type: "phrase", key: k })) {
      toast(t("page.table.not_sent"), "error");
      return;
    }
    phraseAt = performance.now();
    for (const b of el.phrases.querySelectorAll("[data-phrase]")) b.disabled = true;
    setTimeout(() => { if (frame) for (const b of el.phrases.querySelectorAll("[data-phrase]")) b.disabled = replaced; }, PHRASE_GAP_MS);
  }

  /** Ask before resigning: this deal (it counts as lost, R20) or the whole match. */
  function confirmResign(from) {
    closeDanger();
    const v = frame.view;
    const m = frame.match || {};
    const canDeal = v.status === "playing";
    const radio = (scope, label, checked) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "resign-scope", value: scope, checked, "data-testid": `resign-${scope}` }), " ", label);
    const cancel = h("button", { type: "button", class: "btn", "data-testid": "resign-cancel" }, t("page.resign.cancel"));
    const goBtn = h("button", { type: "button", class: "btn danger-go", "data-testid": "resign-confirm" }, t("page.resign.confirm"));
    const dlg = h("dialog", { class: "danger-dialog resign-dialog", "data-testid": "resign-dialog", "aria-labelledby": "resign-title" },
      h("h2", { id: "resign-title" }, t("page.resign.title")),
      canDeal ? radio("deal", t("page.resign.deal", { opp: seatName(m, v.seat === 1 ? 2 : 1) }), true) : "",
      radio("match", t("page.resign.match", { opp: seatName(m, v.seat === 1 ? 2 : 1) }), !canDeal),
      h("div", { class: "result-buttons" }, cancel, goBtn));
    cancel.addEventListener("click", () => closeDanger());
    dlg.addEventListener("cancel", (ev) => { ev.preventDefault(); closeDanger(); });
    goBtn.addEventListener("click", () => {
      const scope = (dlg.querySelector("input[name=resign-scope]:checked") || {}).value || "match";
      closeDanger();
      send({ type: "resign", scope });
    });
    dlg.returnTo = from;
    root.append(dlg);
    dangerDlg = dlg;
    dlg.showModal();
    cancel.focus();
  }

  sock.connect();
  return {
    close() {
      closed = true;
      clearTimeout(pumpTimer);
      clearInterval(clockTimer);
      clearTimeout(saidTimer);
      clearTurn(t("page.title.lobby"));
      closeDanger();
      sock.close();
      banner(null);
    },
  };
}

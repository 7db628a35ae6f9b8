// The table: one seat's live view of a match, drawn from `state` frames (docs/PROTOCOL.md
// §4.3).  Every legal action of the seat is a control carrying its §VII text in
// `data-action`, and what is sent back is the choice's id; nothing the page shows comes
// from anywhere but the seat's view (R21).
//
// This module lays the page out and wires its regions (web/table/): state.js holds the
// frames and the socket; each region draws its part of a frame with its own state:
// score, people (and clock), status, opponent, melds, centre, choices, hand, result, log.

import { seatFor } from "./api.js";
import { errorText, t } from "./i18n.js";
import { nothingHere } from "./notfound.js";
import { banner, h, toast } from "./ui.js";
import { createCentre } from "./table/centre.js";
import { createChoices } from "./table/choices.js";
import { createDialogs } from "./table/dialogs.js";
import { captureFocus, restoreFocus } from "./table/focus.js";
import * as hand from "./table/hand.js";
import { joinAndOpen as joinPage, noSeatPage } from "./table/join.js";
import { createLog } from "./table/log.js";
import { createMelds } from "./table/melds.js";
import * as opponent from "./table/opponent.js";
import { createPeople } from "./table/people.js";
import { createResult } from "./table/result.js";
import { createScore } from "./table/score.js";
import { createEffects, settingsBox } from "./table/effects.js";
import { fitChoices } from "./table/fit.js";
import { frameContext, TableClient } from "./table/state.js";
import * as status from "./table/status.js";
import { createGuide, isTutorialFrame } from "./tutorial.js";

/** /join/{id}/{invite}: take seat 2, then open the table. */
export function joinAndOpen(main, matchId, invite, ctx) {
  return joinPage(main, matchId, invite, ctx, openTable);
}

/** /watch/{id}/{watch_key}: the match as a spectator sees it (public only, R21). */
export function openWatch(main, matchId, watchKey, ctx) {
  return openTable(main, matchId, ctx, { watch: watchKey });
}

/** The page skeleton, built once; each state frame refills its parts.  Returns the root
 * and each region's elements: {score, people, status, opponent, melds, centre, actions,
 * hand, result, log, said}. */
function skeleton(spectator) {
  const score = h("div", { class: "scorebar", "data-testid": "score" });
  const status = h("p", { class: "status", "data-testid": "status", role: "status", "aria-live": "polite" }, t("page.table.connecting"));
  // the clocks beside the status line: the seat to act's decision and its time together
  const clocks = h("div", { class: "clocks", role: "group", "aria-label": t("page.clock.label"), hidden: true });
  const invite = h("div", { class: "panel invite-panel", hidden: true });
  const notice = h("div", { class: "notice", role: "alert", hidden: true, "data-testid": "forced-notice" });
  const result = h("section", { class: "panel result", hidden: true, "aria-labelledby": "result-title" });
  // Between deals: the notice that this seat waits for the other to move on (by name).
  const waiting = h("p", { class: "notice waiting", "data-testid": "waiting-for", role: "status", hidden: true });
  const said = h("div", { class: "said", "data-testid": "phrase-shown", role: "status", "aria-live": "polite", hidden: true });
  // People: the watch link, quick phrases, resign.
  const extra = h("div", { class: "table-extra" });
  const oppName = h("h2", { class: "seat-name" });
  const oppHand = h("div", { class: "opp-hand", "data-testid": "opponent-hand" });
  const oppTable = h("div", { class: "melds" });
  const stock = h("div", { class: "stock", "data-testid": "stock" });
  const live = h("div", { class: "live", "data-testid": "live-card" });
  const dead = h("div", { class: "dead", "data-testid": "dead-cards" });
  const actions = h("div", { class: "actions", role: "group", "aria-label": t("page.table.your_choices"), "data-testid": "actions" });
  const myTable = h("div", { class: "melds" });
  const handEl = h("div", { class: "hand", "data-testid": "hand", role: "group", "aria-label": t("page.table.your_hand") });
  const myName = h("h2", { class: "seat-name" }, t("page.table.your_hand"));
  const log = h("ol", { class: "log-list collapsed", "data-testid": "log" });
  const logToggle = h("button", { type: "button", class: "btn small log-toggle", "aria-expanded": "false", hidden: true });
  const root = h(
    "div", { class: "table-page", "data-testid": "table-page" },
    h("div", { class: "board" },
      score, h("div", { class: "status-row" }, status, clocks), waiting, said, invite, notice, result,
      h("section", { class: "seat opp", "aria-label": spectator ? t("page.table.seat_2") : t("page.table.your_opponent") }, oppName, oppHand, oppTable),
      h("section", { class: "centre", "aria-label": t("page.table.centre") }, stock, live, dead),
      actions,
      h("section", { class: "seat me", "aria-label": spectator ? t("page.table.seat_1") : t("page.you") }, myTable, myName, handEl),
    ),
    h("aside", { class: "panel log", "aria-label": t("page.table.moves") }, h("h2", {}, t("page.table.moves")), log, logToggle,
      extra, spectator ? "" : settingsBox(),
      h("p", { class: "muted small" }, h("a", { href: "/", "data-nav": "" }, t("page.table.lobby_link")))),
  );
  const el = {
    score, said, actions,
    people: { score, clocks, extra, invite },
    status: { status, notice },
    opponent: { oppName, oppHand },
    melds: { oppTable, myTable },
    centre: { stock, live, dead },
    hand: { myName, hand: handEl },
    result: { result, waiting },
    log: { log, logToggle },
  };
  return { el, root };
}

/** What the root says of the frame shown (data-*: tests and styles read these). */
function markRoot(root, { v, me, deal, testDeal, m }, version, spectator) {
  root.dataset.version = String(version);
  root.dataset.seat = String(me);
  root.dataset.status = v.status;
  root.dataset.deal = String(deal || "");
  root.dataset.myTurn = String(!spectator && v.to_act === me);
  root.dataset.spectator = String(spectator);
  root.dataset.rules = v.rules || m.rules || "";
  root.dataset.testDeal = String(testDeal);
}

/** The controls a sent move, or a seat held by another tab, disables. */
const CONTROLS = "[data-action], [data-pick], [data-send], [data-testid=next-deal], [data-testid=rematch], [data-testid=resign], [data-phrase], [data-testid=hint]";

/** /table/{id}: the live table for the seat this browser holds. */
export function openTable(main, matchId, { go }, { watch = null } = {}) {
  const spectator = !!watch;
  const seatInfo = spectator ? { seat: null, token: null } : seatFor(matchId);
  if (!seatInfo) return noSeatPage(main, matchId);
  const baseTitle = spectator ? t("page.title.watch") : t("page.title.table");
  document.title = baseTitle;
  const { el, root } = skeleton(spectator);
  main.replaceChildren(root);

  const disableAll = () => { for (const b of root.querySelectorAll(CONTROLS)) b.disabled = true; };
  const client = new TableClient(matchId, seatInfo, { watch }, { show: (f) => render(f), error, status: onStatus, phrase: (f) => people.said(el.said, f) });
  const dialogs = createDialogs(root, () => client.sending);
  function send(msg) {
    const sent = client.send(msg);
    if (sent === false) toast(t("page.table.not_sent"), "error");
    if (!sent) return;
    dialogs.close();
    disableAll();
  }
  const frame = () => client.frame;
  const env = {
    matchId, seatInfo, token: seatInfo.token, spectator, baseTitle, root, client, dialogs, go, send, frame,
    act: (item) => send({ type: "action", action: item.id }),
    redraw: (opts) => render(client.frame, opts),
  };
  const regions = {
    score: createScore(), people: createPeople(env), melds: createMelds(), centre: createCentre(),
    choices: createChoices(env), result: createResult(env), log: createLog(el.log), effects: createEffects(root),
  };
  const { people, choices } = regions;
  let ctx = null; // the context of the frame shown
  let guide = null; // a guided deal's guide (tutorial.js), made at its first frame

  function render(f, opts = {}) {
    const focus = captureFocus(root);
    if (!client.frame || f.version !== client.frame.version) dialogs.close();
    client.accept(f);
    ctx = { ...env, ...frameContext(f, spectator) };
    markRoot(root, ctx, f.version, spectator);
    regions.score.render(el.score, f, ctx);
    people.render(el.people, f, ctx);
    status.render(el.status, f, ctx);
    opponent.render(el.opponent, f, ctx);
    regions.melds.render(el.melds, f, ctx);
    regions.centre.render(el.centre, f, ctx);
    const plan = choices.render(el.actions, f, ctx);
    hand.render(el.hand, f, ctx, plan);
    regions.result.render(el.result, f, ctx);
    regions.log.render(el.log, f, ctx);
    if (!guide && !spectator && isTutorialFrame(f)) guide = createGuide(env, el.status.status);
    if (guide) guide.render(f);
    regions.effects.render(f, ctx);
    if (client.replaced) showReplaced();
    fitChoices(root); // one screen: the lists of choices leave the hand in view
    const playing = ctx.v.status === "playing";
    restoreFocus(root, focus, { want: opts.focus, myTurn: !spectator && ctx.v.to_act === ctx.me && playing, playing, fallback: el.status.status });
  }

  function error(f) {
    const words = errorText(f);
    const fatal = f.code === "bad_token" || f.code === "unknown_match" || f.code === "bad_watch_key";
    if (fatal && !client.frame) {
      // refused before any table was shown (a wrong watch or seat link): say so once,
      // alone, not under an empty table
      client.close();
      nothingHere(main, words);
      return;
    }
    toast(words, "error");
    if (client.frame) render(client.frame);
    if (fatal) el.status.status.textContent = words;
  }

  /** Another tab or window holds the seat: no control works here, and the status line
   * and the tab's title say so instead of a turn this board no longer follows (it is
   * dimmed, table.css). */
  function showReplaced() {
    disableAll();
    status.replaced(el.status, baseTitle);
  }

  function onStatus(s) {
    if (s === "open") {
      banner(null);
      delete root.dataset.replaced;
    } else if (s === "lost") banner(t("page.table.reconnecting"));
    else if (s === "replaced") {
      // Another tab or window took the seat: this one must not look playable.
      root.dataset.replaced = "true";
      dialogs.close();
      if (client.frame) render(client.frame);  // drawn again as replaced (no "click a card" left)
      else showReplaced();
      banner(t("page.table.replaced"), { label: t("page.table.play_here"), run: () => client.reclaim() });
    }
  }

  root.addEventListener("click", (ev) => {
    if (client.replaced || spectator || !ctx) return;
    choices.click(ev, ctx);
  });

  const refit = () => fitChoices(root);
  window.addEventListener("resize", refit);
  client.connect();
  return {
    close() {
      window.removeEventListener("resize", refit);
      client.close();
      people.close();
      status.close();
      dialogs.close();
      banner(null);
    },
  };
}

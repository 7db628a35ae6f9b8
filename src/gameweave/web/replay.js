// Replay of a finished deal: step through it with both hands visible, and download its
// record.  The steps come from the server (GET /api/matches/{id}/deals/{n}/replay): the
// rules stay in Python; the page only draws the snapshots.

import { analyzeControl } from "./advice.js";
import { api, seatFor } from "./api.js";
import { backEl, cardEl, cardRow, deadGrid, spoken, spokenList } from "./cards.js";
import { t, tn } from "./i18n.js";
import { notice, unlessNoMatch } from "./notfound.js";
import { h } from "./ui.js";
import { logLines, namer, seatName as nameOfSeat } from "./words.js";

/** Autoplay: one step every this many ms. */
const AUTOPLAY_MS = 900;

function seatBlock(snap, s, me, seatName) {
  const seat = snap.seats[String(s)];
  const who = seatName(s);
  const melds = seat.melds.length
    ? h("ol", { class: "meld-list" }, seat.melds.map((m, i) => h("li", { class: "meld", "aria-label": t("page.table.meld_label", { n: i + 1, cards: spokenList(m) }) },
      h("span", { class: "meld-no", "aria-hidden": "true" }, String(i + 1)), cardRow(m, { size: "sm" }))))
    : h("p", { class: "muted empty" }, t("page.replay.no_melds"));
  const melded = seat.melds.reduce((n, m) => n + m.length, 0);
  return h("section", { class: `seat ${s === me ? "me" : "opp"}`, "aria-label": who, "data-testid": `replay-seat-${s}` },
    h("h2", { class: "seat-name" }, who, h("span", { class: "muted small" }, t(snap.to_act === s ? "page.replay.seat_line_to_act" : "page.replay.seat_line", { s, n: seat.hand.length })),
      h("span", { class: "meld-count" }, t("page.table.melded", { n: melded, of: 11 }))),
    h("div", { class: "melds", "data-testid": `table-${s}` }, melds),
    h("div", { class: "hand", "data-testid": `hand-${s}`, "aria-label": seat.hand.length ? t("page.table.hand_label", { who, cards: spokenList(seat.hand) }) : t("page.table.no_cards_label", { who }) },
      seat.hand.map((c) => cardEl(c, { size: "sm" }))));
}

/** Scroll the move list `list` (and only it: the page stays where it is, so a button
 * pressed above the list stays under the finger) until its item `li` is in view. */
function keepInView(list, li) {
  const box = list.getBoundingClientRect();
  const r = li.getBoundingClientRect();
  if (r.top < box.top) list.scrollTop -= box.top - r.top;
  else if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
}

/** The dead cards after the first `k` events of a deal's public history: each `turn`
 * lets the live card die (`died`, R11). */
export function deadAfter(history, k) {
  const out = [];
  for (const ev of history.slice(0, k)) if (ev.died) out.push(ev.died);
  return out;
}

/**
 * Why deal `dealNo` of the match cannot be replayed yet, in words, or null when it can:
 * reads the seat's summary (POST /api/my-matches, always 200).  A deal has ended when a
 * later deal exists, or it is the current one and the status is deal_over / match_over.
 */
async function whyNoReplay(matchId, token, dealNo) {
  const data = await api("POST", "/api/my-matches", { body: { seats: [{ match_id: matchId, token }] } });
  const m = (data.matches || [])[0];
  if (!m) return t("page.replay.no_match");
  if (!Number.isInteger(dealNo) || dealNo < 1 || dealNo > m.deal_number) {
    return t("page.replay.no_deal", { n: dealNo, at: m.deal_number });
  }
  // a finished deal's replay stays reachable while the seats move on at their own pace
  const over = m.status === "deal_over" || m.status === "match_over" || m.status === "abandoned" || (m.last_deal && dealNo <= m.last_deal);
  if (dealNo === m.deal_number && !over) {
    return t("page.replay.still_played", { n: dealNo });
  }
  return null;
}

/** The centre of snapshot `snap`: the stock, the centre card and the `dead` cards. */
function centreBlock(snap, dead, me, seatName) {
  const by = snap.live_from ? (snap.live_from === me ? t("page.replay.let_go_by_me") : t("page.replay.let_go_by", { who: seatName(snap.live_from) })) : t("page.replay.just_turned");
  return h("section", { class: "centre", "aria-label": t("page.table.centre") },
    h("div", { class: "stock", "data-testid": "stock" }, snap.stock > 0 ? backEl("md", t("page.table.stock_label", { n: snap.stock })) : h("span", { class: "card empty md" }),
      h("span", { class: "caption" }, h("strong", {}, String(snap.stock)), " ", t("page.table.in_stock"))),
    h("div", { class: "live", "data-testid": "live-card" },
      snap.live ? cardEl(snap.live, { size: "lg", label: t("page.replay.centre_card", { card: spoken(snap.live) }) }) : h("span", { class: "card empty lg", role: "img", "aria-label": t("page.table.no_live") }),
      h("span", { class: "caption" }, snap.live ? by : t("page.table.no_live_caption"))),
    h("div", { class: "dead", "data-testid": "dead-cards", "data-count": String(dead.length) },
      h("span", { class: "caption dead-title" }, h("strong", {}, String(dead.length)), " ", tn("page.table.dead", dead.length)), deadGrid(dead)));
}

/** Each step's words: the log lines the step adds to the replay `d`'s history (a force
 * adds two); the last step also tells how the deal ended (eleven, tablas or a resign), as
 * the table's list does. */
function stepWords(d, names) {
  const out = [];
  let before = 0;
  const res = d.result || {};
  for (let k = 1; k <= d.history.length; k++) {
    const last = k === d.history.length;
    const end = last ? { status: res.status, winner: res.winner } : {};
    const all = logLines({ rearranging: d.rearranging, history: d.history.slice(0, k), ...end }, names,
      { resigned: last ? res.resigned || null : null });
    out.push(all.slice(before).map((l) => l.text));
    before = all.length;
  }
  return out;
}

/** The address of the deal's record as a file to download (record, salt, commitment). */
function downloadHref(d) {
  const download = { record: d.record, salt: d.salt, commitment: d.commitment, result: d.result };
  const blob = new Blob([JSON.stringify(download, null, 2) + "\n"], { type: "application/json" });
  return URL.createObjectURL(blob);
}

/** Links to every deal of the match so far, this one (`dealNo`) marked. */
function dealLinks(matchId, dealNo, deals) {
  return h("nav", { class: "deal-links", "aria-label": t("page.replay.deals_label"), "data-testid": "replay-deals" },
    t("page.replay.deals"), " ", ...Array.from({ length: deals }, (_, i) => i + 1).map((n) => (n === dealNo
      ? h("strong", { "aria-current": "page" }, String(n))
      : h("a", { href: `/replay/${matchId}/${n}`, "data-nav": "" }, String(n)))));
}

/** The replay page: its title, the deal links, the `controls`, the step's words, the
 * download and back links and the `analysis` (its control and graph); the board; the
 * move list (every step, always; the current one marked). */
function replayLayout({ matchId, dealNo, oppName, deals, href, controls, stepText, moves, board, analysis, visitor = null }) {
  return h("div", { class: "table-page replay" },
    h("div", { class: "board-wrap" },
      h("section", { class: "panel" },
        h("h1", {}, visitor ? t("page.replay.title_visitor", { n: dealNo, who: visitor, opp: oppName }) : t("page.replay.title", { n: dealNo, opp: oppName })),
        dealLinks(matchId, dealNo, deals),
        controls,
        stepText,
        h("p", { class: "muted small" }, t("page.replay.keys")),
        h("p", {},
          h("a", { class: "btn", href, download: `gameweave-${matchId}-deal-${dealNo}.json`, "data-testid": "download-record" }, t("page.replay.download")), " ",
          visitor ? h("a", { class: "btn", href: `/player/${encodeURIComponent(visitor)}`, "data-nav": "" }, t("page.replay.back_profile"))
            : h("a", { class: "btn", href: `/table/${matchId}`, "data-nav": "" }, t("page.replay.back"))),
        analysis),
      board),
    h("aside", { class: "panel log" }, h("h2", {}, t("page.table.moves")), moves));
}

/** Names for a visitor's replay from a profile (issue 20): no seat is "you"; each seat
 * is called by its name (`nameOf(seat)`), in the third person. */
function visitorNamer(me, nameOf) {
  return { me, oppName: nameOf(me === 1 ? 2 : 1), who: nameOf, whom: nameOf, mine: () => false,
    x: (key, s, params = {}) => t(`${key}.opp`, { who: nameOf(s), ...params }) };
}

/** /replay/{id}/{n}: step through finished deal n of a match this browser holds a seat in,
 * or (`?player=NAME&seat=S`, from a profile, issue 20) of one of that player's matches:
 * anyone may watch a finished deal (GET /api/players/{name}/matches/{id}/deals/{n}/replay). */
export function openReplay(main, matchId, dealNo) {
  document.title = t("page.title.replay", { n: dealNo });
  const query = new URLSearchParams(location.search);
  const visitor = query.get("player") && ["1", "2"].includes(query.get("seat"))
    ? { seat: Number(query.get("seat")), token: null, player: query.get("player") } : null;
  const mine = seatFor(matchId) || visitor;
  if (!mine) {  // no seat here: say so, or that there is no such match
    return unlessNoMatch(main, matchId, () => notice(main, "no-seat", t("page.replay.no_seat"), t("page.replay.no_seat_text")));
  }
  const me = mine.seat;
  let names = namer(me, t("page.player_n", { n: me === 1 ? 2 : 1 }));
  // "You" and "Greedy bot" (or the player's name), from the replay's `seats` (who plays each seat)
  let seatName = (s) => (s === me ? t("page.you") : t("page.player_n", { n: s }));
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("page.replay.loading"))));
  let step = 0;
  let data = null;
  let closed = false;
  let timer = null;
  let stepLines = []; // the log line(s) of each step, from the structured history
  let analysis = null; // the Analyse control and its graph, once the replay is drawn
  const asked = new URLSearchParams(location.search); // ?analyse=1&step=K (the match end's graphs)

  const onKey = (ev) => {
    if (!data || ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") show(step + 1);
    else if (ev.key === "ArrowLeft") show(step - 1);
    else if (ev.key === "Home") show(0);
    else if (ev.key === "End") show(data.snapshots.length - 1);
    else return;
    ev.preventDefault();
  };

  const board = h("div", { class: "board", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, value: 0, "aria-label": t("page.replay.step_label"), "data-testid": "replay-slider" });
  const stepText = h("p", { class: "replay-step", "data-testid": "replay-step" });
  const moves = h("ol", { class: "replay-moves", "data-testid": "replay-moves", "aria-label": t("page.replay.moves_label") });
  const btn = (label, aria, fn, testid) => h("button", { type: "button", class: "btn", "aria-label": aria, onclick: fn, "data-testid": testid }, label);
  const play = h("button", { type: "button", class: "btn", "data-testid": "replay-play", "aria-pressed": "false", onclick: () => toggleAutoplay() }, t("page.replay.autoplay"));
  slider.addEventListener("input", () => { stopAutoplay(); show(Number(slider.value)); });

  function stopAutoplay() {
    clearInterval(timer);
    timer = null;
    play.textContent = t("page.replay.autoplay");
    play.setAttribute("aria-pressed", "false");
  }
  function toggleAutoplay() {
    if (timer) return stopAutoplay();
    if (step >= data.snapshots.length - 1) show(0);
    play.textContent = t("page.replay.pause");
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (closed || step >= data.snapshots.length - 1) return stopAutoplay();
      show(step + 1);
    }, AUTOPLAY_MS);
  }

  function show(k) {
    if (!data) return;
    step = Math.max(0, Math.min(data.snapshots.length - 1, k));
    slider.value = String(step);
    const snap = data.snapshots[step];
    const lines = step ? stepLines[step - 1] : [];
    stepText.textContent = step
      ? t("page.replay.step", { n: step, of: data.snapshots.length - 1, text: lines.join(" ") })
      : names.x("page.replay.start", data.record.opener, { n: dealNo });
    if (step === data.snapshots.length - 1) {
      const r = data.result || {};
      stepText.textContent += ` ${r.status === "tablas" ? t("page.replay.ends_tablas") : names.x("page.replay.wins", r.winner)}`;
    }
    for (const li of moves.children) {
      const on = Number(li.dataset.step) === step;
      li.classList.toggle("current", on);
      li.firstChild.setAttribute("aria-current", on ? "step" : "false");
      if (on) keepInView(moves, li);
    }
    if (analysis) analysis.setStep(step);
    const opp = me === 1 ? 2 : 1;
    board.replaceChildren(
      seatBlock(snap, opp, me, seatName),
      centreBlock(snap, deadAfter(data.history, step), me, seatName),
      seatBlock(snap, me, me, seatName),
    );
  }

  // Ask first with a request that answers 200 whatever the match's state (the seat's
  // summary), so that an unfinished or unknown deal is explained without a refused
  // request (which the browser would log as an error in its console).
  (mine.token ? whyNoReplay(matchId, mine.token, dealNo) : Promise.resolve(null))
    .then((why) => {
      if (why) throw new Error(why);
      if (!mine.token) {
        return api("GET", `/api/players/${encodeURIComponent(mine.player)}/matches/${encodeURIComponent(matchId)}/deals/${dealNo}/replay`);
      }
      return api("GET", `/api/matches/${encodeURIComponent(matchId)}/deals/${dealNo}/replay`, { token: mine.token });
    })
    .then((d) => {
      if (closed) return;
      data = d;
      const seats = d.seats || {};
      const oppSeat = me === 1 ? 2 : 1;
      const oppName = nameOfSeat({ players: seats }, oppSeat);
      names = namer(me, oppName);
      seatName = (s) => (s === me ? t("page.you") : oppName);
      if (!mine.token) {
        seatName = (s) => (s === me ? mine.player : oppName);
        names = visitorNamer(me, seatName);
      }
      stepLines = stepWords(d, names);
      moves.replaceChildren(
        h("li", { "data-step": "0" }, h("button", { type: "button", class: "move", onclick: () => { stopAutoplay(); show(0); } }, t("page.replay.deal"))),
        ...stepLines.map((ls, i) => h("li", { "data-step": String(i + 1), value: i + 1 },
          h("button", { type: "button", class: "move", onclick: () => { stopAutoplay(); show(i + 1); } }, ls.join(" ")))),
      );
      slider.max = String(d.snapshots.length - 1);
      const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("page.replay.controls") },
        btn("◀◀", t("page.replay.first"), () => { stopAutoplay(); show(0); }, "replay-first"),
        btn("◀", t("page.replay.prev"), () => { stopAutoplay(); show(step - 1); }, "replay-prev"),
        slider,
        btn("▶", t("page.replay.next"), () => { stopAutoplay(); show(step + 1); }, "replay-next"),
        btn("▶▶", t("page.replay.last"), () => { stopAutoplay(); show(data.snapshots.length - 1); }, "replay-last"),
        play);
      analysis = !mine.token ? { el: "", setStep() {}, run() {} } : analyzeControl({ matchId, token: mine.token, dealNo, moves, names: (s) => seatName(s),
        go: (k) => { stopAutoplay(); show(k); } });
      main.replaceChildren(replayLayout({ matchId, dealNo, oppName, deals: Number(d.deals) || dealNo,
        href: downloadHref(d), controls, stepText, moves, board, analysis: analysis.el, visitor: mine.token ? null : mine.player }));
      document.addEventListener("keydown", onKey);
      show(/^[0-9]{1,4}$/.test(asked.get("step") || "") ? Number(asked.get("step")) : 0);
      if (asked.get("analyse") === "1") analysis.run();
    })
    .catch((err) => {
      if (closed) return;
      main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, t("page.replay.none")), h("p", { class: "error" }, err.message),
        h("p", {}, h("a", { href: `/table/${matchId}`, "data-nav": "", class: "btn" }, t("page.replay.back")))));
    });
  return {
    close() {
      closed = true;
      clearInterval(timer);
      document.removeEventListener("keydown", onKey);
    },
  };
}

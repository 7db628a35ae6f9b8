// The result region, at the end of a deal: who won (or tablas), the match's score or its
// end, stakes, every deal's result, the check of the dealt deck against the commitment
// made before the deal, and the buttons: next deal (each seat at its own pace, naming the
// seat waited for), rematch, the replay.

import { api, saveSeat } from "../api.js";
import { t, tn } from "../i18n.js";
import { h, toast } from "../ui.js";
import { checkCommitment } from "../verify.js";
import { seatName, stakesLine } from "../words.js";
import { createDealCharts } from "./charts.js";

/** The result's heading and the lines under it: [elements]; `chart(n)` is the place of
 * deal n's small graph at the match end (or null). */
function summary(f, { v, m, me, opp, oppName, names, deal, spectator }, matchId, chart) {
  const title = v.status === "tablas" ? t("page.result.tablas") : names.x("page.result.deal_won", v.winner);
  const sc = m.score || {};
  const out = [];
  if (m.over) {
    const line = m.format === "first_to" ? ` ${sc[String(m.winner)] ?? 0}–${sc[String(m.winner === 1 ? 2 : 1)] ?? 0}` : "";
    const abandoned = m.abandoned || m.status === "abandoned";
    const key = !m.resigned ? "page.result.match_won" : !spectator && m.resigned === me ? "page.result.i_resigned" : "page.result.match_resigned";
    out.push(h("h2", { id: "result-title", "data-testid": "match-winner" },
      abandoned ? t("page.result.abandoned") : names.x(key, m.winner, { line, loser: names.whom(m.resigned || (m.winner === 1 ? 2 : 1)) })));
    out.push(h("p", { class: "deal-line" }, t("page.result.deal_line", { n: deal, title })));
  } else {
    out.push(h("h2", { id: "result-title" }, title));
    // a match for stakes is scored by its stakes (the stakes line below): said once
    if (!m.stakes) out.push(h("p", { class: "match-line" }, t(m.format === "first_to" ? "page.result.match_line_first_to" : "page.result.match_line", {
      mine: sc[String(me)] ?? 0, theirs: sc[String(opp)] ?? 0, who: names.who(me), opp: oppName,
      tablas: sc.tablas ? t("page.result.tablas_part", { n: sc.tablas }) : "", target: m.target })));
  }
  const resigned = (f.deal && f.deal.resigned) || null; // the seat that resigned this deal
  if (resigned) out.push(h("p", { class: "resigned-line", "data-testid": "resigned" }, names.x("page.result.resigned_deal", Number(resigned))));
  if (m.stakes) out.push(h("p", { class: "stakes-line", "data-testid": "stakes-balance" }, stakesLine(m.stakes, me, oppName).replace(/^./, (c) => c.toUpperCase())));
  if (m.over && Array.isArray(m.results) && m.results.length) {
    out.push(h("ol", { class: "deal-results", "data-testid": "deal-results", "aria-label": t("page.result.every_deal") },
      m.results.map((w, i) => h("li", {},
        h("a", { href: `/replay/${matchId}/${i + 1}`, "data-nav": "" }, t("page.result.deal_n", { n: i + 1 })), ": ",
        w == null ? t("term.tablas") : names.x("page.result.won_short", w), chart ? chart(i + 1) : null))));
  }
  if (!spectator && v.opponent_hand && v.opponent_hand.length) {
    out.push(h("p", { class: "reveal-hand" }, tn("page.result.reveal", v.opponent_hand.length, { who: oppName })));
  } else if (spectator && v.hands) {
    out.push(h("p", { class: "reveal-hand" }, t("page.result.reveal_both")));
  }
  return out;
}

/** The deck order, salt and commitment revealed at the end of the deal, or "". */
function deckDetails(f) {
  const reveal = f.deal && f.deal.reveal;
  if (!reveal) return "";
  return h("details", { class: "deck small" }, h("summary", {}, t("page.result.deck_order")),
    h("p", { class: "mono small" }, reveal.deck), h("p", { class: "mono small" }, t("page.result.salt", { salt: reveal.salt })),
    h("p", { class: "mono small" }, t("page.result.commitment", { commitment: f.deal.commitment })));
}

/** Each seat's own pace (issue 10): this seat's screen stays until it moves on; once it
 * has, the waiting line names the seat it waits for.  Returns whether this seat waits. */
function waitingLine(el, { m, me, opp, names, spectator }) {
  const waiting = (m.waiting_for || []).map(Number);
  const iWait = !spectator && !m.over && waiting.length && !waiting.includes(me);
  if (m.over || !waiting.length) return iWait;
  const others = waiting.filter((s) => spectator || s !== me);
  if (others.length) {
    el.hidden = false;
    el.dataset.seats = others.join(" ");
    const who = others.map((s) => names.who(s));
    el.textContent = spectator
      ? (who.length > 1 ? t("page.waiting.spectator_both", { a: who[0], b: who[1] }) : t("page.waiting.spectator", { who: who[0] }))
      : iWait ? t("page.waiting.for", { who: seatName(m, others[0]) }) : t("page.waiting.other_ready", { who: seatName(m, opp) });
    if (!iWait && !spectator) el.hidden = true; // the other is ready: said in the button's line below
  }
  return iWait;
}

/**
 * The result region.  `env`: {matchId, seatInfo, spectator, send(msg), frame(), go(path)}.
 * It remembers the deck checks already made (deal number and commitment -> result).
 */
export function createResult(env) {
  const verified = {};
  const charts = createDealCharts(env);

  async function rematch(btn) {
    btn.disabled = true;
    try {
      const res = await api("POST", `/api/matches/${encodeURIComponent(env.matchId)}/rematch`, { token: env.seatInfo.token });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: env.seatInfo.opponent || ((env.frame().match || {}).opponent || {}).kind });
      env.go(res.table_url || `/table/${res.match_id}`);
    } catch (err) {
      btn.disabled = false;
      toast(t("page.table.rematch_failed", { why: err.message }), "error");
    }
  }

  /** The buttons under the result, and the line that the other seat is ready (or ""). */
  function buttons(ctx, iWait) {
    const { m, opp, oppName, deal } = ctx;
    const waiting = (m.waiting_for || []).map(Number);
    const row = h("div", { class: "result-buttons" });
    let ready = "";
    if (env.spectator) return { row, ready }; // a spectator never acts
    if (!m.over) {
      row.append(h("button", { type: "button", class: "btn primary", "data-testid": "next-deal", disabled: iWait, "aria-describedby": iWait ? "waiting-line" : null,
        onclick: () => env.send({ type: "next_deal" }) }, iWait ? t("page.result.ready") : t("page.result.next_deal")));
      if (!iWait && waiting.length && !waiting.includes(opp)) {
        ready = h("p", { class: "muted small", "data-testid": "other-ready" }, t("page.waiting.other_ready", { who: oppName }));
      }
    } else {
      row.append(h("button", { type: "button", class: "btn primary", "data-testid": "rematch", onclick: (ev) => rematch(ev.currentTarget) }, t("page.result.rematch")));
      row.append(h("a", { class: "btn", href: "/", "data-nav": "" }, t("page.back_to_lobby")));
    }
    row.append(h("a", { class: "btn", href: `/replay/${env.matchId}/${deal}`, "data-nav": "", "data-testid": "replay-link" }, t("page.result.replay")));
    return { row, ready };
  }

  /** Check the revealed deck against the commitment (once per deal), into `check`. */
  function checkDeck(check, f, { deal, testDeal }) {
    const reveal = f.deal && f.deal.reveal;
    if (!reveal) {
      check.textContent = t("page.result.not_revealed");
      return;
    }
    const ck = `${deal}:${f.deal.commitment}`;
    const show = (r) => {
      check.className = `deck-check small ${r.ok ? "ok" : "bad"}`;
      check.dataset.ok = String(r.ok);
      // a deal dealt from `serve --test-decks` is chosen, not shuffled (a later deal of
      // the match may be shuffled again)
      if (testDeal) check.textContent = t("page.result.test_deck");
      else check.textContent = r.ok ? t("page.result.fair") : t("page.result.unfair");
    };
    if (verified[ck]) show(verified[ck]);
    else {
      checkCommitment(reveal.deck, reveal.salt, f.deal.commitment).then((r) => {
        verified[ck] = r;
        if (env.frame() === f) show(r);
      }, () => { check.textContent = t("page.result.cannot_check"); });
    }
  }

  /** el: {result, waiting}. */
  function render(el, f, ctx) {
    el.waiting.hidden = true;
    el.waiting.replaceChildren();
    if (ctx.v.status === "playing") {
      el.result.hidden = true;
      el.result.removeAttribute("data-testid");
      el.result.classList.remove("match-end");
      el.result.replaceChildren();
      return;
    }
    el.result.hidden = false;
    el.result.setAttribute("data-testid", "result");
    el.result.classList.toggle("match-end", !!ctx.m.over);
    const check = h("p", { class: "deck-check small", "data-testid": "deck-check" }, t("page.result.checking"));
    const graphs = !!ctx.m.over && !env.spectator && Array.isArray(ctx.m.results) && ctx.m.results.length > 0;
    const children = [...summary(f, ctx, env.matchId, graphs ? charts.holder : null), check, deckDetails(f)];
    const { row, ready } = buttons(ctx, waitingLine(el.waiting, ctx));
    children.push(ready, row);
    el.result.replaceChildren(...children.filter(Boolean));
    checkDeck(check, f, ctx);
    if (graphs) charts.load(el.result, ctx.m.results.length, ctx.names);
  }

  return { render };
}

// The match end's small win-chance graphs (issue 19): one per deal, under the deal's line
// in the result's list.  Each is the deal's analysis (GET /api/matches/{id}/deals/{n}/
// analysis, the same figures as the replay's and `gameweave analyze`'s) drawn small by
// web/chart.js; the analyses are asked for one after another (each takes the server a
// few seconds) and kept, so a redrawn result panel draws them again at once.  A dot opens
// the deal's replay, analysed, at that step; the graph's link (or the graph) at its start.

import { api } from "../api.js";
import { drawChart, pct } from "../chart.js";
import { errorText, t } from "../i18n.js";
import { h } from "../ui.js";

/** `env`: {matchId, seatInfo, go(path)}.  Returns {holder(n), load(root, deals, names)}. */
export function createDealCharts(env) {
  const got = {}; // deal -> {res} | {error}
  let loading = false;

  const replayUrl = (n, step = null) => `/replay/${env.matchId}/${n}?analyse=1${step == null ? "" : `&step=${step}`}`;

  /** The place of deal `n`'s graph (filled by `load`). */
  function holder(n) {
    return h("span", { class: "deal-chart", "data-deal-chart": String(n) });
  }

  function fill(slot, n, names) {
    const r = got[n];
    if (!r) {
      slot.replaceChildren(h("span", { class: "muted small" }, t("page.result.chart_loading", { n })));
    } else if (r.error) {
      slot.replaceChildren(h("span", { class: "muted small" }, t("page.result.chart_failed", { n, why: r.error })));
    } else if (!slot.querySelector("svg")) {
      const title = t("page.analysis.chart_title", { n, one: names.who(1), two: names.who(2) });
      const chart = drawChart(r.res.chart, { title, names: names.who, small: true, onPick: (k) => env.go(replayUrl(n, k)),
        pointTitle: (p) => t(p.mistake ? "page.analysis.point_mistake" : "page.analysis.point",
          { step: p.step, who: names.who(p.seat), pct: pct(p.chance), drop: pct((r.res.decisions.find((d) => d.step === p.step) || {}).drop) }) });
      chart.el.dataset.deal = String(n);
      chart.el.classList.add("clickable");
      chart.setStep(-1);
      // a dot opens its step; anywhere else in the graph opens the analysed replay
      chart.el.addEventListener("click", (ev) => { if (!ev.target.closest("circle[data-step]")) env.go(replayUrl(n)); });
      slot.replaceChildren(chart.el, h("a", { href: replayUrl(n), "data-nav": "", class: "small chart-link" }, t("page.result.chart_link", { n })));
    }
  }

  /** Fill every graph place under `root` for deals 1..`deals`, asking for the analyses
   * not yet had, one at a time, while the places are on the page. */
  async function load(root, deals, names) {
    const slots = () => [...root.querySelectorAll("[data-deal-chart]")];
    for (const slot of slots()) fill(slot, Number(slot.dataset.dealChart), names);
    if (loading || !env.seatInfo || !env.seatInfo.token) return;
    loading = true;
    try {
      for (let n = 1; n <= deals; n++) {
        if (got[n]) continue;
        if (!root.isConnected) return;
        try {
          got[n] = { res: await api("GET", `/api/matches/${encodeURIComponent(env.matchId)}/deals/${n}/analysis`, { token: env.seatInfo.token }) };
        } catch (err) {
          got[n] = { error: errorText(err) };
        }
        for (const slot of root.querySelectorAll(`[data-deal-chart="${n}"]`)) fill(slot, n, names);
      }
    } finally {
      loading = false;
    }
  }

  return { holder, load };
}

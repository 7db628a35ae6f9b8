// Advice for a seat (issue 11): the hint control at the table and the analysis of a
// finished deal in its replay.  The numbers come from the server (GET
// /api/matches/{id}/hint and /deals/{n}/analysis), computed from the seat's own view
// only (R21); the page only shows them.

import { api } from "./api.js";
import { short, shortList, shortTable } from "./cards.js";
import { drawChart, pct } from "./chart.js";
import { errorText, t, tn } from "./i18n.js";
import { h } from "./ui.js";

/** The game's words for a choice given as data (the state frame's `choices` shape):
 * its verb from the catalog's terms, its card and the melds it makes as "Q♦" (the
 * replay has no choice labels; nothing here reads action text). */
const VERBS = { meld: "term.meld_verb", table: "term.meld_verb", throw: "term.throw", refuse: "term.refuse", turn: "term.turn", force: "term.force" };
export function choiceWords(choice) {
  if (!choice) return "";
  const parts = [t(VERBS[choice.kind] || "term.turn")];
  if (choice.card) parts.push(short(choice.card));
  if (choice.melds && choice.melds.length) parts.push("→ " + shortTable(choice.melds));
  else if (choice.force) parts.push("→ " + shortList(choice.force));
  return parts.join(" ");
}

/** A chance 0..1 as a whole percentage, rounded as `gameweave analyze` rounds it. */
export { pct };

/** The lobby's "allow hints" box for a friend match (data-testid="hints-check"): POST
 * /api/matches `hints`; the friend agrees by joining (the invite page says so). */
export function hintsAgreement() {
  const box = h("input", { type: "checkbox", id: "hints-check", "data-testid": "hints-check" });
  const el = h("p", { class: "hints-row small" }, box, " ", h("label", { for: "hints-check" }, t("page.create.hints")));
  return { el, checked: () => box.checked };
}

/** Hint entries listed below the control at most (the choices with no button of their own,
 * best first). */
const HINT_LIST_MAX = 4;

/** The hint control of the table (data-testid="hint"), or null when no hint may be asked
 * now: not the seat's turn, a spectator, or a friend match made without hints.
 * `frame()` is the state frame now; the values are put next to each choice of `root`
 * (the buttons with `data-action`), or, where a choice has no button (e.g. a table the
 * chooser does not show), in a list below the control whose entries are buttons that
 * play it (`data-action`).  `names(action)` labels an action; `alias(action)` is the
 * action whose button stands for it (equivalent tables are one button); `known`, the
 * answer already fetched for this version (shown at once); `remember(res)` keeps a new one.
 */
export function hintControl({ matchId, token, frame, root, names, alias = (a) => a, known = null, remember = null }) {
  const f = frame();
  const v = (f && f.view) || {};
  if (!token || !f || !(f.match || {}).hints || v.status !== "playing" || v.to_act !== f.seat || !(v.legal || []).length) return null;
  const out = h("div", { class: "hint-out", "data-testid": "hint-out", role: "status", "aria-live": "polite" });
  const btn = h("button", { type: "button", class: "btn small hint-btn", "data-testid": "hint" }, t("page.hint.button"));
  const box = h("div", { class: "hint-box", "data-testid": "hint-box" }, btn, out);
  if (known && known.version === f.version) {
    btn.disabled = true;
    // drawn once the region is in the page (the values go onto its buttons)
    queueMicrotask(() => { if (root.contains(box)) showHint(known, root, out, names, alias); });
    return box;
  }
  btn.addEventListener("click", async () => {
    const version = f.version;
    btn.disabled = true;
    out.textContent = t("page.hint.loading");
    try {
      const res = await api("GET", `/api/matches/${encodeURIComponent(matchId)}/hint`, { token });
      const now = frame();
      if (!now || now.version !== version || res.version !== version || !root.contains(btn)) return;
      showHint(res, root, out, names, alias);
      if (remember) remember(res);
    } catch (err) {
      out.textContent = t("page.hint.failed", { why: errorText(err) });
      btn.disabled = false;
    }
  });
  return box;
}

function showHint(res, root, out, names, alias) {
  for (const old of root.querySelectorAll("[data-testid=hint-value]")) old.remove();
  // one value per button: equivalent actions count as the one shown for them (their best)
  const byShown = new Map();
  for (const e of res.estimates) {
    const a = alias(e.action);
    const was = byShown.get(a);
    const best = e.action === res.best || (was && was.best);
    if (!was || e.score > was.score) byShown.set(a, { action: a, score: e.score, best });
    else if (best) was.best = true;
  }
  const left = [];
  for (const e of byShown.values()) {
    const value = h("span", { class: `hint-value${e.best ? " best" : ""}`, "data-testid": "hint-value", "data-action": e.action,
      "data-win": String(e.score), "data-best": String(e.best) },
    t("page.hint.win", { pct: pct(e.score) }), e.best ? ` · ${t("page.hint.best")}` : "");
    const target = [...root.querySelectorAll("button[data-action]")].find((b) => b.dataset.action === e.action && !b.closest(".hint-list"));
    if (target) {
      target.classList.toggle("hint-best", e.best);
      target.append(value);
    } else {
      left.push({ e, value });
    }
  }
  left.sort((x, y) => Number(y.e.best) - Number(x.e.best) || y.e.score - x.e.score);
  // the entries play their move when clicked (the table's click handler sends data-action)
  const entries = left.slice(0, HINT_LIST_MAX).map(({ e, value }) => h("li", {},
    h("button", { type: "button", class: "btn small hint-play", "data-action": e.action },
      h("span", { class: "hint-action" }, names ? names(e.action) : e.action), value)));
  out.replaceChildren(entries.length ? h("ul", { class: "hint-list" }, entries) : "");
}

/** The replay's "Analyse" control (data-testid="analyze") and the analysis it shows:
 * fetches the analysis of finished deal `dealNo`; writes, in each move of `moves`
 * (li[data-step]) that was a decision, the win chance of what was played and of the best
 * alternative, mistakes (a drop of 10 points or more) marked (data-testid="mistake");
 * draws the deal's win-chance graph (web/chart.js, data-testid="win-chart"), whose dots
 * and the previous/next mistake buttons (prev-mistake, next-mistake) call `go(step)`.
 * `names(seat)`: "You" or the seat's name.  Returns `{el, setStep(k), run()}`: setStep
 * marks the replay's current step in the graph; run() starts the analysis (the button). */
export function analyzeControl({ matchId, token, dealNo, moves, names, go }) {
  const out = h("p", { class: "analysis-out small", "data-testid": "analysis-out", role: "status", "aria-live": "polite" });
  const btn = h("button", { type: "button", class: "btn", "data-testid": "analyze" }, t("page.analysis.button"));
  const box = h("div", { class: "analysis-chart", "data-testid": "analysis-chart", hidden: true });
  let view = null; // {setStep} once drawn
  let step = 0;
  const run = async () => {
    if (btn.disabled) return;
    btn.disabled = true;
    out.textContent = t("page.analysis.loading");
    try {
      const res = await api("GET", `/api/matches/${encodeURIComponent(matchId)}/deals/${dealNo}/analysis`, { token });
      showAnalysis(res, moves);
      const counts = [1, 2].map((s) => t("page.analysis.mistakes_of", { who: names(s), n: (res.mistakes || {})[String(s)] || 0 })).join(", ");
      out.textContent = tn("page.analysis.done", res.decisions.length, { seconds: res.seconds, counts });
      view = chartBlock(box, res, { dealNo, names, go });
      view.setStep(step);
    } catch (err) {
      out.textContent = t("page.analysis.failed", { why: errorText(err) });
      btn.disabled = false;
    }
  };
  btn.addEventListener("click", run);
  const el = h("div", { class: "analysis-box" }, h("p", {}, btn, out), box);
  return { el, run, setStep: (k) => { step = k; if (view) view.setStep(k); } };
}

/** A point's words: its step, who decided, the chance, and for a mistake the drop. */
function pointWords(p, names, drops) {
  const args = { step: p.step, who: names(p.seat), pct: pct(p.chance), drop: drops[p.step] || 0 };
  return t(p.mistake ? "page.analysis.point_mistake" : "page.analysis.point", args);
}

/** The graph and the mistake buttons of analysis `res`, drawn into `box`; `{setStep}`. */
function chartBlock(box, res, { dealNo, names, go }) {
  const drops = Object.fromEntries(res.decisions.map((d) => [d.step, pct(d.drop)]));
  const mistakes = res.decisions.filter((d) => d.mistake).map((d) => d.step);
  const chart = drawChart(res.chart, { title: t("page.analysis.chart_title", { n: dealNo, one: names(1), two: names(2) }),
    names, stepWord: t("page.analysis.chart_step"), tick: (n) => t("page.analysis.tick", { pct: n }), pointTitle: (p) => pointWords(p, names, drops), onPick: go });
  const prev = h("button", { type: "button", class: "btn small", "data-testid": "prev-mistake" }, t("page.analysis.prev_mistake"));
  const next = h("button", { type: "button", class: "btn small", "data-testid": "next-mistake" }, t("page.analysis.next_mistake"));
  const where = h("span", { class: "muted small", "data-testid": "mistake-at" });
  let step = 0;
  prev.addEventListener("click", () => { const k = [...mistakes].reverse().find((m) => m < step); if (k !== undefined) go(k); });
  next.addEventListener("click", () => { const k = mistakes.find((m) => m > step); if (k !== undefined) go(k); });
  const nav = h("div", { class: "mistake-nav", role: "group", "aria-label": t("page.analysis.mistakes_label") }, prev, next, where);
  box.replaceChildren(h("div", { class: "chart-wrap" }, chart.el), h("p", { class: "muted small chart-help" }, t("page.analysis.chart_help")),
    mistakes.length ? nav : h("p", { class: "small", "data-testid": "no-mistakes" }, t("page.analysis.no_mistakes")));
  box.hidden = false;
  return {
    setStep(k) {
      step = k;
      chart.setStep(k);
      prev.disabled = !mistakes.some((m) => m < k);
      next.disabled = !mistakes.some((m) => m > k);
      const i = mistakes.indexOf(k);
      where.textContent = i >= 0 ? t("page.analysis.at_mistake", { i: i + 1, n: mistakes.length }) : "";
    },
  };
}

function showAnalysis(res, moves) {
  for (const old of moves.querySelectorAll(".analysis")) old.remove();
  for (const d of res.decisions) {
    const li = moves.querySelector(`li[data-step="${d.step}"]`);
    if (!li) continue;
    const same = d.best === d.played;
    const text = same
      ? t("page.analysis.same", { pct: pct(d.played_win_chance) })
      : t("page.analysis.row", { pct: pct(d.played_win_chance), best: choiceWords(d.best_choice), best_pct: pct(d.best_win_chance) });
    const line = h("span", { class: `analysis${d.mistake ? " mistake" : ""}`, "data-testid": "analysis-value",
      "data-step": String(d.step), "data-played-win": String(d.played_win_chance), "data-best-win": String(d.best_win_chance) },
    text, d.mistake ? ` · ${t("page.analysis.mistake", { drop: pct(d.drop) })}` : "");
    li.classList.toggle("mistake-row", d.mistake);
    if (d.mistake) li.dataset.testid = "mistake";
    li.append(line);
  }
}

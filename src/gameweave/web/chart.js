// The win-chance graph of an analysed deal (issue 19), drawn from the geometry the server
// sends with the analysis (`chart` of GET /api/matches/{id}/deals/{n}/analysis).  Where
// every point, tick and line goes is decided in one place, gameweave/tables/chart.py
// (`chart_geometry`); `gameweave analyze --svg` draws the same numbers with `chart_svg`.
// This file only turns those numbers into live elements (with click handlers), as
// chart_svg turns them into text: keep the two drawers alike (the same elements, classes
// and data attributes: one `[data-step]` circle per decision with `data-seat`,
// `data-chance` and, on mistakes, `data-mistake`).

const NS = "http://www.w3.org/2000/svg";

/** An SVG element: s("circle", {cx: 1}, child, "text", ...). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** The whole percentage shown for a chance (0..1, as the JSON gives it): half up on
 * whole ten-thousandths, the same arithmetic as gameweave.tables.chart.percent, so the
 * page and `gameweave analyze` print the same figures. */
export const pct = (x) => Math.floor((Math.round(Number(x || 0) * 10000) + 50) / 100);

function frame(g, small, stepWord, yText) {
  const p = g.plot;
  const out = [];
  for (const tk of g.y_ticks) {
    out.push(s("line", { class: "grid", x1: p.left, x2: p.right, y1: tk.y, y2: tk.y }));
    if (!small) out.push(s("text", { class: "tick", x: p.left - 4, y: tk.y + 4, "text-anchor": "end" }, yText(tk.value)));
  }
  if (!small) {
    for (const tk of g.x_ticks) out.push(s("text", { class: "tick", x: tk.x, y: p.bottom + 15, "text-anchor": "middle" }, String(tk.step)));
    out.push(s("text", { class: "axis", x: p.left, y: p.bottom + 26 }, stepWord));
  }
  return out;
}

/**
 * The graph of chart geometry `g` as an `<svg data-testid="win-chart">`.  `opts`:
 * `title` (its accessible name), `names(seat)` (the legend's names, 1/2), `stepWord`
 * (the x axis), `tick(n)` (a whole percentage on the left edge, in the page's
 * language), `pointTitle(point)` (each dot's tooltip and, for a mistake, its button
 * name), `onPick(step)` (a dot clicked; mistakes are also buttons by keyboard), `small`
 * (no ticks or legend: the match end's thumbnails).  A profile's rating history (issue
 * 20, geometry from tables/chart.py `rating_geometry`) passes `testid` ("profile-chart"),
 * `yText(value)` (a tick's text from its value; default: the percentage of a chance) and
 * `pointAttrs(point)` (more attributes per dot: `data-point`, `data-rating`).  Returns
 * `{el, setStep(k)}`: setStep marks step k (0..steps) with a vertical line.
 */
export function drawChart(g, { title, names, stepWord = "", tick = (n) => `${n}%`, pointTitle, onPick = null, small = false,
  testid = "win-chart", yText = null, pointAttrs = null }) {
  // small: only the plot box (and a margin for the dots), without ticks or legend
  const p = g.plot;
  const box = small ? `${p.left - 8} ${p.top - 8} ${p.right - p.left + 16} ${p.bottom - p.top + 16}` : `0 0 ${g.width} ${g.height}`;
  const svg = s("svg", { "data-testid": testid, class: `win-chart${small ? " small" : ""}`, viewBox: box,
    role: "group", "aria-label": title, "data-steps": g.steps, "data-points": g.points.length });
  svg.append(s("title", {}, title), ...frame(g, small, stepWord, yText || ((v) => tick(pct(v)))));
  if (!small) {
    for (const item of g.legend) {
      svg.append(s("line", { class: `legend seat-${item.seat}`, x1: item.x, x2: item.x + 18, y1: item.y - 4, y2: item.y - 4, stroke: g.colors[String(item.seat)] }),
        s("text", { class: "legend", x: item.x + 24, y: item.y }, names(item.seat)));
    }
  }
  const now = s("line", { class: "now", x1: g.plot.left, x2: g.plot.left, y1: g.plot.top - 6, y2: g.plot.bottom, "aria-hidden": "true" });
  svg.append(now);
  for (const [seat, pts] of Object.entries(g.lines)) {
    if (pts) svg.append(s("polyline", { class: `line seat-${seat}`, points: pts, stroke: g.colors[seat], fill: "none" }));
  }
  for (const p of g.points) {
    const label = pointTitle(p);
    const dot = s("circle", { class: `point seat-${p.seat}${p.mistake ? " mistake" : ""}`, "data-step": p.step, "data-seat": p.seat,
      "data-chance": p.chance === undefined ? null : String(p.chance), "data-mistake": p.mistake ? "true" : null, cx: p.x, cy: p.y, r: p.r, fill: g.colors[String(p.seat)],
      stroke: p.mistake ? g.colors.mistake : "#fff", role: p.mistake && onPick ? "button" : null, tabindex: p.mistake && onPick ? "0" : null,
      "aria-label": p.mistake && onPick ? label : null, ...(pointAttrs ? pointAttrs(p) : {}) }, s("title", {}, label));
    if (onPick) {
      dot.addEventListener("click", () => onPick(p.step));
      dot.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onPick(p.step); }
      });
    }
    svg.append(dot);
  }
  const setStep = (k) => {
    const x = g.step_x[Math.max(0, Math.min(g.steps, k))] ?? g.plot.left;
    now.setAttribute("x1", x);
    now.setAttribute("x2", x);
    for (const dot of svg.querySelectorAll("circle[data-step]")) dot.classList.toggle("current", Number(dot.dataset.step) === k);
  };
  setStep(0);
  return { el: svg, setStep };
}

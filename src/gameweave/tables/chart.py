"""The win-chance chart of an analysed deal (issue 19): where everything goes, in one
place, and the chart as a standalone SVG file.

(A profile's rating history, issue 20, is drawn by the same code from
:func:`rating_geometry`.)  One point per decision of the analysis (``Analysis.to_dict()["decisions"]``): at the
decision's step across, and up by the deciding seat's win chance of the move it played
(``played_win_chance``, 0..1, as ``gameweave analyze --json`` gives it); each seat's
points joined by a line of its colour; mistakes drawn larger, in red.

:func:`chart_geometry` is the only code that places anything.  The server sends it with
the analysis (``chart`` in ``GET /api/matches/{id}/deals/{n}/analysis``) and the page
(``web/chart.js``) only draws what it is given; ``gameweave analyze --svg`` draws the same
geometry with :func:`chart_svg`.  The drawing itself is unavoidably written twice (this
module writes SVG text for a file; ``web/chart.js`` builds live elements with click
handlers), but both emit the same elements, classes and data attributes from the same
numbers: ``<svg data-testid="win-chart">`` and, per decision, one ``[data-step]`` circle
with ``data-seat`` (1/2), ``data-chance`` (the chance exactly as in the JSON) and
``data-mistake`` on mistakes.

:func:`percent` is the one rounding of a chance for people (the terminal and the page).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

WIDTH = 480.0
"""The chart's width in SVG units (the page scales it to its column)."""
HEIGHT = 220.0
"""The chart's height in SVG units."""
PLOT = {"left": 38.0, "top": 30.0, "right": 468.0, "bottom": 192.0}
"""The plotting box inside the chart (SVG units): chance 1 at ``top``, 0 at ``bottom``;
the deal's start (step 0) at ``left``, its last step at ``right``."""
SEAT_COLORS = {"1": "#1d5fa6", "2": "#b85a12"}
"""Each seat's line and dot colour."""
MISTAKE_COLOR = "#b3261e"
"""The ring of a mistake's dot."""
RADIUS = 3.5
"""A decision's dot radius (SVG units)."""
MISTAKE_RADIUS = 6.5
"""A mistake's dot radius (larger: it is a target to click)."""
Y_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The chances marked on the left edge."""
GAP = 16.0
"""The space between two deals' graphs stacked in one file (:func:`svg_file`)."""
_MISTAKE_ATTR = ' data-mistake="true"'
_STEP_INTERVALS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
_MAX_X_TICKS = 10


def percent(chance: float) -> int:
    """The whole percentage shown for a chance (0..1, as the JSON gives it, four decimals):
    half up, computed on whole ten-thousandths so that every surface rounds alike
    (``web/chart.js`` ``pct`` is the same arithmetic).  0.5549 -> 55, 0.555 -> 56."""
    return (round(chance * 10000) + 50) // 100


def _chance_text(x: float) -> str:
    """A chance as JavaScript's ``String(x)`` writes it (the page's ``data-chance``): the
    shortest round-trip digits, ``1`` and ``0`` without a decimal point."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _r(x: float) -> float:
    return round(x, 1)


def _x_ticks(steps: int, step_x: Sequence[float]) -> list[dict[str, float]]:
    every = next((k for k in _STEP_INTERVALS if steps // k <= _MAX_X_TICKS), _STEP_INTERVALS[-1])
    return [{"step": k, "x": step_x[k]} for k in range(every, steps + 1, every)]


def chart_geometry(decisions: Sequence[Mapping[str, Any]], steps: int) -> dict[str, Any]:
    """Where everything of the chart goes (SVG units, y downwards).

    ``decisions``: the analysis' decisions in their JSON form (``step`` 1-based, ``seat``
    1/2, ``played_win_chance`` 0..1, ``mistake``); ``steps``: how many actions the record
    holds (the x axis runs from the deal's start, step 0, to its last step).  Returns
    ``{"width", "height", "plot": {left, top, right, bottom}, "steps", "step_x": [x of step
    0..steps], "x_ticks": [{step, x}], "y_ticks": [{value, y}], "points": [{step, seat,
    chance, mistake, x, y, r}] (in the order given), "lines": {"1"|"2": "x,y x,y …"},
    "legend": [{seat, x, y}], "caption": {x, y} (a file's visible title, right-aligned on
    the legend's row), "colors": {"1", "2", "mistake"}}``.  Raises
    :class:`ValueError` if a decision's step is outside 1..``steps``."""
    left, top, right, bottom = PLOT["left"], PLOT["top"], PLOT["right"], PLOT["bottom"]
    n = max(int(steps), 0)
    step_x = [_r(left + (right - left) * k / n) if n else left for k in range(n + 1)]

    def y_of(chance: float) -> float:
        return _r(bottom - (bottom - top) * min(max(chance, 0.0), 1.0))

    points = []
    for d in decisions:
        step = int(d["step"])
        if not 1 <= step <= n:
            raise ValueError(f"decision step {step} is outside the record's 1..{n}")
        chance = float(d["played_win_chance"])
        mistake = bool(d["mistake"])
        points.append({"step": step, "seat": int(d["seat"]), "chance": chance, "mistake": mistake,
                       "x": step_x[step], "y": y_of(chance), "r": MISTAKE_RADIUS if mistake else RADIUS})
    lines = {s: " ".join(f"{p['x']},{p['y']}" for p in points if str(p["seat"]) == s) for s in ("1", "2")}
    return {
        "width": WIDTH, "height": HEIGHT, "plot": dict(PLOT), "steps": n, "step_x": step_x,
        "x_ticks": _x_ticks(n, step_x), "y_ticks": [{"value": v, "y": y_of(v)} for v in Y_TICKS],
        "points": points, "lines": lines,
        "legend": [{"seat": 1, "x": left, "y": 16.0}, {"seat": 2, "x": _r(left + (right - left) / 2), "y": 16.0}],
        "caption": {"x": right, "y": 16.0},
        "colors": {**SEAT_COLORS, "mistake": MISTAKE_COLOR},
    }


RATING_STEP = 50.0
"""The rating chart's ticks fall on multiples of this (rating points)."""


def rating_geometry(ratings: Sequence[float]) -> dict[str, Any]:
    """The rating-history chart of a profile page (issue 20), in the shape of
    :func:`chart_geometry` so that ``web/chart.js`` draws it: one point per rated deal
    (``ratings``: the rating after each, oldest first) at step 1..n across, up by the
    rating (``rating`` on each point; the y axis runs between multiples of
    :data:`RATING_STEP` around the lowest and highest, 1500 always inside); one line,
    ``y_ticks`` with rating ``value`` s, no legend."""
    left, top, right, bottom = PLOT["left"], PLOT["top"], PLOT["right"], PLOT["bottom"]
    n = len(ratings)
    lo = min([1500.0, *ratings]) // RATING_STEP * RATING_STEP
    hi = -(-max([1500.0, *ratings]) // RATING_STEP) * RATING_STEP
    hi = hi if hi > lo else lo + RATING_STEP
    step_x = [_r(left + (right - left) * k / n) if n else left for k in range(n + 1)]

    def y_of(value: float) -> float:
        return _r(bottom - (bottom - top) * (value - lo) / (hi - lo))

    every = RATING_STEP * max(1, int((hi - lo) / RATING_STEP / 4 + 0.999))
    ticks = [lo + k * every for k in range(int((hi - lo) / every) + 1)]
    points = [{"step": k + 1, "seat": 1, "rating": round(v), "mistake": False, "x": step_x[k + 1], "y": y_of(v),
               "r": RADIUS} for k, v in enumerate(ratings)]
    return {
        "width": WIDTH, "height": HEIGHT, "plot": dict(PLOT), "steps": n, "step_x": step_x,
        "x_ticks": _x_ticks(n, step_x), "y_ticks": [{"value": t, "y": y_of(t)} for t in ticks],
        "points": points, "lines": {"1": " ".join(f"{p['x']},{p['y']}" for p in points), "2": ""},
        "legend": [], "caption": {"x": right, "y": 16.0}, "colors": {**SEAT_COLORS, "mistake": MISTAKE_COLOR},
    }


def _attrs(**attrs: object) -> str:
    return "".join(f" {k.replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def _frame(g: Mapping[str, Any], step_word: str) -> list[str]:
    """The grid, the tick labels and the axis word: SVG lines."""
    p = g["plot"]
    out = []
    for t in g["y_ticks"]:
        out.append(f"<line class=\"grid\"{_attrs(x1=p['left'], x2=p['right'], y1=t['y'], y2=t['y'])}"
                   f" stroke=\"#d5dbd3\" stroke-width=\"1\"/>")
        out.append(f"<text class=\"tick\"{_attrs(x=p['left'] - 4, y=t['y'] + 4)} text-anchor=\"end\">"
                   f"{percent(t['value'])}%</text>")
    for t in g["x_ticks"]:
        out.append(f"<text class=\"tick\"{_attrs(x=t['x'], y=p['bottom'] + 15)} text-anchor=\"middle\">"
                   f"{t['step']}</text>")
    out.append(f"<text class=\"axis\"{_attrs(x=p['left'], y=p['bottom'] + 26)}>{escape(step_word)}</text>")
    return out


def chart_svg(g: Mapping[str, Any], *, title: str, seat_names: Mapping[int, str], step_word: str,
              point_title: Callable[[Mapping[str, Any]], str], y: float = 0.0, caption: str | None = None) -> str:
    """The chart of geometry ``g`` (:func:`chart_geometry`) as one ``<svg>`` element, with
    ``title`` (its accessible name), ``seat_names`` (1/2 -> the legend's names),
    ``step_word`` (the x axis), ``point_title(point)`` (each dot's tooltip) and
    ``caption`` (a visible title, e.g. which deal; the page has its own heading instead).
    ``y`` places it inside a larger file (nested SVGs of several deals, :data:`GAP`
    apart); the caller adds the XML namespace on the outermost element (:func:`svg_file`)."""
    w, h = g["width"], g["height"]
    out = [f"<svg data-testid=\"win-chart\" class=\"win-chart\" role=\"img\"{_attrs(aria_label=title, y=y, width=w, height=h)}"
           f" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">",
           f"<title>{escape(title)}</title>", *_frame(g, step_word)]
    for item in g["legend"]:
        color = g["colors"][str(item["seat"])]
        out.append(f"<line class=\"legend seat-{item['seat']}\"{_attrs(x1=item['x'], x2=item['x'] + 18, y1=item['y'] - 4, y2=item['y'] - 4, stroke=color)}"
                   f" stroke-width=\"2.5\"/>")
        out.append(f"<text class=\"legend\"{_attrs(x=item['x'] + 24, y=item['y'])}>{escape(seat_names[item['seat']])}</text>")
    if caption:
        out.append(f"<text class=\"caption\"{_attrs(x=g['caption']['x'], y=g['caption']['y'])} text-anchor=\"end\""
                   f" font-weight=\"bold\">{escape(caption)}</text>")
    for seat, pts in g["lines"].items():
        if pts:
            out.append(f"<polyline class=\"line seat-{seat}\"{_attrs(points=pts, stroke=g['colors'][seat])}"
                       f" fill=\"none\" stroke-width=\"2\"/>")
    for p in g["points"]:
        ring = g["colors"]["mistake"] if p["mistake"] else "#fff"
        out.append(f"<circle class=\"point seat-{p['seat']}{' mistake' if p['mistake'] else ''}\""
                   f"{_attrs(data_step=p['step'], data_seat=p['seat'], data_chance=_chance_text(p['chance']))}"
                   f"{_MISTAKE_ATTR if p['mistake'] else ''}"
                   f"{_attrs(cx=p['x'], cy=p['y'], r=p['r'], fill=g['colors'][str(p['seat'])], stroke=ring)}"
                   f" stroke-width=\"{2.5 if p['mistake'] else 1}\"><title>{escape(point_title(p))}</title></circle>")
    out.append("</svg>")
    return "\n".join(out)


def svg_file(charts: Sequence[str], heights: Sequence[float], width: float = WIDTH) -> str:
    """A standalone SVG document holding ``charts`` (:func:`chart_svg` outputs, placed one
    under the other at the ``y`` each was drawn with, :data:`GAP` apart; ``heights`` their
    heights)."""
    total = sum(heights) + GAP * max(len(heights) - 1, 0)
    return (f"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
            f" width=\"{width}\" height=\"{total}\" viewBox=\"0 0 {width} {total}\">\n"
            f"<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + "\n".join(charts) + "\n</svg>\n")


__all__ = ["GAP", "HEIGHT", "MISTAKE_COLOR", "PLOT", "RATING_STEP", "SEAT_COLORS", "WIDTH", "chart_geometry", "chart_svg",
           "percent", "rating_geometry", "svg_file"]

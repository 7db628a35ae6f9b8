"""``gameweave analyze``: the win chance of each decision of a recorded deal, the best
alternative and the mistakes (:func:`gameweave.bots.advice.analyze_record`).

The table gives each move in §VII notation (what a person may type) and, under it, in
words from the deciding seat's view (the narrator, :mod:`gameweave.tables.words`), in
the user's language (``--lang``, else the locale; ``analyze.*`` in the catalogs).  The
JSON is the same in every language; errors are English lines on stderr.  Chances are
shown as whole percentages rounded as the page rounds them
(:func:`gameweave.tables.chart.percent`), and ``--svg FILE`` writes each deal's
win-chance graph, placed by the same code as the page's
(:func:`gameweave.tables.chart.chart_geometry`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from ..engine import GameRecord
from ..i18n import translate
from ..tables import choice_of
from ..tables.chart import GAP, chart_geometry, chart_svg, percent, svg_file
from ..tables.words import decision_words, describe_choice
from .app import RULES_HELP, app
from .common import error, language_or_exit, profile_or_exit, read_records
from .replay import LANG_HELP

if TYPE_CHECKING:
    from ..bots.advice import Analysis


@app.command()
def analyze(
    file: Path = typer.Argument(..., help="Deal records, match records or record downloads (JSON, JSON lines).",
                                exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per deal instead of a table."),
    out: Path | None = typer.Option(None, "--out", "-o", dir_okay=False,
                                    help="Also write the analysis as JSON (a list of deals) to this file."),
    svg: Path | None = typer.Option(None, "--svg", dir_okay=False,
                                    help="Also write each deal's win-chance graph to this SVG file (the page's graph)."),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP + " For records that name none."),
    level: str = typer.Option("master", "--level", help="The level whose bot estimates each choice: beginner, casual, intermediate or master (the default, the strongest)."),
    seat: int | None = typer.Option(None, "--seat", min=1, max=2, help="Only this seat's decisions (1 or 2)."),
    seed: int = typer.Option(0, "--seed", help="Base seed of the estimates (same seed, same numbers; the page and the API use 0, the default)."),
    worlds: int | None = typer.Option(None, "--worlds", min=1,
                                      help="Sampled deals per action and decision (default 400)."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
) -> None:
    """Analyse recorded deals like a chess site's game analysis: for each decision (more
    than one legal action) the win chance of the move played and of the best alternative,
    from the deciding seat's view only (R21); a drop of 10 points or more is a mistake.

    The win chance is the estimated expected result (win = 1, tablas = 1/2). A match
    record is analysed deal by deal. Exit status 2 if a record cannot be read or replayed."""
    from ..bots import level_names
    from ..bots.advice import ANALYSIS_WORLDS, MISTAKE_DROP, analyze_record
    from ..engine import GameweaveError, MatchRecord

    language = language_or_exit(lang)
    profile = profile_or_exit(rules)
    if level.strip().lower() not in level_names():
        error(f"unknown level {level!r} (known: {', '.join(level_names())})", 2)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        error(f"cannot read {file}: {exc}", 2)
    records = read_records(text, profile)
    if not records:
        error(f"{file} holds no game record (RULES §VII: a JSON object, or one per line)", 2)
    for path in (out, svg):  # before the work, not after it
        if path is not None and not path.parent.is_dir():
            error(f"cannot write {path}: there is no folder {path.parent}", 2)
    seats = (0, 1) if seat is None else (seat - 1,)
    failed = False
    results: list[dict[str, Any]] = []
    charts: list[tuple[str, dict[str, Any], int]] = []
    t_all = time.perf_counter()
    for n, rec in enumerate(records, 1):
        if isinstance(rec, GameweaveError):
            error(f"record {n}: cannot read it: {rec}")
            failed = True
            continue
        deals: list[tuple[str, str, GameRecord]]
        if isinstance(rec, MatchRecord):
            deals = [(f"record {n}, deal {i}", _w("label_deal", language, n=n, deal=i), d)
                     for i, d in enumerate(rec.deals, 1)]
        else:
            deals = [(f"record {n}", _w("label", language, n=n), rec)]
        for label, shown, deal in deals:
            try:
                analysis = analyze_record(deal, level=level, seed=seed, seats=seats,
                                          worlds=worlds or ANALYSIS_WORLDS)
            except GameweaveError as exc:
                error(f"{label}: {exc}")
                failed = True
                continue
            d = {"record": n, "label": label, **analysis.to_dict()}
            results.append(d)
            charts.append((shown, d, len(deal.actions)))
            if as_json:
                typer.echo(json.dumps(d))
            else:
                typer.echo("\n".join(_lines(shown, d, MISTAKE_DROP, language, _move_words(deal, analysis, language))))
    if not as_json and results:
        typer.echo(_w("total", language, n=sum(len(r["decisions"]) for r in results),
                      seconds=f"{time.perf_counter() - t_all:.1f}"))
    _save(out, svg, results, charts, language)
    sys.stdout.flush()
    if failed:
        raise typer.Exit(2)


def _w(key: str, lang: str, **params: object) -> str:
    """A line of ``analyze`` (``analyze.<key>``) in ``lang``."""
    return translate(f"analyze.{key}", lang, **params)


def _pct(x: float) -> str:
    return f"{percent(x):3d}%"


def _save(out: Path | None, svg: Path | None, results: list[dict[str, Any]],
          charts: list[tuple[str, dict[str, Any], int]], lang: str) -> None:
    """Write ``--out`` (the JSON list of deals) and ``--svg`` (the graphs) when asked
    (exit status 2 if one cannot be written)."""
    if out is not None:
        try:
            out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            error(f"cannot write {out}: {exc}", 2)
    if svg is not None:
        _write_svg(svg, charts, lang)


def _write_svg(path: Path, charts: list[tuple[str, dict[str, Any], int]], lang: str) -> None:
    """Write every analysed deal's win-chance graph, one under the other, to ``path``
    (exit status 2 if it cannot be written)."""
    names = {s: _w("svg.seat", lang, n=s) for s in (1, 2)}

    def titles(drops: dict[int, int]) -> Callable[[Any], str]:
        def point_title(p: Any) -> str:
            key = "svg.point_mistake" if p["mistake"] else "svg.point"
            return _w(key, lang, step=p["step"], who=names[p["seat"]], pct=percent(p["chance"]),
                      drop=drops.get(p["step"], 0))
        return point_title

    parts, heights, y = [], [], 0.0
    for shown, d, steps in charts:
        g = chart_geometry(d["decisions"], steps)
        parts.append(chart_svg(g, title=_w("svg.title", lang, label=shown), seat_names=names,
                               step_word=_w("col.step", lang), y=y, caption=shown,
                               point_title=titles({x["step"]: percent(x["drop"]) for x in d["decisions"]})))
        heights.append(g["height"])
        y += g["height"] + GAP
    try:
        path.write_text(svg_file(parts, heights), encoding="utf-8")
    except OSError as exc:
        error(f"cannot write {path}: {exc}", 2)


def _move_words(deal: GameRecord, analysis: Analysis, lang: str) -> dict[int, tuple[str, str]]:
    """Step -> (the move played, the best move) in words, each from the deciding seat's
    view just before it (R21), by the narrator."""
    from ..bots.advice import record_views

    moves = {x.step: (x.played.action, x.best.action) for x in analysis.decisions}
    out = {}
    for step, view, _played in record_views(deal, {x.seat for x in analysis.decisions}):
        if step in moves:
            played, best = (describe_choice(choice_of(view, a), view, lang) for a in moves[step])
            out[step] = played, best
    return out


def _lines(label: str, d: dict[str, Any], drop: float, lang: str,
           words: dict[int, tuple[str, str]] | None = None) -> list[str]:
    """The terminal table of one analysed deal; under each decision its moves in ``words``."""
    words = words or {}
    result = _w(f"status.{d['status']}", lang) if d["winner"] is None else _w("won_by", lang, n=d["winner"])
    level = translate(f"page.bot_option.{d['level']}", lang).lower()  # the level's name, as the lobby says it
    out = [_w("header", lang, label=label, rules=d["rules"], result=result, level=level,
              decisions=len(d["decisions"]), seconds=f"{d['seconds']:.1f}")]
    col = {k: _w(f"col.{k}", lang) for k in ("step", "seat", "decision", "played", "best", "win")}
    out.append(f"{col['step']:>4} {col['seat']:>4}  {col['decision']:<16} {col['played']:<26} {col['win']:>4}  "
               f"{col['best']:<26} {col['win']:>4}")
    if words:
        out.append(" " * 11 + _w("you_legend", lang))
    for x in d["decisions"]:
        same = x["best"] == x["played"]
        mark = "  " + _w("mistake", lang, drop=percent(x["drop"])) if x["mistake"] else ""
        out.append(f"{x['step']:>4} {x['seat']:>4}  {decision_words(x['decision'], lang):<16} {x['played']:<26} "
                   f"{_pct(x['played_win_chance'])}  {('=' if same else x['best']):<26} "
                   f"{_pct(x['best_win_chance'])}{mark}")
        if x["step"] in words:
            played, best = words[x["step"]]
            out.append(" " * 11 + _w("played_words", lang, words=played))
            if not same:
                out.append(" " * 11 + _w("best_words", lang, words=best))
    counts = ", ".join(_w("mistakes_seat", lang, n=s, count=c) for s, c in d["mistakes"].items())
    out.append(_w("mistakes", lang, drop=f"{100 * drop:.0f}", counts=counts))
    return out

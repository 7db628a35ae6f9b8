"""``gameweave analyze``: the win chance of each decision of a recorded deal, the best
alternative and the mistakes (:func:`gameweave.bots.advice.analyze_record`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import typer

from .app import app
from .common import RULES_HELP, error, profile_or_exit, read_records


@app.command()
def analyze(
    file: Path = typer.Argument(..., help="Deal records, match records or record downloads (JSON, JSON lines).",
                                exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per deal instead of a table."),
    out: Path | None = typer.Option(None, "--out", "-o", dir_okay=False,
                                    help="Also write the analysis as JSON (a list of deals) to this file."),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP + " For records that name none."),
    level: str = typer.Option("master", "--level", help="The level whose bot estimates each choice: beginner, casual, intermediate or master (the default, the strongest)."),
    seat: int | None = typer.Option(None, "--seat", min=1, max=2, help="Only this seat's decisions (1 or 2)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the estimates (same seed, same numbers)."),
    worlds: int | None = typer.Option(None, "--worlds", min=1,
                                      help="Sampled deals per action and decision (default 400)."),
) -> None:
    """Analyse recorded deals like a chess site's game analysis: for each decision (more
    than one legal action) the win chance of the move played and of the best alternative,
    from the deciding seat's view only (R21); a drop of 10 points or more is a mistake.

    The win chance is the estimated expected result (win = 1, tablas = 1/2). A match
    record is analysed deal by deal. Exit status 2 if a record cannot be read or replayed."""
    from ..bots import level_names
    from ..bots.advice import ANALYSIS_WORLDS, MISTAKE_DROP, analyze_record
    from ..engine import GameRecord, GameweaveError, MatchRecord

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
    seats = (0, 1) if seat is None else (seat - 1,)
    failed = False
    results: list[dict[str, Any]] = []
    t_all = time.perf_counter()
    for n, rec in enumerate(records, 1):
        if isinstance(rec, GameweaveError):
            error(f"record {n}: cannot read it: {rec}")
            failed = True
            continue
        deals: list[tuple[str, GameRecord]]
        if isinstance(rec, MatchRecord):
            deals = [(f"record {n}, deal {i}", d) for i, d in enumerate(rec.deals, 1)]
        else:
            deals = [(f"record {n}", rec)]
        for label, deal in deals:
            try:
                analysis = analyze_record(deal, level=level, seed=seed, seats=seats,
                                          worlds=worlds or ANALYSIS_WORLDS)
            except GameweaveError as exc:
                error(f"{label}: {exc}")
                failed = True
                continue
            d = {"record": n, "label": label, **analysis.to_dict()}
            results.append(d)
            if as_json:
                typer.echo(json.dumps(d))
            else:
                typer.echo("\n".join(_lines(label, d, MISTAKE_DROP)))
    if not as_json:
        typer.echo(f"analysed {sum(len(r['decisions']) for r in results)} decisions in "
                   f"{time.perf_counter() - t_all:.1f} s")
    if out is not None:
        try:
            out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            error(f"cannot write {out}: {exc}", 2)
    sys.stdout.flush()
    if failed:
        raise typer.Exit(2)


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _lines(label: str, d: dict[str, Any], drop: float) -> list[str]:
    """The terminal table of one analysed deal."""
    result = d["status"] if d["winner"] is None else f"won by seat {d['winner']}"
    out = [f"{label}: {d['rules']} rules, {result}; advisor {d['level']} "
           f"({len(d['decisions'])} decisions, {d['seconds']:.1f} s)"]
    out.append(f"{'step':>4} {'seat':>4}  {'decision':<15} {'played':<26} {'win%':>6}  {'best':<26} {'win%':>6}")
    for x in d["decisions"]:
        same = x["best"] == x["played"]
        mark = f"  mistake (-{100 * x['drop']:.0f})" if x["mistake"] else ""
        out.append(f"{x['step']:>4} {x['seat']:>4}  {x['decision']:<15} {x['played']:<26} "
                   f"{_pct(x['played_win_chance'])}  {('=' if same else x['best']):<26} "
                   f"{_pct(x['best_win_chance'])}{mark}")
    counts = ", ".join(f"seat {s}: {c}" for s, c in d["mistakes"].items())
    out.append(f"mistakes (a drop of {100 * drop:.0f} points or more): {counts}")
    return out

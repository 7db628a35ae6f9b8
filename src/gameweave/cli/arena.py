"""``gameweave arena``: two bots over many deals, each deal played twice with seats swapped."""

from __future__ import annotations

import json

import typer

from .app import app


@app.command()
def arena(
    bot1: str = typer.Argument(..., help="First bot (random, greedy, search)."),
    bot2: str = typer.Argument(..., help="Second bot."),
    deals: int = typer.Option(200, "--deals", min=1, help="Deals; each is played twice, seats swapped."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes (results do not depend on it)."),
    seed: int = typer.Option(0, "--seed", help="Arena seed: decks and bot seeds derive from it."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    iterations: int | None = typer.Option(None, "--iterations", min=1,
                                             help="Playouts per decision for search bots (default: theirs)."),
    rules: str = typer.Option("gameweave", "--rules",
                              help="Rule profile: gameweave, anglo-american (pagat) or classic."),
) -> None:
    """Play BOT1 against BOT2 and report wins / tablas / losses with 95% intervals,
    the win share of decided deals, an Elo difference and decision times."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..arena import report_lines, run_arena, summarize
    from ..bots import bot_names
    from ..engine import UnknownProfileError, find_profile

    err = Console(stderr=True, highlight=False)
    try:
        profile = find_profile(rules).name
    except UnknownProfileError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    known = bot_names()
    for b in (bot1, bot2):
        if b.strip().lower() not in known:
            typer.echo(f"error: unknown bot {b!r} (known: {', '.join(known)})", err=True)
            raise typer.Exit(2)
    opts = tuple({"iterations": iterations} if (iterations and b.strip().lower() == "search") else {}
                 for b in (bot1, bot2))
    with Progress(TextColumn(f"{bot1} vs {bot2} ({profile})"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err, transient=as_json) as prog:
        task = prog.add_task("deals", total=deals)
        games = run_arena(bot1, bot2, deals, seed=seed, jobs=jobs, options=opts, rules=profile,
                          progress=lambda k: prog.update(task, completed=k))
    summary = summarize(bot1, bot2, games, deals, rules=profile)
    summary["seed"] = seed
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo("\n".join(report_lines(summary)))

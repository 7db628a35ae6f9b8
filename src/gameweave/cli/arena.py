"""``gameweave arena``: two bots over many deals, each deal played twice with seats swapped."""

from __future__ import annotations

import json

import typer

from .app import app


@app.command()
def arena(
    bot1: str = typer.Argument(..., help="First bot (random, greedy, search, search-v1, or a level: beginner .. master)."),
    bot2: str = typer.Argument(..., help="Second bot."),
    deals: int = typer.Option(200, "--deals", min=1, help="Deals; each is played twice, seats swapped."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes (results do not depend on it)."),
    seed: int = typer.Option(0, "--seed", help="Arena seed: decks and bot seeds derive from it."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    iterations: int | None = typer.Option(None, "--iterations", min=1,
                                             help="Playouts per decision for search bots (default: theirs)."),
    rules: str = typer.Option("gameweave", "--rules",
                              help="Rule profile: gameweave, anglo-american (pagat) or classic."),
    opt1: list[str] | None = typer.Option(None, "--opt1", help="A bot option of BOT1 as key=value (repeatable), "
                                                                 "e.g. --opt1 decline=3 --opt1 force=true."),
    opt2: list[str] | None = typer.Option(None, "--opt2", help="A bot option of BOT2 as key=value (repeatable)."),
) -> None:
    """Play BOT1 against BOT2 and report wins / tablas / losses with 95% intervals,
    the win share of decided deals, two Elo differences and decision times.

    The first Elo comes from the score, a tablas counting half a win; the second from the
    decided games only (tablas left out, as a match that replays them counts them), so it
    spreads bots further apart when many deals end in tablas."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..arena import report_lines, run_arena, summarize
    from ..bots import bot_names, load_plugins
    from ..engine import UnknownProfileError, find_profile

    err = Console(stderr=True, highlight=False)
    try:
        profile = find_profile(rules).name
    except UnknownProfileError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    load_plugins()  # bots of installed extras (e.g. ismcts with [research])
    known = bot_names()
    for b in (bot1, bot2):
        if b.strip().lower() not in known:
            typer.echo(f"error: unknown bot {b!r} (known: {', '.join(known)})", err=True)
            raise typer.Exit(2)
    opts: list[dict] = [{"iterations": iterations} if (iterations and b.strip().lower().startswith("search")) else {}
                        for b in (bot1, bot2)]
    for i, pairs in enumerate((opt1, opt2)):
        for pair in pairs or []:
            key, eq, value = pair.partition("=")
            if not eq or not key.strip():
                typer.echo(f"error: --opt{i + 1} takes key=value, not {pair!r}", err=True)
                raise typer.Exit(2)
            opts[i][key.strip()] = _value(value.strip())
    from ..bots import make_bot

    for b, o in zip((bot1, bot2), opts):
        try:
            make_bot(b, seed=0, **o)
        except (TypeError, ValueError) as exc:
            typer.echo(f"error: bot {b!r}: {exc}", err=True)
            raise typer.Exit(2) from None
    with Progress(TextColumn(f"{bot1} vs {bot2} ({profile})"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=err, transient=as_json) as prog:
        task = prog.add_task("deals", total=deals)
        games = run_arena(bot1, bot2, deals, seed=seed, jobs=jobs, options=(opts[0], opts[1]), rules=profile,
                          progress=lambda k: prog.update(task, completed=k))
    summary = summarize(bot1, bot2, games, deals, rules=profile)
    summary["seed"] = seed
    summary["options"] = {lab: o for lab, o in zip(summary["bots"], opts)}
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo("\n".join(report_lines(summary)))


def _value(text: str) -> object:
    """A ``--opt`` value: an int, a float, true/false, or the text itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text

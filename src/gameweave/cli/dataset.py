"""``gameweave dataset``: N self-play deals of a bot pair as a match record and as arrays."""

from __future__ import annotations

from pathlib import Path

import typer

from .app import RULES_HELP, app
from .arena import _value


def _options(flag: str, pairs: list[str] | None) -> dict[str, object]:
    """``--opt1`` / ``--opt2`` pairs as a bot's options; a malformed pair is one error
    line and exit status 2."""
    out: dict[str, object] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            typer.echo(f"error: {flag} takes key=value, not {pair!r}", err=True)
            raise typer.Exit(2)
        out[key.strip()] = _value(value.strip())
    return out


def _bot_pair(text: str) -> tuple[str, str]:
    """``A,B`` (or one name for self-play of a bot with itself) checked against the
    registered bots (plugins included); else one error line and exit status 2."""
    from ..bots import bot_names, load_plugins

    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2 or not all(names):
        typer.echo(f"error: --bots takes two bot names as A,B, not {text!r}", err=True)
        raise typer.Exit(2)
    load_plugins()  # bots of installed extras (ismcts with [research])
    known = bot_names()
    for b in names:
        if b.lower() not in known:
            typer.echo(f"error: unknown bot {b!r} (known: {', '.join(known)})", err=True)
            raise typer.Exit(2)
    return names[0], names[1]


@app.command()
def dataset(
    bots: str = typer.Option("greedy,greedy", "--bots",
                             help="The bot pair as A,B: A sits in seat 1, B in seat 2 (bot names or levels)."),
    deals: int = typer.Option(100, "--deals", min=1, help="Deals to play (one match record, a running tally)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the decks, the first opener and the bots."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    out: Path = typer.Option(Path("gameweave-dataset"), "--out", file_okay=False,
                             help="Folder to write records.json, arrays.npz and manifest.json into."),
    arrays: bool = typer.Option(True, "--arrays/--no-arrays",
                                help="Also write arrays.npz (needs numpy, the research extra)."),
    opt1: list[str] | None = typer.Option(None, "--opt1", help="A bot option of A as key=value (repeatable), "
                                                                 "e.g. --opt1 simulations=25."),
    opt2: list[str] | None = typer.Option(None, "--opt2", help="A bot option of B as key=value (repeatable)."),
) -> None:
    """Write N self-play deals of a bot pair as a match record, arrays and a manifest,
    reproducibly from a seed.

    records.json is one match record (RULES §VII; verify and replay read it);
    arrays.npz holds one row per decision: observations, action masks, actions, rewards,
    returns, seat (docs/RESEARCH.md); manifest.json names the bots, rules, seed, counts,
    version and each file's SHA-256.  The same arguments give byte-identical files.  The
    arrays need numpy (the research extra); without it the records and the manifest are
    still written, and the command says so."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..bots import make_bot
    from ..engine import UnknownProfileError, find_profile
    from ..research.dataset import ARRAYS, MANIFEST, RECORDS, write_dataset

    try:
        profile = find_profile(rules).name
    except UnknownProfileError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    pair = _bot_pair(bots)
    opts = (_options("--opt1", opt1), _options("--opt2", opt2))
    for b, o in zip(pair, opts):
        try:
            make_bot(b, seed=0, **o)
        except (TypeError, ValueError) as exc:
            typer.echo(f"error: bot {b!r}: {exc}", err=True)
            raise typer.Exit(2) from None
    err = Console(stderr=True, highlight=False)
    with Progress(TextColumn(f"{pair[0]} vs {pair[1]} ({profile})"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("deals"), TimeElapsedColumn(), console=err, transient=True) as prog:
        task = prog.add_task("deals", total=deals)
        try:
            manifest = write_dataset(out, pair, deals, rules=profile, seed=seed, options=opts, arrays=arrays,
                                     progress=lambda k: prog.update(task, completed=k))
        except OSError as exc:
            typer.echo(f"error: cannot write {out}: {exc}", err=True)
            raise typer.Exit(2) from None
    counts = manifest["counts"]
    typer.echo(f"{out / RECORDS}: {counts['deals']} deals, {counts['actions']} actions "
               f"(seat 1 {pair[0]} won {counts['wins']['1']}, seat 2 {pair[1]} won {counts['wins']['2']}, "
               f"tablas {counts['tablas']})")
    if manifest["arrays"] is not None:
        typer.echo(f"{out / ARRAYS}: {counts['rows']} decisions")
    else:
        typer.echo(f"arrays: {manifest['arrays_note']}")
    typer.echo(f"{out / MANIFEST}")

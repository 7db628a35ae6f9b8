"""``gameweave ladder``: the bot levels' Glicko-2 ladder ratings, measured in the arena
(issue 20: the lobby and the leaderboard show them beside the levels' names).

Adjacent levels (and beginner against intermediate, so the ladder is tied together
twice) play :func:`~gameweave.arena.run_arena` deals, each twice with seats swapped;
every game is one result (won 1, tablas ½, lost 0).  Every level starts at 1500 / 350 and
all the games form **one** Glicko-2 rating period (``gameweave.storage.glicko.rate``),
solved by fixed-point passes: each pass rates every level from the start against the
others' ratings and deviations of the previous pass, until they settle (20 passes).
The result, with the command
line, is written as JSON: the package ships it as ``bots/ladder.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .app import app

PAIRS = (("beginner", "casual"), ("casual", "intermediate"), ("intermediate", "master"),
         ("beginner", "intermediate"))
"""The pairings the ladder plays."""


def ladder_ratings(games: list[tuple[str, str, float]], passes: int = 20) -> dict[str, dict[str, float]]:
    """Glicko-2 ratings of the players of ``games`` (``(a, b, a's score)`` each) as one
    rating period, settled over ``passes`` passes (see the module); ``{name: {"rating",
    "rd"}}`` rounded to whole points."""
    from ..storage.glicko import START, rate

    names = sorted({g[0] for g in games} | {g[1] for g in games})
    current = {n: START for n in names}
    for _ in range(passes):
        opp = current
        nxt = {}
        for n in names:
            results = [(opp[b], s) for a, b, s in games if a == n] + [(opp[a], 1 - s) for a, b, s in games if b == n]
            nxt[n] = rate(START, results)
        current = nxt
    return {n: {"rating": round(current[n].rating), "rd": round(current[n].rd)} for n in names}


@app.command()
def ladder(
    deals: int = typer.Option(30, "--deals", min=1, help="Deals per pairing; each is played twice, seats swapped."),
    seed: int = typer.Option(2026, "--seed", help="Arena seed: decks and bot seeds derive from it."),
    rules: str = typer.Option("gameweave", "--rules", help="Rule profile."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes (results do not depend on it)."),
    out: Path | None = typer.Option(None, "--out", help="Write the JSON here too (e.g. src/gameweave/bots/ladder.json)."),
) -> None:
    """Measure the bot levels' Glicko-2 ladder ratings in the arena and print them as JSON."""
    from ..arena import run_arena

    games: list[tuple[str, str, float]] = []
    counts = {}
    for a, b in PAIRS:
        played = run_arena(a, b, deals, seed=seed, jobs=jobs, rules=rules)
        w = sum(1 for g in played if g.winner_bot == 0)
        t = sum(1 for g in played if g.winner_bot == -1)
        counts[f"{a}-{b}"] = {"wins": w, "tablas": t, "losses": len(played) - w - t}
        games += [(a, b, 1.0 if g.winner_bot == 0 else 0.5 if g.winner_bot == -1 else 0.0) for g in played]
    data = {
        "command": f"gameweave ladder --deals {deals} --seed {seed} --rules {rules}",
        "rules": rules, "deals_per_pairing": deals, "results": counts, "ratings": ladder_ratings(games),
    }
    text = json.dumps(data, indent=1)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
    typer.echo(text)

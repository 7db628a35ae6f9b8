"""``gameweave conformance``: random deals with every engine invariant checked."""

from __future__ import annotations

import json

import typer

from .app import RULES_HELP, app
from .common import profile_or_exit


@app.command()
def conformance(
    seed: str = typer.Option("1", help="Seed of the random deals."),
    deals: int = typer.Option(200, min=1, help="Number of deals to play."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    native: bool = typer.Option(False, "--native", help="Also play every deal on the native core and compare each step."),
) -> None:
    """Play random deals, checking the invariants after every action (cards conserved,
    legal melds, table + hand = 10, views leak nothing, record -> replay identical).

    Prints the counts as JSON; exit status 1 on a violation, naming the rule.
    """
    from ..engine.conformance import random_deal_check

    profile = profile_or_exit(rules)
    assert profile is not None
    try:
        counts = random_deal_check(seed, deals, profile, native_twin=native)
    except RuntimeError as exc:  # --native without the native core
        typer.echo(f"gameweave conformance: {exc}", err=True)
        raise typer.Exit(2) from None
    except AssertionError as exc:
        typer.echo(f"conformance failure ({profile.name} rules): {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps({"rules": profile.name, **counts}))

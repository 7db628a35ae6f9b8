"""``gameweave bench``: the engine's random-playout benchmark (same as benchmarks/playout.py)."""

from __future__ import annotations

import typer

from .app import RULES_HELP, app
from .common import profile_or_exit


@app.command()
def bench(
    deals: int = typer.Option(2000, min=1, help="Deals per repetition."),
    reps: int = typer.Option(7, min=5, help="Measured repetitions (at least 5)."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    engine: str = typer.Option("python", "--engine", help="python (the reference) or native (the C core)."),
    cpu: bool = typer.Option(False, "--cpu", help="Time by this process's CPU time instead of the wall clock."),
) -> None:
    """Measure random-playout deals/s and transitions/s on one core under a profile."""
    from ..bench import ENGINES, report, run

    profile = profile_or_exit(rules)
    assert profile is not None
    if engine not in ENGINES:
        typer.echo(f"gameweave bench: --engine must be python or native, not {engine!r}", err=True)
        raise typer.Exit(2)
    try:
        result = run(deals=deals, reps=reps, rules=profile, engine=engine, cpu=cpu)
    except RuntimeError as exc:
        typer.echo(f"gameweave bench: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(report(result))

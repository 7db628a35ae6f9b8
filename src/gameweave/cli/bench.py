"""``gameweave bench``: the engine's random-playout benchmark (same as benchmarks/playout.py)."""

from __future__ import annotations

import typer

from .app import app


@app.command()
def bench(
    deals: int = typer.Option(2000, min=1, help="Deals per repetition."),
    reps: int = typer.Option(7, min=5, help="Measured repetitions (at least 5)."),
) -> None:
    """Measure random-playout deals/s and transitions/s on one core."""
    from ..bench import report, run

    typer.echo(report(run(deals=deals, reps=reps)))

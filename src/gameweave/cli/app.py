"""The ``gameweave`` Typer application; command modules register on :data:`app`."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="gameweave",
    help="Gameweave: a digital table for Conquian, the two-player Mexican card game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

from . import analyze as _analyze  # noqa: E402,F401  (registers `analyze`; needs `app` above)

"""The ``gameweave`` Typer application; command modules register on :data:`app`.

Help is plain text (``rich_markup_mode=None``): click wraps whole paragraphs to the
terminal, so no sentence is cut inside a box, and flags show as flags (``--json``).
Each command's line in ``gameweave --help`` is the first sentence of its help, whole
(:func:`whole_short_help`).  ``gameweave --version`` prints the package version.
"""

from __future__ import annotations

import re

import typer

from .. import __version__

RULES_HELP = "Rule profile (§V): gameweave, anglo-american (alias pagat) or classic."
"""The help of every command's ``--rules`` option (help is English, as every option's)."""

app = typer.Typer(
    name="gameweave",
    help="Gameweave: a digital table for Conquian, the two-player Mexican card game.",
    epilog="Run 'gameweave COMMAND --help' for one command's options.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gameweave {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Gameweave: a digital table for Conquian, the two-player Mexican card game."""


def first_sentence(text: str) -> str:
    """The first sentence of a help text on one line (up to the first ``. `` that ends
    a sentence, or the end of the first paragraph), never cut in the middle."""
    para = " ".join(text.strip().split("\n\n", 1)[0].split())
    for m in re.finditer(r"\.(?=\s+[A-Z(])", para):
        word = para[: m.start()].rsplit(" ", 1)[-1].lower()
        if word not in ("e.g", "i.e", "etc", "vs", "cf"):
            return para[: m.end()]
    return para


def whole_short_help() -> None:
    """Give every registered command without a ``short_help`` the first sentence of its
    help as its line in the command list (click would cut it at about 45 characters)."""
    for info in app.registered_commands:
        if info.short_help is None:
            doc = info.help or (info.callback.__doc__ if info.callback else None) or ""
            if doc:
                info.short_help = first_sentence(doc)

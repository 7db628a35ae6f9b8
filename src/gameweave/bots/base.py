"""The bot interface: a bot decides from its seat's view and the legal actions only (R21).

A bot never receives a :class:`~gameweave.engine.GameState`; it gets a
:class:`~gameweave.engine.SeatView` (whose ``legal`` holds the legal action ints when the
seat is to act) and returns one of those ints.  Bots are made by name with
:func:`make_bot`; each takes an optional ``seed`` so that its choices are reproducible.
"""

from __future__ import annotations

import random
from typing import Callable

from ..engine import SeatView


class Bot:
    """Base class.  Subclasses implement :meth:`choose`.

    Attributes: ``name`` (registry name) and ``rng`` (a private :class:`random.Random`).
    """

    name = "bot"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        """Return one action int from ``view.legal`` (non-empty when the seat is to act).

        Raises :class:`ValueError` if the view has no legal actions (not this seat's turn).
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """``random``: uniform over the legal actions."""

    name = "random"

    def choose(self, view: SeatView) -> int:
        if not view.legal:
            raise ValueError("no legal actions: it is not this seat's turn")
        return self.rng.choice(view.legal)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Registry: bot name -> class (or factory taking ``seed=`` and keyword options)."""


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot to the registry under ``name``."""
    BOTS[name] = factory


def bot_names() -> list[str]:
    """Registered bot names, in registration order."""
    return list(BOTS)


def make_bot(name: str, seed: int | None = None, **options) -> Bot:
    """Make a bot by name (case-insensitive).  Raises :class:`ValueError` for an unknown
    name, listing the known ones."""
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    return factory(seed=seed, **options)

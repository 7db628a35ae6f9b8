"""The bot interface: a bot decides from its seat's view and the legal actions only (R21).

A bot never receives a :class:`~gameweave.engine.GameState`; it gets a
:class:`~gameweave.engine.SeatView` (whose ``legal`` holds the legal action ints when the
seat is to act) and returns one of those ints.  Bots are made by name with
:func:`make_bot`; each takes an optional ``seed`` so that its choices are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import SeatView


class Bot:
    """Base class.  Subclasses implement :meth:`decide` (called by :meth:`choose`).

    Attributes: ``name`` (registry name), ``seed`` (the seed; drawn at random when None) and
    ``rng`` (a private :class:`random.Random`; the built-in bots seed a fresh generator per
    decision with :func:`view_rng` instead, so they hold no mutable state).
    """

    name = "bot"

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        """Return one action int from ``view.legal`` (non-empty when the seat is to act).

        A lone legal action is returned at once; otherwise :meth:`decide` picks.
        Raises :class:`ValueError` if the view has no legal actions (not this seat's turn).
        """
        legal = view.legal
        if not legal:
            raise ValueError("no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        return self.decide(view)

    def decide(self, view: SeatView) -> int:
        """Pick one of ``view.legal`` (at least two of them).  Subclasses implement it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def view_key(view: SeatView) -> str:
    """A text fingerprint of everything in a view that a decision may depend on (R21):
    equal views give equal keys.  Used to seed per-decision random generators."""
    return "|".join((
        str(view.seat), str(view.hand), str(view.melds), str(view.centre), str(view.live_from),
        str(view.stock_count), str(view.dead), str(view.hand_counts), str(view.forced),
        ";".join(f"{e.seat}{e.action}" for e in view.history),
    ))


def view_rng(seed: int | None, view: SeatView) -> random.Random:
    """A fresh :class:`random.Random` for one decision, seeded from the bot's ``seed`` and
    the view (:func:`view_key`): a decision is a pure function of (seed, view), and a bot
    instance keeps no mutable state between decisions, so it may serve many threads.
    With ``seed=None`` the bot draws a seed once, at construction."""
    return random.Random(f"{seed}#{view_key(view)}")


class RandomBot(Bot):
    """``random``: uniform over the legal actions (deterministic for a seed and a view)."""

    name = "random"

    def decide(self, view: SeatView) -> int:
        return view_rng(self.seed, view).choice(view.legal)


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

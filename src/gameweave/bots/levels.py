"""Named playing levels for people, from ``beginner`` to ``master``: each a fixed bot
configuration (issue 11; the ladder with its measured Elo is in docs/BOTS.md).

``make_level(name, seed=None)`` builds the level's bot; ``level_names()`` lists them
weakest first.  The levels are also registered as bot names, so ``make_bot("casual")``
and ``gameweave arena master intermediate`` work.  Every level decides from its seat's view
only (R21) and is a pure function of (seed, view).

The weaker levels are the ``greedy`` bot that, at a fixed rate, plays a uniformly random
legal action instead (:class:`NoisyBot`): they make a person's kind of mistakes (a
card thrown to the opponent, a meld missed) rather than playing a weaker plan.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import SeatView
from .base import ActionEstimate, Bot, make_bot, register, view_key


class NoisyBot(Bot):
    """A bot that plays a uniformly random legal action with probability ``noise`` and
    otherwise ``base``'s choice (the draw is seeded from (seed, view), so the bot stays a
    pure function of them).  ``estimate`` is the base bot's (the level's opinion, not
    its slips)."""

    name = "noisy"

    def __init__(self, seed: int | None = None, base: str = "greedy", noise: float = 0.3,
                 **base_options: Any):
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError("noise must be between 0 and 1")
        self.noise = noise
        self.base = make_bot(base, seed=self.seed, **base_options)

    def decide(self, view: SeatView) -> int:
        rng = random.Random(f"{self.seed}#noise#{view_key(view)}")
        if rng.random() < self.noise:
            return rng.choice(view.legal)
        return self.base.choose(view)

    def estimate(self, view: SeatView) -> list[ActionEstimate]:
        """The base bot's estimates (see :meth:`Bot.estimate`)."""
        return self.base.estimate(view)


@dataclass(frozen=True)
class Level:
    """One level: ``name``, a one-line ``description`` for a lobby, the ``bot`` name and
    its ``options`` (a fixed configuration)."""

    name: str
    description: str
    bot: str
    options: dict[str, Any] = field(default_factory=dict)


LEVELS: tuple[Level, ...] = (
    Level("beginner", "plays at random three moves in four, sensibly otherwise", "noisy",
          {"base": "greedy", "noise": 0.75}),
    Level("casual", "rules of thumb with a slip about two moves in five", "noisy",
          {"base": "greedy", "noise": 0.4}),
    Level("intermediate", "rules of thumb: melds what helps, throws what is safe", "greedy", {}),
    Level("master", "the default search: 400 simulated deals a move", "search", {"iterations": 400}),
)
"""The levels, weakest first (measured spacing in docs/BOTS.md)."""

_BY_NAME: dict[str, Level] = {lv.name: lv for lv in LEVELS}


def level_names() -> list[str]:
    """The level names, weakest first."""
    return [lv.name for lv in LEVELS]


def find_level(name: str) -> Level:
    """The :class:`Level` called ``name`` (case-insensitive).  Raises :class:`ValueError`
    naming the known levels."""
    lv = _BY_NAME.get(name.strip().lower())
    if lv is None:
        raise ValueError(f"unknown level {name!r} (known: {', '.join(level_names())})")
    return lv


def make_level(name: str, seed: int | None = None) -> Bot:
    """The bot of level ``name`` (see :data:`LEVELS`), seeded with ``seed``.  Raises
    :class:`ValueError` for an unknown level."""
    lv = find_level(name)
    bot = make_bot(lv.bot, seed=seed, **lv.options)
    bot.name = lv.name
    return bot


def _factory(name: str) -> Callable[..., Bot]:
    def make(seed: int | None = None, **options: Any) -> Bot:
        if options:
            raise ValueError(f"level {name!r} is a fixed configuration: it takes no options")
        return make_level(name, seed=seed)

    return make


register("noisy", NoisyBot)
for _lv in LEVELS:
    register(_lv.name, _factory(_lv.name))

__all__ = ["LEVELS", "Level", "NoisyBot", "find_level", "level_names", "make_level"]

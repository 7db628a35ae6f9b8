"""A match: a series of deals between the same two seats (RULES R9, R20).

The opener alternates every deal, tablas included (R9): seat ``first_opener`` opens deal
1, the other seat deal 2, and so on.  Formats (R20): ``"tally"`` (running tally, no end)
and ``"first_to"`` (first seat with N won deals wins the match; tablas score nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .rules import GAMEWEAVE, Rules, find_profile
from .state import PH_OVER, GameState, shuffled_deck

MATCH_FORMATS = ("tally", "first_to")
"""Match formats the engine plays (R20); ``stakes`` belongs to profiles not yet playable."""


@dataclass
class Match:
    """Score keeping and deal sequencing for one match (R9, R20).

    Attributes:
        rules: the profile.
        format: ``"tally"`` or ``"first_to"``.
        target: N for ``first_to`` (>= 1).
        first_opener: seat index (0/1) that opens deal 1.
        wins: won deals per seat index; ``tablas``: tied deals.
        results: per finished deal, the winner's seat index or -1 for tablas.
    """

    rules: Rules = GAMEWEAVE
    format: str = "tally"
    target: int = 3
    first_opener: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    tablas: int = 0
    results: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = find_profile(self.rules)
        if self.format not in MATCH_FORMATS:
            raise ValueError(f"match format must be one of {', '.join(MATCH_FORMATS)}, not {self.format!r}")
        if not isinstance(self.target, int) or self.target < 1:
            raise ValueError(f"first-to target must be a whole number >= 1, not {self.target!r}")
        if self.first_opener not in (0, 1):
            raise ValueError("first_opener must be seat index 0 or 1")

    @property
    def deals_played(self) -> int:
        """Finished deals so far."""
        return len(self.results)

    @property
    def next_opener(self) -> int:
        """Seat index that opens the next deal (R9: alternate every deal)."""
        return self.first_opener ^ (self.deals_played & 1)

    @property
    def is_over(self) -> bool:
        """True once a ``first_to`` match has a winner; a tally never ends."""
        return self.format == "first_to" and max(self.wins) >= self.target

    @property
    def winner(self) -> int:
        """Seat index that won the match, or -1."""
        if not self.is_over:
            return -1
        return 0 if self.wins[0] >= self.target else 1

    def new_deal(
        self, deck: Sequence[int] | str | None = None, *, seed: int | str | None = None
    ) -> GameState:
        """Deal the next deal with the right opener (R9).  ``deck`` or ``seed`` as for
        :meth:`GameState.new`.  Raises :class:`ValueError` if the match is over."""
        if self.is_over:
            raise ValueError("the match is over")
        if deck is None:
            deck = shuffled_deck(0 if seed is None else seed)
        return GameState.new(deck, opener=self.next_opener, rules=self.rules)

    def record(self, state: GameState) -> None:
        """Count a finished deal (R20).  Raises :class:`ValueError` if it is not over."""
        if state.phase != PH_OVER:
            raise ValueError("only a finished deal can be counted")
        self.results.append(state.winner)
        if state.winner >= 0:
            self.wins[state.winner] += 1
        else:
            self.tablas += 1

    def score_text(self) -> str:
        """The tally in words, e.g. ``'Seat 1: 2, Seat 2: 1, tablas: 1 (first to 3)'``."""
        s = f"Seat 1: {self.wins[0]}, Seat 2: {self.wins[1]}, tablas: {self.tablas}"
        if self.format == "first_to":
            s += f" (first to {self.target})"
        return s

"""A match: a series of deals between the same two seats (RULES R9, R20).

The opener alternates every deal, tablas included (R9): seat ``first_opener`` opens deal
1, the other seat deal 2, and so on.  Formats (R20):

* ``"tally"``: wins and tablas are counted; no end.
* ``"first_to"``: the first seat with ``target`` won deals wins the match at once;
  tablas score nothing.
* ``"stakes"``: the loser of a deal pays the stake to the winner.  After tablas the next
  stake is doubled (``tablas_stake="double"``: 1, 2, 4, …) or one base stake is carried
  into it (``"carry"``: 1, 2, 3, …); a won deal pays and resets the stake to the base.
  No end.

Where the profile draws the first opener at random, the caller draws it (the server
from its cryptographic source) and passes it in; the engine has no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Sequence

from .errors import OptionError
from .rules import GAMEWEAVE, MATCH_FORMATS, TABLAS_STAKES, Rules, find_profile
from .state import PH_OVER, GameState, shuffled_deck

MAX_TARGET = 99
"""The largest first-to target (R20)."""
MAX_STAKE = 1_000_000
"""The largest base stake (R20)."""


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def match_options(rules: Rules | str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full option set of a match (R20): ``match``, ``target``, ``stake`` and
    ``tablas_stake``, each taken from ``options`` or the profile's default.

    Raises :class:`OptionError` for an unknown option name or a bad value
    (``tablas_stake="triple"``, ``target=0``, ``match="best_of"``).
    """
    rules = find_profile(rules)
    options = dict(options or {})
    unknown = sorted(set(options) - {"match", "target", "stake", "tablas_stake"})
    if unknown:
        raise OptionError(f"unknown match option {unknown[0]!r} (known: match, target, stake, tablas_stake)")
    fmt = options.get("match", rules.match)
    if fmt not in MATCH_FORMATS:
        raise OptionError(f"match must be one of {', '.join(MATCH_FORMATS)}, not {fmt!r}")
    ts = options.get("tablas_stake", rules.tablas_stake)
    if ts not in TABLAS_STAKES:
        raise OptionError(f"tablas_stake must be one of {', '.join(TABLAS_STAKES)}, not {ts!r}")
    return {
        "match": fmt,
        "target": _whole("target", options.get("target", rules.first_to), 1, MAX_TARGET),
        "stake": _whole("stake", options.get("stake", rules.stake), 1, MAX_STAKE),
        "tablas_stake": ts,
    }


@dataclass
class Match:
    """Score keeping and deal sequencing for one match (R9, R20).

    Attributes:
        rules: the profile.
        format: ``"tally"``, ``"first_to"`` or ``"stakes"``.
        target: N for ``first_to`` (1..99).
        first_opener: seat index (0/1) that opens deal 1.
        stake: base stake for ``stakes``; ``tablas_stake`` ``"double"`` or ``"carry"``.
        wins: won deals per seat index; ``tablas``: tied deals.
        points: stakes won per seat index (``stakes``; 0 otherwise).
        current_stake: the stake of the next deal (``stakes``).
        results: per finished deal, the winner's seat index or -1 for tablas.

    Raises :class:`OptionError` for bad options.
    """

    rules: Rules = GAMEWEAVE
    format: str = ""
    target: int = 0
    first_opener: int = 0
    stake: int = 0
    tablas_stake: str = ""
    wins: list[int] = field(default_factory=lambda: [0, 0])
    tablas: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    current_stake: int = 0
    results: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules = find_profile(self.rules)
        given = {
            k: v for k, v in (
                ("match", self.format), ("target", self.target), ("stake", self.stake),
                ("tablas_stake", self.tablas_stake),
            ) if v not in ("", 0)
        }
        opts = match_options(self.rules, given)
        self.format = opts["match"]
        self.target = opts["target"]
        self.stake = opts["stake"]
        self.tablas_stake = opts["tablas_stake"]
        if self.first_opener not in (0, 1) or isinstance(self.first_opener, bool):
            raise OptionError("first_opener must be seat index 0 or 1")
        if not self.current_stake:
            self.current_stake = self.stake

    @property
    def options(self) -> dict[str, Any]:
        """The match options as written in a match record (§VII)."""
        return {"match": self.format, "target": self.target, "stake": self.stake,
                "tablas_stake": self.tablas_stake}

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
        """True once a ``first_to`` match has a winner; tally and stakes never end."""
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

    def count(self, state: GameState) -> None:
        """Count a finished deal (R20): wins, tablas and stakes.  Raises
        :class:`ValueError` if it is not over or the match is already over."""
        if state.phase != PH_OVER:
            raise ValueError("only a finished deal can be counted")
        if self.is_over:
            raise ValueError("the match is over")
        self.count_result(state.winner)

    def count_result(self, winner: int) -> None:
        """Count a deal by its result: the winner's seat index, or -1 for tablas (R20)."""
        self.results.append(winner)
        if winner >= 0:
            self.wins[winner] += 1
            if self.format == "stakes":
                self.points[winner] += self.current_stake
                self.current_stake = self.stake
        else:
            self.tablas += 1
            if self.format == "stakes":
                if self.tablas_stake == "double":
                    self.current_stake *= 2
                else:
                    self.current_stake += self.stake

    record = count
    """Old name of :meth:`count`."""

    def balance(self, seat: int) -> int:
        """Stakes won minus stakes paid by ``seat`` (``stakes`` format)."""
        return self.points[seat] - self.points[1 - seat]

    def score_text(self) -> str:
        """The score in words, e.g. ``'Seat 1: 2, Seat 2: 1, tablas: 1 (first to 3)'``."""
        s = f"Seat 1: {self.wins[0]}, Seat 2: {self.wins[1]}, tablas: {self.tablas}"
        if self.format == "first_to":
            s += f" (first to {self.target})"
        elif self.format == "stakes":
            s += f"; stakes won: {self.points[0]} to {self.points[1]}, next stake {self.current_stake}"
        return s

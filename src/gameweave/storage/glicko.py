"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) through the PyPI
``glicko2`` package (issue 20).

Why that package: it is the small, dependency-free, MIT-licensed implementation most
used from Python (``deepy/glicko2``), it follows the paper step by step and reproduces
its worked example.  One defect is corrected here: its volatility step's ``f(x)``
(step 5.1 of the paper) uses the player's rating μ² where the paper has the deviation
φ²; the two agree only at μ = 0 (a rating of 1500, the worked example's), so the
package's volatility drifts with the rating.  :class:`_Player` overrides that one
function with the paper's formula; ``tests/test_ratings.py`` holds the worked example
and the translation invariance the paper's formula has.

Scale: ratings and deviations in rating points (1500 / 350 start), volatility as in the
paper (0.06 start), system constant τ = 0.5.  One rated deal is one rating period for
both players (lichess's practice: an update after every game); a score is 1 for a won
deal, 0.5 for tablas, 0 for a lost one.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import glicko2

START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
PROVISIONAL_RD = 110.0
"""A rating whose deviation is above this is provisional (lichess's threshold)."""


class Glicko(NamedTuple):
    """One player's Glicko-2 state: rating and deviation in rating points, volatility."""

    rating: float
    rd: float
    vol: float

    @property
    def provisional(self) -> bool:
        """True while the deviation is above :data:`PROVISIONAL_RD`."""
        return self.rd > PROVISIONAL_RD


START = Glicko(START_RATING, START_RD, START_VOL)
"""A player's rating before any rated deal."""


class _Player(glicko2.Player):
    """The package's player with the paper's ``f(x)`` (φ², not μ², see the module)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        ex = math.exp(x)
        phi2 = self._Player__rd ** 2  # type: ignore[attr-defined]
        return ex * (delta ** 2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (self._tau ** 2)


def rate(player: Glicko, results: list[tuple[Glicko, float]]) -> Glicko:
    """``player`` after one rating period against ``results``: ``(opponent before the
    period, score)`` pairs, score 1 / 0.5 / 0.  An empty list only widens the deviation
    (step 6 of the paper)."""
    p = _Player(player.rating, player.rd, player.vol)
    if results:
        p.update_player([o.rating for o, _ in results], [o.rd for o, _ in results], [s for _, s in results])
    else:
        p.did_not_compete()
    return Glicko(float(p.rating), float(p.rd), float(p.vol))


def rate_deal(one: Glicko, two: Glicko, score_one: float) -> tuple[Glicko, Glicko]:
    """Both players after one deal between them (seat 1's score ``score_one``: 1 won,
    0.5 tablas, 0 lost), each rated against the other's rating before the deal."""
    return rate(one, [(two, score_one)]), rate(two, [(one, 1.0 - score_one)])


__all__ = ["Glicko", "PROVISIONAL_RD", "START", "START_RATING", "START_RD", "START_VOL", "rate", "rate_deal"]

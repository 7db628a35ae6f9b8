"""Wire schemas of the ratings, leaderboard and player routes (issue 20,
``routes/players.py``; PROTOCOL §3.18 and §3.19)."""

from __future__ import annotations

from pydantic import BaseModel

from .schemas import ChartFrame


class BotRating(BaseModel):
    """A bot level's measured ladder rating (``gameweave ladder``; the profile measured)."""

    bot: str
    rules: str
    rating: int
    rd: int


class RatingFigures(BaseModel):
    """A Glicko-2 rating and deviation (whole points), ``provisional`` (deviation above
    110) and the rated deals won / tablas / lost."""

    rating: int
    rd: int
    provisional: bool
    deals: int
    won: int
    tablas: int
    lost: int


class LeaderRow(RatingFigures):
    """One player of a leaderboard: rank (1 = best) and name, with the rating figures."""

    rank: int
    username: str


class Leaderboard(BaseModel):
    """``GET /api/leaderboard?rules=…``: the profile, the provisional threshold, the
    players (established first, then provisional, each by rating) and the bot levels'
    ladder ratings (to compare)."""

    rules: str
    provisional_rd: float
    players: list[LeaderRow]
    bots: list[BotRating]


class RatingPoint(BaseModel):
    """The ``[data-point]`` of one rated deal on the rating chart (SVG units)."""

    step: int
    seat: int
    rating: int
    mistake: bool
    x: float
    y: float
    r: float


class RatingChart(ChartFrame):
    """The rating-history graph (``tables.chart.rating_geometry``; ``web/chart.js`` draws it)."""

    points: list[RatingPoint]


class RatedDeal(BaseModel):
    """One rated deal in a player's history: where, the score (1 won, 0.5 tablas, 0
    lost), the rating and deviation after it, the opponent (null once deleted), when."""

    match_id: str
    deal: int
    score: float
    rating: int
    rd: int
    opponent: str | None
    at: str


class ProfileRating(RatingFigures):
    """A player's rating in one profile, its rated deals won / tablas / lost, the current
    streak (+n won in a row, -n lost, 0), the history (oldest first, the newest 200) and
    its chart."""

    rules: str
    streak: int
    history: list[RatedDeal]
    chart: RatingChart


class RecentDeal(BaseModel):
    """A deal of a recent match: number, ``playing`` / ``won`` / ``tablas``, the winning
    seat (1/2) and, once over, the address of its public replay (null while it is played:
    a live deal reveals nothing)."""

    number: int
    status: str
    winner: int | None
    replay: str | None


class RecentMatch(BaseModel):
    """One of a player's recent matches: its id, the player's seat, profile, rated or
    not, when it began, the opponent's name (or a bot level), its deals."""

    match_id: str
    seat: int
    rules: str
    rated: bool
    created_at: str
    opponent: str | None
    bot: bool
    deals: list[RecentDeal]


class PlayerOut(BaseModel):
    """``GET /api/players/{name}``: a player's public profile (nothing private: no
    token, no seat secret, no hand of a live deal)."""

    username: str
    ratings: list[ProfileRating]
    matches: list[RecentMatch]


__all__ = ["BotRating", "LeaderRow", "Leaderboard", "PlayerOut", "ProfileRating", "RatedDeal", "RatingChart",
           "RatingPoint", "RecentDeal", "RecentMatch"]

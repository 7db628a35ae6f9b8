"""Wire schemas (pydantic): request bodies and the response model of every route.

Separate from the storage rows and from :class:`~gameweave.tables.Table`: the table
builds plain dicts, and these models describe (and check) them at the edge, so
``/openapi.json`` documents every response.  Request bodies are strict: unknown fields
are refused and a JSON ``"3"``, ``true`` or ``3.0`` is not a whole number (PROTOCOL §3).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_SEATS_LISTED = 200
"""Most seats in one ``POST /api/my-matches``."""


class _Strict(BaseModel):
    """Base of every request body: unknown fields are refused and types are strict."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------- requests
class CreateMatch(_Strict):
    """``POST /api/matches`` body.  ``bot`` left out (or null) means ``random``."""

    opponent: Literal["bot", "friend"] = "bot"
    bot: str | None = Field(None, max_length=32)
    format: Literal["first_to", "tally"] = "first_to"
    target: int = Field(3, ge=1, le=99)
    rules: Literal["gameweave", "anglo-american", "pagat", "classic"] = "gameweave"

    @field_validator("rules", mode="before")
    @classmethod
    def _profile_name_any_case(cls, value: object) -> object:
        """Profile names are case-insensitive (RULES §V): ``"PAGAT"`` is ``"pagat"``."""
        return value.strip().lower() if isinstance(value, str) else value


class JoinMatch(_Strict):
    """``POST /api/matches/{id}/join`` and ``…/invite-status`` body."""

    invite: str = Field(..., max_length=128)


class SeatRef(_Strict):
    """One remembered seat."""

    match_id: str = Field(..., max_length=32)
    token: str = Field(..., max_length=128)


class MyMatches(_Strict):
    """``POST /api/my-matches`` body."""

    seats: list[SeatRef] = Field(default_factory=list, max_length=MAX_SEATS_LISTED)


# ---------------------------------------------------------------------------- responses
class BotList(BaseModel):
    """``GET /api/bots``."""

    bots: list[str]


class SeatCreated(BaseModel):
    """``POST /api/matches`` response."""

    match_id: str
    seat: int
    token: str
    invite_url: str | None
    table_url: str


class SeatJoined(BaseModel):
    """``POST /api/matches/{id}/join`` response."""

    match_id: str
    seat: int
    token: str
    table_url: str


class InviteStatus(BaseModel):
    """``POST /api/matches/{id}/invite-status`` response."""

    open: bool
    code: Literal["unknown_match", "not_a_friend_match", "bad_invite", "already_joined"] | None


class Summary(BaseModel):
    """A seat's lobby summary of one match (PROTOCOL §3.5)."""

    match_id: str
    seat: int
    rules: str = "gameweave"
    opponent: dict[str, Any]
    format: str
    target: int
    score: dict[str, int]
    over: bool
    winner: int | None
    deal_number: int
    status: Literal["waiting_for_opponent", "your_turn", "their_turn", "deal_over", "match_over"]
    table_url: str
    created_at: str


class MyMatchesOut(BaseModel):
    """``POST /api/my-matches`` response."""

    matches: list[Summary]


class MatchInfo(BaseModel):
    """The ``match`` object of a state frame."""

    id: str
    rules: str
    format: str
    target: int
    score: dict[str, int]
    results: list[int | None]
    deal_number: int
    over: bool
    winner: int | None
    opponent: dict[str, Any]
    invite_url: str | None


class Reveal(BaseModel):
    """A finished deal's deck order and salt."""

    deck: str
    salt: str


class DealOut(BaseModel):
    """The ``deal`` object of a state frame."""

    number: int
    commitment: str
    reveal: Reveal | None


class StateFrame(BaseModel):
    """A seat's state: the WebSocket ``state`` frame and ``GET …/view`` (PROTOCOL §4.3).
    ``view`` is the engine's ``SeatView.to_dict()``."""

    type: Literal["state"]
    version: int
    seat: int
    match: MatchInfo
    deal: DealOut
    view: dict[str, Any]


class DealResult(BaseModel):
    """How a deal ended: ``won`` (``winner`` 1 or 2) or ``tablas``."""

    status: str
    winner: int | None


class RecordDownload(BaseModel):
    """``GET …/deals/{n}/record``: the §VII record with the revealed salt."""

    record: dict[str, Any]
    salt: str
    commitment: str
    result: DealResult


class ReplayOut(RecordDownload):
    """``GET …/deals/{n}/replay``: the record plus the public history and one
    full-information snapshot per position; ``rearranging`` tells the page how melds
    are written (R18)."""

    rearranging: bool = False
    history: list[dict[str, Any]]
    snapshots: list[dict[str, Any]]


class Health(BaseModel):
    """``GET /api/health``: the process answers."""

    ok: bool


class Ready(BaseModel):
    """``GET /api/ready``: the database (and Redis, with several nodes) answer."""

    ok: bool
    node: str
    database: bool
    redis: bool | None


__all__ = [
    "BotList", "CreateMatch", "DealOut", "Health", "InviteStatus", "JoinMatch", "MAX_SEATS_LISTED",
    "MatchInfo", "MyMatches", "MyMatchesOut", "Ready", "RecordDownload", "ReplayOut", "SeatCreated",
    "SeatJoined", "SeatRef", "StateFrame", "Summary",
]

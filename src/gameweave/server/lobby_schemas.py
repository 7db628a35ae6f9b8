"""Wire schemas of open tables, the queue and the lobby feed (issue 20, ``routes/open.py``
and ``/ws/lobby``; PROTOCOL §3.15-§3.17).  Request bodies are strict, as every request
body of the API (:mod:`.schemas`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .schemas import _Strict

Rules = Literal["gameweave", "anglo-american", "pagat", "classic"]


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


class CreateOpen(_Strict):
    """``POST /api/open-tables``: the match, as for ``POST /api/matches`` (options left
    out are the profile's defaults), and ``rated`` (needs an account)."""

    rules: Rules = "gameweave"
    format: Literal["first_to", "tally", "stakes"] = Field(None)  # type: ignore[assignment]
    target: int = Field(None, ge=1, le=99)  # type: ignore[assignment]
    stake: int = Field(None, ge=1, le=1_000_000)  # type: ignore[assignment]
    tablas_stake: Literal["double", "carry"] = Field(None)  # type: ignore[assignment]
    clock: Literal[60, 30] | None = None
    rated: bool = Field(False, description="the deals count for ratings: only a signed-in player's table, "
                        "and only another account may sit")
    name: str | None = Field(None, description="your name (default: your username, else "
                             "'Player 1')")

    @field_validator("rules", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        """Profile names are case-insensitive (RULES §V)."""
        return _lower(value)


class SitDown(_Strict):
    """``POST /api/open-tables/{match_id}/sit``: your name (optional)."""

    name: str | None = None


class JoinQueue(_Strict):
    """``POST /api/queue``: the profile and clock to be matched for; ``rated`` (default
    true) counts only when signed in (a guest always queues casually)."""

    rules: Rules = "gameweave"
    clock: Literal[60, 30] | None = None
    rated: bool = True
    name: str | None = None
    browser: str | None = Field(None, min_length=1, max_length=128,
                                description="optional: a random id this browser keeps for itself (the page: "
                                "localStorage gameweave.browser); two entries with the same one are never paired")

    @field_validator("rules", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        """Profile names are case-insensitive (RULES §V)."""
        return _lower(value)


class Ticket(_Strict):
    """``POST /api/queue/status`` and ``/cancel``: the ticket ``POST /api/queue`` gave."""

    ticket: str = Field(..., max_length=128)


class OpenTableOut(BaseModel):
    """An open table as every lobby lists it: nothing private (no account, no address)."""

    match_id: str
    rules: str
    format: str
    target: int
    clock: int | None
    rated: bool
    name: str | None = Field(description="the creator's name (null: the page says 'Player 1')")
    rating: int | None = Field(description="the creator's rating under these rules (null for a guest)")
    created_at: str


class OpenTablesOut(BaseModel):
    """``GET /api/open-tables``: the open tables, oldest first (at most 200)."""

    tables: list[OpenTableOut]


class OpenSeat(BaseModel):
    """A seat at an open table: seat 1 (you created it) or 2 (you sat); the token is
    given only now."""

    match_id: str
    seat: int
    token: str
    table_url: str
    rated: bool


class SitOut(BaseModel):
    """``POST /api/open-tables/{match_id}/sit``: the outcome of the race for seat 2,
    always 200 (an answer, not an error): ``seated`` with the seat's token (given only
    now), or not, with ``code`` ``seat_taken`` (someone sat first) or ``table_gone``
    (withdrawn meanwhile)."""

    seated: bool
    code: Literal["seat_taken", "table_gone"] | None
    match_id: str
    seat: int | None
    token: str | None
    table_url: str | None
    rated: bool


class Withdrawn(BaseModel):
    """``POST /api/open-tables/{match_id}/cancel``: whether the table was withdrawn
    (false: someone had sat already, and the match goes on)."""

    withdrawn: bool


class QueueOut(BaseModel):
    """A queue entry as its holder sees it."""

    ticket: str | None = Field(None, description="given once, by POST /api/queue")
    status: Literal["waiting", "paired", "cancelled", "gone"]
    rules: str
    clock: int | None
    rated: bool
    waited_s: float
    window: int = Field(description="the rating window now (±): 100, widening to 400 over 30 s of waiting")
    match_id: str | None
    seat: int | None
    token: str | None = Field(description="once paired: your seat's token")
    table_url: str | None


# ---------------------------------------------------------------------------- /ws/lobby frames
class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OpenTablesFrame(_Frame):
    """The whole list, at once on connecting."""

    type: Literal["open_tables"]
    tables: list[OpenTableOut]


class OpenTableFrame(_Frame):
    """A table was opened (on any node)."""

    type: Literal["open_table"]
    table: OpenTableOut


class OpenTableGoneFrame(_Frame):
    """A table left the list."""

    type: Literal["open_table_gone"]
    match_id: str
    reason: Literal["taken", "cancelled", "left"]


class QueueFrame(QueueOut):
    """The followed entry: the answer to ``follow`` and ``ping``, and at once when it is
    paired (with the seat's token)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["queue"]


class LobbyErrorFrame(_Frame):
    """A refused frame: ``malformed``, ``unknown_ticket`` or ``rate_limited``."""

    type: Literal["error"]
    code: Literal["malformed", "unknown_ticket", "rate_limited"]
    message: str
    params: dict[str, Any]


LobbyFrame = Annotated[OpenTablesFrame | OpenTableFrame | OpenTableGoneFrame | QueueFrame | LobbyErrorFrame,
                       Field(discriminator="type")]
"""Every frame ``/ws/lobby`` sends (PROTOCOL §3.17)."""


__all__ = ["LobbyErrorFrame", "LobbyFrame", "OpenTableFrame", "OpenTableGoneFrame", "OpenTablesFrame", "QueueFrame",
           "CreateOpen", "JoinQueue", "OpenSeat", "OpenTableOut", "OpenTablesOut", "QueueOut", "SitDown", "SitOut",
           "Ticket", "Withdrawn"]

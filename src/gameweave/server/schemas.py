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
    """``POST /api/matches`` body.  ``bot`` left out (or null) means ``random``;
    ``format``, ``target``, ``stake`` and ``tablas_stake`` left out mean the profile's
    defaults (R20, ``GET /api/profiles``).  ``stakes`` is offered by the classic
    profile only; ``stake`` and ``tablas_stake`` belong to a stakes match (else 422
    ``bad_option``)."""

    opponent: Literal["bot", "friend"] = "bot"
    bot: str | None = Field(None, max_length=32)
    # left out = the profile's default; an explicit null is refused like any wrong type
    format: Literal["first_to", "tally", "stakes"] = Field(None)  # type: ignore[assignment]
    target: int = Field(None, ge=1, le=99)  # type: ignore[assignment]
    stake: int = Field(None, ge=1, le=1_000_000)  # type: ignore[assignment]
    tablas_stake: Literal["double", "carry"] = Field(None)  # type: ignore[assignment]
    rules: Literal["gameweave", "anglo-american", "pagat", "classic"] = "gameweave"
    name: str | None = Field(None, max_length=256, description="seat 1's name: 1-24 characters once trimmed, "
                             "no control characters (else 422 bad_name); null: the page says 'Player 1'")
    clock: Literal[60, 30] | None = Field(None, description="seconds per decision, or null for no clock "
                                          "(a time bank of 30 s for 60, 15 s for 30)")
    hints: bool = Field(False, description="a friend match: both seats may ask for hints (the invitee agrees "
                        "by joining); a bot match always has hints")

    @field_validator("rules", mode="before")
    @classmethod
    def _profile_name_any_case(cls, value: object) -> object:
        """Profile names are case-insensitive (RULES §V): ``"PAGAT"`` is ``"pagat"``."""
        return value.strip().lower() if isinstance(value, str) else value


class JoinMatch(_Strict):
    """``POST /api/matches/{id}/invite-status`` body."""

    invite: str = Field(..., max_length=128)


class JoinWithName(JoinMatch):
    """``POST /api/matches/{id}/join`` body: the invite and seat 2's ``name`` (optional,
    as for ``POST /api/matches``)."""

    name: str | None = Field(None, max_length=256)


class SeatRef(_Strict):
    """One remembered seat."""

    match_id: str = Field(..., max_length=32)
    token: str = Field(..., max_length=128)


class MyMatches(_Strict):
    """``POST /api/my-matches`` body."""

    seats: list[SeatRef] = Field(default_factory=list, max_length=MAX_SEATS_LISTED)


# ---------------------------------------------------------------------------- responses
class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code`` (PROTOCOL §3) and a sentence for a person."""

    code: str = Field(..., examples=["malformed"])
    message: str = Field(..., examples=["'target' must be a whole number"])
    params: dict[str, Any] = Field(default_factory=dict, examples=[{"max": 24}])


class ErrorBody(BaseModel):
    """Every refused request: ``{"error": {"code", "message", "params"}}`` (PROTOCOL §3);
    the page says ``error.<code>`` from its catalog with ``params``."""

    error: ErrorDetail


ERROR_TEXT = {
    400: "Refused: e.g. ``unknown_bot``.",
    401: "``bad_token``: no ``Authorization: Bearer <seat token>`` of this match.",
    403: "``bad_invite``: the invite is not this match's.",
    404: "``unknown_match``, ``unknown_deal`` or ``not_found``.",
    409: "``already_joined``, ``deal_not_over`` or ``not_a_friend_match``.",
    413: "``too_large``: a body over 64 KiB.",
    422: "``malformed`` (not JSON, unknown or wrongly typed fields, values out of range), "
         "``bad_option`` (an option the profile does not offer) or ``bad_name``; the message says which, in words.",
    429: "``rate_limited``: too many requests from this address.",
}
"""What each error status of the API means (PROTOCOL §3)."""


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the real body
    :class:`ErrorBody` (instead of FastAPI's default ``{"detail": …}``)."""
    return {s: {"model": ErrorBody, "description": ERROR_TEXT[s]} for s in statuses}


class BotList(BaseModel):
    """``GET /api/bots``: the bots offered to people, ``random`` then the levels weakest
    first (``beginner``, ``casual``, ``intermediate``, ``master``)."""

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
    hints: bool = False


class Stakes(BaseModel):
    """A stakes match's balance (R20): stakes won per seat, the next deal's stake, the
    base stake and what tablas does to it."""

    points: dict[str, int]
    current_stake: int
    base: int
    tablas_stake: Literal["double", "carry"]


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
    status: Literal["waiting_for_opponent", "your_turn", "their_turn", "deal_over", "match_over", "abandoned"]
    table_url: str
    created_at: str
    stakes: Stakes | None = None
    test: bool = False
    players: dict[str, Player] | None = None
    resigned: int | None = None
    clock: int | None = None


class MyMatchesOut(BaseModel):
    """``POST /api/my-matches`` response."""

    matches: list[Summary]


class Player(BaseModel):
    """Who plays a seat and how they are now (``match.players``, issue 10)."""

    name: str | None
    kind: Literal["person", "bot"]
    bot: str | None
    online: bool
    away: bool
    ready: bool


class Clock(BaseModel):
    """The server's clock (``match.clock``): seconds per decision, each seat's time bank
    left, the seat timed now and its time left from the frame's send time."""

    per_decision: float
    bank: dict[str, float]
    to_act: int | None
    deadline_in_ms: int | None


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
    stakes: Stakes | None = None
    test: bool = False
    players: dict[str, Player] | None = None
    waiting_for: list[int] = Field(default_factory=list)
    timed_out: dict[str, int] | None = None
    last_deal: int | None = None
    resigned: int | None = None
    abandoned: bool = False
    clock: Clock | None = None
    watch_url: str | None = None
    spectators: int = 0
    hints: bool = False


class Reveal(BaseModel):
    """A finished deal's deck order and salt."""

    deck: str
    salt: str


class DealOut(BaseModel):
    """The ``deal`` object of a state frame."""

    number: int
    commitment: str
    reveal: Reveal | None
    test: bool = False
    resigned: int | None = None


class Choice(BaseModel):
    """One legal action of the seat to act, described (PROTOCOL §4.3, from its view only, R21):
    ``id`` is the action int a client sends back, ``action`` its §VII text."""

    id: int
    action: str
    kind: Literal["meld", "table", "turn", "refuse", "throw", "force"]
    card: str | None
    force: list[str] | None
    melds: list[list[str]] | None
    uses: list[str]
    gives_eleven: bool


class Progress(BaseModel):
    """Cards melded per seat and the seats one card from eleven (R16)."""

    melded: dict[str, int]
    one_from_eleven: list[int]


class StateFrame(BaseModel):
    """A seat's state: the WebSocket ``state`` frame and ``GET …/view`` (PROTOCOL §4.3).
    ``view`` is the engine's ``SeatView.to_dict()``."""

    type: Literal["state"]
    version: int
    seat: int | None
    match: MatchInfo
    deal: DealOut
    view: dict[str, Any]
    choices: list[Choice] = Field(default_factory=list)
    progress: Progress | None = None


class DealResult(BaseModel):
    """How a deal ended: ``won`` (``winner`` 1 or 2) or ``tablas``; ``resigned``: the
    seat that resigned it (the other won it), or null."""

    status: str
    winner: int | None
    resigned: int | None = None


class SeatPlayer(BaseModel):
    """Who plays a seat: a person, or a bot by name; ``name`` the player's name or null."""

    kind: Literal["person", "bot"]
    bot: str | None
    name: str | None = None


class RecordDownload(BaseModel):
    """``GET …/deals/{n}/record``: the §VII record with the revealed salt."""

    record: dict[str, Any]
    salt: str
    commitment: str
    result: DealResult
    test: bool = False
    seats: dict[str, SeatPlayer] | None = None


class ReplayOut(RecordDownload):
    """``GET …/deals/{n}/replay``: the record plus the public history and one
    full-information snapshot per position; ``rearranging`` tells the page how melds
    are written (R18)."""

    rearranging: bool = False
    history: list[dict[str, Any]]
    snapshots: list[dict[str, Any]]
    deals: int


class HintEstimate(BaseModel):
    """One legal action's estimate in a hint: §VII text and its chances (0..1);
    ``score`` = win + tablas / 2, the *win chance* the page shows."""

    action: str
    win: float
    tablas: float
    loss: float
    score: float


class HintOut(BaseModel):
    """``GET /api/matches/{id}/hint``: the state version it was computed at, the advising
    level, every legal action's estimate best first, and the best action."""

    version: int
    level: str
    estimates: list[HintEstimate]
    best: str


class Chances(BaseModel):
    """Win / tablas / loss chances (0..1)."""

    win: float
    tablas: float
    loss: float


class AnalysedDecision(BaseModel):
    """One decision of a finished deal (``bots.advice.DecisionAnalysis.to_dict``)."""

    step: int
    seat: int
    decision: str
    legal: int
    played: str
    played_win_chance: float
    played_chances: Chances
    best: str
    best_win_chance: float
    best_chances: Chances
    drop: float
    mistake: bool
    samples: int
    best_choice: Choice | None = None
    """The best alternative as structured data (the state frame's ``choices`` shape,
    from the deciding seat's view), so the page never reads the action's text."""


class AnalysisOut(BaseModel):
    """``GET /api/matches/{id}/deals/{n}/analysis`` (``bots.advice.Analysis.to_dict``)."""

    deal: int
    rules: str
    status: str
    winner: int | None
    level: str
    seed: int
    mistake_drop: float
    decisions: list[AnalysedDecision]
    mistakes: dict[str, int]
    seconds: float


class StakeOffer(BaseModel):
    """The stakes options a profile offers (R20)."""

    default: int
    max: int
    tablas_stake: list[str]
    default_tablas_stake: str


class ProfileOffer(BaseModel):
    """One profile as the lobby offers it (§V, R20)."""

    name: str
    title: str
    summary: str
    rearranging: bool
    force_back: bool
    max_sequence: int | None
    formats: list[Literal["first_to", "tally", "stakes"]]
    default_format: str
    default_target: int
    max_target: int
    stake: StakeOffer | None


class ProfileList(BaseModel):
    """``GET /api/profiles``."""

    profiles: list[ProfileOffer]


class HelpSection(BaseModel):
    """One section of a profile's rules summary."""

    title: str
    text: str


class ProfileHelp(BaseModel):
    """A profile's title, one-line summary and rules sections."""

    title: str
    summary: str
    sections: list[HelpSection]


class GlossaryEntry(BaseModel):
    """One term of the game and what it means."""

    term: str
    text: str


class HelpOut(BaseModel):
    """``GET /api/help``: how to play, from ``tables/help.json``."""

    profiles: dict[str, ProfileHelp]
    glossary: list[GlossaryEntry]
    tips: list[str]


class Catalog(BaseModel):
    """``GET /api/i18n/{lang}``: every message of one language (keys as in the .po files)."""

    lang: Literal["es", "en"]
    messages: dict[str, str]


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
    "AnalysedDecision", "AnalysisOut", "BotList", "Chances", "HintEstimate", "HintOut", "Catalog", "Choice", "Clock", "JoinWithName", "Player", "CreateMatch", "ERROR_TEXT", "error_responses", "DealOut", "ErrorBody", "ErrorDetail", "GlossaryEntry", "Health",
    "HelpOut", "HelpSection", "InviteStatus", "JoinMatch", "MAX_SEATS_LISTED", "MatchInfo", "MyMatches",
    "MyMatchesOut", "ProfileHelp", "ProfileList", "ProfileOffer", "Progress", "Ready", "RecordDownload",
    "ReplayOut", "SeatCreated", "SeatJoined", "SeatPlayer", "SeatRef", "StakeOffer", "Stakes", "StateFrame",
    "Summary",
]

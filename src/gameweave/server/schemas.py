"""Wire schemas (pydantic): request bodies and the response model of every route.

Separate from the storage rows and from :class:`~gameweave.tables.Table`: the server
builds plain dicts (:mod:`~gameweave.server.frames`), and these models describe (and
check) them at the edge, so ``/openapi.json`` documents every response.  The models of
the state frame, its view and history, the summary, the record and the replay live in
:mod:`~gameweave.server.frame_schemas` and are exported here too.  Request bodies are strict: unknown fields
are refused and a JSON ``"3"``, ``true`` or ``3.0`` is not a whole number (PROTOCOL §3).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .frame_schemas import (
    BotOpponent, Choice, Clock, DealOut, DealResult, EventOut, MatchInfo, PersonOpponent, Player, Progress,
    PublicViewOut, RecordDownload, RecordOut, ReplayOut, Reveal, SeatPlayer, SeatViewOut, SnapshotOut, SnapshotSeat,
    SpectatorViewOut, Stakes, StateFrame, Summary, TimedOut,
)

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
    name: str | None = Field(None, description="seat 1's name: 1-24 characters once trimmed, "
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

    name: str | None = None


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
    401: "``bad_token``: no ``Authorization: Bearer <seat token>`` of this match; ``bad_credentials`` or "
         "``not_signed_in`` (accounts).",
    403: "``bad_invite``: the invite is not this match's; ``cross_origin``: a request from another site (§3.13).",
    404: "``unknown_match``, ``unknown_deal``, ``not_found`` or ``seat_not_held`` (accounts).",
    409: "``already_joined``, ``deal_not_over``, ``not_a_friend_match`` or ``username_taken``.",
    413: "``too_large``: a body over 64 KiB.",
    422: "``malformed`` (not JSON, unknown or wrongly typed fields, values out of range), "
         "``bad_option`` (an option the profile does not offer), ``bad_name``, ``bad_username`` or ``bad_password``; "
         "the message says which, in words.",
    429: "``rate_limited``: too many requests from this address (or sign-in attempts for this account); "
         "``params.retry_after`` says in how many seconds to try again.",
}
"""What each error status of the API means (PROTOCOL §3)."""


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the real body
    :class:`ErrorBody` (instead of FastAPI's default ``{"detail": …}``)."""
    return {s: {"model": ErrorBody, "description": ERROR_TEXT[s]} for s in statuses}


class BotList(BaseModel):
    """``GET /api/bots``: the bots offered to people, ``random`` then the levels weakest
    first (``beginner``, ``casual``, ``intermediate``, ``master``); ``ladder``: each
    measured level's ladder rating (issue 20, ``gameweave ladder``; whole points)."""

    bots: list[str]
    ladder: dict[str, int] = {}


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


class MyMatchesOut(BaseModel):
    """``POST /api/my-matches`` response."""

    matches: list[Summary]


class HintEstimate(BaseModel):
    """One legal action's estimate in a hint: its ``id`` (the action int, as in the state
    frame's ``choices``), its §VII text and its chances (0..1); ``score`` = win +
    tablas / 2, the *win chance* the page shows."""

    id: int
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
    best_id: int
    """The best action's id (the action int; ``best`` is its §VII text)."""


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
    played_id: int
    """The action played, as its id (the action int; ``played`` is its §VII text)."""
    played_win_chance: float
    played_chances: Chances
    best: str
    best_id: int
    """The best action's id (``best`` is its §VII text)."""
    best_win_chance: float
    best_chances: Chances
    drop: float
    mistake: bool
    samples: int
    best_choice: Choice | None = None
    """The best alternative as structured data (the state frame's ``choices`` shape,
    from the deciding seat's view), so the page never reads the action's text."""


class ChartPoint(BaseModel):
    """One decision's point of the win-chance graph (SVG units, y downwards)."""

    step: int
    seat: int
    chance: float
    """The deciding seat's win chance of the move played (``played_win_chance``), 0..1."""
    mistake: bool
    x: float
    y: float
    r: float


class ChartXTick(BaseModel):
    """A step marked under the graph."""

    step: int
    x: float


class ChartYTick(BaseModel):
    """A chance marked left of the graph (0..1)."""

    value: float
    y: float


class ChartLegend(BaseModel):
    """Where a seat's name goes in the graph's legend."""

    seat: int
    x: float
    y: float


class ChartFrame(BaseModel):
    """What every placed graph has (``tables.chart``): its size, plot area, steps and
    their x, ticks, lines, legend, caption and colours; the points are the graph's own."""

    width: float
    height: float
    plot: dict[str, float]
    steps: int
    step_x: list[float]
    """The x of every step, 0 (the deal as dealt) to ``steps``."""
    x_ticks: list[ChartXTick]
    y_ticks: list[ChartYTick]
    lines: dict[str, str]
    """Each seat's line ("1", "2") as SVG polyline points."""
    legend: list[ChartLegend]
    caption: dict[str, float]
    """Where a file's visible title goes (``x``, ``y``; the page has its own heading)."""
    colors: dict[str, str]


class ChartOut(ChartFrame):
    """The win-chance graph of an analysed deal, placed (``tables.chart.chart_geometry``):
    the page draws these numbers and ``gameweave analyze --svg`` the same ones."""

    points: list[ChartPoint]


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
    steps: int
    """How many actions the deal's record holds."""
    chart: ChartOut


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


class CreateTutorial(_Strict):
    """``POST /api/tutorial`` body: seat 1's ``name`` (optional, as for ``POST /api/matches``)."""

    name: str | None = None


class TutorialStep(BaseModel):
    """One step of the guided deal's words."""

    n: int = Field(..., description="the step's number, 1 to total, over the whole guided deal")
    key: str = Field(..., description="the catalogue key of its text (tutorial.step.*)")
    params: dict[str, str | list[str]] = Field(..., description="the text's parameters: a card or cards in §VII "
                                                "notation, each one the seat sees now (R21)")
    action: str | None = Field(..., description="the §VII text of the move this step asks for (one of the "
                               "seat's choices), or null for a step read and passed with 'next'")


class TutorialGuide(BaseModel):
    """``GET /api/matches/{id}/tutorial``: what the guide says at one point of the deal."""

    at: int = Field(..., description="the point answered: the number of actions the deal had (never ahead of now)")
    on_script: bool = Field(..., description="false once the deal left the script: play on freely")
    finished: bool = Field(..., description="the script's end: the deal won with the eleventh card")
    total: int = Field(..., description="how many steps the guided deal has in all")
    steps: list[TutorialStep] = Field(..., description="in order; empty where the guide has nothing to say")


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
    "AnalysedDecision", "AnalysisOut", "BotList", "BotOpponent", "Catalog", "Chances", "ChartLegend", "ChartOut",
    "ChartPoint", "ChartXTick", "ChartYTick", "Choice", "Clock", "CreateMatch",
    "DealOut", "DealResult", "ERROR_TEXT", "ErrorBody", "ErrorDetail", "EventOut", "GlossaryEntry", "Health",
    "HelpOut", "HelpSection", "HintEstimate", "HintOut", "InviteStatus", "JoinMatch", "JoinWithName",
    "MAX_SEATS_LISTED", "MatchInfo", "MyMatches", "MyMatchesOut", "PersonOpponent", "Player", "ProfileHelp",
    "ProfileList", "ProfileOffer", "Progress", "PublicViewOut", "Ready", "RecordDownload", "RecordOut", "ReplayOut",
    "Reveal", "SeatCreated", "SeatJoined", "SeatPlayer", "SeatRef", "SeatViewOut", "SnapshotOut", "SnapshotSeat",
    "SpectatorViewOut", "StakeOffer", "Stakes", "StateFrame", "Summary", "TimedOut", "error_responses",
]

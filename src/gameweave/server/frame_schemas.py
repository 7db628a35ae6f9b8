"""Wire models of what :mod:`gameweave.server.frames` and :mod:`gameweave.server.replay`
build: the state frame of a seat and of a spectator with its view, history, choices and
progress (PROTOCOL §4.3), the lobby summary (§3.5), the record download (§3.6) and the
replay with its snapshots (§3.6b).

The frames themselves stay plain dicts (the WebSocket's hot path); these models describe
them in ``/openapi.json``, check them as HTTP response models, and hold the tests to what
goes out.  Every model refuses unknown fields (``extra="forbid"``): a field added to a
frame without its model fails the tests.  Seats are numbered 1/2; cards, melds and
actions are canonical text (R3, R4, §VII); ``id`` fields are action ints.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["playing", "won", "tablas"]
Decision = Literal["turn", "take_or_turn", "meld_or_refuse", "throw", "meld"]
Cards = list[str]
"""Cards as canonical names, in card order."""
PerSeat = dict[Literal["1", "2"], int]


class _Out(BaseModel):
    """Base of every frame model: no field the model does not name."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------- the match
class Stakes(_Out):
    """A stakes match's balance (R20): stakes won per seat, the next deal's stake, the
    base stake and what tablas does to it."""

    points: PerSeat
    current_stake: int
    base: int
    tablas_stake: Literal["double", "carry"]


class ShownRating(_Out):
    """A rating shown beside a name (issue 20): the profile it is for, the Glicko-2
    rating and deviation (whole points), ``provisional`` (deviation above 110) and
    ``ladder`` (a bot level's measured ladder rating, ``gameweave ladder``)."""

    rules: str
    rating: int
    rd: int
    provisional: bool
    ladder: bool = False


class Player(_Out):
    """Who plays a seat and how they are now (``match.players``, issue 10)."""

    name: str | None
    kind: Literal["person", "bot"]
    bot: str | None
    online: bool
    away: bool
    ready: bool
    rating: ShownRating | None = None


class Clock(_Out):
    """The server's clock (``match.clock``): seconds per decision, each seat's time bank
    left, the seat timed now and its time left from the frame's send time."""

    per_decision: float
    bank: dict[Literal["1", "2"], float]
    to_act: int | None
    deadline_in_ms: int | None


class TimedOut(_Out):
    """The seat whose clock ran out and the version of the move the server played for it."""

    seat: int
    version: int


class BotOpponent(_Out):
    """``match.opponent`` of seat 1 against a bot: the bot's name."""

    kind: Literal["bot"]
    bot: str | None


class PersonOpponent(_Out):
    """``match.opponent`` facing a person: seat 2 taken yet, and their socket open now."""

    kind: Literal["person"]
    joined: bool
    connected: bool


Opponent = Annotated[BotOpponent | PersonOpponent, Field(discriminator="kind")]


class MatchInfo(_Out):
    """The ``match`` object of a state frame."""

    id: str
    rules: str
    format: Literal["first_to", "tally", "stakes"]
    target: int
    score: dict[Literal["1", "2", "tablas"], int]
    results: list[int | None]
    deal_number: int
    over: bool
    winner: int | None
    opponent: Opponent
    invite_url: str | None
    stakes: Stakes | None
    test: bool
    players: dict[Literal["1", "2"], Player]
    waiting_for: list[int]
    timed_out: TimedOut | None
    last_deal: int | None
    resigned: int | None
    abandoned: bool
    clock: Clock | None
    watch_url: str | None
    spectators: int
    hints: bool
    rated: bool = Field(False, description="the match's deals count for both seats' ratings (issue 20)")
    open_table: bool = Field(False, description="an open table waiting in the lobbies' list for someone to sit "
                             "(issue 20, PROTOCOL §3.15): seat 2 is taken by sitting, not by an invite")


class Reveal(_Out):
    """A finished deal's deck order and salt."""

    deck: str
    salt: str


class DealOut(_Out):
    """The ``deal`` object of a state frame."""

    number: int
    commitment: str
    reveal: Reveal | None
    test: bool
    resigned: int | None


# ---------------------------------------------------------------------------- the view
class EventOut(_Out):
    """One step of the public history (``view.history``, the replay's ``history``;
    ``engine.view.PublicEvent``): who acted, the action's §VII text and kind, the card it
    showed or moved, the live card a ``turn`` killed, whether it forced the card on the
    other seat (R15, R18e, R19), the meld and table it made, the hand cards it melded."""

    seat: int
    action: str
    kind: Literal["turn", "meld", "refuse", "throw", "force"]
    card: str | None
    died: str | None
    forced: bool
    meld: Cards | None
    table: list[Cards] | None
    from_hand: Cards


class PublicViewOut(_Out):
    """What a seat's and a spectator's view share (R21: all public)."""

    rules: str
    opener: int
    status: Status
    winner: int | None
    to_act: int | None
    decision: Decision | None
    melds: dict[Literal["1", "2"], list[Cards]]
    live: str | None
    live_from: int | None
    stock: int
    hand_counts: PerSeat
    dead: Cards
    history: list[EventOut]
    table_counts: PerSeat
    forced: str | None
    rearranging: bool
    force_back: bool
    max_sequence: int | None


class SeatViewOut(PublicViewOut):
    """A seat's view (``engine.SeatView.to_dict``): its own hand, its legal actions'
    §VII text while it is to act, the opponent's hand once the deal is over."""

    seat: int
    hand: Cards
    legal: list[str]
    opponent_hand: Cards | None


class SpectatorViewOut(PublicViewOut):
    """A spectator's view (``engine.view.SpectatorView.to_dict``): no hand and no legal
    action; ``hands`` (both seats') once the deal is over."""

    seat: None
    hand: list[str] = Field(..., max_length=0)
    legal: list[str] = Field(..., max_length=0)
    opponent_hand: None
    hands: dict[Literal["1", "2"], Cards] | None


class Choice(_Out):
    """One legal action of the seat to act, described (PROTOCOL §4.3, from its view only, R21):
    ``id`` is the action int a client sends back, ``action`` its §VII text."""

    id: int
    action: str
    kind: Literal["meld", "table", "turn", "refuse", "throw", "force"]
    card: str | None
    force: Cards | None
    melds: list[Cards] | None
    uses: Cards
    gives_eleven: bool


class Progress(_Out):
    """Cards melded per seat and the seats one card from eleven (R16)."""

    melded: PerSeat
    one_from_eleven: list[int]


class StateFrame(_Out):
    """A seat's or a spectator's state: the WebSocket ``state`` frame and ``GET …/view``
    (PROTOCOL §4.3).  A seat's frame has its ``seat`` number, its own view and its
    choices; a spectator's has ``seat`` null, the third-party view and no choices."""

    type: Literal["state"]
    version: int
    seat: int | None
    match: MatchInfo
    deal: DealOut
    view: SeatViewOut | SpectatorViewOut
    choices: list[Choice]
    progress: Progress


class Summary(_Out):
    """A seat's lobby summary of one match (PROTOCOL §3.5)."""

    match_id: str
    seat: int
    rules: str
    opponent: Opponent
    format: Literal["first_to", "tally", "stakes"]
    target: int
    score: dict[Literal["1", "2", "tablas"], int]
    over: bool
    winner: int | None
    deal_number: int
    status: Literal["waiting_for_opponent", "your_turn", "their_turn", "deal_over", "match_over", "abandoned"]
    table_url: str
    created_at: str
    stakes: Stakes | None
    test: bool
    players: dict[Literal["1", "2"], Player]
    resigned: int | None
    clock: int | None


# ---------------------------------------------------------------------------- finished deals
class DealResult(_Out):
    """How a deal ended: ``won`` (``winner`` 1 or 2) or ``tablas``; ``resigned``: the
    seat that resigned it (the other won it), or null."""

    status: Status
    winner: int | None
    resigned: int | None


class SeatPlayer(_Out):
    """Who plays a seat: a person, or a bot by name; ``name`` the player's name or null."""

    kind: Literal["person", "bot"]
    bot: str | None
    name: str | None


class RecordOut(_Out):
    """A §VII game record: the profile, the deck (40 cards, R8 order), the opener (1/2)
    and the actions' text."""

    rules: str
    deck: str
    opener: int
    actions: list[str]


class RecordDownload(_Out):
    """``GET …/deals/{n}/record``: the §VII record with the revealed salt."""

    record: RecordOut
    salt: str
    commitment: str
    result: DealResult
    test: bool
    seats: dict[Literal["1", "2"], SeatPlayer]


class SnapshotSeat(_Out):
    """One seat in a full-information snapshot: its hand and its melds."""

    hand: Cards
    melds: list[Cards]


class SnapshotOut(_Out):
    """One position of a finished deal with both hands (``engine.record.snapshot``; R21
    allows it only once the deal is over)."""

    status: Status
    winner: int | None
    to_act: int | None
    decision: Decision | None
    live: str | None
    live_from: int | None
    stock: int
    seats: dict[Literal["1", "2"], SnapshotSeat]
    legal: list[str]


class ReplayOut(RecordDownload):
    """``GET …/deals/{n}/replay``: the record plus the public history and one
    full-information snapshot per position; ``rearranging`` tells the page how melds
    are written (R18); ``deals`` the match's deals so far."""

    rearranging: bool
    history: list[EventOut]
    snapshots: list[SnapshotOut]
    deals: int


__all__ = [
    "ShownRating",
    "BotOpponent", "Choice", "Clock", "DealOut", "DealResult", "EventOut", "MatchInfo", "PersonOpponent", "Player",
    "Progress", "PublicViewOut", "RecordDownload", "RecordOut", "Reveal", "ReplayOut", "SeatPlayer", "SeatViewOut",
    "SnapshotOut", "SnapshotSeat", "SpectatorViewOut", "Stakes", "StateFrame", "Summary", "TimedOut",
]

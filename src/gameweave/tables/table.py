"""One table: a match between two seats (R9, R20), its deals, and the authoritative order
of checks for an incoming action (docs/PROTOCOL.md §4.2).  No I/O, no clocks except the
creation time given in, no sockets: the server persists what this module decides and then
announces it.

Seats are indexes 0/1 here and 1/2 on the wire.  Hidden information (R21) stays inside:
the only way out for a seat is :meth:`Table.state_frame` (built from
:func:`~gameweave.engine.seat_view`) and, once a deal has ended, :meth:`Table.record`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

from ..engine import (
    CARD_NAMES, GameRecord, format_action, GameState, Match, UnparsableError, find_profile, seat_view,
)
from ..engine.view import spectator_view
from .choices import progress, seat_choices

MAX_NAME = 24
"""Longest player name, in characters (issue 10)."""

CLOCKS = (60, 30)
"""The clocks a match may have: seconds per decision (or none)."""

CLOCK_BANK = {60: 30, 30: 15}
"""The time bank of each seat for each clock, seconds: used up once a decision takes
longer than the clock's seconds; a decision past both is played by the server."""


_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Zero-width (non-)joiner and the text/emoji variation selectors: glue inside a name's
emoji or script, allowed in names and not counted as characters."""


def check_name(name: Any) -> str | None:
    """A player's name, trimmed: None stays None (the page shows ``term.seat_n``).
    Raises :class:`TableError` ``bad_name`` unless it is text of 1-24 characters with
    no control character once trimmed."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TableError("bad_name", "a name must be text", params={"max": MAX_NAME})
    out = name.strip()
    # emoji sequences are joined with U+200D and styled with variation selectors: they are
    # part of one character, not control characters (and not counted towards the 24)
    length = sum(1 for ch in out if ch not in _JOINERS)
    if not 1 <= length <= MAX_NAME or any(unicodedata.category(ch).startswith("C") and ch not in _JOINERS
                                          for ch in out):
        raise TableError("bad_name", f"a name has 1 to {MAX_NAME} characters and no control characters",
                         params={"max": MAX_NAME})
    return out

DeckSource = Callable[[], tuple[Sequence[int], str]]
"""A callable giving a new deal's ``(deck, salt)``: 40 card ints in R8 order and a hex salt."""


class TableError(Exception):
    """A refused message.  ``code`` is the protocol's error code (``not_your_turn``,
    ``illegal``, ``stale``, ``bad_token``, ``deal_over``, ``deal_not_over``,
    ``match_over``, ``malformed`` …); ``message`` is safe to show to the sender (it never
    holds the opponent's hand or the stock order, R21); ``version`` the current state
    version or None; ``params`` the values the page fills into ``error.<code>``
    (issue 10: errors travel as a code plus parameters)."""

    def __init__(self, code: str, message: str, version: int | None = None, params: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version
        self.params = dict(params or {})


# ---------------------------------------------------------------------------- secrets
def new_id() -> str:
    """A new match id: 16 hex characters from :mod:`secrets`."""
    return secrets.token_hex(8)


def new_token() -> str:
    """A new seat token: 64 hex characters (256 bits) from :mod:`secrets`."""
    return secrets.token_hex(32)


def new_invite() -> str:
    """A new invite: 32 hex characters (128 bits) from :mod:`secrets`."""
    return secrets.token_hex(16)


def hash_token(token: str) -> str:
    """SHA-256 hex of a seat token; only this is stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def deck_text(deck: Sequence[int]) -> str:
    """The 40 cards of a deck order (R8) as canonical names joined by single spaces."""
    return " ".join(CARD_NAMES[c] for c in deck)


def commitment(deck: Sequence[int] | str, salt: str) -> str:
    """The fair-shuffle commitment: ``sha256(deck_text + " " + salt)`` as 64 hex, UTF-8.

    ``deck`` is 40 card ints in R8 order or its canonical text.
    """
    text = deck if isinstance(deck, str) else deck_text(deck)
    return hashlib.sha256((text + " " + salt).encode("utf-8")).hexdigest()


def secure_deck() -> tuple[tuple[int, ...], str]:
    """A deck order (R8) shuffled by a cryptographic source, and a fresh 32-hex salt."""
    deck = list(range(40))
    secrets.SystemRandom().shuffle(deck)
    return tuple(deck), secrets.token_hex(16)


# ---------------------------------------------------------------------------- deals
@dataclass
class DealInfo:
    """One deal of a match.

    Attributes: ``number`` (1-based), ``deck`` (40 card ints, R8 order — secret until
    the deal ends), ``salt`` (hex, secret until the end), ``commitment`` (public),
    ``state`` (the engine state, replayed from the actions), ``test`` (dealt from a
    test deck, ``serve --test-decks``: chosen, not shuffled).
    """

    number: int
    deck: tuple[int, ...]
    salt: str
    commitment: str
    state: GameState
    test: bool = False
    resigned: int | None = None

    @property
    def over(self) -> bool:
        """True once the deal is won or tablas, or a seat resigned it (``resigned``,
        the seat index: it counts as won by the other seat, R20)."""
        return self.state.is_over or self.resigned is not None

    @property
    def status(self) -> str:
        """``playing``, ``won`` or ``tablas`` (a resigned deal is ``won``)."""
        return "won" if self.resigned is not None else self.state.status

    @property
    def winner(self) -> int:
        """The winning seat index, or -1 (tablas or playing)."""
        return 1 - self.resigned if self.resigned is not None else self.state.winner


@dataclass
class Table:
    """A match between seat 1 and seat 2 and everything the server needs to referee it.

    Attributes:
        match_id: 16 hex.
        rules: profile name (``gameweave``, ``anglo-american`` or ``classic``).
        format, target: R20 (``first_to`` N, ``tally`` or ``stakes``; the stake and
            what tablas does to it are ``match.stake`` and ``match.tablas_stake``).
        opponent: ``"bot"`` or ``"friend"``; ``bot``: bot name for seat 2 or None.
        invite: the join secret for seat 2 (friend matches, until joined) or None.
        token_hashes: ``[sha256 of seat 1 token, sha256 of seat 2 token or None]``.
        version: the state version; +1 with every accepted action and every new deal.
        match: the engine :class:`Match` (score, opener of the next deal).
        deals: every deal so far; the last one is the current deal.
        created_at: ISO-8601 text.
        names: each seat's name, or None (the page says "Player n").
        clock: seconds per decision (60 or 30) or None; ``bank``: each seat's time bank
            left, seconds.
        watch_key: the spectators' secret (``/watch/<match_id>/<watch_key>``).
        resigned: the seat index that resigned the match, or None.
        abandoned: True once closed for having no move for too long.
        ready: per seat, True once it moved on from the finished current deal.
        away: per seat, True after two timeouts in a row, until it acts again (not
            stored); ``timeouts``: timeouts in a row per seat.
        last_move_at: wall-clock time (epoch seconds) of the last move, for abandoning.
        hints: a friend match's seats agreed to hints when it was made (issue 11); a bot
            match always has them (:attr:`hints_on`).
    """

    match_id: str
    rules: str
    format: str
    target: int
    opponent: str
    bot: str | None
    invite: str | None
    token_hashes: list[str | None]
    version: int
    match: Match
    deals: list[DealInfo] = field(default_factory=list)
    created_at: str = ""
    names: list[str | None] = field(default_factory=lambda: [None, None])
    clock: int | None = None
    bank: list[float] = field(default_factory=lambda: [0.0, 0.0])
    watch_key: str = ""
    resigned: int | None = None
    abandoned: bool = False
    ready: list[bool] = field(default_factory=lambda: [False, False])
    away: list[bool] = field(default_factory=lambda: [False, False])
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    timed_out: tuple[int, int] | None = None
    """``(seat, version)`` of the last move the server played for a seat whose clock ran
    out (not stored); the frames say so while that version is current."""
    last_move_at: float = 0.0
    hints: bool = False

    BOT_SEAT = 1
    """Seat index the server's bot plays (seat 2)."""

    # ------------------------------------------------------------------ building
    @classmethod
    def create(
        cls,
        *,
        opponent: str,
        bot: str | None,
        format: str,
        target: int,
        deck: Sequence[int],
        salt: str,
        created_at: str = "",
        rules: str = "gameweave",
        stake: int | None = None,
        tablas_stake: str | None = None,
        test: bool = False,
        name: str | None = None,
        clock: int | None = None,
        clock_scale: float = 1.0,
        hints: bool = False,
    ) -> tuple[Table, str]:
        """A new match with its first deal dealt from ``deck`` (seat 1 opens, R9, or the
        seat drawn where the profile draws the first opener: §V, R20).  ``stake`` and
        ``tablas_stake`` (R20) default to the profile's; ``test``: ``deck`` is a test deck.

        Returns ``(table, seat-1 token)``.  Raises :class:`ValueError` for a bad format,
        target or deck (an :class:`~gameweave.engine.OptionError` for bad options);
        :class:`TableError` ``bad_name`` / ``bad_option`` for a bad ``name`` or ``clock``.
        ``name``: seat 1's name (:func:`check_name`); ``clock``: seconds per decision
        (:data:`CLOCKS`) or None; each seat's bank is :data:`CLOCK_BANK` times
        ``clock_scale`` (a test setting).
        """
        if opponent not in ("bot", "friend"):
            raise ValueError("opponent must be 'bot' or 'friend'")
        profile = find_profile(rules)
        # R9/R20: where the profile draws the first opener, draw it from secrets (stored)
        first = secrets.randbelow(2) if profile.first_opener == "random" else 0
        token = new_token()
        table = cls(
            match_id=new_id(),
            rules=profile.name,
            format=format,
            target=target,
            opponent=opponent,
            bot=bot if opponent == "bot" else None,
            invite=new_invite() if opponent == "friend" else None,
            token_hashes=[hash_token(token), None],
            version=0,
            match=Match(rules=profile, format=format, target=target, first_opener=first,
                        stake=stake or 0, tablas_stake=tablas_stake or ""),
            created_at=created_at,
            names=[check_name(name), None],
            clock=clock,
            bank=[CLOCK_BANK.get(clock or 0, 0) * clock_scale] * 2,
            watch_key=new_invite(),
            hints=bool(hints),
        )
        if clock is not None and clock not in CLOCKS:
            raise TableError("bad_option", f"'clock' is one of {', '.join(map(str, CLOCKS))} seconds or null",
                             params={"detail": "clock"})
        table.add_deal(deck, salt, test)
        return table, token

    def add_deal(self, deck: Sequence[int], salt: str, test: bool = False) -> DealInfo:
        """Deal the next deal (R8, R9 opener) and bump the version; ``test``: the deck
        is a test deck (not shuffled).  Raises :class:`ValueError` if the match is over
        or the deck is not a deck order."""
        state = self.match.new_deal(tuple(deck))
        info = DealInfo(len(self.deals) + 1, state.deck, salt, commitment(state.deck, salt), state, bool(test))
        self.deals.append(info)
        self.version += 1
        self.ready = [False, False]
        return info

    # ------------------------------------------------------------------ queries
    @property
    def deal(self) -> DealInfo:
        """The current (last) deal."""
        return self.deals[-1]

    @property
    def state(self) -> GameState:
        """The current deal's engine state (full information: never send it)."""
        return self.deals[-1].state

    @property
    def test(self) -> bool:
        """True if any deal of the match was dealt from a test deck (no fair-shuffle claim)."""
        return any(d.test for d in self.deals)

    @property
    def joined(self) -> bool:
        """True when seat 2 is taken (a bot, or a friend who joined)."""
        return self.opponent == "bot" or self.token_hashes[1] is not None

    @property
    def match_over(self) -> bool:
        """True once the match has a winner (R20), was resigned or was abandoned."""
        return self.match.is_over or self.resigned is not None or self.abandoned

    @property
    def winner(self) -> int:
        """The match winner's seat index, or -1 (none yet, or abandoned)."""
        if self.resigned is not None:
            return 1 - self.resigned
        return self.match.winner if self.match.is_over else -1

    @property
    def playing(self) -> bool:
        """True while the current deal is being played in a match still going."""
        return not self.deal.over and not self.match_over

    def waiting_for(self) -> list[int]:
        """Seat indexes still to move on from the finished deal before the next one is
        dealt (a bot is always ready); empty while a deal is played or the match is over."""
        if not self.deal.over or self.match_over:
            return []
        return [s for s in (0, 1) if self.has_person(s) and not self.ready[s]]

    def has_person(self, seat: int) -> bool:
        """True if ``seat`` (0/1) is played by a person."""
        return seat == 0 or self.opponent == "friend"

    def token_ok(self, seat: int, token: Any) -> bool:
        """True if ``token`` holds ``seat`` (0/1); constant-time comparison."""
        if seat not in (0, 1) or not isinstance(token, str) or not token:
            return False
        want = self.token_hashes[seat]
        if want is None:
            return False
        return hmac.compare_digest(want, hash_token(token))

    def seat_of_token(self, token: Any) -> int:
        """The seat index (0/1) that ``token`` holds, or -1."""
        for seat in (0, 1):
            if self.token_ok(seat, token):
                return seat
        return -1

    def bot_to_act(self) -> bool:
        """True when the server's bot must act now."""
        return self.opponent == "bot" and self.playing and self.state.to_act == self.BOT_SEAT

    # ------------------------------------------------------------------ the order of checks
    def check_action(self, seat: Any, token: Any, action: Any, version: Any) -> int:
        """Check an incoming action (PROTOCOL §4.2, after "match exists") and return the
        action int to apply.  Order: deal not over -> token valid for the seat -> that
        seat's decision -> action legal -> version current.

        Raises :class:`TableError` (``deal_over``, ``bad_token``, ``not_your_turn``,
        ``illegal``, ``stale``, ``malformed``); the table is unchanged.
        """
        st = self.state
        if self.match_over and not self.deal.over:
            raise TableError("match_over", "the match is over", self.version)
        if self.deal.over:
            raise TableError("deal_over", f"deal {self.deal.number} is over ({self.deal.status})", self.version,
                             params={"n": self.deal.number})
        if not self.token_ok(seat, token):
            raise TableError("bad_token", "that token does not hold this seat", self.version)
        if st.to_act != seat:
            raise TableError(
                "not_your_turn", f"it is seat {st.to_act + 1}'s decision, not seat {seat + 1}'s", self.version,
                params={"seat": st.to_act + 1},
            )
        if type(action) is int:  # an id from the frame's choices (PROTOCOL §4.1)
            a = action
        elif isinstance(action, str):
            try:
                a = st.parse(action)  # §VII text under the deal's profile (§V)
            except UnparsableError as exc:
                raise TableError("illegal", f"not an action: {exc}", self.version) from None
            except ValueError:  # e.g. a force number over Python's 4,300-digit limit
                raise TableError("illegal", "not an action: a number in it is far too long", self.version) from None
        else:
            raise TableError("malformed", "'action' must be an action id from 'choices' or §VII action text",
                             self.version)
        if a not in st.legal_actions():
            # the engine's reason speaks only of the acting seat's own hand, the public
            # table and the centre card (R21) — it is safe for the sender
            try:
                format_action(a)
            except ValueError:
                raise TableError("illegal", f"not an action: {a}", self.version) from None
            raise TableError("illegal", st.why_illegal(a)[1], self.version)
        if type(version) is not int:
            raise TableError("malformed", "'version' must be a whole number", self.version)
        if version != self.version:
            raise TableError("stale", f"state version {version} is not current ({self.version})", self.version)
        return a

    def apply_action(self, seat: int, a: int) -> bool:
        """Apply a checked action (from :meth:`check_action`) and bump the version.

        Returns True when the action ended the deal (the score is updated, R20).
        """
        st = self.state
        assert st.to_act == seat
        st.apply(a)
        self.version += 1
        if st.is_over:
            self.match.count(st)
            return True
        return False

    def check_next_deal(self, seat: Any, token: Any, version: Any) -> None:
        """Check a ``next_deal`` request: deal over -> match not over -> token valid ->
        version current.  Raises :class:`TableError` (``deal_not_over``, ``match_over``,
        ``bad_token``, ``stale``, ``malformed``)."""
        if not self.deal.over:
            raise TableError("deal_not_over", f"deal {self.deal.number} is still being played", self.version,
                             params={"n": self.deal.number})
        if self.match_over:
            raise TableError("match_over", "the match is over", self.version)
        if not self.token_ok(seat, token):
            raise TableError("bad_token", "that token does not hold this seat", self.version)
        if type(version) is not int:
            raise TableError("malformed", "'version' must be a whole number", self.version)
        if version != self.version:
            raise TableError("stale", f"state version {version} is not current ({self.version})", self.version)

    def mark_ready(self, seat: int) -> bool:
        """Seat ``seat`` moves on from the finished deal (after :meth:`check_next_deal`);
        True when every seat is ready, so the next deal may be dealt (a bot is always
        ready; issue 10: each seat's own pace)."""
        self.ready[seat] = True
        return not self.waiting_for()

    def check_resign(self, seat: Any, token: Any, scope: Any, version: Any) -> None:
        """Check a ``resign``: scope -> match not over -> token -> (a deal: being played)
        -> version current.  Raises :class:`TableError` (``malformed``, ``match_over``,
        ``bad_token``, ``deal_over``, ``stale``)."""
        if scope not in ("deal", "match"):
            raise TableError("malformed", "'scope' must be 'deal' or 'match'", self.version)
        if self.match_over:
            raise TableError("match_over", "the match is over", self.version)
        if not self.token_ok(seat, token):
            raise TableError("bad_token", "that token does not hold this seat", self.version)
        if scope == "deal" and self.deal.over:
            raise TableError("deal_over", f"deal {self.deal.number} is over", self.version,
                             params={"n": self.deal.number})
        if type(version) is not int:
            raise TableError("malformed", "'version' must be a whole number", self.version)
        if version != self.version:
            raise TableError("stale", f"state version {version} is not current ({self.version})", self.version)

    def resign(self, seat: int, scope: str) -> int | None:
        """Seat ``seat`` resigns the current deal (it counts as won by the other seat,
        R20) or the whole match (the other seat wins it; a deal being played is resigned
        with it).  Bumps the version.  Returns the number of the deal resigned, or None."""
        resigned_deal = None
        if not self.deal.over:
            self.deal.resigned = seat
            self.match.count_result(1 - seat)
            resigned_deal = self.deal.number
        if scope == "match":
            self.resigned = seat
        self.version += 1
        return resigned_deal

    # ------------------------------------------------------------------ what a seat may see
    def opponent_info(self, seat: int, connected: bool = False) -> dict[str, Any]:
        """The ``match.opponent`` object for ``seat``."""
        if seat == 0 and self.opponent == "bot":
            return {"kind": "bot", "bot": self.bot}
        return {"kind": "person", "joined": self.joined, "connected": bool(connected)}

    def score(self) -> dict[str, int]:
        """``{"1": wins, "2": wins, "tablas": n}`` (R20)."""
        return {"1": self.match.wins[0], "2": self.match.wins[1], "tablas": self.match.tablas}

    def stakes(self) -> dict[str, Any] | None:
        """``{"points": {"1": n, "2": n}, "current_stake", "base", "tablas_stake"}`` for a
        stakes match (R20: stakes won per seat, the next deal's stake, the base stake,
        ``double`` or ``carry``), else None."""
        m = self.match
        if m.format != "stakes":
            return None
        return {"points": {"1": m.points[0], "2": m.points[1]}, "current_stake": m.current_stake,
                "base": m.stake, "tablas_stake": m.tablas_stake}

    def seats_info(self) -> dict[str, dict[str, Any]]:
        """Who plays each seat: ``{"1": {"kind": "person", "bot": None, "name": "Ana"},
        "2": {"kind": "bot", "bot": "greedy", "name": None}}`` (for a replay and the
        record, where either seat may look)."""
        two = {"kind": "bot", "bot": self.bot} if self.opponent == "bot" else {"kind": "person", "bot": None}
        return {"1": {"kind": "person", "bot": None, "name": self.names[0]}, "2": {**two, "name": self.names[1]}}

    def players(self, online: Sequence[bool] = (False, False)) -> dict[str, dict[str, Any]]:
        """The ``match.players`` object: per seat ``name`` (or None), ``kind``, ``bot``,
        ``online`` (given by the server: socket open and heard from lately; a bot is
        always online), ``away`` (two timeouts in a row) and ``ready`` (moved on from
        the finished deal, or a bot)."""
        info = self.seats_info()
        out = {}
        for s in (0, 1):
            person = self.has_person(s)
            out[str(s + 1)] = {
                "name": self.names[s], "kind": info[str(s + 1)]["kind"], "bot": info[str(s + 1)]["bot"],
                "online": bool(online[s]) if person else True, "away": self.away[s] if person else False,
                "ready": self.ready[s] or not person,
            }
        return out

    def watch_url(self) -> str:
        """``/watch/<match_id>/<watch_key>``: the spectators' address."""
        return f"/watch/{self.match_id}/{self.watch_key}"

    def last_deal(self) -> int | None:
        """The number of the last finished deal, or None."""
        for d in reversed(self.deals):
            if d.over:
                return d.number
        return None

    def match_info(self, seat: int | None, opponent_connected: bool = False, *,
                   online: Sequence[bool] | None = None, clock: dict[str, Any] | None = None,
                   spectators: int = 0) -> dict[str, Any]:
        """The ``match`` object of a state frame for ``seat`` (0/1, or None for a
        spectator: no invite, no watch address).  ``online`` per seat (default: the
        seat itself and ``opponent_connected`` for the other), ``clock`` the server's
        clock object (or None), ``spectators`` how many watch."""
        if online is None:
            online = [True, True] if seat is None else [False, False]
            if seat is not None:
                online[seat] = True
                online[1 - seat] = opponent_connected
        waiting = self.waiting_for()
        return {
            "id": self.match_id,
            "rules": self.rules,
            "format": self.format,
            "target": self.target,
            "score": self.score(),
            "results": [w + 1 if w >= 0 else None for w in self.match.results],
            "deal_number": self.deal.number,
            "over": self.match_over,
            "winner": self.winner + 1 if self.winner >= 0 else None,
            "opponent": self.opponent_info(0 if seat is None else seat,
                                           bool(online[1]) if seat is None else opponent_connected),
            "invite_url": self.invite_url() if seat == 0 and not self.joined else None,
            "stakes": self.stakes(),
            "test": self.test,
            "players": self.players(online),
            "waiting_for": [s + 1 for s in waiting],
            "timed_out": ({"seat": self.timed_out[0] + 1, "version": self.timed_out[1]}
                          if self.timed_out and self.timed_out[1] == self.version else None),
            "last_deal": self.last_deal(),
            "resigned": self.resigned + 1 if self.resigned is not None else None,
            "abandoned": self.abandoned,
            "clock": clock,
            "watch_url": self.watch_url() if seat is not None else None,
            "spectators": spectators,
            "hints": self.hints_on,
        }

    @property
    def hints_on(self) -> bool:
        """Whether a seat may ask for hints: always against a bot, in a friend match only
        where both seats agreed when it was made (issue 11)."""
        return self.opponent == "bot" or self.hints

    def invite_url(self) -> str | None:
        """``/join/<match_id>/<invite>`` for friend matches, else None."""
        return f"/join/{self.match_id}/{self.invite}" if self.invite else None

    def deal_info(self, n: int | None = None) -> dict[str, Any]:
        """The ``deal`` object: number, commitment, and the reveal once it has ended."""
        d = self.deals[-1] if n is None else self.deals[n - 1]
        reveal = {"deck": deck_text(d.deck), "salt": d.salt} if d.over else None
        return {"number": d.number, "commitment": d.commitment, "reveal": reveal, "test": d.test,
                "resigned": d.resigned + 1 if d.resigned is not None else None}

    def _view(self, seat: int) -> Any:
        """The seat's :class:`~gameweave.engine.SeatView` of :meth:`_shown_state`."""
        return seat_view(self._shown_state(), seat)

    def _shown_state(self) -> GameState:
        """The current deal as seats and spectators are shown it: a copy ended by its
        resignation (:meth:`~gameweave.engine.GameState.concede`, R20: won by the other
        seat, the hands revealed, R21) or closed undecided with its match
        (:meth:`~gameweave.engine.GameState.close`: nobody to act, nothing revealed); the
        deal itself, and so its record, stay as played."""
        st = self.state
        if st.is_over or not (self.deal.over or self.match_over):
            return st
        st = st.clone()
        if self.deal.resigned is not None:
            st.concede(self.deal.resigned)
        else:
            st.close()
        return st

    def state_frame(self, seat: int, opponent_connected: bool = False, **info: Any) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (0/1): version, match, deal, the seat's own
        view only (R21), its ``choices`` (one per legal action, in ``view.legal`` order)
        and the deal's ``progress`` (:mod:`gameweave.tables.choices`).  ``info``: the
        server's ``online``, ``clock`` and ``spectators`` for :meth:`match_info`."""
        view = self._view(seat)
        return {
            "type": "state",
            "version": self.version,
            "seat": seat + 1,
            "match": self.match_info(seat, opponent_connected, **info),
            "deal": self.deal_info(),
            "view": view.to_dict(),
            "choices": [c.to_dict() for c in seat_choices(view)],
            "progress": progress(view),
        }

    def spectator_frame(self, **info: Any) -> dict[str, Any]:
        """The ``state`` frame for a spectator (``"seat": null``): the third-party view
        (:func:`~gameweave.engine.view.spectator_view`, R21: no hand of either seat and
        no legal action until the deal ends, then both hands), no choices."""
        sv = spectator_view(self._shown_state())
        view = sv.to_dict()
        return {
            "type": "state",
            "version": self.version,
            "seat": None,
            "match": self.match_info(None, **info),
            "deal": self.deal_info(),
            "view": view,
            "choices": [],
            "progress": {"melded": dict(view["table_counts"]),
                         "one_from_eleven": [s + 1 for s in (0, 1) if sv.table_counts[s] == 10]},
        }

    def status_for(self, seat: int) -> str:
        """``waiting_for_opponent``, ``your_turn``, ``their_turn``, ``deal_over`` or
        ``match_over`` from ``seat``'s side."""
        if self.abandoned:
            return "abandoned"
        if self.match_over:
            return "match_over"
        if not self.joined:
            return "waiting_for_opponent"
        if self.deal.over:
            return "deal_over"
        return "your_turn" if self.state.to_act == seat else "their_turn"

    def summary(self, seat: int) -> dict[str, Any]:
        """A lobby summary of the match for ``seat`` (PROTOCOL §3.5)."""
        return {
            "match_id": self.match_id,
            "seat": seat + 1,
            "rules": self.match.rules.name,
            "opponent": self.opponent_info(seat),
            "format": self.format,
            "target": self.target,
            "score": self.score(),
            "over": self.match_over,
            "winner": self.winner + 1 if self.winner >= 0 else None,
            "deal_number": self.deal.number,
            "status": self.status_for(seat),
            "table_url": f"/table/{self.match_id}",
            "created_at": self.created_at,
            "stakes": self.stakes(),
            "test": self.test,
            "players": self.players(),
            "resigned": self.resigned + 1 if self.resigned is not None else None,
            "clock": self.clock,
        }

    def record(self, n: int) -> dict[str, Any]:
        """The record download of finished deal ``n`` (1-based): §VII record, salt,
        commitment, result, and ``test`` (dealt from a test deck: no fair-shuffle claim).  Raises :class:`TableError` ``unknown_deal`` or
        ``deal_not_over``."""
        if not isinstance(n, int) or not 1 <= n <= len(self.deals):
            raise TableError("unknown_deal", f"this match has no deal {n}", params={"n": n})
        d = self.deals[n - 1]
        if not d.over:
            raise TableError("deal_not_over", f"deal {n} is still being played; its record comes when it ends",
                             params={"n": n})
        st = d.state
        return {
            "record": GameRecord.from_state(st).to_dict(),
            "salt": d.salt,
            "commitment": d.commitment,
            "result": {"status": d.status, "winner": d.winner + 1 if d.winner >= 0 else None,
                       "resigned": d.resigned + 1 if d.resigned is not None else None},
            "test": d.test,
            "seats": self.seats_info(),
        }


__all__ = [
    "CLOCKS", "CLOCK_BANK", "MAX_NAME", "check_name", "DealInfo", "DeckSource", "Table", "TableError", "commitment", "deck_text", "hash_token",
    "new_id", "new_invite", "new_token", "secure_deck",
]

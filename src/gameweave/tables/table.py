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
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

from ..engine import (
    CARD_NAMES, GameRecord, GameState, GameweaveError, Match, UnparsableError, find_profile, seat_view,
)
from .choices import progress, seat_choices

DeckSource = Callable[[], tuple[Sequence[int], str]]
"""A callable giving a new deal's ``(deck, salt)``: 40 card ints in R8 order and a hex salt."""


class TableError(Exception):
    """A refused message.  ``code`` is the protocol's error code (``not_your_turn``,
    ``illegal``, ``stale``, ``bad_token``, ``deal_over``, ``deal_not_over``,
    ``match_over``, ``malformed`` …); ``message`` is safe to show to the sender (it never
    holds the opponent's hand or the stock order, R21); ``version`` the current state
    version or None."""

    def __init__(self, code: str, message: str, version: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version


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

    @property
    def over(self) -> bool:
        """True once the deal is won or tablas."""
        return self.state.is_over


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
    ) -> tuple[Table, str]:
        """A new match with its first deal dealt from ``deck`` (seat 1 opens, R9, or the
        seat drawn where the profile draws the first opener: §V, R20).  ``stake`` and
        ``tablas_stake`` (R20) default to the profile's; ``test``: ``deck`` is a test deck.

        Returns ``(table, seat-1 token)``.  Raises :class:`ValueError` for a bad format,
        target or deck (an :class:`~gameweave.engine.OptionError` for bad options).
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
        )
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
        return self.opponent == "bot" and not self.state.is_over and self.state.to_act == self.BOT_SEAT

    # ------------------------------------------------------------------ the order of checks
    def check_action(self, seat: Any, token: Any, action: Any, version: Any) -> int:
        """Check an incoming action (PROTOCOL §4.2, after "match exists") and return the
        action int to apply.  Order: deal not over -> token valid for the seat -> that
        seat's decision -> action legal -> version current.

        Raises :class:`TableError` (``deal_over``, ``bad_token``, ``not_your_turn``,
        ``illegal``, ``stale``, ``malformed``); the table is unchanged.
        """
        st = self.state
        if st.is_over:
            raise TableError("deal_over", f"deal {self.deal.number} is over ({st.status})", self.version)
        if not self.token_ok(seat, token):
            raise TableError("bad_token", "that token does not hold this seat", self.version)
        if st.to_act != seat:
            raise TableError(
                "not_your_turn", f"it is seat {st.to_act + 1}'s decision, not seat {seat + 1}'s", self.version
            )
        if not isinstance(action, str):
            raise TableError("malformed", "'action' must be §VII action text", self.version)
        try:
            a = st.parse(action)  # §VII text under the deal's profile (§V)
        except UnparsableError as exc:
            raise TableError("illegal", f"not an action: {exc}", self.version) from None
        except ValueError:  # e.g. a force number over Python's 4,300-digit limit
            raise TableError("illegal", "not an action: a number in it is far too long", self.version) from None
        if a not in st.legal_actions():
            # the engine's reason speaks only of the acting seat's own hand, the public
            # table and the centre card (R21) — it is safe for the sender
            try:
                st.clone().play(a, seat)
                reason = "not legal now"
            except GameweaveError as exc:
                reason = str(exc)
            raise TableError("illegal", reason, self.version)
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
        if not self.state.is_over:
            raise TableError("deal_not_over", f"deal {self.deal.number} is still being played", self.version)
        if self.match.is_over:
            raise TableError("match_over", "the match is over", self.version)
        if not self.token_ok(seat, token):
            raise TableError("bad_token", "that token does not hold this seat", self.version)
        if type(version) is not int:
            raise TableError("malformed", "'version' must be a whole number", self.version)
        if version != self.version:
            raise TableError("stale", f"state version {version} is not current ({self.version})", self.version)

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
        """Who plays each seat: ``{"1": {"kind": "person", "bot": None}, "2": {"kind":
        "bot", "bot": "greedy"}}`` (for a replay, where either seat may look)."""
        two = {"kind": "bot", "bot": self.bot} if self.opponent == "bot" else {"kind": "person", "bot": None}
        return {"1": {"kind": "person", "bot": None}, "2": two}

    def match_info(self, seat: int, opponent_connected: bool = False) -> dict[str, Any]:
        """The ``match`` object of a state frame for ``seat`` (0/1)."""
        return {
            "id": self.match_id,
            "rules": self.rules,
            "format": self.format,
            "target": self.target,
            "score": self.score(),
            "results": [w + 1 if w >= 0 else None for w in self.match.results],
            "deal_number": self.deal.number,
            "over": self.match.is_over,
            "winner": self.match.winner + 1 if self.match.is_over else None,
            "opponent": self.opponent_info(seat, opponent_connected),
            "invite_url": self.invite_url() if seat == 0 and not self.joined else None,
            "stakes": self.stakes(),
            "test": self.test,
        }

    def invite_url(self) -> str | None:
        """``/join/<match_id>/<invite>`` for friend matches, else None."""
        return f"/join/{self.match_id}/{self.invite}" if self.invite else None

    def deal_info(self, n: int | None = None) -> dict[str, Any]:
        """The ``deal`` object: number, commitment, and the reveal once it has ended."""
        d = self.deals[-1] if n is None else self.deals[n - 1]
        reveal = {"deck": deck_text(d.deck), "salt": d.salt} if d.over else None
        return {"number": d.number, "commitment": d.commitment, "reveal": reveal, "test": d.test}

    def state_frame(self, seat: int, opponent_connected: bool = False) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (0/1): version, match, deal, the seat's own
        view only (R21), its ``choices`` (one per legal action, in ``view.legal`` order)
        and the deal's ``progress`` (:mod:`gameweave.tables.choices`)."""
        view = seat_view(self.state, seat)
        return {
            "type": "state",
            "version": self.version,
            "seat": seat + 1,
            "match": self.match_info(seat, opponent_connected),
            "deal": self.deal_info(),
            "view": view.to_dict(),
            "choices": [c.to_dict() for c in seat_choices(view)],
            "progress": progress(view),
        }

    def status_for(self, seat: int) -> str:
        """``waiting_for_opponent``, ``your_turn``, ``their_turn``, ``deal_over`` or
        ``match_over`` from ``seat``'s side."""
        if self.match.is_over:
            return "match_over"
        if not self.joined:
            return "waiting_for_opponent"
        if self.state.is_over:
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
            "over": self.match.is_over,
            "winner": self.match.winner + 1 if self.match.is_over else None,
            "deal_number": self.deal.number,
            "status": self.status_for(seat),
            "table_url": f"/table/{self.match_id}",
            "created_at": self.created_at,
            "stakes": self.stakes(),
            "test": self.test,
        }

    def record(self, n: int) -> dict[str, Any]:
        """The record download of finished deal ``n`` (1-based): §VII record, salt,
        commitment, result, and ``test`` (dealt from a test deck: no fair-shuffle claim).  Raises :class:`TableError` ``unknown_deal`` or
        ``deal_not_over``."""
        if not isinstance(n, int) or not 1 <= n <= len(self.deals):
            raise TableError("unknown_deal", f"this match has no deal {n}")
        d = self.deals[n - 1]
        if not d.over:
            raise TableError("deal_not_over", f"deal {n} is still being played; its record comes when it ends")
        st = d.state
        return {
            "record": GameRecord.from_state(st).to_dict(),
            "salt": d.salt,
            "commitment": d.commitment,
            "result": {"status": st.status, "winner": st.winner + 1 if st.winner >= 0 else None},
            "test": d.test,
        }


__all__ = [
    "DealInfo", "DeckSource", "Table", "TableError", "commitment", "deck_text", "hash_token",
    "new_id", "new_invite", "new_token", "secure_deck",
]

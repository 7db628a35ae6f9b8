"""One table: a match between two seats (R9, R20), its deals, and the authoritative order
of checks for an incoming action (docs/PROTOCOL.md §4.2).  No I/O, no clocks except the
creation time given in, no sockets: the server persists what this module decides and then
announces it.

This module is the referee only: the secrets are :mod:`~gameweave.tables.secrets`, names
and clocks :mod:`~gameweave.tables.policy`, and what a seat or a spectator is sent is
built by ``gameweave.server.frames``.  Seats are indexes 0/1 here and 1/2 on the wire.
Hidden information (R21) stays inside: the full :class:`~gameweave.engine.GameState` of a
deal is never sent; a seat sees it through :func:`~gameweave.engine.seat_view` only.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

from ..engine import GameState, Match, UnparsableError, find_profile, format_action
from .deal import DealInfo
from .errors import TableError
from .policy import check_clock, check_name, clock_bank
from .secrets import commitment, draw_seat, hash_token, new_id, new_invite, new_token


class Table:
    """A match between seat 1 and seat 2 and everything the server needs to referee it.

    Attributes:
        match_id: 16 hex.
        opponent: ``"bot"`` or ``"friend"``; ``bot``: bot name for seat 2 or None.
        invite: the join secret for seat 2 (friend matches, until joined) or None.
        token_hashes: ``[sha256 of seat 1 token, sha256 of seat 2 token or None]``.
        version: the state version; +1 with every accepted action and every new deal.
        match: the engine :class:`Match`: profile, R20 format, target, stake, score and
            the opener of the next deal (:attr:`rules`, :attr:`format`, :attr:`target`
            are read from it).
        deals: every deal so far; the last one is the current deal.
        created_at: ISO-8601 text.
        names: each seat's name, or None (the page says "Player n").
        clock: seconds per decision (60 or 30) or None; ``bank``: each seat's time bank
            left, seconds.
        watch_key: the spectators' secret (``/watch/<match_id>/<watch_key>``).
        resigned: the seat index that resigned the match, or None.
        abandoned: True once closed for having no move for too long.
        hints: a friend match's seats agreed to hints when it was made (issue 11); a bot
            match always has them (:attr:`hints_on`).
        rated: the match's deals count for both seats' ratings (issue 20): only a match
            between two accounts is rated; a bot match never is.
        ready: per seat, True once it moved on from the finished current deal.
        away: per seat, True after two timeouts in a row, until it acts again (not
            stored); ``timeouts``: timeouts in a row per seat.
        timed_out: ``(seat, version)`` of the last move the server played for a seat
            whose clock ran out (not stored); the frames say so while it is current.
        last_move_at: wall-clock time (epoch seconds) of the last move, for abandoning.
        ratings: per seat, the rating shown beside its name (issue 20): ``{"rules",
            "rating", "rd", "provisional"}`` of the account holding it, or None; loaded
            with the table and refreshed after each rated deal (not stored here; no
            effect on play).
    """

    BOT_SEAT = 1
    """Seat index the server's bot plays (seat 2)."""

    def __init__(self, *, match_id: str, rules: str, format: str, target: int, opponent: str, bot: str | None,
                 invite: str | None, token_hashes: list[str | None], version: int, match: Match,
                 created_at: str = "", names: Sequence[str | None] = (None, None), clock: int | None = None,
                 bank: Sequence[float] = (0.0, 0.0), watch_key: str = "", resigned: int | None = None,
                 abandoned: bool = False, hints: bool = False, rated: bool = False) -> None:
        """A table from its stored fields (the store's rows) with no deal yet.  ``rules``,
        ``format`` and ``target`` are the rows' copy of ``match``'s: raises
        :class:`ValueError` unless they agree with it."""
        if (rules, format, target) != (match.rules.name, match.format, match.target):
            raise ValueError(f"rules, format and target {(rules, format, target)} are not the match's")
        self.match_id, self.opponent, self.bot, self.invite = match_id, opponent, bot, invite
        self.token_hashes, self.version, self.match = token_hashes, version, match
        self.deals: list[DealInfo] = []
        self.created_at, self.names, self.clock, self.bank = created_at, list(names), clock, list(bank)
        self.watch_key, self.resigned, self.abandoned, self.hints = watch_key, resigned, abandoned, hints
        self.rated = rated
        self.ready = [False, False]
        self.away = [False, False]
        self.timeouts = [0, 0]
        self.timed_out: tuple[int, int] | None = None
        self.last_move_at = 0.0
        self.ratings: list[dict[str, Any] | None] = [None, None]

    # ------------------------------------------------------------------ building
    @classmethod
    def create(cls, *, opponent: str, bot: str | None, format: str, target: int, deck: Sequence[int], salt: str,
               created_at: str = "", rules: str = "gameweave", stake: int | None = None,
               tablas_stake: str | None = None, test: bool = False, name: str | None = None,
               clock: int | None = None, clock_scale: float = 1.0, hints: bool = False,
               rated: bool = False) -> tuple[Table, str]:
        """A new match with its first deal dealt from ``deck`` (seat 1 opens, R9, or the
        seat drawn where the profile draws the first opener: §V, R20).  ``stake`` and
        ``tablas_stake`` (R20) default to the profile's; ``test``: ``deck`` is a test deck.

        Returns ``(table, seat-1 token)``.  Raises :class:`ValueError` for a bad format,
        target or deck (an :class:`~gameweave.engine.OptionError` for bad options);
        :class:`TableError` ``bad_name`` / ``bad_option`` for a bad ``name`` or ``clock``.
        ``name``: seat 1's name (:func:`~gameweave.tables.policy.check_name`); ``clock``:
        seconds per decision (:data:`~gameweave.tables.policy.CLOCKS`) or None; each seat's
        bank is :func:`~gameweave.tables.policy.clock_bank` (``clock_scale`` a test setting).
        ``rated``: the deals count for ratings (a friend match only: ``ValueError`` for a
        rated bot match).
        """
        if opponent not in ("bot", "friend"):
            raise ValueError("opponent must be 'bot' or 'friend'")
        if rated and opponent == "bot":
            raise ValueError("a bot match is never rated")
        profile = find_profile(rules)
        # R9/R20: where the profile draws the first opener, draw it from secrets (stored)
        first = draw_seat() if profile.first_opener == "random" else 0
        token = new_token()
        match = Match(rules=profile, format=format, target=target, first_opener=first,
                      stake=stake or 0, tablas_stake=tablas_stake or "")
        table = cls(
            match_id=new_id(), rules=profile.name, format=match.format, target=match.target,
            opponent=opponent, bot=bot if opponent == "bot" else None,
            invite=new_invite() if opponent == "friend" else None,
            token_hashes=[hash_token(token), None], version=0, match=match, created_at=created_at,
            names=[check_name(name), None], clock=check_clock(clock),
            bank=[clock_bank(clock, clock_scale)] * 2, watch_key=new_invite(), hints=bool(hints),
            rated=bool(rated),
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
        self.ready = [False, False]
        return info

    # ------------------------------------------------------------------ queries
    @property
    def rules(self) -> str:
        """The profile's name (``gameweave``, ``anglo-american`` or ``classic``, §V)."""
        return self.match.rules.name

    @property
    def format(self) -> str:
        """The R20 match format: ``first_to`` (N), ``tally`` or ``stakes``."""
        return self.match.format

    @property
    def target(self) -> int:
        """The R20 target N of a ``first_to`` match (kept for every format)."""
        return self.match.target

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

    def token_ok(self, seat: object, token: object) -> bool:
        """True if ``token`` holds ``seat`` (0/1); constant-time comparison."""
        if not isinstance(seat, int) or seat not in (0, 1) or not isinstance(token, str) or not token:
            return False
        want = self.token_hashes[seat]
        if want is None:
            return False
        return hmac.compare_digest(want, hash_token(token))

    def seat_of_token(self, token: object) -> int:
        """The seat index (0/1) that ``token`` holds, or -1."""
        for seat in (0, 1):
            if self.token_ok(seat, token):
                return seat
        return -1

    def bot_to_act(self) -> bool:
        """True when the server's bot must act now."""
        return self.opponent == "bot" and self.playing and self.state.to_act == self.BOT_SEAT

    # ------------------------------------------------------------------ the order of checks
    def _error(self, code: str, message: str, **params: object) -> TableError:
        return TableError(code, message, self.version, params=params or None)

    def _seat(self, seat: object, token: object) -> int:
        """``seat`` once ``token`` is shown to hold it, else ``bad_token``."""
        if not isinstance(seat, int) or not self.token_ok(seat, token):
            raise self._error("bad_token", "that token does not hold this seat")
        return seat

    def _check_version(self, version: object) -> None:
        if type(version) is not int:
            raise self._error("malformed", "'version' must be a whole number")
        if version != self.version:
            raise self._error("stale", f"state version {version} is not current ({self.version})")

    def _action_of(self, action: object) -> int:
        """The action int of an incoming ``action``: an id from the frame's choices
        (PROTOCOL §4.1) or §VII text read under the deal's profile (§V)."""
        if type(action) is int:
            return action
        if not isinstance(action, str):
            raise self._error("malformed", "'action' must be an action id from 'choices' or §VII action text")
        try:
            return self.state.parse(action)
        except UnparsableError as exc:
            raise self._error("illegal", f"not an action: {exc}") from None
        except ValueError:  # e.g. a force number over Python's 4,300-digit limit
            raise self._error("illegal", "not an action: a number in it is far too long") from None

    def check_action(self, seat: object, token: object, action: object, version: object) -> int:
        """Check an incoming action (PROTOCOL §4.2, after "match exists") and return the
        action int to apply.  Order: deal not over -> token valid for the seat -> that
        seat's decision -> action legal -> version current.

        Raises :class:`TableError` (``deal_over``, ``bad_token``, ``not_your_turn``,
        ``illegal``, ``stale``, ``malformed``); the table is unchanged.
        """
        st = self.state
        if self.match_over and not self.deal.over:
            raise self._error("match_over", "the match is over")
        if self.deal.over:
            raise self._error("deal_over", f"deal {self.deal.number} is over ({self.deal.status})", n=self.deal.number)
        s = self._seat(seat, token)
        if st.to_act != s:
            raise self._error("not_your_turn", f"it is seat {st.to_act + 1}'s decision, not seat {s + 1}'s",
                               seat=st.to_act + 1)
        a = self._action_of(action)
        if a not in st.legal_actions():
            # the engine's reason speaks only of the acting seat's own hand, the public
            # table and the centre card (R21) — it is safe for the sender
            try:
                format_action(a)
            except ValueError:
                raise self._error("illegal", f"not an action: {a}") from None
            raise self._error("illegal", st.why_illegal(a)[1])
        self._check_version(version)
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

    def check_next_deal(self, seat: object, token: object, version: object) -> None:
        """Check a ``next_deal`` request: deal over -> match not over -> token valid ->
        version current.  Raises :class:`TableError` (``deal_not_over``, ``match_over``,
        ``bad_token``, ``stale``, ``malformed``)."""
        if not self.deal.over:
            raise self._error("deal_not_over", f"deal {self.deal.number} is still being played", n=self.deal.number)
        if self.match_over:
            raise self._error("match_over", "the match is over")
        self._seat(seat, token)
        self._check_version(version)

    def mark_ready(self, seat: int) -> bool:
        """Seat ``seat`` moves on from the finished deal (after :meth:`check_next_deal`);
        True when every seat is ready, so the next deal may be dealt (a bot is always
        ready; issue 10: each seat's own pace)."""
        self.ready[seat] = True
        return not self.waiting_for()

    def check_resign(self, seat: object, token: object, scope: object, version: object) -> None:
        """Check a ``resign``: scope -> match not over -> token -> (a deal: being played)
        -> version current.  Raises :class:`TableError` (``malformed``, ``match_over``,
        ``bad_token``, ``deal_over``, ``stale``)."""
        if scope not in ("deal", "match"):
            raise self._error("malformed", "'scope' must be 'deal' or 'match'")
        if self.match_over:
            raise self._error("match_over", "the match is over")
        self._seat(seat, token)
        if scope == "deal" and self.deal.over:
            raise self._error("deal_over", f"deal {self.deal.number} is over", n=self.deal.number)
        self._check_version(version)

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

    def last_deal(self) -> int | None:
        """The number of the last finished deal, or None."""
        for d in reversed(self.deals):
            if d.over:
                return d.number
        return None

    @property
    def hints_on(self) -> bool:
        """Whether a seat may ask for hints: always against a bot, in a friend match only
        where both seats agreed when it was made (issue 11)."""
        return self.opponent == "bot" or self.hints


__all__ = ["Table"]

"""New matches and their seats: create (you are seat 1), rematch, join by invite (seat 2),
and which seat a token holds (PROTOCOL §3.2-§3.5).  The hub calls this; a created match
gets its room at once, and a join is announced to the room's sockets and the other nodes.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..engine import OptionError
from ..tables import Table, TableError, check_name, check_new_match, hash_token, new_token
from ..tables.tutorial import is_tutorial, new_tutorial
from .room import MatchRoom

log = logging.getLogger("gameweave.server")


class Seats:
    """Creating and joining matches.

    Args:
        db: the :class:`~gameweave.server.database.Database`.
        sync: the :class:`~gameweave.server.sync.Sync` (publishes a join).
        bot_names: ``() -> names`` of the bots a match may have.
        deal: ``() -> (deck, salt, test)`` for a new deal.
        new_room: makes (and keeps) the room of a new table.
        room: ``await room(match_id)``: a live match's room, or None.
        clock_scale: multiplies the clocks' seconds (a test setting).
    """

    def __init__(self, db: Any, sync: Any, bot_names: Callable[[], Sequence[str]],
                 deal: Callable[[], tuple[tuple[int, ...], str, bool]], new_room: Callable[[Table], MatchRoom],
                 room: Callable[[Any], Awaitable[MatchRoom | None]], clock_scale: float):
        self.db, self.sync, self.bot_names, self.deal = db, sync, bot_names, deal
        self.new_room, self.room, self.clock_scale = new_room, room, clock_scale

    async def create(self, opponent: str, bot: str | None, fmt: str | None = None, target: int | None = None,
                     rules: str = "gameweave", stake: int | None = None, tablas_stake: str | None = None,
                     name: str | None = None, clock: int | None = None, hints: bool = False,
                     rated: bool = False) -> tuple[Table, str]:
        """Create and store a match of profile ``rules`` (§V); returns ``(table, seat-1 token)``.

        ``bot`` is one of the offered bots' names (case and surrounding spaces do not
        matter); None means the default, ``random``.  ``fmt``, ``target``, ``stake`` and
        ``tablas_stake`` (R20) default to the profile's.  Raises :class:`TableError`
        ``unknown_bot`` for any other string, the empty one included, and ``bad_option``
        for a format the profile does not offer or stakes options outside a stakes match
        (:func:`~gameweave.tables.check_new_match`); ``bad_name`` for a ``name`` that is
        not 1-24 characters once trimmed (or holds a control character); ``bad_option``
        for a ``clock`` other than None, 60 or 30.  ``rated``: the deals count for
        ratings (issue 20; the caller checks both seats are accounts).
        """
        name = check_name(name)
        try:
            opts = check_new_match(rules, fmt, target, stake, tablas_stake)
        except OptionError as exc:
            raise TableError("bad_option", str(exc), params={"detail": str(exc)}) from None
        if opponent == "bot":
            bot = self.bot_name(bot)
        deck, salt, test = self.deal()
        table, token = Table.create(opponent=opponent, bot=bot, format=opts["match"], target=opts["target"],
                                    deck=deck, salt=salt, rules=rules, stake=opts["stake"],
                                    tablas_stake=opts["tablas_stake"], test=test, name=name, clock=clock,
                                    clock_scale=self.clock_scale, hints=hints, rated=rated)
        await self._store_new(table)
        shape = table.format + (f" to {table.target}" if table.target is not None else "") + (
            f", stake {table.match.stake}" if table.format == "stakes" else "")
        log.info("match %s created (%s%s, %s, %s)%s", table.match_id, opponent,
                 f" {bot}" if opponent == "bot" else "", shape, table.rules, " from a test deck" if test else "")
        return table, token

    async def create_tutorial(self, name: str | None = None) -> tuple[Table, str]:
        """Create and store a guided first deal (:func:`~gameweave.tables.tutorial.new_tutorial`:
        the fixed deck, against the scripted guide); returns ``(table, seat-1 token)``.
        Raises :class:`TableError` ``bad_name`` for a bad ``name``."""
        table, token = new_tutorial(name)
        await self._store_new(table)
        log.info("match %s created (a guided deal)", table.match_id)
        return table, token

    async def _store_new(self, table: Table) -> None:
        """Store a new table and give it its room."""
        table.last_move_at = time.time()
        await self.db.run(self.db.store.create, table)
        self.new_room(table)

    def bot_name(self, bot: str | None) -> str:
        """The bot ``bot`` names (None: ``random``; case and surrounding spaces do not
        matter).  Raises :class:`TableError` ``unknown_bot`` for any other string."""
        names = list(self.bot_names())
        bot_name = "random" if bot is None else bot.strip().lower()
        if bot_name not in names:
            shown = "an empty name" if not bot_name else repr(str(bot)[:32])
            raise TableError("unknown_bot", f"unknown bot: {shown} (this server has: {', '.join(names)}; "
                                            "leave 'bot' out for random)", params={"bot": str(bot)[:32]})
        return bot_name

    async def rematch(self, table: Table, seat: int = 0) -> tuple[Table, str]:
        """A new match with the settings of ``table``; the asker (``seat``) holds seat 1.
        A guided deal's rematch is a new guided deal."""
        if is_tutorial(table):
            return await self.create_tutorial(table.names[seat])
        m = table.match
        stakes = m.format == "stakes"
        return await self.create(table.opponent, table.bot, m.format, m.target, rules=table.rules,
                                 stake=m.stake if stakes else None,
                                 tablas_stake=m.tablas_stake if stakes else None,
                                 name=table.names[seat], clock=table.clock, hints=table.hints)

    async def seat_for_token(self, match_id: Any, token: Any) -> tuple[Table | None, int]:
        """``(table, seat index)`` that ``token`` holds; see :meth:`gameweave.server.hub.Hub.seat_for_token`."""
        room = await self.room(match_id)
        if room is None or room.table is None:
            return None, -1
        table = room.table
        seat = table.seat_of_token(token)
        # only seat 2's token can be new to this node (joined through another one), so a
        # wrong token costs a database read only while seat 2 is open here
        if seat < 0 and self.sync.bus is not None and isinstance(token, str) and token and \
                table.token_hashes[1] is None:
            async with room.lock:
                table = await self.sync.refresh(room, "token") or table
            seat = table.seat_of_token(token)
        return table, seat

    async def join(self, match_id: str, invite: Any, name: str | None = None) -> tuple[Table, str]:
        """Give seat 2 of a friend match to the holder of ``invite``; see :meth:`gameweave.server.hub.Hub.join`."""
        name = check_name(name)
        room = await self.room(match_id)
        if room is None or room.table is None:
            raise TableError("unknown_match", "no such match")
        async with room.lock:
            table = room.table
            problem = invite_problem(table, invite)
            if problem is not None:
                raise TableError(*problem)
            token = new_token()
            h = hash_token(token)
            if not await self.db.run(self.db.store.join, match_id, h, name):
                raise TableError("already_joined", "seat 2 of this match is already taken")
            table.token_hashes[1] = h
            table.names[1] = name
            log.info("match %s: seat 2 joined", match_id)
            room.announce()
            self.sync.publish(room, {"kind": "join", "token2": h, "name": name})
        return table, token


def invite_problem(table: Table, invite: Any) -> tuple[str, str] | None:
    """Why ``invite`` would not take seat 2 of ``table`` now, as ``(code, message)``
    (``not_a_friend_match``, ``bad_invite``, ``already_joined``), or None if it would.
    Used by both ``join`` and ``invite-status``."""
    if table.opponent != "friend":
        return "not_a_friend_match", "this match is against a bot; nobody can join it"
    if not isinstance(invite, str) or table.invite is None or not secrets.compare_digest(
        invite.encode("utf-8", "replace"), table.invite.encode()
    ):
        return "bad_invite", "that invite is not valid for this match"
    if table.token_hashes[1] is not None:
        return "already_joined", "seat 2 of this match is already taken"
    return None


__all__ = ["Seats", "invite_problem"]

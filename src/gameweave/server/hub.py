"""The hub: one :class:`~.room.MatchRoom` per live match, and what the rooms share (no HTTP here).

The hub routes every message to its match's room and owns only what is shared: the
database (:class:`~.database.Database`: every store call runs on its threads, actions
through the group commit), the bus to the other nodes (:class:`~.sync.Sync`), the bots
(:class:`~.botrunner.BotRunner`), the timeout policy, new matches and seats
(:class:`~.seats.Seats`) and the sweeps (:class:`~.sweeps.Sweeps`: idle rooms, abandoned
matches, presence).  Every change — ``act``, ``next_deal``, ``resign``, a clock
timeout, a bot's move — goes through the one authoritative path
(:class:`~.steps.ChangePath`): room, lock, catch-up, the referee's check, apply, store,
announce, publish.

Lifecycle: a room is made when a match is created or first named (an id that is not a
match leaves nothing behind), and leaves memory once it has had no socket, no bot to
move and no use for ``idle_evict_s`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..storage import Store
from ..storage.ratings import RatingStore
from ..tables import Table, TableError, is_phrase, secure_deck
from ..tables.timeouts import TimeoutPolicy
from .botrunner import BotRunner, Bots
from .connection import Connection
from .database import Database
from .middleware import TokenBucket
from .ratings import Ratings
from .room import MatchRoom, RoomView
from .seats import Seats, invite_problem
from .settings import MAX_FRAME
from .steps import Act, ChangePath, NextDeal, Resign
from .sweeps import ABANDON_SWEEP_S, Sweeps
from .sync import Sync

log = logging.getLogger("gameweave.server")

MATCH_ID = re.compile(r"[0-9a-f]{16}")
"""A match id: 16 lowercase hex characters (ids are case-sensitive, PROTOCOL §1)."""

SHUTDOWN_CLOSE = (1001, "server shutting down")
"""The close code and reason every socket gets when the server stops."""


def valid_match_id(match_id: Any) -> bool:
    """True if ``match_id`` has the shape of a match id (no database query)."""
    return isinstance(match_id, str) and MATCH_ID.fullmatch(match_id) is not None


class Hub:
    """Live matches backed by a :class:`Store`.

    Args:
        store: the database.
        bot_delay: pause before each bot action, seconds (so a person can follow).
        deck_source: ``() -> (deck, salt)`` or ``() -> (deck, salt, test)`` for every new
            deal (default: :func:`secure_deck`; ``test`` True marks a test deck).
        bot_workers: threads for bot decisions.
        bus: the Redis bus shared with the other nodes, or None for a single node.
        metrics: the node's :class:`~gameweave.server.metrics.Metrics`, or None.
        idle_evict_s: seconds without use before an idle room leaves memory.
        bot_lease_s: lifetime of this node's lease on a bot seat (with a bus).
        presence_timeout_s: a seat is online while its socket is open and it was heard
            from within this many seconds (any frame; the page sends a heartbeat every 5 s).
        presence_sweep_s: how often silence is looked for (a change re-sends the state).
        clock_scale: multiplies every clock's seconds (a test setting; 1 in play).
        abandon_after_days: a match with no move for this many days is closed as abandoned.
        phrase_interval_s: least seconds between two quick phrases of one seat.
        bots: the bots offered (:class:`~.botrunner.Bots`; ``create_app`` gives
            :mod:`gameweave.bots`'); none by default.
        timeout_policy: the move played when a clock runs out (default: refuse, else
            turn, else the first legal action; ``create_app`` gives the greedy chooser).
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.6,
                 deck_source: Callable[[], tuple[Any, ...]] | None = None, bot_workers: int = 4, bus: Any = None,
                 metrics: Any = None, idle_evict_s: float = 300.0, bot_lease_s: float = 5.0,
                 presence_timeout_s: float = 12.0, presence_sweep_s: float = 2.0, clock_scale: float = 1.0,
                 abandon_after_days: float = 7.0, phrase_interval_s: float = 3.0, bots: Bots | None = None,
                 timeout_policy: TimeoutPolicy | None = None):
        self.store = store
        self.db = Database(store)
        self.bus = bus
        self.deck_source = deck_source or secure_deck
        self.bot_lease_s, self.clock_scale, self.phrase_interval_s = bot_lease_s, clock_scale, phrase_interval_s
        self.presence_timeout_s, self.presence_sweep_s = presence_timeout_s, presence_sweep_s
        self.rooms: dict[str, MatchRoom] = {}
        self._loads: dict[str, asyncio.Task] = {}
        self.closing = False
        self._tasks: list[asyncio.Task] = []
        self.sync = Sync(self.db, bus, self.rooms, self.forget, self._after, valid_match_id)
        self.path = ChangePath(self.db, self.sync, self._deal, self._after, timeout_policy=timeout_policy,
                               lease_s=bot_lease_s)
        self.bots = BotRunner(bots, self.path, bus, delay=bot_delay, lease_s=bot_lease_s, workers=bot_workers)
        self.seats = Seats(self.db, self.sync, self.bots.names, self._deal, self._open, self.room, clock_scale)
        self.sweeps = Sweeps(self.db, bus, self.rooms, self.forget, self.room, idle_evict_s=idle_evict_s,
                             abandon_after_days=abandon_after_days, presence_sweep_s=presence_sweep_s)
        self.ratings = Ratings(self.db, RatingStore(store.engine))
        self.sweeps.abandoned = lambda table: self.ratings.abandoned(self.rooms.get, table)
        self.metrics = metrics

    # ------------------------------------------------------------------ shared state
    @property
    def metrics(self) -> Any:
        """The node's metrics (or None); every part of the hub counts into them."""
        return self._metrics

    @metrics.setter
    def metrics(self, metrics: Any) -> None:
        self._metrics = self.sync.metrics = self.path.metrics = self.bots.metrics = self.ratings.metrics = metrics

    @property
    def tables(self) -> Mapping[str, Table]:
        """``match_id -> live table`` (a read-only view over the rooms)."""
        return RoomView(self.rooms, "table")

    @property
    def locks(self) -> Mapping[str, asyncio.Lock]:
        """``match_id -> lock`` of every room (read-only)."""
        return RoomView(self.rooms, "lock")

    @property
    def used(self) -> Mapping[str, float]:
        """``match_id -> monotonic time of its last use`` (read-only)."""
        return RoomView(self.rooms, "used")

    def _after(self, room: MatchRoom) -> None:
        self.bots.wake(room)
        self.ratings.check(room)

    def _deal(self) -> tuple[tuple[int, ...], str, bool]:
        got = tuple(self.deck_source())
        return tuple(got[0]), str(got[1]), bool(got[2]) if len(got) > 2 else False

    def _new_room(self, table: Table) -> MatchRoom:
        room = MatchRoom(table, clock_scale=self.clock_scale, presence_timeout_s=self.presence_timeout_s,
                         on_timeout=self.path.timeout)
        self.rooms[table.match_id] = room
        self.ratings.opened(room)
        return room

    def _open(self, table: Table) -> MatchRoom:
        """The room of a new match (its bot started if it is to act)."""
        room = self._new_room(table)
        self.bots.wake(room)
        return room

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Start the sweeps and (with a bus) the subscription to other nodes, apply the
        rated deals that ended with no rating update (a node stopped in between, issue
        20), then wake the bots of matches whose bot was to act when the servers
        stopped.  Raises :class:`~gameweave.server.bus.BusError` if Redis cannot be
        reached."""
        if self.bus is not None:
            await self.bus.start(self.sync.on_event, self.sync.resync)
        self._tasks = [asyncio.create_task(self.sweeps.idle_loop()), asyncio.create_task(self.sweeps.presence_loop())]
        try:
            await self.ratings.sweep()
        except Exception as exc:  # a database hiccup: the periodic sweep applies them
            log.error("ratings sweep at start-up: %s", type(exc).__name__)
        self._tasks.append(asyncio.create_task(self.ratings.loop(ABANDON_SWEEP_S)))
        for match_id in await self.db.run(self.store.bot_matches_in_play):
            await self.room(match_id)

    def forget(self, match_id: str) -> None:
        """Forget a match (it reloads from the database when next named)."""
        room = self.rooms.pop(match_id, None)
        if room is not None:
            room.close()

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the rooms with no socket, no running bot task, no lock holder and no use
        for ``idle_evict_s`` seconds; returns how many were evicted."""
        return self.sweeps.evict_idle(now)

    async def close_abandoned(self, now: float | None = None) -> int:
        """The periodic sweep of abandoned matches (also checked lazily on load):
        closes every match with no move for ``abandon_after_days``; returns how many."""
        return await self.sweeps.close_abandoned(now)

    async def close(self) -> None:
        """Stop bots and clocks, close sockets, release the database and Redis."""
        self.closing = self.sweeps.closing = self.path.closing = True
        self.bots.close()
        for task in self._tasks:
            task.cancel()
        for room in list(self.rooms.values()):
            room.close(sockets=lambda c: c.close(*SHUTDOWN_CLOSE))
        if self.bus is not None:
            await self.bus.close()
        self.db.close()

    # ------------------------------------------------------------------ rooms
    def lock(self, match_id: str) -> asyncio.Lock:
        """The lock of a live match (call after :meth:`table` found it)."""
        room = self.rooms.get(match_id)
        return room.lock if room is not None else asyncio.Lock()

    async def room(self, match_id: Any) -> MatchRoom | None:
        """The room of ``match_id`` with its live table, loaded from the database on first
        use (its bot started if it is the bot's turn); None if there is no such match
        (an unknown id leaves nothing behind)."""
        if not valid_match_id(match_id):
            return None
        room = self.rooms.get(match_id)
        if room is not None and room.table is not None:
            room.used = time.monotonic()
            return room
        load = self._loads.get(match_id)
        if load is None:
            load = self._loads[match_id] = asyncio.ensure_future(self._load(match_id))
        return await asyncio.shield(load)

    async def _load(self, match_id: str) -> MatchRoom | None:
        """Load a match from the database: its first load here, or its table again after
        a database error dropped it (a reload: its room and sockets stayed)."""
        try:
            self.sync.loading(match_id)
            table = await self.db.run(self.store.load, match_id)
            room = self.rooms.get(match_id)
            if table is None:
                self.forget(match_id)
                await self.sync.loaded(None, match_id)
                return None
            first = room is None
            if room is None:
                await self.sweeps.abandon_if_quiet(table)
                room = self._new_room(table)
            else:
                room.table = table
                self.sync.count("dropped")
                room.announce()
            await self.sync.loaded(room, match_id, first=first)
            self.bots.wake(room)
            room.arm_clock()
            return room
        finally:
            self._loads.pop(match_id, None)
            self.sync.stop_loading(match_id)

    async def table(self, match_id: Any) -> Table | None:
        """The live table of ``match_id`` (see :meth:`room`), or None."""
        room = await self.room(match_id)
        return room.table if room is not None else None

    def frame(self, table: Table, seat: int) -> dict[str, Any]:
        """The state frame of ``table`` for ``seat`` now (a spectator's with ``seat`` -1)."""
        room = self.rooms.get(table.match_id) or MatchRoom(table, clock_scale=self.clock_scale,
                                                          presence_timeout_s=self.presence_timeout_s)
        return room.frame(seat, table)

    # ------------------------------------------------------------------ matches
    async def create(self, opponent: str, bot: str | None, fmt: str | None = None, target: int | None = None,
                     rules: str = "gameweave", stake: int | None = None,
                     tablas_stake: str | None = None, name: str | None = None,
                     clock: int | None = None, hints: bool = False, rated: bool = False) -> tuple[Table, str]:
        """Create and store a match of profile ``rules`` (§V); returns ``(table, seat-1
        token)``.  Raises :class:`TableError` (``unknown_bot``, ``bad_option``,
        ``bad_name``): see :meth:`~gameweave.server.seats.Seats.create`."""
        return await self.seats.create(opponent, bot, fmt, target, rules, stake, tablas_stake, name, clock, hints,
                                       rated)

    async def create_tutorial(self, name: str | None = None) -> tuple[Table, str]:
        """Create and store a guided first deal against the scripted guide (issue 19);
        returns ``(table, seat-1 token)``.  Raises :class:`TableError` ``bad_name``."""
        return await self.seats.create_tutorial(name)

    async def rematch(self, table: Table, seat: int = 0) -> tuple[Table, str]:
        """A new match with the settings of ``table`` (profile, format, target, stake,
        tablas stake, opponent, bot, clock); the asker (``seat`` of ``table``) holds its
        seat 1, under its name.  Returns ``(table, seat-1 token)``."""
        return await self.seats.rematch(table, seat)

    async def seat_for_token(self, match_id: Any, token: Any) -> tuple[Table | None, int]:
        """``(table, seat index)`` that ``token`` holds, ``(table, -1)`` for a wrong
        token, ``(None, -1)`` for no such match.  With several nodes, while seat 2 is
        open here a token that does not match is checked once more against the database
        (seat 2 may have joined on another node a moment ago)."""
        return await self.seats.seat_for_token(match_id, token)

    async def join(self, match_id: str, invite: Any, name: str | None = None) -> tuple[Table, str]:
        """Give seat 2 of a friend match to the holder of ``invite`` (named ``name``);
        returns ``(table, seat-2 token)``.  Raises :class:`TableError` (``bad_name``,
        ``unknown_match``, ``not_a_friend_match``, ``bad_invite``, ``already_joined``)."""
        return await self.seats.join(match_id, invite, name)

    # ------------------------------------------------------------------ sockets
    def heard(self, conn: Connection) -> None:
        """A frame came from ``conn``: it is alive; if its seat showed offline, every
        seat hears it is back at once."""
        now = time.monotonic()
        conn.last_seen = now
        if self.bus is not None and conn.seat >= 0 and now - conn.touched > self.presence_sweep_s:
            conn.touched = now
            self.bus.note_presence(conn.match_id, conn.seat, self.presence_timeout_s)
        room = self.rooms.get(conn.match_id)
        if conn.seat >= 0 and room is not None and room.people.shown is not None and not room.people.shown[conn.seat]:
            room.announce()

    def socket_count(self) -> int:
        """Open seat and spectator sockets on this node."""
        return sum(len(r.people.open_sockets()) for r in self.rooms.values())

    def spectator_count(self, match_id: str) -> int:
        """Open spectator sockets of a match (on this node)."""
        room = self.rooms.get(match_id)
        return room.people.spectator_count() if room is not None else 0

    async def attach(self, conn: Connection, table: Table) -> None:
        """Make ``conn`` the seat's socket (closing an older one, on this node or
        another), send it the full view and tell the opponent it is connected."""
        if self.bus is not None:
            conn.gen = await self.bus.seat_generation(conn.match_id, conn.seat)
            await self.bus.touch_presence(conn.match_id, conn.seat, self.presence_timeout_s)
        room = await self.room(table.match_id)
        if room is None:
            return
        async with room.lock:
            if self.bus is not None:  # a client coming from a dead node gets the newest version
                await self.sync.refresh(room, "attach")
            room.people.seat_socket(conn)
            room.announce()
            self.sync.publish_people(room.match_id, {"kind": "hello", "seat": conn.seat, "gen": conn.gen})
        self.bots.wake(room)
        self.ratings.attached(room)

    async def detach(self, conn: Connection) -> None:
        """Forget ``conn`` and tell the opponent the seat left."""
        room = self.rooms.get(conn.match_id)
        if room is None:
            return
        async with room.lock:
            if room.people.seats[conn.seat] is not conn:
                return
            room.people.seats[conn.seat] = None
            room.announce()
            room.used = time.monotonic()
            if self.bus is not None:
                await self.bus.drop_presence(room.match_id, conn.seat)
            self.sync.publish_people(room.match_id, {"kind": "bye", "seat": conn.seat, "gen": conn.gen})

    async def watch(self, conn: Connection, table: Table) -> None:
        """Add a spectator socket (``conn.seat`` -1): it gets the third-party frame now
        and at every change; the seats hear how many watch."""
        room = await self.room(table.match_id)
        if room is None:
            return
        async with room.lock:
            room.people.spectators.append(conn)
            room.announce()

    async def unwatch(self, conn: Connection) -> None:
        """Forget a spectator socket and tell the seats."""
        room = self.rooms.get(conn.match_id)
        if room is None or conn not in room.people.spectators:
            return
        async with room.lock:
            room.people.spectators.remove(conn)
            room.announce()
            room.used = time.monotonic()

    async def phrase(self, conn: Connection, key: Any) -> None:
        """A quick phrase from a seat: broadcast ``{"type": "phrase", "seat": n, "key":
        k}`` to both seats and the spectators (and the other nodes).  Raises
        :class:`TableError` ``unknown_phrase`` for a key not in
        :data:`~gameweave.tables.PHRASES` and ``rate_limited`` within
        ``phrase_interval_s`` of the seat's last phrase."""
        if not is_phrase(key):
            raise TableError("unknown_phrase", "not one of the quick phrases", params={"key": str(key)[:32]})
        room = await self.room(conn.match_id)
        if room is None:
            raise TableError("unknown_match", "no such match")
        if not room.take_phrase(conn.seat, self.phrase_interval_s):
            raise TableError("rate_limited", "one quick phrase every few seconds",
                             params={"seconds": round(self.phrase_interval_s)})
        room.broadcast({"type": "phrase", "seat": conn.seat + 1, "key": key})
        self.sync.publish_people(room.match_id, {"kind": "phrase", "seat": conn.seat, "key": key})

    # ------------------------------------------------------------------ changes
    async def _run(self, match_id: Any, step: Any) -> Table:
        if (room := await self.room(match_id)) is None:
            raise TableError("unknown_match", "no such match")
        return await self.path.run(room, step)

    async def act(self, match_id: Any, seat: Any, token: Any, action: Any, version: Any) -> Table:
        """Check, apply, commit and announce one action (PROTOCOL §4.2).

        Raises :class:`TableError` with the first failed check; nothing changes then.
        When another node stored a step first, the action is checked again against the
        state after that step, so the code says why it lost (``deal_over``,
        ``not_your_turn``, ``illegal`` or ``stale``).
        """
        return await self._run(match_id, Act(seat, token, action, version))

    async def next_deal(self, match_id: Any, seat: Any, token: Any, version: Any) -> Table:
        """Move seat ``seat`` on from the finished deal; the next deal (R9 opener) is
        dealt once every seat has.  Raises :class:`TableError` (as :meth:`act`)."""
        return await self._run(match_id, NextDeal(seat, token, version))

    async def resign(self, match_id: Any, seat: Any, token: Any, scope: Any, version: Any) -> Table:
        """Seat ``seat`` resigns the deal (the other seat wins it, R20) or the match
        (the other seat wins it).  Raises :class:`TableError` (``unknown_match``,
        ``malformed``, ``match_over``, ``bad_token``, ``deal_over``, ``stale``); after
        losing a race to another writer, the checks run again as in :meth:`act`."""
        return await self._run(match_id, Resign(seat, token, scope, version))


__all__ = ["Connection", "Hub", "MATCH_ID", "MAX_FRAME", "SHUTDOWN_CLOSE", "TokenBucket", "invite_problem",
           "valid_match_id"]

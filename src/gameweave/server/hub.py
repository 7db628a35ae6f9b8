"""The hub: live tables, their locks, the seats' sockets and the bots (no HTTP here).

Every change to a match happens under that match's :class:`asyncio.Lock`: check (the
order of :class:`~gameweave.tables.Table`), apply, commit to the database, then announce
to each connected seat its own state frame.  Bot seats think in a thread pool
(``run_in_executor``) so one slow bot never blocks other matches.

Lifecycle: a table is loaded from the database when first named (an id that is not a
match leaves nothing behind: no table, no lock), and leaves memory again once it has had
no socket, no bot to move and no use for ``idle_evict_s`` seconds.

Several nodes: with a :class:`~gameweave.server.bus.Bus` (Redis), every committed change
is published after it is announced here; the other nodes apply it to their copy of the
table (or catch up from the database when they see a gap) and announce it to their own
sockets.  A bot seat is played only by the node holding its lease in Redis; the
database's version check makes every step exactly-once even if two nodes try.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from collections.abc import Callable

from ..bots import bot_names, make_bot
from ..bots.greedy import choose_greedy
from ..engine import OptionError, format_action, parse_action, seat_view
from ..engine.actions import REFUSE, TURN
from ..storage import Store, StorageError
from ..storage.store import ActionRow, action_row
from ..tables import (
    Table, TableError, check_name, check_new_match, hash_token, is_phrase, new_token, secure_deck,
)
from .connection import Connection, dump_frame
from .frames import spectator_frame, state_frame
from .middleware import TokenBucket
from .settings import MAX_FRAME

log = logging.getLogger("gameweave.server")

MATCH_ID = re.compile(r"[0-9a-f]{16}")
"""A match id: 16 lowercase hex characters (ids are case-sensitive, PROTOCOL §1)."""


def valid_match_id(match_id: Any) -> bool:
    """True if ``match_id`` has the shape of a match id (no database query)."""
    return isinstance(match_id, str) and MATCH_ID.fullmatch(match_id) is not None


class _Conflict(Exception):
    """Another writer (another node) stored this step first."""


class CommitQueue:
    """Group commit of accepted actions: the actions of different matches accepted while
    the previous transaction runs are committed together in the next one, on one
    database thread (so the event loop keeps serving sockets meanwhile).  Each waiter
    resumes only once its own row is committed: an action is still committed before any
    seat hears of it, and durability is the database's (SQLite WAL with
    ``synchronous=NORMAL``: survives a crash of the process, not a power cut in the last
    moments; PostgreSQL: as its ``synchronous_commit``)."""

    def __init__(self, store: Store):
        self.store = store
        self.pending: list[tuple[ActionRow, asyncio.Future]] = []
        self.flusher: asyncio.Task | None = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gameweave-db")

    async def commit(self, row: ActionRow) -> None:
        """Commit ``row``; raises :class:`StorageError` if another writer stored the
        step first, or the database's error."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.pending.append((row, fut))
        if self.flusher is None or self.flusher.done():
            self.flusher = loop.create_task(self._flush())
        err = await fut
        if err is not None:
            raise err

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                results = await loop.run_in_executor(self.thread, self.store.commit_actions, [r for r, _ in batch])
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for (_, fut), res in zip(batch, results):
                if not fut.done():
                    fut.set_result(res)

    def close(self) -> None:
        """Stop the database thread (after the transaction in flight)."""
        self.thread.shutdown(wait=True)


class Hub:
    """Live tables backed by a :class:`Store`.

    Args:
        store: the database.
        bot_delay: pause before each bot action, seconds (so a person can follow).
        deck_source: ``() -> (deck, salt)`` or ``() -> (deck, salt, test)`` for every new
            deal (default: :func:`secure_deck`; ``test`` True marks a test deck,
            :class:`~gameweave.tables.TestDecks`).
        bot_workers: threads for bot decisions.
        bus: the Redis bus shared with the other nodes, or None for a single node.
        metrics: the node's :class:`~gameweave.server.metrics.Metrics`, or None.
        idle_evict_s: seconds without use before an idle table leaves memory.
        bot_lease_s: lifetime of this node's lease on a bot seat (with a bus).
        presence_timeout_s: a seat is online while its socket is open and it was heard
            from within this many seconds (any frame; the page sends a heartbeat every 5 s).
        presence_sweep_s: how often silence is looked for (a change re-sends the state).
        clock_scale: multiplies every clock's seconds (a test setting; 1 in play).
        abandon_after_days: a match with no move for this many days is closed as abandoned.
        phrase_interval_s: least seconds between two quick phrases of one seat.
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        deck_source: Callable[[], tuple[Any, str]] | None = None,
        bot_workers: int = 4,
        bus: Any = None,
        metrics: Any = None,
        idle_evict_s: float = 300.0,
        bot_lease_s: float = 5.0,
        presence_timeout_s: float = 12.0,
        presence_sweep_s: float = 2.0,
        clock_scale: float = 1.0,
        abandon_after_days: float = 7.0,
        phrase_interval_s: float = 3.0,
    ):
        self.store = store
        self.bot_delay = bot_delay
        self.deck_source = deck_source or secure_deck
        self.bus = bus
        self.metrics = metrics
        self.idle_evict_s = idle_evict_s
        self.bot_lease_s = bot_lease_s
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.used: dict[str, float] = {}
        self.sockets: dict[str, list[Connection | None]] = {}
        self.remote: dict[str, dict[int, int]] = {}
        self.bots: dict[str, Any] = {}
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.executor = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="gameweave-bot")
        self.closing = False
        self._sweeper: asyncio.Task | None = None
        self.commits = CommitQueue(store)
        self.presence_timeout_s = presence_timeout_s
        self.presence_sweep_s = presence_sweep_s
        self.clock_scale = clock_scale
        self.abandon_after_days = abandon_after_days
        self.phrase_interval_s = phrase_interval_s
        self.watchers: dict[str, list[Connection]] = {}
        self.shown_online: dict[str, tuple[bool, bool]] = {}
        self.turns: dict[str, tuple[int, float]] = {}
        self.clock_tasks: dict[str, tuple[int, asyncio.Task]] = {}
        self.last_phrase: dict[tuple[str, int], float] = {}
        self.remote_online: dict[str, tuple[bool, bool]] = {}
        self._presence: asyncio.Task | None = None

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Start the idle sweeper and (with a bus) the subscription to other nodes,
        then wake the bots of matches whose bot was to act when the servers stopped.
        Raises :class:`~gameweave.server.bus.BusError` if Redis cannot be reached."""
        if self.bus is not None:
            await self.bus.start(self._on_event, self._resync)
        self._sweeper = asyncio.create_task(self._sweep())
        self._presence = asyncio.create_task(self._presence_sweep())
        for match_id in self.store.bot_matches_in_play():
            await self.table(match_id)

    async def _sweep(self) -> None:
        period = max(0.05, min(30.0, self.idle_evict_s / 2))
        last_abandon = 0.0
        while not self.closing:
            await asyncio.sleep(period)
            try:
                self.evict_idle()
                if time.monotonic() - last_abandon > 600:
                    last_abandon = time.monotonic()
                    await self.close_abandoned()
            except Exception as exc:  # pragma: no cover - never stop sweeping
                log.error("sweeper: %s", type(exc).__name__)

    async def _presence_sweep(self) -> None:
        """Every ``presence_sweep_s`` seconds, re-send the state of every match whose
        seats' ``online`` changed (a socket gone silent, issue 10)."""
        while not self.closing:
            await asyncio.sleep(self.presence_sweep_s)
            try:
                if self.bus is not None:  # seats on other nodes: their presence keys in Redis
                    for match_id in list(self.remote):
                        got = await self.bus.presence(match_id)
                        if got is not None:
                            self.remote_online[match_id] = got
                for match_id in set(self.sockets) | set(self.watchers):
                    table = self.tables.get(match_id)
                    if table is not None and self.shown_online.get(match_id) != self.online_pair(match_id):
                        self.announce(table)
            except Exception as exc:  # pragma: no cover - never stop sweeping
                log.error("presence sweep: %s", type(exc).__name__)

    # ------------------------------------------------------------------ abandoned matches
    def _abandon_if_quiet(self, table: Table, now: float | None = None) -> bool:
        """Close ``table`` as abandoned if it is not over and had no move for
        ``abandon_after_days``; True if it did now."""
        now = time.time() if now is None else now
        if table.match_over or not table.last_move_at:
            return False
        if now - table.last_move_at < self.abandon_after_days * 86400:
            return False
        table.abandoned = True
        self.store.abandon(table.match_id)
        log.info("match %s: closed as abandoned (no move for %g days)", table.match_id, self.abandon_after_days)
        return True

    async def close_abandoned(self, now: float | None = None) -> int:
        """The periodic sweep of abandoned matches (also checked lazily on load):
        closes every match with no move for ``abandon_after_days``; returns how many."""
        from datetime import UTC, datetime

        now = time.time() if now is None else now
        cutoff = datetime.fromtimestamp(now - self.abandon_after_days * 86400, UTC)
        loop = asyncio.get_running_loop()
        ids = await loop.run_in_executor(self.commits.thread, self.store.quiet_matches, cutoff)
        closed = 0
        for match_id in ids:
            table = await self.table(match_id)
            if table is None:
                continue
            async with self.lock(match_id):
                table = self.tables.get(match_id) or table
                if self._abandon_if_quiet(table, now):
                    closed += 1
                    self.announce(table)
        return closed

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the tables (and their locks and bots) that have no socket, no running
        bot task, no waiting lock holder and no use for ``idle_evict_s`` seconds; they
        reload from the database on the next use.  Returns how many were evicted."""
        now = time.monotonic() if now is None else now
        gone = 0
        for match_id in list(self.tables):
            if self.sockets.get(match_id) or self.watchers.get(match_id):
                continue
            task = self.bot_tasks.get(match_id)
            if task is not None and not task.done():
                continue
            lk = self.locks.get(match_id)
            if lk is not None and lk.locked():
                continue
            if now - self.used.get(match_id, 0.0) < self.idle_evict_s:
                continue
            self._forget(match_id)
            gone += 1
        return gone

    def _forget(self, match_id: str) -> None:
        for d in (self.tables, self.locks, self.used, self.bots, self.bot_tasks, self.remote, self.turns,
                  self.shown_online, self.remote_online):
            d.pop(match_id, None)
        task = self.clock_tasks.pop(match_id, None)
        if task is not None:
            task[1].cancel()

    # ------------------------------------------------------------------ tables
    def lock(self, match_id: str) -> asyncio.Lock:
        """The lock of a match that exists (made on first use; call only after
        :meth:`table` found the match)."""
        lk = self.locks.get(match_id)
        if lk is None:
            lk = self.locks[match_id] = asyncio.Lock()
        return lk

    async def table(self, match_id: Any) -> Table | None:
        """The live table of ``match_id``, loaded from the database on first use (and
        its bot started if it is the bot's turn); None if there is no such match.  An
        unknown id leaves no state behind."""
        if not valid_match_id(match_id):
            return None
        t = self.tables.get(match_id)
        if t is None:
            # Store.load is synchronous: no other task runs between the miss and the put
            t = self.store.load(match_id)
            if t is None:
                return None
            self.tables[match_id] = t
            if self._abandon_if_quiet(t):
                pass
            self.wake_bot(t)
            self._arm_clock(t)
        self.used[match_id] = time.monotonic()
        return t

    def _deal(self) -> tuple[tuple[int, ...], str, bool]:
        got = tuple(self.deck_source())
        test = bool(got[2]) if len(got) > 2 else False
        return tuple(got[0]), str(got[1]), test

    async def create(self, opponent: str, bot: str | None, fmt: str | None = None, target: int | None = None,
                     rules: str = "gameweave", stake: int | None = None,
                     tablas_stake: str | None = None, name: str | None = None,
                     clock: int | None = None, hints: bool = False) -> tuple[Table, str]:
        """Create and store a match of profile ``rules`` (§V); returns ``(table, seat-1 token)``.

        ``bot`` is a name of :func:`~gameweave.bots.bot_names` (case and surrounding
        spaces do not matter); None means the default, ``random``.  ``fmt``, ``target``,
        ``stake`` and ``tablas_stake`` (R20) default to the profile's.  Raises
        :class:`TableError` ``unknown_bot`` for any other string, the empty one included,
        and ``bad_option`` for a format the profile does not offer or stakes options
        outside a stakes match (:func:`~gameweave.tables.check_new_match`); ``bad_name``
        for a ``name`` that is not 1-24 characters once trimmed (or holds a control
        character); ``bad_option`` for a ``clock`` other than None, 60 or 30.
        """
        name = check_name(name)
        try:
            opts = check_new_match(rules, fmt, target, stake, tablas_stake)
        except OptionError as exc:
            raise TableError("bad_option", str(exc), params={"detail": str(exc)}) from None
        if opponent == "bot":
            bot_name = "random" if bot is None else bot.strip().lower()
            if bot_name not in bot_names():
                shown = "an empty name" if not bot_name else repr(bot[:32])
                raise TableError("unknown_bot", f"unknown bot: {shown} (this server has: {', '.join(bot_names())}; "
                                                "leave 'bot' out for random)", params={"bot": str(bot)[:32]})
            bot = bot_name
        deck, salt, test = self._deal()
        table, token = Table.create(opponent=opponent, bot=bot, format=opts["match"], target=opts["target"],
                                    deck=deck, salt=salt, rules=rules, stake=opts["stake"],
                                    tablas_stake=opts["tablas_stake"], test=test, name=name, clock=clock,
                                    clock_scale=self.clock_scale, hints=hints)
        table.last_move_at = time.time()
        self.store.create(table)
        self.tables[table.match_id] = table
        self.used[table.match_id] = time.monotonic()
        log.info("match %s created (%s%s, %s %s, %s)%s", table.match_id, opponent,
                 f" {bot}" if opponent == "bot" else "", table.format, table.target, table.rules,
                 " from a test deck" if test else "")
        self.wake_bot(table)
        return table, token

    async def rematch(self, table: Table, seat: int = 0) -> tuple[Table, str]:
        """A new match with the settings of ``table`` (profile, format, target, stake,
        tablas stake, opponent, bot, clock); the asker (``seat`` of ``table``) holds its
        seat 1, under its name.  Returns ``(table, seat-1 token)``."""
        m = table.match
        stakes = m.format == "stakes"
        return await self.create(table.opponent, table.bot, m.format, m.target, rules=table.rules,
                                 stake=m.stake if stakes else None,
                                 tablas_stake=m.tablas_stake if stakes else None,
                                 name=table.names[seat], clock=table.clock, hints=table.hints)

    async def seat_for_token(self, match_id: Any, token: Any) -> tuple[Table | None, int]:
        """``(table, seat index)`` that ``token`` holds, ``(table, -1)`` for a wrong
        token, ``(None, -1)`` for no such match.  With several nodes, while seat 2 is
        open here a token that does not match is checked once more after catching up
        (seat 2 may have joined on another node a moment ago)."""
        table = await self.table(match_id)
        if table is None:
            return None, -1
        seat = table.seat_of_token(token)
        # only seat 2's token can be new to this node (joined through another one), so a
        # wrong token costs a database read only while seat 2 is open here
        if seat < 0 and self.bus is not None and isinstance(token, str) and token and table.token_hashes[1] is None:
            async with self.lock(match_id):
                table = self._catch_up(self.tables.get(match_id) or table)
            seat = table.seat_of_token(token)
        return table, seat

    async def join(self, match_id: str, invite: Any, name: str | None = None) -> tuple[Table, str]:
        """Give seat 2 of a friend match to the holder of ``invite`` (named ``name``);
        returns ``(table, seat-2 token)``.  Raises :class:`TableError` (``bad_name``,
        ``unknown_match``, ``not_a_friend_match``, ``bad_invite``, ``already_joined``)."""
        name = check_name(name)
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            table = self.tables.get(match_id) or table
            problem = invite_problem(table, invite)
            if problem is not None:
                raise TableError(*problem)
            token = new_token()
            h = hash_token(token)
            if not self.store.join(match_id, h, name):
                raise TableError("already_joined", "seat 2 of this match is already taken")
            table.token_hashes[1] = h
            table.names[1] = name
            log.info("match %s: seat 2 joined", match_id)
            self.announce(table)
            await self._publish({"kind": "join", "match": match_id, "version": table.version})
        return table, token

    # ------------------------------------------------------------------ sockets
    def connected(self, match_id: str, seat: int, now: float | None = None) -> bool:
        """True if ``seat`` is online: its socket is open on this node and was heard
        from (any frame, a heartbeat included) within ``presence_timeout_s``, or it is
        open on another node (several nodes)."""
        conns = self.sockets.get(match_id)
        c = conns[seat] if conns else None
        if c is not None and not c.closed:
            now = time.monotonic() if now is None else now
            return now - c.last_seen <= self.presence_timeout_s
        return seat in self.remote.get(match_id, ()) and self.remote_online.get(match_id, (True, True))[seat]

    def online_pair(self, match_id: str) -> tuple[bool, bool]:
        """``(seat 1 online, seat 2 online)`` now."""
        now = time.monotonic()
        return self.connected(match_id, 0, now), self.connected(match_id, 1, now)

    def heard(self, conn: Connection) -> None:
        """A frame came from ``conn``: it is alive; if its seat showed offline, every
        seat hears it is back at once."""
        now = time.monotonic()
        conn.last_seen = now
        if self.bus is not None and conn.seat >= 0 and now - conn.touched > self.presence_sweep_s:
            conn.touched = now
            asyncio.get_running_loop().create_task(
                self.bus.touch_presence(conn.match_id, conn.seat, self.presence_timeout_s))
        if conn.seat >= 0:
            shown = self.shown_online.get(conn.match_id)
            if shown is not None and not shown[conn.seat]:
                table = self.tables.get(conn.match_id)
                if table is not None:
                    self.announce(table)

    def socket_count(self) -> int:
        """Open seat and spectator sockets on this node."""
        seats = sum(1 for conns in self.sockets.values() for c in conns if c is not None and not c.closed)
        return seats + sum(1 for ws in self.watchers.values() for c in ws if not c.closed)

    def spectator_count(self, match_id: str) -> int:
        """Open spectator sockets of a match (on this node)."""
        return sum(1 for c in self.watchers.get(match_id, ()) if not c.closed)

    def _info(self, table: Table) -> dict[str, Any]:
        return {"online": self.online_pair(table.match_id), "clock": self.clock_info(table),
                "spectators": self.spectator_count(table.match_id)}

    def frame(self, table: Table, seat: int) -> dict[str, Any]:
        """The state frame for ``seat`` now (a spectator's with ``seat`` -1)."""
        info = self._info(table)
        if seat < 0:
            return spectator_frame(table, **info)
        return state_frame(table, seat, info["online"][1 - seat], **info)

    def announce(self, table: Table) -> None:
        """Queue each connected seat's own state frame (R21: a seat only gets its view)
        and every spectator's third-party frame, serialised once each; then (re)arm the
        match's clock for the decision now due."""
        match_id = table.match_id
        self.shown_online[match_id] = self.online_pair(match_id)
        conns = self.sockets.get(match_id)
        if conns:
            for seat in (0, 1):
                c = conns[seat]
                if c is not None and not c.closed:
                    c.send(dump_frame(self.frame(table, seat)))
        watchers = [c for c in self.watchers.get(match_id, ()) if not c.closed]
        if watchers:
            text = dump_frame(self.frame(table, -1))
            for c in watchers:
                c.send(text)
        self._arm_clock(table)

    def broadcast(self, match_id: str, frame: dict[str, Any]) -> None:
        """Send one frame to both seats and every spectator of a match on this node."""
        text = dump_frame(frame)
        for c in list(self.sockets.get(match_id) or ()) + list(self.watchers.get(match_id, ())):
            if c is not None and not c.closed:
                c.send(text)

    async def watch(self, conn: Connection, table: Table) -> None:
        """Add a spectator socket (``conn.seat`` -1): it gets the third-party frame now
        and at every change; the seats hear how many watch."""
        async with self.lock(table.match_id):
            table = self.tables.get(table.match_id) or table
            self.watchers.setdefault(table.match_id, []).append(conn)
            self.announce(table)

    async def unwatch(self, conn: Connection) -> None:
        """Forget a spectator socket and tell the seats."""
        ws = self.watchers.get(conn.match_id)
        if not ws or conn not in ws:
            return
        async with self.lock(conn.match_id):
            ws.remove(conn)
            if not ws:
                self.watchers.pop(conn.match_id, None)
            table = self.tables.get(conn.match_id)
            if table is not None:
                self.announce(table)
            self.used[conn.match_id] = time.monotonic()

    async def phrase(self, conn: Connection, key: Any) -> None:
        """A quick phrase from a seat: broadcast ``{"type": "phrase", "seat": n, "key":
        k}`` to both seats and the spectators (and the other nodes).  Raises
        :class:`TableError` ``unknown_phrase`` for a key not in
        :data:`~gameweave.tables.PHRASES` and ``rate_limited`` within
        ``phrase_interval_s`` of the seat's last phrase."""
        if not is_phrase(key):
            raise TableError("unknown_phrase", "not one of the quick phrases", params={"key": str(key)[:32]})
        now = time.monotonic()
        last = self.last_phrase.get((conn.match_id, conn.seat))
        if last is not None and now - last < self.phrase_interval_s:
            raise TableError("rate_limited", "one quick phrase every few seconds",
                             params={"seconds": round(self.phrase_interval_s)})
        self.last_phrase[(conn.match_id, conn.seat)] = now
        frame = {"type": "phrase", "seat": conn.seat + 1, "key": key}
        self.broadcast(conn.match_id, frame)
        await self._publish({"kind": "phrase", "match": conn.match_id, "seat": conn.seat, "key": key})

    # ------------------------------------------------------------------ the clock
    def _clock_seat(self, table: Table) -> int:
        """The seat whose decision is timed now, or -1 (no clock, nobody to time, a
        bot's decision, seat 2 not joined yet)."""
        if table.clock is None or not table.playing or not table.joined:
            return -1
        seat = table.state.to_act
        return seat if seat >= 0 and table.has_person(seat) else -1

    def _turn_start(self, table: Table) -> float:
        """When the decision of the current version started (this node's clock)."""
        got = self.turns.get(table.match_id)
        if got is None or got[0] != table.version:
            got = self.turns[table.match_id] = (table.version, time.monotonic())
        return got[1]

    def clock_info(self, table: Table) -> dict[str, Any] | None:
        """The ``match.clock`` object: ``per_decision`` (seconds), ``bank`` per seat
        (seconds left), ``to_act`` (seat number timed now, or None) and
        ``deadline_in_ms`` (time left for it to act, from now), or None without a clock."""
        if table.clock is None:
            return None
        per = table.clock * self.clock_scale
        bank = [table.bank[0], table.bank[1]]
        seat = self._clock_seat(table)
        deadline = None
        if seat >= 0:
            elapsed = time.monotonic() - self._turn_start(table)
            bank[seat] = max(0.0, bank[seat] - max(0.0, elapsed - per))
            deadline = max(0, int((per + table.bank[seat] - elapsed) * 1000))
        return {"per_decision": round(per, 3), "bank": {"1": round(bank[0], 3), "2": round(bank[1], 3)},
                "to_act": seat + 1 if seat >= 0 else None, "deadline_in_ms": deadline}

    def _charge_clock(self, table: Table, seat: int) -> None:
        """Take from ``seat``'s bank the time its decision ran over the clock."""
        if self._clock_seat(table) != seat:
            return
        over = time.monotonic() - self._turn_start(table) - table.clock * self.clock_scale  # type: ignore[operator]
        if over > 0:
            table.bank[seat] = max(0.0, table.bank[seat] - over)

    def _arm_clock(self, table: Table) -> None:
        """Schedule the timeout of the decision now due (once per version)."""
        if self.closing:
            return
        match_id = table.match_id
        seat = self._clock_seat(table)
        armed = self.clock_tasks.get(match_id)
        if armed is not None and (armed[0] != table.version or seat < 0 or armed[1].done()):
            if armed[0] != table.version or seat < 0:
                armed[1].cancel()
            self.clock_tasks.pop(match_id, None)
            armed = None
        if seat < 0 or armed is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop (sync caller)
            return
        left = table.clock * self.clock_scale + table.bank[seat] - (time.monotonic() - self._turn_start(table))  # type: ignore[operator]
        task = loop.create_task(self._timeout(match_id, table.version, seat, max(0.0, left)))
        self.clock_tasks[match_id] = (table.version, task)

    async def _timeout(self, match_id: str, version: int, seat: int, delay: float) -> None:
        """When a timed decision runs out, play a safe legal move for the seat:
        ``refuse`` when melding is optional, ``turn`` instead of taking, else the greedy
        bot's choice (a throw or a meld that must be chosen); after two timeouts in a row
        the seat is marked away.  With several nodes only the holder of the match's
        lease plays it (the database's version check makes it happen once)."""
        try:
            await asyncio.sleep(delay)
            while self.bus is not None and not await self.bus.acquire(match_id, self.bot_lease_s):
                # another node holds the lease and plays it; if that node died, its lease
                # expires and this node plays the timeout (unless the decision was made)
                await asyncio.sleep(min(1.0, self.bot_lease_s / 4))
                table = self.tables.get(match_id)
                if self.closing or table is None or table.version != version:
                    return
            async with self.lock(match_id):
                table = self.tables.get(match_id)
                if table is None or table.version != version or self._clock_seat(table) != seat:
                    return
                legal = table.state.legal_actions()
                if REFUSE in legal:
                    a = REFUSE
                elif TURN in legal:
                    a = TURN
                else:
                    a = choose_greedy(seat_view(table.state, seat), legal)
                table.bank[seat] = 0.0
                table.timeouts[seat] += 1
                if table.timeouts[seat] >= 2:
                    table.away[seat] = True
                # the kind only: log lines never name a card (R21)
                log.info("match %s: seat %d timed out; the server played a %s", match_id, seat + 1,
                         format_action(a).split()[0])
                self.clock_tasks.pop(match_id, None)
                table.timed_out = (seat, table.version + 1)  # the version the move makes
                try:
                    await self._commit_action(table, seat, a)
                except (_Conflict, TableError):
                    table.timed_out = None
                    return
            self.wake_bot(table)
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # never let a clock take the server down
            log.error("match %s: clock failed: %s", match_id, type(exc).__name__)

    async def attach(self, conn: Connection, table: Table) -> None:
        """Make ``conn`` the seat's socket (closing an older one, on this node or
        another), send it the full view and tell the opponent it is connected."""
        if self.bus is not None:
            conn.gen = await self.bus.seat_generation(conn.match_id, conn.seat)
            await self.bus.touch_presence(conn.match_id, conn.seat, self.presence_timeout_s)
        async with self.lock(table.match_id):
            table = self.tables.get(table.match_id) or table
            if self.bus is not None:  # a client coming from a dead node gets the newest version
                table = self._catch_up(table)
                self.tables.setdefault(table.match_id, table)
            conns = self.sockets.setdefault(table.match_id, [None, None])
            old = conns[conn.seat]
            if old is not None and old is not conn:
                old.close(4000, "replaced by a newer connection")
            rem = self.remote.get(table.match_id)
            if rem is not None and rem.get(conn.seat, 0) <= conn.gen:
                rem.pop(conn.seat, None)
            conns[conn.seat] = conn
            self.announce(table)
            await self._publish({"kind": "hello", "match": table.match_id, "seat": conn.seat, "gen": conn.gen})
        self.wake_bot(table)

    async def detach(self, conn: Connection) -> None:
        """Forget ``conn`` and tell the opponent the seat left."""
        match_id = conn.match_id
        if match_id not in self.tables and match_id not in self.sockets:
            return
        async with self.lock(match_id):
            conns = self.sockets.get(match_id)
            if conns and conns[conn.seat] is conn:
                conns[conn.seat] = None
                table = self.tables.get(match_id)
                if table is not None:
                    self.announce(table)
                if conns == [None, None]:
                    self.sockets.pop(match_id, None)
                self.used[match_id] = time.monotonic()
                if self.bus is not None:
                    await self.bus.drop_presence(match_id, conn.seat)
                await self._publish({"kind": "bye", "match": match_id, "seat": conn.seat, "gen": conn.gen})

    # ------------------------------------------------------------------ actions
    async def act(self, match_id: Any, seat: Any, token: Any, action: Any, version: Any) -> Table:
        """Check, apply, commit and announce one action (PROTOCOL §4.2).

        Raises :class:`TableError` with the first failed check; nothing changes then.
        When another node stored a step first, the action is checked again against the
        state after that step, so the code says why it lost (``deal_over``,
        ``not_your_turn``, ``illegal`` or ``stale``).
        """
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            table = self.tables.get(match_id) or table
            if self.bus is not None and type(version) is int and version > table.version:
                table = self._catch_up(table)  # the client saw a newer version on another node
            a = table.check_action(seat, token, action, version)
            self._charge_clock(table, seat)
            table.timeouts[seat] = 0
            table.away[seat] = False
            try:
                await self._commit_action(table, seat, a)
            except _Conflict:
                fresh = self._reload(match_id)
                if fresh is None:
                    raise TableError("unknown_match", "no such match") from None
                table = fresh
                table.check_action(seat, token, action, version)
                raise TableError("stale", "another message was applied first; reload the state", table.version) from None
        self.wake_bot(table)
        return table

    async def _commit_action(self, table: Table, seat: int, a: int) -> None:
        """Apply a checked action, commit it, announce it here, then publish it to the
        other nodes (caller holds the lock).  Raises :class:`_Conflict` if another writer
        stored this step first, :class:`TableError` ``server_error`` if the database
        failed; the in-memory table is dropped in both cases (it reloads)."""
        prev = table.version
        text = format_action(a)
        seq = len(table.state.history) + 1
        table.apply_action(seat, a)
        table.last_move_at = time.time()
        try:
            await self.commits.commit(action_row(table, seat, text, seq, prev))
        except StorageError:
            self.tables.pop(table.match_id, None)
            log.info("match %s: step %d was stored by another writer first", table.match_id, seq)
            raise _Conflict() from None
        except Exception as exc:
            # the database did not take it: forget the in-memory table; it reloads
            self.tables.pop(table.match_id, None)
            log.error("match %s: could not store an action: %s", table.match_id, type(exc).__name__)
            raise TableError("server_error", "the action could not be stored; reload the state", prev) from None
        if self.metrics is not None:
            self.metrics.actions.inc()
        if table.state.is_over:
            log.info("match %s deal %d ended: %s", table.match_id, table.deal.number, table.state.status)
        self.announce(table)
        await self._publish({"kind": "action", "match": table.match_id, "version": table.version,
                             "seat": seat, "action": text})

    async def next_deal(self, match_id: Any, seat: Any, token: Any, version: Any) -> Table:
        """Deal the next deal of a match (R9 opener).  Raises :class:`TableError`."""
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            table = self.tables.get(match_id) or table
            if self.bus is not None and type(version) is int and version > table.version:
                table = self._catch_up(table)
            table.check_next_deal(seat, token, version)
            table.away[seat] = False
            mask = self.store.mark_ready(match_id, seat)
            table.ready = [bool(mask & 1) or table.ready[0], bool(mask & 2) or table.ready[1]]
            if not table.mark_ready(seat):  # each seat's own pace: wait for the other
                self.announce(table)
                await self._publish({"kind": "ready", "match": match_id, "version": table.version})
                return table
            prev = table.version
            deck, salt, test = self._deal()
            table.add_deal(deck, salt, test)
            try:
                self.store.add_deal(table, prev)
            except StorageError:
                self.tables.pop(match_id, None)
                fresh = self._reload(match_id)
                if fresh is None:
                    raise TableError("unknown_match", "no such match") from None
                fresh.check_next_deal(seat, token, version)
                raise TableError("stale", "the next deal was dealt by another message first", fresh.version) from None
            except Exception as exc:
                self.tables.pop(match_id, None)
                log.error("match %s: could not store a deal: %s", match_id, type(exc).__name__)
                raise TableError("server_error", "the deal could not be stored; reload the state", prev) from None
            self.announce(table)
            await self._publish({"kind": "deal", "match": match_id, "version": table.version})
        self.wake_bot(table)
        return table

    async def resign(self, match_id: Any, seat: Any, token: Any, scope: Any, version: Any) -> Table:
        """Seat ``seat`` resigns the deal (the other seat wins it, R20) or the match
        (the other seat wins it).  Raises :class:`TableError` (``unknown_match``,
        ``malformed``, ``match_over``, ``bad_token``, ``deal_over``, ``stale``)."""
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            table = self.tables.get(match_id) or table
            if self.bus is not None and type(version) is int and version > table.version:
                table = self._catch_up(table)
            table.check_resign(seat, token, scope, version)
            prev = table.version
            number = table.resign(seat, scope)
            table.last_move_at = time.time()
            try:
                self.store.resign(table, prev, number)
            except StorageError:
                fresh = self._reload(match_id)
                raise TableError("stale", "another message was applied first; reload the state",
                                 fresh.version if fresh else None) from None
            except Exception as exc:
                self.tables.pop(match_id, None)
                log.error("match %s: could not store a resignation: %s", match_id, type(exc).__name__)
                raise TableError("server_error", "the resignation could not be stored; reload the state", prev) from None
            log.info("match %s: seat %d resigned the %s", match_id, seat + 1, scope)
            self.announce(table)
            await self._publish({"kind": "resign", "match": match_id, "version": table.version})
        return table

    # ------------------------------------------------------------------ several nodes
    async def _publish(self, event: dict[str, Any]) -> None:
        if self.bus is not None:
            await self.bus.publish(event)

    def _reload(self, match_id: str) -> Table | None:
        """Load the match afresh from the database, make it the live table and announce
        it to this node's sockets (caller holds the lock)."""
        fresh = self.store.load(match_id)
        if fresh is None:
            self._forget(match_id)
            return None
        self.tables[match_id] = fresh
        self.used[match_id] = time.monotonic()
        self.announce(fresh)
        return fresh

    def _catch_up(self, table: Table) -> Table:
        """Bring ``table`` to the database's version one step at a time, announcing
        every version to this node's sockets in order (caller holds the lock).  Returns
        the live table (a fresh one if the copy in memory disagrees with the database)."""
        loaded = self.store.load(table.match_id)
        if loaded is None:
            return table
        table.token_hashes = list(loaded.token_hashes)
        ok = True
        while table.version < loaded.version:
            n = len(table.deals)
            if n > len(loaded.deals):
                ok = False
                break
            mine, theirs = table.state, loaded.deals[n - 1].state
            if mine.history != theirs.history[: len(mine.history)]:
                ok = False
                break
            if len(mine.history) < len(theirs.history):
                table.apply_action(mine.to_act, theirs.history[len(mine.history)])
            elif n < len(loaded.deals):
                d = loaded.deals[n]
                table.add_deal(d.deck, d.salt, d.test)
            else:
                ok = False
                break
            self.announce(table)
        if not ok or table.version != loaded.version:
            log.info("match %s: the copy in memory disagrees with the database; reloaded", table.match_id)
            self.tables[table.match_id] = loaded
            self.announce(loaded)
            return loaded
        return table

    async def _on_event(self, event: dict[str, Any]) -> None:
        """Apply one event published by another node (see :mod:`~gameweave.server.bus`)."""
        kind = event.get("kind")
        match_id = event.get("match")
        if not valid_match_id(match_id):
            return
        if self.metrics is not None:
            self.metrics.remote(str(kind)[:16])
        if kind in ("hello", "bye"):
            seat, gen = event.get("seat"), event.get("gen")
            if seat not in (0, 1) or type(gen) is not int:
                return
            if kind == "hello":
                self.remote.setdefault(match_id, {})[seat] = gen
                conns = self.sockets.get(match_id)
                local = conns[seat] if conns else None
                if local is not None and not local.closed and local.gen <= gen:
                    local.close(4000, "replaced by a newer connection")
            else:
                rem = self.remote.get(match_id)
                if rem is not None and rem.get(seat) == gen:
                    rem.pop(seat)
                    if not rem:
                        self.remote.pop(match_id, None)
            table = self.tables.get(match_id)
            if table is not None:
                self.announce(table)
            return
        if kind == "phrase":
            seat, key = event.get("seat"), event.get("key")
            if seat in (0, 1) and is_phrase(key):
                self.broadcast(match_id, {"type": "phrase", "seat": seat + 1, "key": key})
            return
        table = self.tables.get(match_id)
        if table is None:  # not held here: it loads fresh from the database when named
            return
        version = event.get("version")
        if type(version) is not int:
            return
        async with self.lock(match_id):
            table = self.tables.get(match_id)
            if table is None:
                return
            if kind in ("join", "ready"):
                table = self._reload(match_id) or table
            elif version <= table.version:
                pass  # already here (this node caught up from the database before)
            elif kind == "action" and version == table.version + 1:
                seat, text = event.get("seat"), event.get("action")
                try:
                    a = parse_action(text)
                    fits = (seat in (0, 1) and not table.state.is_over and table.state.to_act == seat
                            and a in table.state.legal_actions())
                except (ValueError, TypeError):
                    fits = False
                if fits:
                    table.apply_action(seat, a)
                    self.announce(table)
                else:
                    table = self._catch_up(table)
            else:  # a gap, or a new deal: the database has every step
                table = self._catch_up(table)
        self.wake_bot(table)

    async def _resync(self) -> None:
        """Catch every table in memory up from the database (after Redis came back)."""
        for match_id in list(self.tables):
            async with self.lock(match_id):
                table = self.tables.get(match_id)
                if table is not None:
                    self.wake_bot(self._catch_up(table))

    # ------------------------------------------------------------------ bots
    def wake_bot(self, table: Table) -> None:
        """Start the match's bot task if the bot must act and none is running."""
        if self.closing or not table.bot_to_act():
            return
        task = self.bot_tasks.get(table.match_id)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop (sync caller)
            return
        self.bot_tasks[table.match_id] = loop.create_task(self._bot_loop(table.match_id))

    async def _bot_loop(self, match_id: str) -> None:
        """Play the bot seat while it is its decision, one action per ``bot_delay``.
        With several nodes only the holder of the match's bot lease plays; the others
        wait, and take the lease over once it expires (its node died)."""
        leased = False
        try:
            while not self.closing:
                table = self.tables.get(match_id)
                if table is None or not table.bot_to_act():
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                table = self.tables.get(match_id)
                if table is None or not table.bot_to_act():
                    return
                if self.bus is not None:
                    leased = await self.bus.acquire(match_id, self.bot_lease_s)
                    if not leased:
                        await asyncio.sleep(min(1.0, self.bot_lease_s / 4))
                        continue
                version = table.version
                seat = Table.BOT_SEAT
                view = seat_view(table.state, seat)  # the bot sees only its seat's view (R21)
                bot = self.bots.get(match_id)
                if bot is None or getattr(bot, "name", None) != table.bot:
                    bot = self.bots[match_id] = make_bot(table.bot, seed=secrets.randbits(32))
                loop = asyncio.get_running_loop()
                started = time.perf_counter()
                a = await loop.run_in_executor(self.executor, bot.choose, view)
                if self.metrics is not None:
                    self.metrics.bot_think.observe(time.perf_counter() - started)
                if self.bus is not None and not await self.bus.acquire(match_id, self.bot_lease_s):
                    leased = False
                    continue  # the lease went to another node while thinking
                async with self.lock(match_id):
                    if self.tables.get(match_id) is not table or table.version != version or not table.bot_to_act():
                        continue
                    if a not in table.state.legal_actions():
                        log.error("match %s: bot %s chose an illegal action", match_id, table.bot)
                        return
                    try:
                        await self._commit_action(table, seat, a)
                    except _Conflict:
                        self._reload(match_id)
                        continue
                    except TableError:
                        return
                    if self.metrics is not None:
                        self.metrics.bot_moves.inc()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken bot must not take the server down
            log.error("match %s: bot failed: %s", match_id, type(exc).__name__)
        finally:
            if leased and self.bus is not None and not self.closing:
                await self.bus.release(match_id)

    async def close(self) -> None:
        """Stop bots, close sockets, release the database and Redis."""
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._presence is not None:
            self._presence.cancel()
        for _v, task in list(self.clock_tasks.values()):
            task.cancel()
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for conns in list(self.sockets.values()) + list(self.watchers.values()):
            for c in conns:
                if c is not None:
                    c.close(1001, "server shutting down")
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.bus is not None:
            await self.bus.close()
        self.commits.close()
        self.store.close()


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


__all__ = ["Connection", "Hub", "MAX_FRAME", "TokenBucket", "invite_problem", "valid_match_id"]

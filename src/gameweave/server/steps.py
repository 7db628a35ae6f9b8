"""The one authoritative path for every change to a live match (issue 18).

Every change — a seat's action, its ``next_deal`` or ``resign``, the clock's timeout move
and the bot's move — is a :class:`Step` run by :meth:`ChangePath.run`, in one order
(boardgame.io's ``master.onUpdate`` is the model):

1. the match's room and its lock;
2. with several nodes, catch up from the database if the client saw a newer version;
3. the referee's check (:meth:`~gameweave.tables.Table.check_action`,
   ``check_next_deal``, ``check_resign``; for a move the server plays: still that
   decision, at that version);
4. apply, store (actions through the group commit), announce to this node's sockets,
   publish to the other nodes.

One storage-error policy: when another writer stored the step first (a
:class:`~gameweave.storage.StorageError`), the match is reloaded and the *same* check runs
again, so the loser hears the real code (``deal_over``, ``not_your_turn``, ``illegal``,
``match_over`` …, else ``stale``); on any other database error the live table is dropped
(it reloads on the next use) and the sender gets ``server_error``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from ..engine.actions import KIND_NAMES, kind_of
from ..storage import StorageError
from ..storage.commits import action_row
from ..tables import Table, TableError
from ..tables.timeouts import TimeoutPolicy
from .room import MatchRoom

log = logging.getLogger("gameweave.server")

Event = dict[str, Any]
"""What a step publishes on the bus (``kind`` and its fields; the path adds the rest)."""


class Conflict(Exception):
    """Another writer (another node) stored this step first."""


class Unchanged(Exception):
    """A move the server meant to play is no longer due (the decision was made)."""


class Step:
    """One change of a match.  ``seat`` is the acting seat index (0/1), ``version`` the
    state version the sender saw (anything a client sent; None for the server's moves);
    ``failure`` the message of a ``server_error``."""

    failure = "the change could not be stored; reload the state"

    def __init__(self, seat: Any, version: Any = None):
        self.seat = seat
        self.version = version

    def check(self, room: MatchRoom, table: Table) -> Any:
        """The referee's check against ``table``: what :meth:`commit` needs, or raises
        :class:`TableError` (or :class:`Unchanged`); nothing changes."""
        raise NotImplementedError

    async def commit(self, path: ChangePath, room: MatchRoom, checked: Any) -> Event | None:
        """Apply the checked change to the room's table and store it; returns the bus
        event (None: nothing to publish).  Raises :class:`Conflict` when another writer
        stored it first; any other exception is a database failure."""
        raise NotImplementedError


class Act(Step):
    """A seat's ``action`` (PROTOCOL §4.2): the action id or §VII text it sent."""

    failure = "the action could not be stored; reload the state"

    def __init__(self, seat: Any, token: Any, action: Any, version: Any):
        super().__init__(seat, version)
        self.token, self.action = token, action

    def check(self, room: MatchRoom, table: Table) -> int:
        return table.check_action(self.seat, self.token, self.action, self.version)

    async def commit(self, path: ChangePath, room: MatchRoom, checked: int) -> Event:
        table = room.table
        assert table is not None
        room.clock.charge(table, self.seat)
        table.timeouts[self.seat] = 0
        table.away[self.seat] = False
        return await path.commit_action(room, self.seat, checked)


class Timeout(Step):
    """The move the server plays for a seat whose timed decision ran out (issue 10): the
    policy's move; the seat's bank is spent and, after two timeouts in a row, it is away."""

    def __init__(self, seat: int, version: int, policy: TimeoutPolicy):
        super().__init__(seat, version)
        self.policy = policy

    def check(self, room: MatchRoom, table: Table) -> int:
        if table.version != self.version or room.clock.seat(table) != self.seat:
            raise Unchanged()
        return self.policy(table.state, self.seat)

    async def commit(self, path: ChangePath, room: MatchRoom, checked: int) -> Event:
        table = room.table
        assert table is not None
        seat = self.seat
        table.bank[seat] = 0.0
        table.timeouts[seat] += 1
        if table.timeouts[seat] >= 2:
            table.away[seat] = True
        # the kind only: log lines never name a card (R21)
        log.info("match %s: seat %d timed out; the server played a %s", room.match_id, seat + 1,
                 KIND_NAMES[kind_of(checked)])
        room.clock.disarm()
        table.timed_out = (seat, table.version + 1)  # the version the move makes
        return await path.commit_action(room, seat, checked)


class BotMove(Step):
    """The bot's chosen action for seat 2 at ``version`` (it thought outside the lock)."""

    def __init__(self, version: int, action: int):
        super().__init__(Table.BOT_SEAT, version)
        self.action = action

    def check(self, room: MatchRoom, table: Table) -> int:
        if table.version != self.version or not table.bot_to_act():
            raise Unchanged()
        if self.action not in table.state.legal_actions():
            log.error("match %s: bot %s chose an illegal action", room.match_id, table.bot)
            raise TableError("illegal", "the bot chose an illegal action", table.version)
        return self.action

    async def commit(self, path: ChangePath, room: MatchRoom, checked: int) -> Event:
        event = await path.commit_action(room, self.seat, checked)
        if path.metrics is not None:
            path.metrics.bot_moves.inc()
        return event


class NextDeal(Step):
    """A seat moves on from a finished deal (issue 10: each seat at its own pace); the
    next deal (R9 opener) is dealt once every seat has."""

    failure = "the deal could not be stored; reload the state"

    def __init__(self, seat: Any, token: Any, version: Any):
        super().__init__(seat, version)
        self.token = token

    def check(self, room: MatchRoom, table: Table) -> None:
        table.check_next_deal(self.seat, self.token, self.version)

    async def commit(self, path: ChangePath, room: MatchRoom, checked: None) -> Event:
        table = room.table
        assert table is not None
        table.away[self.seat] = False
        mask = await path.db.run(path.db.store.mark_ready, room.match_id, self.seat)
        table.ready = [bool(mask & 1) or table.ready[0], bool(mask & 2) or table.ready[1]]
        if not table.mark_ready(self.seat):  # wait for the other seat
            return {"kind": "ready", "ready": int(table.ready[0]) | int(table.ready[1]) << 1}
        prev = table.version
        deck, salt, test = path.deal()
        info = table.add_deal(deck, salt, test)
        try:
            await path.db.run(path.db.store.add_deal, table, prev)
        except StorageError:
            raise Conflict() from None
        return {"kind": "deal", "number": info.number, "commitment": info.commitment}


class Resign(Step):
    """A seat resigns the deal (the other seat wins it, R20) or the whole match."""

    failure = "the resignation could not be stored; reload the state"

    def __init__(self, seat: Any, token: Any, scope: Any, version: Any):
        super().__init__(seat, version)
        self.token, self.scope = token, scope

    def check(self, room: MatchRoom, table: Table) -> None:
        table.check_resign(self.seat, self.token, self.scope, self.version)

    async def commit(self, path: ChangePath, room: MatchRoom, checked: None) -> Event:
        table = room.table
        assert table is not None
        prev = table.version
        number = table.resign(self.seat, self.scope)
        table.last_move_at = time.time()
        try:
            await path.db.run(path.db.store.resign, table, prev, number)
        except StorageError:
            raise Conflict() from None
        log.info("match %s: seat %d resigned the %s", room.match_id, self.seat + 1, self.scope)
        return {"kind": "resign", "seat": self.seat, "scope": self.scope}


def _retrieve(task: asyncio.Task) -> None:
    """Read a finished step's outcome, so that one whose caller went away is not
    reported as "never retrieved" (its error was logged or answered already)."""
    if not task.cancelled():
        task.exception()


class ChangePath:
    """Runs every :class:`Step` (see the module docstring).

    Args:
        db: the :class:`~gameweave.server.database.Database`.
        sync: the :class:`~gameweave.server.sync.Sync` (catch-up, reload, publish).
        deal: ``() -> (deck, salt, test)`` for every new deal.
        after: called with the room after every change (wakes its bot).
        timeout_policy: the move played when a clock runs out (default: refuse, else
            turn, else the first legal action).
        lease_s: lifetime of a node's lease on a match (the clock's, with a bus).
    """

    def __init__(self, db: Any, sync: Any, deal: Callable[[], tuple[tuple[int, ...], str, bool]],
                 after: Callable[[MatchRoom], None], *, timeout_policy: TimeoutPolicy | None = None,
                 lease_s: float = 5.0):
        self.db, self.sync, self.deal, self.after = db, sync, deal, after
        self.timeout_policy = timeout_policy or TimeoutPolicy()
        self.lease_s = lease_s
        self.metrics: Any = None
        self.closing = False

    async def run(self, room: MatchRoom, step: Step) -> Table:
        """Run ``step`` on ``room``; returns the live table after it.  Raises
        :class:`TableError` with the first failed check (nothing changes then),
        ``stale`` (or the real code) after losing a race to another writer,
        ``server_error`` after a database failure; :class:`Unchanged` if a move the
        server meant to play is no longer due.

        The step runs to its end even when the caller is cancelled (a socket that closes
        while its move is being stored): once stored, the move is announced, published
        to the other nodes and followed up (bots, ratings) all the same."""
        task = asyncio.ensure_future(self._run(room, step))
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _run(self, room: MatchRoom, step: Step) -> Table:
        async with room.lock:
            table = room.table or await self.sync.reload(room, "dropped")
            if table is None:
                raise TableError("unknown_match", "no such match")
            if self.sync.bus is not None and type(step.version) is int and step.version > table.version:
                table = await self.sync.catch_up(room, "client_ahead")  # it saw a newer version elsewhere
                if table is None:
                    raise TableError("unknown_match", "no such match")
            checked = step.check(room, table)
            prev = table.version
            try:
                event = await step.commit(self, room, checked)
            except Conflict:
                table = await self._lost_race(room, step)
                raise TableError("stale", "another message was applied first; reload the state",
                                 table.version) from None
            except TableError:
                raise
            except Exception as exc:
                room.table = None  # the database did not take it: the table reloads on the next use
                log.error("match %s: could not store a %s: %s", room.match_id, type(step).__name__.lower(),
                          type(exc).__name__)
                raise TableError("server_error", step.failure, prev) from None
            room.announce()
            if event is not None:
                self.sync.publish(room, event)
        self.after(room)
        return room.table or table

    async def _lost_race(self, room: MatchRoom, step: Step) -> Table:
        """Another writer stored its step first: reload, and check ``step`` again against
        the state after that step (raising the real code)."""
        log.info("match %s: a %s was stored by another writer first", room.match_id, type(step).__name__.lower())
        fresh = await self.sync.reload(room, "conflict")
        if fresh is None:
            raise TableError("unknown_match", "no such match")
        step.check(room, fresh)
        return fresh

    async def timeout(self, room: MatchRoom, version: int, seat: int, delay: float) -> None:
        """The clock's task (:class:`~gameweave.server.clock.RoomClock`): after ``delay``
        seconds, play the timeout policy's move for ``seat`` if it still has the decision
        of ``version`` (:class:`Timeout`).  With several nodes only the holder of the
        match's lease plays it (the database's version check makes it happen once); if
        that node died, its lease expires and this one plays."""
        bus = self.sync.bus
        try:
            await asyncio.sleep(delay)
            while bus is not None and not await bus.acquire(room.match_id, self.lease_s):
                await asyncio.sleep(min(1.0, self.lease_s / 4))
                if self.closing or room.closed or room.table is None or room.table.version != version:
                    return
            await self.run(room, Timeout(seat, version, self.timeout_policy))
        except (asyncio.CancelledError, Unchanged, TableError):
            pass
        except Exception as exc:  # never let a clock take the server down
            log.error("match %s: clock failed: %s", room.match_id, type(exc).__name__)

    async def commit_action(self, room: MatchRoom, seat: int, a: int) -> Event:
        """Apply a checked action int, commit it through the group commit; the event
        to publish.  Raises :class:`Conflict` if another writer stored this step first."""
        table = room.table
        assert table is not None
        prev = table.version
        seq = len(table.state.history) + 1
        table.apply_action(seat, a)
        table.last_move_at = time.time()
        try:
            await self.db.commit(action_row(table, seat, a, seq, prev))
        except StorageError:
            raise Conflict() from None
        if self.metrics is not None:
            self.metrics.actions.inc()
        if table.state.is_over:
            log.info("match %s deal %d ended: %s", room.match_id, table.deal.number, table.state.status)
        return {"kind": "action", "seat": seat, "action": a}


__all__ = ["Act", "BotMove", "ChangePath", "Conflict", "NextDeal", "Resign", "Step", "Timeout", "Unchanged"]

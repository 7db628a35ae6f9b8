"""The hub's sweeps: idle rooms leave memory, quiet matches close as abandoned, and a
seat gone silent shows offline (issue 10).

* Idle: a room with no socket, no bot to move, nobody at its lock and no use for
  ``idle_evict_s`` seconds is forgotten (it reloads from the database when named again).
* Abandoned: a match with no move for ``abandon_after_days`` is closed (checked on load,
  and by a sweep every 10 minutes).
* Presence: every ``presence_sweep_s`` seconds, the presence keys of seats on other
  nodes are read from Redis (one round trip for all of them), and every match whose
  seats' ``online`` changed is announced.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from ..tables import Table
from .room import MatchRoom

log = logging.getLogger("gameweave.server")

ABANDON_SWEEP_S = 600.0
"""Seconds between two sweeps for abandoned matches."""


class Sweeps:
    """The periodic work of one hub.

    Args:
        db: the :class:`~gameweave.server.database.Database`.
        bus: the Redis bus, or None.
        rooms: the hub's ``match_id -> MatchRoom``.
        forget: forgets a match.
        room: ``await room(match_id)``: a match's room (loaded on demand), or None.
        idle_evict_s, abandon_after_days, presence_sweep_s: see :class:`~gameweave.server.hub.Hub`.
    """

    def __init__(self, db: Any, bus: Any, rooms: dict[str, MatchRoom], forget: Callable[[str], None],
                 room: Callable[[Any], Awaitable[MatchRoom | None]], *, idle_evict_s: float,
                 abandon_after_days: float, presence_sweep_s: float):
        self.db, self.bus, self.rooms, self.forget, self.room = db, bus, rooms, forget, room
        self.idle_evict_s, self.abandon_after_days = idle_evict_s, abandon_after_days
        self.presence_sweep_s = presence_sweep_s
        self.closing = False
        self.abandoned: Callable[[Table], None] | None = None
        """Called with a table just closed as abandoned (the hub applies its ratings)."""

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the idle rooms (see the module docstring); returns how many."""
        now = time.monotonic() if now is None else now
        idle = [m for m, r in self.rooms.items() if r.idle(now, self.idle_evict_s)]
        for match_id in idle:
            self.forget(match_id)
        return len(idle)

    async def abandon_if_quiet(self, table: Table, now: float | None = None) -> bool:
        """Close ``table`` as abandoned if it is not over and had no move for
        ``abandon_after_days``; True if it did now."""
        now = time.time() if now is None else now
        if table.match_over or not table.last_move_at or now - table.last_move_at < self.abandon_after_days * 86400:
            return False
        seat = None if table.deal.over else table.state.to_act
        table.abandoned = True
        await self.db.run(self.db.store.abandon, table.match_id, seat if seat in (0, 1) else None)
        if self.abandoned is not None:
            self.abandoned(table)
        log.info("match %s: closed as abandoned (no move for %g days)", table.match_id, self.abandon_after_days)
        return True

    async def close_abandoned(self, now: float | None = None) -> int:
        """Close every match with no move for ``abandon_after_days``; returns how many."""
        now = time.time() if now is None else now
        cutoff = datetime.fromtimestamp(now - self.abandon_after_days * 86400, UTC)
        closed = 0
        for match_id in await self.db.run(self.db.store.quiet_matches, cutoff):
            room = await self.room(match_id)
            if room is None:
                continue
            async with room.lock:
                if room.table is not None and await self.abandon_if_quiet(room.table, now):
                    closed += 1
                    room.announce()
        return closed

    async def idle_loop(self) -> None:
        """Evict idle rooms (every half ``idle_evict_s``, 30 s at most) and close the
        abandoned matches (every :data:`ABANDON_SWEEP_S`)."""
        period = max(0.05, min(30.0, self.idle_evict_s / 2))
        last_abandon = 0.0
        while not self.closing:
            await asyncio.sleep(period)
            try:
                self.evict_idle()
                if time.monotonic() - last_abandon > ABANDON_SWEEP_S:
                    last_abandon = time.monotonic()
                    await self.close_abandoned()
            except Exception as exc:  # pragma: no cover - never stop sweeping
                log.error("sweeper: %s", type(exc).__name__)

    async def presence_loop(self) -> None:
        """Every ``presence_sweep_s`` seconds, re-send the state of every match whose
        seats' ``online`` changed (a socket gone silent, issue 10)."""
        while not self.closing:
            await asyncio.sleep(self.presence_sweep_s)
            try:
                rooms = list(self.rooms.values())
                remote = [r.match_id for r in rooms if r.people.remote]  # seats on other nodes: Redis keys
                got = await self.bus.presences(remote) if self.bus is not None and remote else None
                for room in rooms:
                    if got is not None and room.match_id in got and room.people.remote:
                        room.people.remote_online = got[room.match_id]
                    if room.people.has_sockets() and room.presence_changed():
                        room.announce()
            except Exception as exc:  # pragma: no cover - never stop sweeping
                log.error("presence sweep: %s", type(exc).__name__)


__all__ = ["ABANDON_SWEEP_S", "Sweeps"]

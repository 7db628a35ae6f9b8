"""One live match on this node: a :class:`MatchRoom` owns everything about it.

The table (the referee, :class:`~gameweave.tables.Table`), the lock every change takes,
the seats' and spectators' sockets and who is online (:class:`~.presence.Presence`),
the clock and its timeout task (:class:`~.clock.RoomClock`), the bot and its task, the
seats' last quick phrases and the last bus sequence number seen.  The hub keeps one dict
``match_id -> room``; forgetting a match is one ``pop`` and :meth:`MatchRoom.close`.

Changes go through the one authoritative path (:mod:`~gameweave.server.steps`); the
room sends what it is: :meth:`MatchRoom.frame` is the one place that builds a state frame.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import Any

from ..tables import Table
from .clock import RoomClock
from .connection import Connection, dump_frame
from .frames import spectator_frame, state_frame, wire_history
from .presence import Presence

OnTimeout = Callable[["MatchRoom", int, int, float], Coroutine[Any, Any, None]]
"""``on_timeout(room, version, seat, delay_s)``: plays the timeout of a timed decision."""


class MatchRoom:
    """One live match.

    Args:
        table: the match's table, loaded or just created.
        clock_scale: multiplies every clock's seconds (a test setting; 1 in play).
        presence_timeout_s: a seat is online while heard from within this many seconds.
        on_timeout: the coroutine that plays a timed-out decision (given by the hub).

    Attributes:
        match_id: the match's id.
        table: the live table, or None once dropped after a database error (it reloads).
        lock: every change and every read that must see one version holds it.
        used: monotonic time of the last use (idle rooms leave memory).
        people: the sockets and presence (:class:`~gameweave.server.presence.Presence`).
        clock: the clock (:class:`~gameweave.server.clock.RoomClock`).
        bot, bot_task: the bot playing seat 2 here, and its task.
        last_phrase: per seat, monotonic time of its last quick phrase.
        seq: the last per-match sequence number seen on the bus, or None.
        rated_seen: numbers of the deals whose end this node has seen (and applied to
            the ratings, or left to the start-up sweep), issue 20.
    """

    def __init__(self, table: Table, *, clock_scale: float = 1.0, presence_timeout_s: float = 12.0,
                 on_timeout: OnTimeout | None = None):
        self.match_id = table.match_id
        self.table: Table | None = table
        self.lock = asyncio.Lock()
        self.used = time.monotonic()
        self.people = Presence()
        self.clock = RoomClock(clock_scale)
        self.presence_timeout_s = presence_timeout_s
        self.bot: Any = None
        self.bot_task: asyncio.Task | None = None
        self.last_phrase: dict[int, float] = {}
        self.seq: int | None = None
        self.rated_seen: set[int] = set()
        self.closed = False
        self._on_timeout = on_timeout

    # ------------------------------------------------------------------ what it shows
    def online(self) -> tuple[bool, bool]:
        """``(seat 1 online, seat 2 online)`` now (:class:`Presence`)."""
        return self.people.online(self.presence_timeout_s)

    def frame(self, seat: int, table: Table | None = None, wire: bool = False) -> dict[str, Any]:
        """The state frame for ``seat`` (0/1) now, or a spectator's for ``seat`` -1, of
        ``table`` (default the live one): the one place that builds a state frame.
        ``wire``: the frame goes straight to :func:`dump_frame` (its history is put in
        already encoded, :func:`wire_history`); else it is plain dicts and lists."""
        table = table or self.table
        assert table is not None
        online = self.online()
        info = {"online": online, "clock": self.clock.info(table), "spectators": self.people.spectator_count(),
                "history": wire_history(table) if wire else None}
        if seat < 0:
            return spectator_frame(table, **info)
        return state_frame(table, seat, online[1 - seat], **info)

    def announce(self) -> None:
        """Queue each connected seat its own state frame (R21: a seat only gets its view)
        and every spectator the third-party frame, serialised once each; then (re)arm the
        clock for the decision now due."""
        if self.table is None:
            return
        self.people.shown = self.online()
        for seat in (0, 1):
            c = self.people.seats[seat]
            if c is not None and not c.closed:
                c.send(dump_frame(self.frame(seat, wire=True)))
        watchers = [c for c in self.people.spectators if not c.closed]
        if watchers:
            text = dump_frame(self.frame(-1, wire=True))
            for c in watchers:
                c.send(text)
        self.arm_clock()

    def broadcast(self, frame: dict[str, Any]) -> None:
        """Send one frame to both seats and every spectator of the match on this node."""
        text = dump_frame(frame)
        for c in self.people.open_sockets():
            c.send(text)

    def presence_changed(self) -> bool:
        """True if who is online differs from what the last frames showed."""
        return self.people.shown != self.online()

    # ------------------------------------------------------------------ the clock
    def arm_clock(self) -> None:
        """Schedule the timeout of the decision now due (once per version)."""
        if self.closed or self.table is None or self._on_timeout is None:
            return
        self.clock.arm(self.table, self._timeout_task)

    def _timeout_task(self, version: int, seat: int, delay: float) -> Coroutine[Any, Any, None]:
        assert self._on_timeout is not None
        return self._on_timeout(self, version, seat, delay)

    # ------------------------------------------------------------------ life
    def take_phrase(self, seat: int, interval_s: float, now: float | None = None) -> bool:
        """Note a quick phrase of ``seat`` now; False (nothing noted) within
        ``interval_s`` of its last one."""
        now = time.monotonic() if now is None else now
        last = self.last_phrase.get(seat)
        if last is not None and now - last < interval_s:
            return False
        self.last_phrase[seat] = now
        return True

    def idle(self, now: float, evict_after_s: float) -> bool:
        """True when nothing holds the room: no socket, no bot task running, nobody
        holding or waiting for the lock, no use for ``evict_after_s`` seconds."""
        if self.people.has_sockets():
            return False
        if self.bot_task is not None and not self.bot_task.done():
            return False
        return not self.lock.locked() and now - self.used >= evict_after_s

    def close(self, sockets: Callable[[Connection], None] | None = None) -> None:
        """Stop the room's clock and bot tasks; ``sockets(conn)`` is called for each open
        socket (the hub closes them when it shuts down)."""
        self.closed = True
        self.clock.cancel()
        if self.bot_task is not None:
            self.bot_task.cancel()
        if sockets is not None:
            for c in self.people.open_sockets():
                sockets(c)


class RoomView(Mapping[str, Any]):
    """A read-only ``match_id -> room.<attr>`` view over a dict of rooms (no copy); rooms
    whose attribute is None are left out (a dropped table)."""

    def __init__(self, rooms: dict[str, MatchRoom], attr: str):
        self._rooms, self._attr = rooms, attr

    def __getitem__(self, match_id: str) -> Any:
        value = getattr(self._rooms[match_id], self._attr)
        if value is None:
            raise KeyError(match_id)
        return value

    def __iter__(self) -> Iterator[str]:
        return (m for m, r in list(self._rooms.items()) if getattr(r, self._attr) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


__all__ = ["MatchRoom", "OnTimeout", "RoomView"]

"""Who is at one match's table (issue 10): the seats' sockets on this node and on others.

A seat is *online* while its socket is open on this node and was heard from (any frame,
the page's heartbeat included) within ``presence_timeout_s``, or while it is open on
another node (a ``hello`` seen on the bus and not yet its ``bye``) and that node keeps
its presence key alive in Redis.  What the frames last showed is remembered, so a sweep
re-sends the state only when it changed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .connection import Connection


@dataclass
class Presence:
    """The sockets of one match.

    Attributes:
        seats: this node's socket per seat (index 0/1), or None.
        spectators: this node's spectator sockets.
        remote: per seat open on another node, the seat generation of its ``hello``.
        remote_online: per seat, whether another node heard it lately (Redis keys).
        shown: the ``(seat 1 online, seat 2 online)`` the last frames showed, or None.
    """

    seats: list[Connection | None] = field(default_factory=lambda: [None, None])
    spectators: list[Connection] = field(default_factory=list)
    remote: dict[int, int] = field(default_factory=dict)
    remote_online: tuple[bool, bool] = (True, True)
    shown: tuple[bool, bool] | None = None

    def connected(self, seat: int, timeout_s: float, now: float | None = None) -> bool:
        """True if ``seat`` (0/1) is online now (see the module docstring)."""
        c = self.seats[seat]
        if c is not None and not c.closed:
            now = time.monotonic() if now is None else now
            return now - c.last_seen <= timeout_s
        return seat in self.remote and self.remote_online[seat]

    def online(self, timeout_s: float) -> tuple[bool, bool]:
        """``(seat 1 online, seat 2 online)`` now."""
        now = time.monotonic()
        return self.connected(0, timeout_s, now), self.connected(1, timeout_s, now)

    def open_sockets(self) -> list[Connection]:
        """Every open socket of the match on this node (seats first, then spectators)."""
        return [c for c in (*self.seats, *self.spectators) if c is not None and not c.closed]

    def spectator_count(self) -> int:
        """Open spectator sockets (on this node)."""
        return sum(1 for c in self.spectators if not c.closed)

    def has_sockets(self) -> bool:
        """True while a seat or a spectator socket is attached here."""
        return any(c is not None for c in self.seats) or bool(self.spectators)

    def seat_socket(self, conn: Connection) -> None:
        """Make ``conn`` its seat's socket: an older one on this node is closed (4000),
        and a ``hello`` of the same seat seen on another node with no newer generation
        is forgotten."""
        old = self.seats[conn.seat]
        if old is not None and old is not conn:
            old.close(4000, "replaced by a newer connection")
        if self.remote.get(conn.seat, 0) <= conn.gen:
            self.remote.pop(conn.seat, None)
        self.seats[conn.seat] = conn

    def remote_hello(self, seat: int, gen: int) -> None:
        """Another node took ``seat`` with generation ``gen``: a local socket of that seat
        with an older (or equal) generation is closed (4000)."""
        self.remote[seat] = gen
        local = self.seats[seat]
        if local is not None and not local.closed and local.gen <= gen:
            local.close(4000, "replaced by a newer connection")

    def remote_bye(self, seat: int, gen: int) -> None:
        """The socket of ``seat`` with generation ``gen`` closed on another node."""
        if self.remote.get(seat) == gen:
            self.remote.pop(seat)


__all__ = ["Presence"]

"""One match's clock (issue 10): per-decision seconds plus a time bank per seat.

A decision is timed while a person is to act in a deal being played (seat 2 joined, no
bot's decision).  Its start is kept per state version; with several nodes the node that
commits a step sends the wall-clock start of the next decision with its event, so every
node counts from the same moment (:meth:`RoomClock.set_start`).  The timeout itself is
scheduled here (:meth:`RoomClock.arm`) and played by the match's room through the one
authoritative path, with the move of the room's :class:`~gameweave.tables.timeouts.TimeoutPolicy`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from ..tables import Table

TimeoutTask = Callable[[int, int, float], Coroutine[Any, Any, None]]
"""``task(version, seat, delay_s)``: the coroutine that plays the timeout of a decision."""


class RoomClock:
    """The clock of one match on this node.

    Args:
        scale: multiplies every clock's seconds (a test setting; 1 in play).
    """

    def __init__(self, scale: float = 1.0):
        self.scale = scale
        self._turn: tuple[int, float] = (-1, 0.0)
        self._armed: tuple[int, asyncio.Task] | None = None

    # ------------------------------------------------------------------ queries
    def seat(self, table: Table) -> int:
        """The seat whose decision is timed now, or -1 (no clock, nobody to time, a
        bot's decision, seat 2 not joined yet)."""
        if table.clock is None or not table.playing or not table.joined:
            return -1
        seat = table.state.to_act
        return seat if seat >= 0 and table.has_person(seat) else -1

    def per_decision(self, table: Table) -> float:
        """Seconds per decision (scaled), or 0 without a clock."""
        return (table.clock or 0) * self.scale

    def start(self, table: Table) -> float:
        """When the decision of the current version started (this node's monotonic clock)."""
        if self._turn[0] != table.version:
            self._turn = (table.version, time.monotonic())
        return self._turn[1]

    def start_wall(self, table: Table) -> float:
        """The start of the current decision as wall-clock epoch seconds (for the bus)."""
        return time.time() - (time.monotonic() - self.start(table))

    def set_start(self, version: int, wall: float) -> None:
        """The decision of ``version`` started at wall-clock ``wall`` (another node said)."""
        self._turn = (version, time.monotonic() - max(0.0, time.time() - wall))

    def info(self, table: Table) -> dict[str, Any] | None:
        """The ``match.clock`` object: ``per_decision`` (seconds), ``bank`` per seat
        (seconds left), ``to_act`` (seat number timed now, or None) and
        ``deadline_in_ms`` (time left for it to act, from now), or None without a clock."""
        if table.clock is None:
            return None
        per = self.per_decision(table)
        bank = [table.bank[0], table.bank[1]]
        seat = self.seat(table)
        deadline = None
        if seat >= 0:
            elapsed = time.monotonic() - self.start(table)
            bank[seat] = max(0.0, bank[seat] - max(0.0, elapsed - per))
            deadline = max(0, int((per + table.bank[seat] - elapsed) * 1000))
        return {"per_decision": round(per, 3), "bank": {"1": round(bank[0], 3), "2": round(bank[1], 3)},
                "to_act": seat + 1 if seat >= 0 else None, "deadline_in_ms": deadline}

    # ------------------------------------------------------------------ changes
    def charge(self, table: Table, seat: int) -> None:
        """Take from ``seat``'s bank the time its decision ran over the clock."""
        if self.seat(table) != seat:
            return
        over = time.monotonic() - self.start(table) - self.per_decision(table)
        if over > 0:
            table.bank[seat] = max(0.0, table.bank[seat] - over)

    def arm(self, table: Table, task: TimeoutTask) -> None:
        """Schedule ``task`` for the decision now due (once per version); cancel a
        timeout armed for an earlier version."""
        seat = self.seat(table)
        armed = self._armed
        if armed is not None and (armed[0] != table.version or seat < 0 or armed[1].done()):
            if armed[0] != table.version or seat < 0:
                armed[1].cancel()
            self._armed = armed = None
        if seat < 0 or armed is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop (sync caller)
            return
        left = self.per_decision(table) + table.bank[seat] - (time.monotonic() - self.start(table))
        self._armed = (table.version, loop.create_task(task(table.version, seat, max(0.0, left))))

    def disarm(self) -> None:
        """Forget the armed timeout (it is being played now)."""
        self._armed = None

    def cancel(self) -> None:
        """Cancel the armed timeout, if any."""
        if self._armed is not None:
            self._armed[1].cancel()
            self._armed = None

    def snapshot(self, table: Table) -> dict[str, Any]:
        """What another node needs to show the same clock and marks after a step (issue
        18): the seats' banks, timeouts in a row, away marks, the last timeout
        ``[seat, version]`` (or None) and the wall-clock ``start`` of the decision now due."""
        return {"bank": [round(table.bank[0], 3), round(table.bank[1], 3)], "timeouts": list(table.timeouts),
                "away": list(table.away), "timed_out": list(table.timed_out) if table.timed_out else None,
                "start": round(self.start_wall(table), 3)}

    def restore(self, table: Table, snap: Any) -> None:
        """Apply another node's :meth:`snapshot` to ``table`` (bad fields are ignored)."""
        if not isinstance(snap, dict):
            return
        bank, timeouts, away, timed_out, start = (snap.get(k) for k in ("bank", "timeouts", "away", "timed_out",
                                                                         "start"))
        if _pair(bank, (int, float)):
            table.bank = [max(0.0, float(bank[0])), max(0.0, float(bank[1]))]
        if _pair(timeouts, (int,)):
            table.timeouts = [int(timeouts[0]), int(timeouts[1])]
        if _pair(away, (bool,)):
            table.away = [bool(away[0]), bool(away[1])]
        if timed_out is None:
            table.timed_out = None
        elif _pair(timed_out, (int,)) and timed_out[0] in (0, 1):
            table.timed_out = (int(timed_out[0]), int(timed_out[1]))
        if isinstance(start, (int, float)) and not isinstance(start, bool):
            self.set_start(table.version, float(start))


def _pair(value: Any, types: tuple[type, ...]) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, types) and (bool in types or not isinstance(v, bool)) for v in value))


__all__ = ["RoomClock", "TimeoutTask"]

"""The server's bots: seat 2 of a bot match, played one action per ``bot_delay``.

A bot thinks in a thread pool (``run_in_executor``) from its seat's view only (R21), so
one slow bot never blocks other matches; its move then goes through the one
authoritative path (:class:`~gameweave.server.steps.BotMove`).  Which bots exist and how
one is made is given in (:class:`Bots`, built by ``create_app`` from
:mod:`gameweave.bots`): this module imports no bot.  With several nodes only the holder
of the match's lease in Redis plays; the others wait, and take the lease over once it
expires (its node died).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..engine import seat_view
from ..tables import Table, TableError
from .room import MatchRoom
from .steps import BotMove, ChangePath, Unchanged

log = logging.getLogger("gameweave.server")


@dataclass(frozen=True)
class Bots:
    """The bots a server offers.

    Attributes:
        names: ``() -> names`` of the bots a match may have (lowercase).
        make: ``make(name, seed) -> bot``; a bot has ``name`` and ``choose(view) -> action int``.
    """

    names: Callable[[], Sequence[str]] = field(default=lambda: ())
    make: Callable[[str, int], Any] | None = None


class BotRunner:
    """Plays the bot seats of this node's rooms.

    Args:
        bots: the :class:`Bots` offered (none by default).
        path: the :class:`~gameweave.server.steps.ChangePath` the moves go through.
        bus: the Redis bus (leases), or None for a single node.
        delay: pause before each bot action, seconds.
        lease_s: lifetime of this node's lease on a bot seat (with a bus).
        workers: threads for bot decisions.
    """

    def __init__(self, bots: Bots | None, path: ChangePath, bus: Any, *, delay: float, lease_s: float,
                 workers: int):
        self.bots = bots or Bots()
        self.path, self.bus, self.delay, self.lease_s = path, bus, delay, lease_s
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gameweave-bot")
        self.metrics: Any = None
        self.closing = False

    def names(self) -> list[str]:
        """The names of the bots a match may have."""
        return list(self.bots.names())

    def wake(self, room: MatchRoom) -> None:
        """Start the room's bot task if the bot must act and none is running."""
        table = room.table
        if self.closing or room.closed or table is None or not table.bot_to_act():
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop (sync caller)
            return
        room.bot_task = loop.create_task(self._loop(room))

    def _due(self, room: MatchRoom) -> Table | None:
        table = room.table
        return table if not self.closing and table is not None and table.bot_to_act() else None

    async def _loop(self, room: MatchRoom) -> None:
        """Play the bot seat while it is its decision (see the module docstring)."""
        leased = False
        try:
            while self._due(room) is not None:
                if self.delay > 0:
                    await asyncio.sleep(self.delay)
                table = self._due(room)
                if table is None:
                    return
                if self.bus is not None:
                    leased = await self.bus.acquire(room.match_id, self.lease_s)
                    if not leased:
                        await asyncio.sleep(min(1.0, self.lease_s / 4))
                        continue
                version = table.version
                a = await self._think(room, table)
                if self.bus is not None and not await self.bus.acquire(room.match_id, self.lease_s):
                    leased = False
                    continue  # the lease went to another node while thinking
                try:
                    await self.path.run(room, BotMove(version, a))
                except Unchanged:
                    continue
                except TableError:
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken bot must not take the server down
            log.error("match %s: bot failed: %s", room.match_id, type(exc).__name__)
        finally:
            if leased and self.bus is not None and not self.closing:
                await self.bus.release(room.match_id)

    async def _think(self, room: MatchRoom, table: Table) -> int:
        """The bot's choice from seat 2's view (R21), in the thread pool."""
        if self.bots.make is None:
            raise RuntimeError("this server has no bots")
        view = seat_view(table.state, Table.BOT_SEAT, history=table.deal.history())
        bot = room.bot
        if bot is None or getattr(bot, "name", None) != table.bot:
            bot = room.bot = self.bots.make(str(table.bot), secrets.randbits(32))
        started = time.perf_counter()
        a = await asyncio.get_running_loop().run_in_executor(self.executor, bot.choose, view)
        if self.metrics is not None:
            self.metrics.bot_think.observe(time.perf_counter() - started)
        return a

    def close(self) -> None:
        """Stop starting bots and drop the decisions not begun."""
        self.closing = True
        self.executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["BotRunner", "Bots"]

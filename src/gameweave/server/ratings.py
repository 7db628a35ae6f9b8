"""Ratings seen from the event loop (issue 20): a rated deal's end updates both players'
Glicko-2 ratings, exactly once across nodes and restarts.

Whichever node sees a rated deal end applies it — the node that stored the deal's last
step, and every other node holding the match when the step reaches it over the bus —
through :meth:`~gameweave.storage.ratings.RatingStore.apply_deal`, whose rating events
(key: match, deal, account) are written in the transaction that updates the ratings, so
only the first application changes anything.  At start-up :meth:`Ratings.sweep` applies
every ended rated deal that has no event yet (a node killed between a deal's end and its
update loses nothing), and again every 10 minutes (a failed application is retried).
A match closed as abandoned applies its deal in play (lost by the
seat whose decision was pending).

After an application the room's table gets the players' new ratings
(``table.ratings``, shown in the frames' ``players``) and is announced; a frame never
costs a database call.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..accounts import AccountError, username_key
from ..storage.ratings import RatingStore
from ..tables import Table
from .room import MatchRoom

log = logging.getLogger("gameweave.server")


def ended_deals(table: Table) -> list[int]:
    """Numbers of the deals of ``table`` that have a result for the ratings: over (won,
    tablas, resigned), or the deal in play of a match closed as abandoned."""
    out = [d.number for d in table.deals if d.over]
    if table.abandoned and table.deals and not table.deal.over:
        out.append(table.deal.number)
    return out


class Ratings:
    """Applies rated deals for one hub.

    Args:
        db: the :class:`~gameweave.server.database.Database` (its threads run the store).
        store: the :class:`~gameweave.storage.ratings.RatingStore`.

    Attributes:
        applied: how many deals this node applied (a deal another node applied first
            does not count).
    """

    def __init__(self, db: Any, store: RatingStore):
        self.db, self.store = db, store
        self._one = asyncio.Lock()  # one application at a time per node (SQLite has one writer)
        self._tasks: set[asyncio.Task] = set()
        self.applied = 0
        self.metrics: Any = None

    def opened(self, room: MatchRoom) -> None:
        """A room was made for a loaded or new match: its deals already over are the
        start-up sweep's (or were applied), not this room's to apply again."""
        if room.table is not None:
            room.rated_seen = set(ended_deals(room.table))

    def check(self, room: MatchRoom) -> None:
        """After a change of ``room`` (here, or from another node): apply every rated
        deal that ended since this room last looked (in the background)."""
        table = room.table
        if table is None or not table.rated:
            return
        for number in ended_deals(table):
            if number not in room.rated_seen:
                room.rated_seen.add(number)
                self._spawn(self._apply_and_show(room, number))

    def abandoned(self, room_of: Any, table: Table) -> None:
        """A match was closed as abandoned: apply its deal in play (if rated)."""
        if table.rated and table.deals and not table.deal.over:
            room = room_of(table.match_id)
            if room is not None:
                room.rated_seen.add(table.deal.number)
                self._spawn(self._apply_and_show(room, table.deal.number))
            else:
                self._spawn(self.apply(table.match_id, table.deal.number))

    async def account_named(self, name: str) -> tuple[int, str] | None:
        """``(account id, username)`` of the live account called ``name`` (any case or
        width the username rules fold together), or None: no such player, a name that
        could be no username, or a deleted account (its profile is gone)."""
        try:
            key = username_key(name)
        except AccountError:
            return None
        found = await self.db.run(self.store.account_of, key)
        return None if found is None else (found[0], found[1])

    async def apply(self, match_id: str, number: int) -> bool:
        """Apply deal ``number`` of ``match_id`` (once: False if it was applied already
        or is not a rated deal with a result between two accounts)."""
        async with self._one:
            done = bool(await self.db.run(self.store.apply_deal, match_id, number))
        if done:
            self.applied += 1
            log.info("match %s deal %d: ratings updated", match_id, number)
        if self.metrics is not None:
            self.metrics.rated_deal("applied" if done else "already")
        return done

    async def sweep(self) -> int:
        """Apply every ended rated deal with no rating event yet; how many this node
        applied (the start-up sweep)."""
        count = 0
        for match_id, number in await self.db.run(self.store.pending):
            count += await self.apply(match_id, number)
        return count

    async def loop(self, period_s: float) -> None:
        """Run :meth:`sweep` every ``period_s`` seconds (an application that failed —
        a database hiccup — is retried; several nodes sweeping at once apply each deal
        once all the same)."""
        while True:
            await asyncio.sleep(period_s)
            try:
                await self.sweep()
            except Exception as exc:  # pragma: no cover - never stop sweeping
                log.error("ratings sweep: %s", type(exc).__name__)

    def attached(self, room: MatchRoom) -> None:
        """A seat's socket attached: read the players' ratings again in the background
        (a seat may have joined an account since the table was loaded or made), once per
        socket, never per frame."""
        table = room.table
        if table is not None and table.opponent == "friend":
            self._spawn(self._show(room))

    async def _apply_and_show(self, room: MatchRoom, number: int) -> None:
        await self.apply(room.match_id, number)
        await self._show(room)

    async def _show(self, room: MatchRoom) -> None:
        """Put the players' current ratings on the room's table; announce if they changed."""
        shown = [r.shown() if r is not None else None
                 for r in await self.db.run(self.store.of_match, room.match_id)]
        async with room.lock:
            if room.table is not None and room.table.ratings != shown:
                room.table.ratings = shown
                room.announce()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._guard(coro))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _guard(coro: Any) -> None:
        try:
            await coro
        except Exception as exc:  # the start-up sweep applies it later; never crash the loop
            log.error("ratings: could not apply a deal: %s", type(exc).__name__)

    async def idle(self) -> None:
        """Wait until every application started so far is done (tests; shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


__all__ = ["Ratings", "ended_deals"]

"""Several nodes: the events of the bus and the database as the way back (issue 18).

After each committed change the node that made it publishes one small event (its kind,
the match, the state version, the action int or the seat and scope, and what the clocks
need: :meth:`~gameweave.server.clock.RoomClock.snapshot`); the other nodes apply it to
their copy of the table, the same step with no database read, and announce it to their
own sockets.  §VII text never travels: an action int means one action in every profile.

Redis gives every event of a match a per-match sequence number (``seq``,
:mod:`~gameweave.server.bus`); a node that sees a gap in it, or an event it cannot apply
(a version gap), catches up from the database, one version at a time, announcing each.
After its subscription came back a node checks every match it holds against the
database (:meth:`Sync.resync`: one query; a catch-up only where it is behind).

Every load of a live match from the database after its first load counts in
``gameweave_match_reloads_total`` (by ``reason``); a new deal dealt elsewhere is read as
its one row (the deck order never travels over Redis) and is not a reload.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from ..storage.store import MatchHead
from ..tables import Table, is_phrase
from .room import MatchRoom

log = logging.getLogger("gameweave.server")

STATE_KINDS = ("action", "deal", "resign", "ready", "join")
"""Events that change a match's table (the others: ``hello``, ``bye``, ``phrase``)."""


class Sync:
    """The node's side of the bus.

    Args:
        db: the :class:`~gameweave.server.database.Database`.
        bus: the :class:`~gameweave.server.bus.Bus`, or None for a single node.
        rooms: the hub's ``match_id -> MatchRoom`` (read, never written here).
        forget: forgets a match (it is gone from the database).
        after: called with a room after a change came in (wakes its bot).
        valid: ``valid(match_id)``: the shape of a match id.
    """

    def __init__(self, db: Any, bus: Any, rooms: dict[str, MatchRoom], forget: Callable[[str], None],
                 after: Callable[[MatchRoom], None], valid: Callable[[Any], bool]):
        self.db, self.bus, self.rooms, self.forget, self.after, self.valid = db, bus, rooms, forget, after, valid
        self.metrics: Any = None
        self.lobby_of: Any = None
        """The node's :class:`~.lobby.Lobby`, whose feed takes the ``lobby`` events (issue 20)."""
        self._loading: dict[str, int] = {}

    # ------------------------------------------------------------------ publishing
    def publish(self, room: MatchRoom, event: dict[str, Any]) -> None:
        """Publish a change of ``room`` (``event``: ``kind`` and its fields) with the
        match, its version and the clock snapshot (never blocks: the bus queues it)."""
        table = room.table
        if self.bus is None or table is None:
            return
        self.bus.publish({**event, "match": room.match_id, "version": table.version,
                          "clock": room.clock.snapshot(table)})

    def publish_people(self, match_id: str, event: dict[str, Any]) -> None:
        """Publish a socket change or a quick phrase (``hello``, ``bye``, ``phrase``)."""
        if self.bus is not None:
            self.bus.publish({**event, "match": match_id})

    # ------------------------------------------------------------------ the database
    def count(self, reason: str) -> None:
        """Count one reload of a live match (``gameweave_match_reloads_total``)."""
        if self.metrics is not None:
            self.metrics.reload(reason)

    async def reload(self, room: MatchRoom, reason: str) -> Table | None:
        """Make a fresh load from the database the room's table and announce it (the
        caller holds the lock); None (and the match forgotten) if it is gone."""
        fresh = await self.db.run(self.db.store.load, room.match_id)
        self.count(reason)
        if fresh is None:
            self.forget(room.match_id)
            return None
        room.table = fresh
        room.used = time.monotonic()
        room.announce()
        return fresh

    async def catch_up(self, room: MatchRoom, reason: str) -> Table | None:
        """Bring the room's table to the database's version one step at a time,
        announcing every version to this node's sockets in order (caller holds the
        lock).  Returns the live table (a fresh one if the copy disagrees; None if the
        match is gone)."""
        table = room.table
        loaded = await self.db.run(self.db.store.load, room.match_id)
        self.count(reason)
        if loaded is None or table is None:
            return await self.reload(room, reason) if table is None else table
        table.token_hashes = list(loaded.token_hashes)
        table.names = list(loaded.names)
        if not _step_to(room, table, loaded):
            log.info("match %s: the copy in memory disagrees with the database; reloaded", room.match_id)
            room.table = loaded
            room.announce()
            return loaded
        table.ready = list(loaded.ready)
        return table

    async def refresh(self, room: MatchRoom, reason: str) -> Table | None:
        """Check the room's table against the database's head (one small read) and
        catch up only where the database is ahead (caller holds the lock)."""
        heads = await self.db.run(self.db.store.heads, [room.match_id])
        head = heads.get(room.match_id)
        return room.table if head is None else await self._apply_head(room, head, reason)

    async def _apply_head(self, room: MatchRoom, head: MatchHead, reason: str) -> Table | None:
        table = room.table
        if table is None:
            return None
        if head.version > table.version:
            return await self.catch_up(room, reason)
        if head.version < table.version:
            return table
        changed = False
        if head.token2_sha256 is not None and table.token_hashes[1] != head.token2_sha256:
            table.token_hashes[1], table.names[1] = head.token2_sha256, head.name2
            changed = True
        ready = [bool(head.ready & 1), bool(head.ready & 2)]
        if ready != table.ready:
            table.ready, changed = ready, True
        if changed:
            room.announce()
        return table

    async def resync(self) -> None:
        """Check every match this node holds against the database (after Redis came
        back): one query for their heads, then a catch-up where a copy is behind."""
        rooms = list(self.rooms.values())
        for room in rooms:
            room.seq = None  # events were missed: the next one starts the count again
        if not rooms:
            return
        heads = await self.db.run(self.db.store.heads, [r.match_id for r in rooms])
        for room in rooms:
            head = heads.get(room.match_id)
            if head is None or self.rooms.get(room.match_id) is not room:
                continue
            async with room.lock:
                await self._apply_head(room, head, "resync")
            self.after(room)

    # ------------------------------------------------------------------ loading
    def loading(self, match_id: str) -> None:
        """A first load of ``match_id`` starts: note the versions its events carry meanwhile."""
        self._loading.setdefault(match_id, -1)

    def stop_loading(self, match_id: str) -> None:
        """The load of ``match_id`` is over (whatever came of it)."""
        self._loading.pop(match_id, None)

    async def loaded(self, room: MatchRoom | None, match_id: str, first: bool = False) -> None:
        """The load of ``match_id`` ended (``room`` None: no such match): if an event
        carried a newer version meanwhile, catch up.  On a ``first`` load, the seats open
        on other nodes are read from their presence keys (their ``hello`` came before)."""
        seen = self._loading.get(match_id, -1)
        if room is None or room.table is None or self.bus is None:
            return
        if first:
            got = await self.bus.presence(match_id)
            if got is not None:
                room.people.remote_online = got
                room.people.remote.update({s: 0 for s in (0, 1) if got[s]})
        if seen > room.table.version:
            async with room.lock:
                await self.refresh(room, "gap")

    # ------------------------------------------------------------------ events
    async def on_event(self, event: dict[str, Any]) -> None:
        """Handle one event from the bus (this node's own ones included: they carry the
        sequence numbers too).  A ``resync`` event (a node had to drop events) makes
        this node check every match it holds."""
        kind, match_id = event.get("kind"), event.get("match")
        own = self.bus is not None and event.get("node") == self.bus.node_id
        if kind == "resync":
            if not own:
                await self.resync()
            return
        if kind == "lobby":  # open tables and the queue: not a match's event (no seq)
            if self.lobby_of is not None:
                await self.lobby_of.feed.on_event(event)
            return
        if not self.valid(match_id):
            return
        if not own and self.metrics is not None:
            self.metrics.remote(str(kind)[:16])
        room = self.rooms.get(match_id)
        if room is None:
            version = event.get("version")
            if match_id in self._loading and type(version) is int:
                self._loading[match_id] = max(self._loading[match_id], version)
            return
        if _gap(room, event.get("seq")):
            async with room.lock:
                await self.refresh(room, "gap")
        if own:
            return
        if kind in STATE_KINDS:
            await self._state_event(room, kind, event)
        elif kind in ("hello", "bye"):
            _people_event(room, kind, event)
        elif kind == "phrase":
            seat, key = event.get("seat"), event.get("key")
            if seat in (0, 1) and is_phrase(key):
                room.broadcast({"type": "phrase", "seat": seat + 1, "key": key})
        self.after(room)

    async def _state_event(self, room: MatchRoom, kind: str, event: dict[str, Any]) -> None:
        version = event.get("version")
        if type(version) is not int:
            return
        async with room.lock:
            table = room.table
            if table is None:  # dropped after a database error: it reloads when next used
                return
            if kind == "join":
                if _join(table, event):
                    room.announce()
            elif version < table.version or (version == table.version and kind != "ready"):
                pass  # already here (this node caught up from the database before)
            elif kind == "ready" and version == table.version:
                _ready(table, event)
                room.clock.restore(table, event.get("clock"))
                room.announce()
            elif version == table.version + 1 and await self._apply(room, table, kind, event):
                table.last_move_at = time.time()
                room.clock.restore(table, event.get("clock"))
                room.announce()
            else:  # a gap, or a step that does not fit: the database has every step
                await self.catch_up(room, "gap")

    async def _apply(self, room: MatchRoom, table: Table, kind: str, event: dict[str, Any]) -> bool:
        """Apply another node's step to ``table`` with no reload; False if it does not fit."""
        seat = event.get("seat")
        if kind == "action":
            a = event.get("action")
            if (seat not in (0, 1) or type(a) is not int or not table.playing or table.state.to_act != seat
                    or a not in table.state.legal_actions()):
                return False
            table.apply_action(seat, a)
        elif kind == "resign":
            scope = event.get("scope")
            if seat not in (0, 1) or scope not in ("deal", "match") or table.match_over or (
                    scope == "deal" and table.deal.over):
                return False
            table.resign(seat, scope)
        elif kind == "deal":
            number = event.get("number")
            if not table.deal.over or table.match_over or number != len(table.deals) + 1:
                return False
            row = await self.db.run(self.db.store.deal, room.match_id, number)
            if row is None or row.commitment != event.get("commitment"):
                return False
            table.add_deal(row.deck, row.salt, row.test)
        else:
            return False
        return table.version == event["version"]


def _gap(room: MatchRoom, seq: Any) -> bool:
    """Note the event's per-match sequence number: True when one was missed (or the
    count restarted, as after Redis lost its keys)."""
    if type(seq) is not int:
        return False
    last, room.seq = room.seq, seq
    return last is not None and seq != last + 1


def _step_to(room: MatchRoom, table: Table, loaded: Table) -> bool:
    """Step ``table`` forward to ``loaded``'s version, announcing each version; False
    if the two disagree (``table`` is then not to be used)."""
    while table.version < loaded.version:
        n = len(table.deals)
        if n > len(loaded.deals):
            return False
        mine, theirs = table.state, loaded.deals[n - 1].state
        if mine.history != theirs.history[: len(mine.history)]:
            return False
        if len(mine.history) < len(theirs.history):
            table.apply_action(mine.to_act, theirs.history[len(mine.history)])
        elif n < len(loaded.deals) and table.deal.resigned == loaded.deals[n - 1].resigned:
            d = loaded.deals[n]
            table.add_deal(d.deck, d.salt, d.test)
        else:  # a resignation, or a history that differs: the caller takes the loaded copy
            return False
        room.announce()
    return table.version == loaded.version


def _join(table: Table, event: dict[str, Any]) -> bool:
    """Seat 2 joined on another node: its token hash and name; True if it changed."""
    h, name = event.get("token2"), event.get("name")
    if not isinstance(h, str) or len(h) != 64 or table.token_hashes[1] == h:
        return False
    table.token_hashes[1] = h
    table.names[1] = name if isinstance(name, str) else None
    return True


def _ready(table: Table, event: dict[str, Any]) -> None:
    """A seat moved on from the finished deal on another node (the ready mask)."""
    mask = event.get("ready")
    if type(mask) is int:
        table.ready = [bool(mask & 1) or table.ready[0], bool(mask & 2) or table.ready[1]]


def _people_event(room: MatchRoom, kind: str, event: dict[str, Any]) -> None:
    """A seat's socket opened (``hello``) or closed (``bye``) on another node."""
    seat, gen = event.get("seat"), event.get("gen")
    if seat not in (0, 1) or type(gen) is not int:
        return
    if kind == "hello":
        room.people.remote_hello(seat, gen)
    else:
        room.people.remote_bye(seat, gen)
    room.announce()


__all__ = ["STATE_KINDS", "Sync"]

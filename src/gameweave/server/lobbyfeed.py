"""The lobby feed (issue 20; PROTOCOL §3.17): every lobby's live list of open tables and
the news of the quick-match queue, on the WebSocket ``/ws/lobby``.

* A socket gets the whole list at once (``{"type": "open_tables", "tables": […]}``),
  then ``open_table`` (one more) and ``open_table_gone`` (taken, cancelled, or its
  creator left) as they happen, on every node: the node where a table changed publishes
  a ``lobby`` event on the Redis bus (:mod:`~gameweave.server.bus`; no ``match`` key, so
  it is not numbered per match) and every node, itself included, tells its own sockets.
  With one node and no Redis the event goes straight to the sockets.
* A socket may ``follow`` a queue ticket; when the queue pairs that entry (on any node)
  the socket is told at once: ``{"type": "queue", "status": "paired", …, "token"}``.
* Missed events (Redis away a moment) cost nothing for long: every sweep
  (:data:`REFRESH_S`) each node compares its list with the database's and tells its
  sockets the difference.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .connection import Connection, dump_frame

log = logging.getLogger("gameweave.server")

REFRESH_S = 2.0
"""Seconds between two checks of the node's list against the database."""

MAX_LISTED = 200
"""Open tables a lobby lists at most (the oldest first)."""


class LobbyFeed:
    """One node's lobby sockets and its copy of the open-table list.

    Args:
        bus: the Redis bus, or None (one node).
        on_remote: ``await on_remote(event)``: what else a ``lobby`` event does on this
            node (a withdrawn table's match closes here too), called before the sockets
            are told.
    """

    def __init__(self, bus: Any, on_remote: Callable[[dict[str, Any]], Awaitable[None]] | None = None):
        self.bus = bus
        self.on_remote = on_remote
        self.sockets: set[Connection] = set()
        self.listed: dict[str, dict[str, Any]] = {}
        self.follows: dict[int, set[Connection]] = {}
        self.following: dict[Connection, int] = {}
        self.paired: Callable[[Connection], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ sockets
    def add(self, conn: Connection) -> None:
        """A new lobby socket: it gets the whole list now."""
        self.sockets.add(conn)
        conn.send(self.snapshot())

    def drop(self, conn: Connection) -> None:
        """Forget a lobby socket (and what it followed)."""
        self.sockets.discard(conn)
        self.unfollow(conn)

    def follow(self, conn: Connection, entry_id: int) -> None:
        """``conn`` hears when queue entry ``entry_id`` is paired."""
        self.unfollow(conn)
        self.following[conn] = entry_id
        self.follows.setdefault(entry_id, set()).add(conn)

    def unfollow(self, conn: Connection) -> None:
        """``conn`` follows no queue entry any more."""
        entry_id = self.following.pop(conn, None)
        if entry_id is not None:
            group = self.follows.get(entry_id, set())
            group.discard(conn)
            if not group:
                self.follows.pop(entry_id, None)

    def snapshot(self) -> dict[str, Any]:
        """The whole-list frame."""
        return {"type": "open_tables", "tables": self.tables()}

    def tables(self) -> list[dict[str, Any]]:
        """The open tables this node knows of, oldest first."""
        return sorted(self.listed.values(), key=lambda t: (t["created_at"], t["match_id"]))[:MAX_LISTED]

    def _tell(self, frame: dict[str, Any]) -> None:
        text = dump_frame(frame)  # encoded once for every socket
        for conn in list(self.sockets):
            conn.send(text)

    # ------------------------------------------------------------------ events
    async def emit(self, event: dict[str, Any]) -> None:
        """Tell every node (this one included) of a change: ``{"op": "add", "table"}``,
        ``{"op": "gone", "match_id", "reason"}`` or ``{"op": "paired", "entries"}``."""
        if self.bus is not None:
            self.bus.publish({"kind": "lobby", **event})
        else:
            await self.on_event({"kind": "lobby", **event})

    async def on_event(self, event: dict[str, Any]) -> None:
        """A ``lobby`` event from the bus (or this node, alone)."""
        op = event.get("op")
        if op == "add" and isinstance(event.get("table"), dict) and isinstance(event["table"].get("match_id"), str):
            table = event["table"]
            if table["match_id"] not in self.listed:
                self.listed[table["match_id"]] = table
                self._tell({"type": "open_table", "table": table})
        elif op == "gone" and isinstance(event.get("match_id"), str):
            if self.on_remote is not None:
                await self.on_remote(event)
            self.gone(event["match_id"], str(event.get("reason") or "taken"))
        elif op == "paired" and isinstance(event.get("entries"), list):
            for entry_id in event["entries"]:
                for conn in list(self.follows.get(entry_id, ()) if isinstance(entry_id, int) else ()):
                    if self.paired is not None:
                        await self.paired(conn)

    def gone(self, match_id: str, reason: str) -> None:
        """An open table left the list (taken, cancelled, left)."""
        if self.listed.pop(match_id, None) is not None:
            self._tell({"type": "open_table_gone", "match_id": match_id, "reason": reason})

    def missing(self, fresh: dict[str, dict[str, Any]]) -> list[str]:
        """The tables this node lists that the database's list ``fresh`` no longer has."""
        return [m for m in self.listed if m not in fresh]

    def reconcile(self, fresh: dict[str, dict[str, Any]], reasons: dict[str, str] | None = None) -> None:
        """Make the node's list the database's (``match_id -> public row``), telling the
        sockets what was missed; ``reasons``: why each missing table left (its stored
        status: ``taken``, ``cancelled``, ``left``; ``taken`` where unknown)."""
        for match_id in self.missing(fresh):
            self.gone(match_id, (reasons or {}).get(match_id, "taken"))
        for match_id, table in fresh.items():
            if match_id not in self.listed:
                self.listed[match_id] = table
                self._tell({"type": "open_table", "table": table})

    def close(self) -> None:
        """Close every lobby socket (the server stops)."""
        for conn in list(self.sockets):
            conn.close(1001, "server shutting down")
        self.sockets.clear()
        self.follows.clear()
        self.following.clear()


async def sleep_loop(every_s: float, step: Callable[[], Awaitable[None]], what: str) -> None:
    """Run ``step`` every ``every_s`` seconds until cancelled; a failure is logged (no
    traceback) and the loop goes on."""
    while True:
        await asyncio.sleep(every_s)
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database away a moment: the next round tries again
            log.error("lobby: %s failed (%s)", what, type(exc).__name__)


__all__ = ["LobbyFeed", "MAX_LISTED", "REFRESH_S", "sleep_loop"]

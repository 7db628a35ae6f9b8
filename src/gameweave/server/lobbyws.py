"""The lobby's WebSocket, ``/ws/lobby`` (PROTOCOL §3.17): the live open-table list for
everyone, and the news of one queue ticket for the socket that follows it.

Client → server (text frames of JSON, at most :data:`MAX_LOBBY_FRAME` bytes):
``{"type": "follow", "ticket": T}`` (answered with the entry's ``queue`` frame, and
another when it is paired) and ``{"type": "ping"}`` (every few seconds while queued:
the player is still there; answered with the entry's ``queue`` frame; a socket that
follows no ticket gets no answer).  When the socket
closes, the entry it followed is not paired until someone follows it again, and leaves
the queue after :data:`~.lobby.LEFT_S` if nobody does (:meth:`~.lobby.Lobby.left_soon`).  Anything else
is answered ``{"type": "error", "code": "malformed" | "unknown_ticket" | "rate_limited"}``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import WebSocket

from .connection import Connection
from .errors import ApiError
from .lobby import Lobby, queue_out
from .middleware import TokenBucket

MAX_LOBBY_FRAME = 1024
"""Bytes a lobby socket's frame may hold."""

LOBBY_RATE = (20, 2.0)
"""A lobby socket may send bursts of 20 frames, then 2 a second."""


def _read(msg: dict[str, Any]) -> dict[str, Any] | None:
    text = msg.get("text")
    if not isinstance(text, str) or len(text) > MAX_LOBBY_FRAME:
        return None
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None


FIELDS = {"follow": {"type", "ticket"}, "ping": {"type"}}
"""The fields each frame may have (others, or a ``follow`` without a string ticket, are
``malformed``, as on a seat's socket)."""


def _problem(obj: dict[str, Any]) -> str | None:
    """Why ``obj`` is not a lobby frame (the ``malformed`` message), or None."""
    kind = obj.get("type")
    allowed = FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return 'send {"type": "follow", "ticket": …} or {"type": "ping"}'
    extra = sorted(str(k)[:40] for k in obj if k not in allowed)
    if extra:
        return f"'{extra[0]}' is not a field of a {kind} frame"
    if kind == "follow" and not isinstance(obj.get("ticket"), str):
        return "'ticket' must be the queue ticket, a string"
    return None


async def _answer(lobby: Lobby, conn: Connection, obj: dict[str, Any]) -> None:
    problem = _problem(obj)
    if problem is not None:
        conn.send({"type": "error", "code": "malformed", "params": {}, "message": problem})
        return
    kind = obj.get("type")
    if kind == "follow":
        ticket = obj.get("ticket")
        try:
            row = await lobby.entry(ticket)
        except ApiError as exc:
            conn.send({"type": "error", "code": exc.code, "message": exc.message, "params": {}})
            return
        conn.token = ticket
        lobby.feed.follow(conn, row.id)
        conn.send({"type": "queue", **queue_out(row)})
    elif kind == "ping":
        if lobby.feed.following.get(conn) is None:
            return
        try:
            row = await lobby.entry(conn.token)
        except ApiError:
            return
        conn.send({"type": "queue", **queue_out(row)})


async def serve_lobby(lobby: Lobby, ws: WebSocket) -> None:
    """One lobby socket (already accepted) until it closes."""
    conn = Connection(ws, "lobby", -1, "")
    writer = asyncio.create_task(conn.writer())
    lobby.feed.add(conn)
    bucket = TokenBucket(*LOBBY_RATE)
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                conn.send({"type": "error", "code": "rate_limited", "message": "too many frames", "params": {}})
                continue
            obj = _read(msg)
            if obj is None:
                conn.send({"type": "error", "code": "malformed", "params": {},
                           "message": "a frame must be a JSON object of at most 1 KiB"})
                continue
            await _answer(lobby, conn, obj)
    except Exception:  # the socket went away
        pass
    finally:
        entry_id = lobby.feed.following.get(conn)
        lobby.feed.drop(conn)
        conn.close(1000, "")
        if entry_id is not None and not lobby.feed.follows.get(entry_id):
            lobby.left_soon(entry_id)  # a task of its own: a handler cancelled now still records it
        try:
            await asyncio.wait_for(writer, 2)
        except (TimeoutError, Exception):
            writer.cancel()


__all__ = ["FIELDS", "LOBBY_RATE", "MAX_LOBBY_FRAME", "serve_lobby"]

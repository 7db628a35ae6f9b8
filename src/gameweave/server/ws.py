"""The play WebSocket ``/ws/{match_id}`` (PROTOCOL §4): ``hello``, then actions.

Every frame gets an answer or is a documented silent case; no frame a client sends drops
the socket (except the flood limit, 1008) or prints a traceback: an unexpected failure
while handling one frame is one plain log line and a ``server_error`` frame.  A client
that does not read is closed by its :class:`~.connection.Connection`'s writer (1008).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, NamedTuple

from fastapi import WebSocket, WebSocketDisconnect

from ..engine import UnparsableError, parse_json
from ..tables import Table, TableError
from .errors import CLOSE_CODES
from .connection import SEND_TIMEOUT, Connection, dump_frame
from .hub import Hub
from .middleware import TokenBucket
from .settings import MAX_FRAME, Settings

log = logging.getLogger("gameweave.server")

WS_MAX_REFUSED = 200
"""Refused (rate-limited) frames before the socket is closed (1008)."""

MAX_MESSAGE = 300
"""Longest ``message`` text in an error frame (an echoed 60 KiB action is cut)."""

FIELDS = {
    "hello": {"type", "seat", "token", "watch"},
    "action": {"type", "action", "version"},
    "next_deal": {"type", "version"},
    "resign": {"type", "scope", "version"},
    "phrase": {"type", "key"},
    "heartbeat": {"type"},
    "ping": {"type"},
}
"""The fields each client frame may have (others are refused: ``malformed``)."""


async def _send_now(ws: WebSocket, frame: dict[str, Any]) -> None:
    try:
        await ws.send_text(dump_frame(frame))
    except Exception:
        pass


def parse_frame(msg: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str, str]:
    """Decode one received WebSocket message: ``(object, "", "")`` or
    ``(None, error_code, error_message)``.  Checks, in order: a text frame, at most 64 KiB,
    JSON (numbers under 4,300 digits, nesting a few hundred deep), an object, a known
    ``type``, only that type's fields (PROTOCOL §4.1)."""
    text = msg.get("text")
    if text is None:
        data = msg.get("bytes")
        if data is not None and len(data) > MAX_FRAME:
            return None, "too_large", "frame over 64 KiB"
        return None, "malformed", "frames must be JSON text"
    if len(text) > MAX_FRAME or len(text.encode("utf-8", "replace")) > MAX_FRAME:
        return None, "too_large", "frame over 64 KiB"
    try:
        obj = parse_json(text)  # strict: NaN and Infinity are not JSON
    except UnparsableError:
        return None, "malformed", "not JSON"
    if not isinstance(obj, dict):
        return None, "malformed", "a frame is a JSON object with a 'type'"
    kind = obj.get("type")
    allowed = FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return None, "malformed", "unknown message type; use hello, action, next_deal, resign, phrase, heartbeat or ping"
    extra = sorted(k for k in obj if k not in allowed)
    if extra:
        return None, "malformed", f"'{str(extra[0])[:40]}' is not a field of {'an' if kind[:1] in 'aeiou' else 'a'} {kind} frame"
    return obj, "", ""


def error_frame(code: str, message: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A WS ``error`` frame: ``{"type": "error", "code", "message" (English, for logs),
    "params"}``; the page says ``error.<code>`` from its catalog with ``params``."""
    return {"type": "error", "code": code, "message": message, "params": dict(params or {})}


def _error_frame(exc: TableError) -> dict[str, Any]:
    message = exc.message if len(exc.message) <= MAX_MESSAGE else exc.message[: MAX_MESSAGE - 1] + "…"
    frame: dict[str, Any] = error_frame(exc.code, message, exc.params)
    if exc.version is not None:
        frame["version"] = exc.version
    return frame


async def _frames(hub: Hub, conn: Connection, ws: WebSocket, settings: Settings,
                  refused: Callable[[str], None]) -> AsyncIterator[tuple[dict[str, Any], float]]:
    """The well-formed frames a socket sends after its hello, with the time each arrived
    (``perf_counter``), until it closes or its connection is replaced.  Every frame marks
    the client heard (presence, PROTOCOL §4.1); frames beyond the rate (``ws_burst``,
    ``ws_rate``) are refused with ``rate_limited`` (said once, then every 20th) and a flood
    of ``WS_MAX_REFUSED`` closes the socket (1008); a malformed frame is answered with its
    error and skipped.  ``refused(code)`` counts each refusal."""
    bucket = TokenBucket(settings.ws_burst, settings.ws_rate)
    rate_refused = 0
    while not conn.closed:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect" or conn.closed:  # closed: replaced by a newer hello
            return
        if not bucket.take():
            rate_refused += 1
            refused("rate_limited")
            if rate_refused == 1 or rate_refused % 20 == 0:
                conn.send(error_frame("rate_limited", "too many frames; slow down"))
            if rate_refused >= WS_MAX_REFUSED:
                conn.close(1008, "flood")
                return
            continue
        started = time.perf_counter()
        hub.heard(conn)
        obj, code, message = parse_frame(msg)
        if obj is None:
            refused(code)
            conn.send(error_frame(code, message))
            continue
        yield obj, started


def _refuser(hub: Hub) -> Callable[[str], None]:
    """``refused(code)``: count one refused frame in the metrics (when they are on)."""
    metrics = hub.metrics

    def refused(code: str) -> None:
        if metrics is not None:
            metrics.refusal(code)
    return refused


async def _hang_up(conn: Connection, writer: asyncio.Task[None]) -> None:
    """Close ``conn`` and give its writer task time to flush (a frame and the close frame
    may each wait ``SEND_TIMEOUT``), else cancel it."""
    conn.close(1000, "bye")
    try:
        await asyncio.wait_for(writer, 2 * SEND_TIMEOUT + 1)
    except Exception:
        writer.cancel()


class Hello(NamedTuple):
    """What a socket's first frame asked for: ``seat`` 0 or 1 (a seat, holding
    ``token``), -1 (a spectator) or ``None`` (refused with ``code`` and ``message``)."""

    table: Table | None
    seat: int | None
    token: str = ""
    code: str = ""
    message: str = ""


async def serve_socket(hub: Hub, ws: WebSocket, match_id: str, settings: Settings) -> None:
    """One socket: ``hello``, then a seat's actions or a spectator's watching, until it
    closes (PROTOCOL §4)."""
    refused = _refuser(hub)
    try:
        msg = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
    except TimeoutError:
        await _refuse_hello(ws, refused, "malformed", "say hello first", "no hello")
        return
    except Exception:
        return
    if msg["type"] == "websocket.disconnect":
        return
    hello = await read_hello(hub, match_id, msg)
    if hello.seat is None or hello.table is None:
        code = "malformed" if hello.code == "too_large" else hello.code
        await _refuse_hello(ws, refused, code, hello.message, code)
        return
    conn = Connection(ws, match_id, hello.seat, hello.token)
    if hello.seat < 0:
        await _serve(hub, conn, hello.table, settings, refused, _spectator_frame(conn, refused))
    else:
        await _serve(hub, conn, hello.table, settings, refused, _seat_frame(hub, conn, hello.table, refused))


async def read_hello(hub: Hub, match_id: str, msg: Mapping[str, Any]) -> Hello:
    """Read a socket's first message (PROTOCOL §4.1): a seat's ``hello`` with its token,
    or a spectator's with the match's watch key (compared in constant time); with several
    nodes a token that seat 2 got on another node a moment ago is looked up there."""
    obj, code, message = parse_frame(msg)
    table = await hub.table(match_id)
    if table is None:
        return Hello(None, None, code="unknown_match", message="no such match")
    if obj is None:
        return Hello(table, None, code=code, message=message)
    if obj.get("type") != "hello":
        return Hello(table, None, code="malformed",
                     message="the first frame must be {\"type\": \"hello\", \"seat\": 1|2, \"token\": …}")
    if "watch" in obj:
        key = obj.get("watch")
        if set(obj) != {"type", "watch"}:
            return Hello(table, None, code="malformed", message="a spectator's hello has only 'watch'")
        if (isinstance(key, str) and table.watch_key
                and secrets.compare_digest(key.encode("utf-8", "replace"), table.watch_key.encode())):
            return Hello(table, -1)
        return Hello(table, None, code="bad_watch_key", message="that watch key is not this match's")
    s, token = obj.get("seat"), obj.get("token")
    if type(s) is not int or s not in (1, 2):
        return Hello(table, None, code="malformed", message="'seat' must be 1 or 2")
    if token is not None and not isinstance(token, str):  # wrongly typed (PROTOCOL §4.4); none holds no seat
        return Hello(table, None, code="malformed", message="'token' must be the seat's token, a string")
    if not table.token_ok(s - 1, token) and hub.bus is not None:
        table = (await hub.seat_for_token(match_id, token))[0] or table
    if not table.token_ok(s - 1, token):
        return Hello(table, None, code="bad_token", message=f"that token does not hold seat {s} of this match")
    return Hello(table, s - 1, token=str(token))


async def _refuse_hello(ws: WebSocket, refused: Callable[[str], None], code: str, message: str, reason: str) -> None:
    """Answer a failed hello with its error frame and close the socket (4400/4401/4404)."""
    refused(code)
    await _send_now(ws, error_frame(code, message))
    try:
        await ws.close(code=CLOSE_CODES.get(code, 4400), reason=reason)
    except Exception:
        pass


FrameHandler = Callable[[dict[str, Any], float], Awaitable[None]]
"""Handles one well-formed frame (other than ``ping``) and the time it arrived."""


async def _serve(hub: Hub, conn: Connection, table: Table, settings: Settings,
                 refused: Callable[[str], None], handle: FrameHandler) -> None:
    """The life of an admitted socket, a seat's or a spectator's: its writer task, its
    place in the hub, every frame after the hello (``ping`` answered with ``pong``, the
    rest by ``handle``), and at the end its leaving and its close."""
    writer = asyncio.create_task(conn.writer())
    who = "spectator" if conn.seat < 0 else f"seat {conn.seat + 1}"
    await (hub.watch(conn, table) if conn.seat < 0 else hub.attach(conn, table))
    try:
        async for obj, started in _frames(hub, conn, conn.ws, settings, refused):
            if obj["type"] == "ping":
                conn.send({"type": "pong"})
            else:
                await handle(obj, started)
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # never let one socket take the server down
        log.error("match %s %s: socket error: %s", conn.match_id, who, type(exc).__name__)
    finally:
        await (hub.unwatch(conn) if conn.seat < 0 else hub.detach(conn))
        await _hang_up(conn, writer)


def _spectator_frame(conn: Connection, refused: Callable[[str], None]) -> FrameHandler:
    """A spectator's frames (PROTOCOL §4.5): ``heartbeat`` is heard; anything else but
    ``ping`` is refused (``spectator``: spectators never act)."""

    async def handle(obj: dict[str, Any], _started: float) -> None:
        if obj["type"] != "heartbeat":
            refused("spectator")
            conn.send(error_frame("spectator", "a spectator watches; it cannot act"))
    return handle


def _seat_frame(hub: Hub, conn: Connection, table: Table, refused: Callable[[str], None]) -> FrameHandler:
    """A seat's frames (PROTOCOL §4.1): action, next_deal, resign, phrase, heartbeat, and
    hello again (the state once more).  A refused one gets its error frame; one that
    fails unexpectedly is one log line and a ``server_error`` frame."""
    match_id, seat, token = conn.match_id, conn.seat, conn.token
    metrics = hub.metrics

    async def handle(obj: dict[str, Any], started: float) -> None:
        kind = obj["type"]
        try:
            if kind == "action":
                await hub.act(match_id, seat, token, obj.get("action"), obj.get("version"))
                if metrics is not None:
                    metrics.round_trip.observe(time.perf_counter() - started)
            elif kind == "next_deal":
                await hub.next_deal(match_id, seat, token, obj.get("version"))
            elif kind == "resign":
                await hub.resign(match_id, seat, token, obj.get("scope"), obj.get("version"))
            elif kind == "phrase":
                await hub.phrase(conn, obj.get("key"))
            elif kind == "hello":  # again, on a socket that holds a seat: the state once more
                current = hub.tables.get(match_id) or table
                if obj.get("seat") != seat + 1 or not current.token_ok(seat, obj.get("token")):
                    raise TableError("bad_token", "this socket already holds a seat; hello again with its token")
                conn.send(hub.frame(current, seat))
            # heartbeat: heard, the seat is online (PROTOCOL §4.1); nothing to answer
        except TableError as exc:
            refused(exc.code)
            conn.send(_error_frame(exc))
        except (WebSocketDisconnect, asyncio.CancelledError):
            raise
        except Exception as exc:  # one frame must not take the socket down
            log.error("match %s seat %d: %s frame failed: %s", match_id, seat + 1, kind, type(exc).__name__)
            refused("server_error")
            conn.send(error_frame("server_error", "the server could not do it; nothing changed"))
    return handle


__all__ = ["FIELDS", "Hello", "error_frame", "parse_frame", "read_hello", "serve_socket"]

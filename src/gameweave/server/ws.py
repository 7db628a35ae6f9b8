"""The play WebSocket ``/ws/{match_id}`` (PROTOCOL §4): ``hello``, then actions.

Every frame gets an answer or is a documented silent case; no frame a client sends drops
the socket (except the flood limit, 1008) or prints a traceback: an unexpected failure
while handling one frame is one plain log line and a ``server_error`` frame.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..tables import TableError
from .errors import CLOSE_CODES
from .hub import Connection, Hub
from .middleware import TokenBucket
from .settings import MAX_FRAME, Settings

log = logging.getLogger("gameweave.server")

WS_MAX_REFUSED = 200
"""Refused (rate-limited) frames before the socket is closed (1008)."""

MAX_MESSAGE = 300
"""Longest ``message`` text in an error frame (an echoed 60 KiB action is cut)."""

FIELDS = {
    "hello": {"type", "seat", "token"},
    "action": {"type", "action", "version"},
    "next_deal": {"type", "version"},
    "ping": {"type"},
}
"""The fields each client frame may have (others are refused: ``malformed``)."""


async def _send_now(ws: WebSocket, frame: dict[str, Any]) -> None:
    try:
        await ws.send_text(json.dumps(frame, separators=(",", ":")))
    except Exception:
        pass


def parse_frame(msg: dict[str, Any]) -> tuple[dict[str, Any] | None, str, str]:
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
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None, "malformed", "not JSON"
    if not isinstance(obj, dict):
        return None, "malformed", "a frame is a JSON object with a 'type'"
    kind = obj.get("type")
    allowed = FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return None, "malformed", "unknown message type; use hello, action, next_deal or ping"
    extra = sorted(k for k in obj if k not in allowed)
    if extra:
        return None, "malformed", f"'{str(extra[0])[:40]}' is not a field of a {kind} frame"
    return obj, "", ""


def _error_frame(exc: TableError) -> dict[str, Any]:
    message = exc.message if len(exc.message) <= MAX_MESSAGE else exc.message[: MAX_MESSAGE - 1] + "…"
    frame: dict[str, Any] = {"type": "error", "code": exc.code, "message": message}
    if exc.version is not None:
        frame["version"] = exc.version
    return frame


async def serve_socket(hub: Hub, ws: WebSocket, match_id: str, settings: Settings) -> None:
    """One seat's socket: hello, then actions until it closes (PROTOCOL §4)."""
    metrics = hub.metrics

    def refused(code: str) -> None:
        if metrics is not None:
            metrics.refusal(code)

    # ---- hello
    try:
        msg = await asyncio.wait_for(ws.receive(), settings.hello_timeout)
    except TimeoutError:
        refused("malformed")
        await _send_now(ws, {"type": "error", "code": "malformed", "message": "say hello first"})
        try:
            await ws.close(code=4400, reason="no hello")
        except Exception:
            pass
        return
    except Exception:
        return
    if msg["type"] == "websocket.disconnect":
        return
    obj, code, message = parse_frame(msg)
    table = await hub.table(match_id)
    seat = -1
    if table is None:
        code, message = "unknown_match", "no such match"
    elif obj is not None:
        if obj.get("type") != "hello":
            code, message = "malformed", "the first frame must be {\"type\": \"hello\", \"seat\": 1|2, \"token\": …}"
        else:
            s = obj.get("seat")
            if type(s) is not int or s not in (1, 2):
                code, message = "malformed", "'seat' must be 1 or 2"
            else:
                if not table.token_ok(s - 1, obj.get("token")) and hub.bus is not None:
                    # seat 2 may have joined on another node a moment ago
                    table = (await hub.seat_for_token(match_id, obj.get("token")))[0] or table
                if table.token_ok(s - 1, obj.get("token")):
                    seat = s - 1
                else:
                    code, message = "bad_token", f"that token does not hold seat {s} of this match"
    if seat < 0:
        if code == "too_large":
            code = "malformed"
        refused(code)
        await _send_now(ws, {"type": "error", "code": code, "message": message})
        try:
            await ws.close(code=CLOSE_CODES.get(code, 4400), reason=code)
        except Exception:
            pass
        return
    token = obj["token"]
    conn = Connection(ws, match_id, seat, token)
    writer = asyncio.create_task(conn.writer())
    await hub.attach(conn, table)
    bucket = TokenBucket(settings.ws_burst, settings.ws_rate)
    rate_refused = 0
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if conn.closed:  # replaced by a newer hello: later frames are not handled
                break
            if not bucket.take():
                rate_refused += 1
                refused("rate_limited")
                if rate_refused == 1 or rate_refused % 20 == 0:
                    conn.send({"type": "error", "code": "rate_limited", "message": "too many frames; slow down"})
                if rate_refused >= WS_MAX_REFUSED:
                    conn.close(1008, "flood")
                    break
                continue
            started = time.perf_counter()
            obj, code, message = parse_frame(msg)
            if obj is None:
                refused(code)
                conn.send({"type": "error", "code": code, "message": message})
                continue
            kind = obj["type"]
            try:
                if kind == "action":
                    await hub.act(match_id, seat, token, obj.get("action"), obj.get("version"))
                    if metrics is not None:
                        metrics.round_trip.observe(time.perf_counter() - started)
                elif kind == "next_deal":
                    await hub.next_deal(match_id, seat, token, obj.get("version"))
                elif kind == "ping":
                    conn.send({"type": "pong"})
                else:  # hello again on a socket that holds a seat: the state once more
                    current = hub.tables.get(match_id) or table
                    if obj.get("seat") != seat + 1 or not current.token_ok(seat, obj.get("token")):
                        raise TableError("bad_token", "this socket already holds a seat; hello again with its token")
                    conn.send(hub.frame(current, seat))
            except TableError as exc:
                refused(exc.code)
                conn.send(_error_frame(exc))
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception as exc:  # one frame must not take the socket down
                log.error("match %s seat %d: %s frame failed: %s", match_id, seat + 1, kind, type(exc).__name__)
                refused("server_error")
                conn.send({"type": "error", "code": "server_error", "message": "the server could not do it; nothing changed"})
    except WebSocketDisconnect:
        pass
    except Exception as exc:  # never let one socket take the server down
        log.error("match %s seat %d: socket error: %s", match_id, seat + 1, type(exc).__name__)
    finally:
        await hub.detach(conn)
        conn.close(1000, "bye")
        try:
            await asyncio.wait_for(writer, 5)
        except Exception:
            writer.cancel()


__all__ = ["FIELDS", "parse_frame", "serve_socket"]

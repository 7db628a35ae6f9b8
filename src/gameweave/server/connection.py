"""One WebSocket of a seat or a spectator: an outgoing queue drained by a writer task.

A frame with nothing queued before it is written to the socket at once where the
protocol allows it (``gameweave serve``'s, :data:`SEND_NOW`: the handshake
done, the write buffer not full); the others wait in the queue, in order.

A client that does not read is closed by its writer with ``1008`` "client too slow"
(PROTOCOL §4.4), seats and spectators alike: when :data:`MAX_QUEUED` frames or
:data:`MAX_QUEUED_BYTES` bytes wait in its queue, or when one frame cannot be handed to
the connection within :data:`SEND_TIMEOUT` seconds (the TCP buffers are full).  The
frames still queued are dropped; the close frame follows what the socket already holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

log = logging.getLogger("gameweave.server")

MAX_QUEUED = 1000
"""Frames waiting in one connection's queue before the client is too slow (1008)."""

MAX_QUEUED_BYTES = 1 << 20
"""Bytes of frames (1 MiB) waiting in one connection's queue before the client is too slow."""

SEND_TIMEOUT = 5.0
"""Seconds one frame (or the close frame) may wait for the connection to take it."""

TOO_SLOW = (1008, "client too slow")
"""The close code and reason of a client that does not read."""

SEND_NOW = "gameweave.send_now"
"""The ASGI scope extension holding ``send_now(text) -> bool`` of ``gameweave serve``'s
protocol (:mod:`.transport`): the text frame written at once, or False to use ``send``."""


class Connection:
    """One seat's (or spectator's) WebSocket: an outgoing queue drained by a writer
    task, so that frames reach the client in the order they were announced and a slow
    client never blocks its match.  ``seat`` is 0 or 1, -1 for a spectator; ``gen`` is
    the seat generation of its ``hello`` (several nodes)."""

    def __init__(self, websocket: Any, match_id: str, seat: int, token: str):
        self.ws = websocket
        self.match_id = match_id
        self.seat = seat  # -1: a spectator
        self.token = token
        self.gen = 0
        self.last_seen = time.monotonic()
        self.touched = 0.0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0
        # the protocol's send_now (transport.SEND_NOW; absent under a test client): a frame
        # with nothing queued before it is written at once, without waking the writer
        self._send_now = (getattr(websocket, "scope", None) or {}).get("extensions", {}).get(SEND_NOW)
        self._sending = False  # the writer holds a frame it has not handed over yet
        self.closed = False
        self.close_code: int | None = None
        self.close_reason = ""

    def send(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame (JSON-encoded now, so it is a snapshot of this moment); a
        client with too much waiting is closed with 1008 instead."""
        if self.closed:
            return
        text = frame if isinstance(frame, str) else dump_frame(frame)
        if self._send_now is not None and not self._sending and self.queue.empty():
            try:
                if self._send_now(text):
                    return
            except Exception:  # the socket went away; the reader notices too
                self.closed = True
                return
        if self.queue.qsize() >= MAX_QUEUED or self.queued_bytes + len(text) > MAX_QUEUED_BYTES:
            self._too_slow("frames pile up")
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Ask the writer to close the socket after the frames already queued."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        self.queue.put_nowait(None)

    def _too_slow(self, why: str) -> None:
        """The client does not read: drop what waits and close with 1008."""
        if self.closed and self.close_code == TOO_SLOW[0]:
            return
        who = "spectator" if self.seat < 0 else f"seat {self.seat + 1}"
        log.warning("match %s %s: client too slow (%s); closing (1008)", self.match_id, who, why)
        self.closed = True
        self.close_code, self.close_reason = TOO_SLOW
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)

    async def writer(self) -> None:
        """Send queued frames until closed, then send the close frame."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                self.queued_bytes -= len(text)
                self._sending = True
                try:
                    async with asyncio.timeout(SEND_TIMEOUT):  # no task per frame, as wait_for makes
                        await self.ws.send_text(text)
                except TimeoutError:
                    self._too_slow(f"a frame waited {SEND_TIMEOUT:g} s")
                    break
                finally:
                    self._sending = False
        except Exception:  # the socket went away; the reader notices too
            self.closed = True
            return
        try:
            await asyncio.wait_for(self.ws.close(code=self.close_code or 1000, reason=self.close_reason),
                                   SEND_TIMEOUT)
        except Exception:
            pass


def dump_frame(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text, what goes on the wire (orjson: a state frame of a
    long deal is several KB, sent to every seat and spectator at every step)."""
    return orjson.dumps(frame).decode()


__all__ = ["MAX_QUEUED", "MAX_QUEUED_BYTES", "SEND_NOW", "SEND_TIMEOUT", "TOO_SLOW", "Connection", "dump_frame"]

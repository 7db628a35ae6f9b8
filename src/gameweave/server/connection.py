"""One WebSocket of a seat or a spectator: an outgoing queue drained by a writer task."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any


class Connection:
    """One seat's WebSocket: an outgoing queue drained by a writer task, so that frames
    reach the client in the order they were announced and a slow client never blocks
    its match.  ``gen`` is the seat generation of its ``hello`` (several nodes)."""

    def __init__(self, websocket: Any, match_id: str, seat: int, token: str):
        self.ws = websocket
        self.match_id = match_id
        self.seat = seat  # -1: a spectator
        self.token = token
        self.gen = 0
        self.last_seen = time.monotonic()
        self.touched = 0.0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1000)
        self.closed = False
        self.close_code: int | None = None
        self.close_reason = ""

    def send(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame (JSON-encoded now, so it is a snapshot of this moment)."""
        if self.closed:
            return
        text = frame if isinstance(frame, str) else dump_frame(frame)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1008, "client too slow")

    def close(self, code: int, reason: str) -> None:
        """Ask the writer to close the socket after the frames already queued."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # pragma: no cover - close anyway
            pass

    async def writer(self) -> None:
        """Send queued frames until closed."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the reader notices too
            self.closed = True
            return
        try:
            await self.ws.close(code=self.close_code or 1000, reason=self.close_reason)
        except Exception:
            pass


def dump_frame(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text (what goes on the wire)."""
    return json.dumps(frame, separators=(",", ":"))


__all__ = ["Connection", "dump_frame"]

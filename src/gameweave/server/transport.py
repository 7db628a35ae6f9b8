"""The WebSocket protocol ``gameweave serve`` gives uvicorn: uvicorn's own (websockets,
sans-I/O) with the changes PROTOCOL §4.4 needs.

* **A close frame is written even while the client does not read.**  uvicorn makes
  every ASGI send, the close included, wait until the TCP write buffer drains; for a
  client that stopped reading that is never, so our writer's ``1008`` "client too slow"
  (:mod:`.connection`) would wait until the keepalive gave up with ``1011``.  Here the
  close frame goes behind what is already buffered, at once.
* **The send buffer of a socket is bounded** (:data:`SEND_BUFFER`), so a client that
  does not read holds at most that much of the kernel's memory and is noticed after that
  many bytes, not after the ~4 MB a loopback socket grows to.
* **A client that answers no ping is too slow too.**  The server pings every
  ``ws_ping_interval_s`` seconds (Settings, 20); a client that has not answered within
  ``ws_ping_timeout_s`` (20) does not read (or is gone): it is closed with ``1008`` "client
  too slow" like the ones our writer catches, not uvicorn's ``1011`` "keepalive ping
  timeout", and by the closing handshake (what it still sends is read and dropped for a
  while), so that a client that reads again finds the close frame.
* **Bad text beside the client's close.**  A text frame that is not valid UTF-8 arriving
  with the client's close frame is dropped with one plain line (uvicorn's ``1007`` after
  the close had begun raised ``InvalidState``, logged as a fatal transport error).
* **Shutdown says ``1001`` "server shutting down"** (uvicorn says ``1012``): SIGTERM
  closes every seat and spectator socket so.
* **A frame can be written at once** (:data:`~.connection.SEND_NOW`): the scope's extension
  ``gameweave.send_now`` is ``send_now(text) -> bool``, which writes a text frame to the
  socket without a loop turn when nothing stands in the way (the handshake done, no close
  sent, the write buffer not full) and says False otherwise (then the ASGI ``send``
  must be used).  :class:`~.connection.Connection` writes so whenever its queue is empty.

:func:`protocol_class` is ``None`` where uvicorn has no sans-I/O websockets protocol
(uvicorn's default is used then, without these changes).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

from .connection import SEND_NOW, TOO_SLOW
from .logs import UTF8_CLOSING_LINE

log = logging.getLogger("gameweave.server")

SEND_BUFFER = 256 * 1024
"""``SO_SNDBUF`` of every WebSocket connection, in bytes."""

SHUTDOWN = (1001, "server shutting down")
"""The close code and reason every socket gets when the server stops (SIGTERM)."""


def protocol_class() -> type[asyncio.Protocol] | None:
    """The protocol class for ``uvicorn.Config(ws=…)``, or ``None`` (uvicorn without
    ``websockets_sansio_impl``, or without the ``websockets`` package)."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.protocol import State
    except ImportError:  # pragma: no cover - older uvicorn / no websockets
        return None

    class GameweaveWebSocketProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol with the changes above."""

        def connection_made(self, transport: Any) -> None:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                except OSError:  # pragma: no cover - not a TCP socket
                    pass
            super().connection_made(transport)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            self.scope["extensions"][SEND_NOW] = self.send_now

        def send_now(self, text: str) -> bool:
            """Write the text frame ``text`` now, as ``send`` would without suspending;
            False (nothing written) when ``send`` must be awaited instead: before the
            handshake, after a close, or while the write buffer is full."""
            if (not self.handshake_complete or self.close_sent or self.disconnected or self.initial_response is not None
                    or not self.writable.is_set() or self.transport.is_closing()):
                return False
            self.conn.send_text(text.encode())
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

        def send_receive_event_to_app(self) -> None:
            # a text frame that is not valid UTF-8 arriving together with the client's close
            # frame: the closing handshake has begun, so no 1007 can be sent any more
            # (uvicorn's attempt raised InvalidState, logged as a fatal transport error):
            # the message is dropped with the one plain line, and the close goes on
            if self.curr_msg_data_type == "text" and self.conn.state is not State.OPEN and not self.close_sent:
                data = b"".join(self.frames)
                try:
                    data.decode()
                except UnicodeDecodeError:
                    self.frames = []
                    log.warning(UTF8_CLOSING_LINE)
                    return
            super().send_receive_event_to_app()

        async def send(self, message: Any) -> None:
            if message["type"] != "websocket.close" or self.writable.is_set() or not self.handshake_complete:
                await super().send(message)
                return
            # the client does not read: write the close frame behind the buffered ones now
            # (with ``writable`` set, the base send runs to its end without suspending)
            self.writable.set()
            try:
                await super().send(message)
            finally:
                if not self.disconnected:
                    self.writable.clear()

        def keepalive_timeout(self) -> None:
            _close_too_slow(self)

        def shutdown(self) -> None:
            if not self.handshake_complete or self.close_sent:
                super().shutdown()
                return
            # as uvicorn does, with 1001 and a reason in place of 1012
            self.stop_keepalive()
            self.queue.put_nowait({"type": "websocket.disconnect", "code": SHUTDOWN[0]})
            self.conn.send_close(*SHUTDOWN)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    return GameweaveWebSocketProtocol


def _close_too_slow(p: Any) -> None:
    """The ping of protocol ``p`` went unanswered: close it with ``1008`` "client too slow"
    as an ASGI close does (the app hears it, the close frame goes out, the socket waits
    for the client's close; what it sends meanwhile is dropped)."""
    p.pong_timer = None
    p.pending_ping_payload = None
    if p.close_sent or p.transport.is_closing():
        return
    log.warning("websocket %s: no answer to a ping in %g s: client too slow; closing (1008)",
                f"{p.client[0]}:{p.client[1]}" if p.client else "?", p.ping_timeout)
    p.queue.put_nowait({"type": "websocket.disconnect", "code": TOO_SLOW[0], "reason": TOO_SLOW[1]})
    p.conn.send_close(*TOO_SLOW)
    p.transport.write(b"".join(p.conn.data_to_send()))
    p.close_sent = True
    if p.read_paused:
        p.read_paused = False
        p.transport.resume_reading()
    p.close_timer = p.loop.call_later(p.close_timeout, p.transport.close)


__all__ = ["SEND_BUFFER", "SHUTDOWN", "protocol_class"]

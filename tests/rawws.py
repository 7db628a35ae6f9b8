"""A raw WebSocket client on a plain socket, for tests of clients that stop reading.

It does the opening handshake by hand, sends masked frames, and reads only when told, so
a test can let the server's frames pile up in the TCP buffers (a small ``SO_RCVBUF``)
and later read everything that came, up to the close frame.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time


class RawWs:
    """One WebSocket on a plain TCP socket; nothing is read unless a method reads."""

    def __init__(self, host: str, port: int, path: str, rcvbuf: int = 4096):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)  # before connect: the window
        self.sock.settimeout(10)
        self.sock.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.buf = b""

    def send(self, obj: dict | str, opcode: int = 1) -> None:
        """Send one masked frame (text by default) holding ``obj`` as JSON."""
        data = (obj if isinstance(obj, str) else json.dumps(obj)).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(head + mask + body)

    def _take(self, n: int, deadline: float) -> bytes:
        while len(self.buf) < n:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("EOF")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def frame(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame ``(opcode, payload)`` (1 text, 8 close, 9 ping, 10 pong)."""
        deadline = time.monotonic() + timeout
        b0, b1 = self._take(2, deadline)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._take(2, deadline))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._take(8, deadline))[0]
        return b0 & 0x0F, self._take(n, deadline)

    def json(self, timeout: float = 10) -> dict:
        """The next text frame as an object (pings are skipped)."""
        while True:
            op, data = self.frame(timeout)
            if op == 1:
                return json.loads(data)
            if op == 8:
                raise ConnectionError(f"closed {close_code(data)}")

    def close_code(self, timeout: float = 60) -> tuple[int | None, int, float]:
        """Read everything up to the close frame: ``(code or None at EOF without one,
        text frames read, seconds it took)``."""
        start = time.monotonic()
        texts = 0
        try:
            while True:
                op, data = self.frame(timeout)
                if op == 8:
                    return close_code(data), texts, time.monotonic() - start
                texts += op == 1
        except (ConnectionError, OSError):
            return None, texts, time.monotonic() - start

    def close(self) -> None:
        self.sock.close()


def close_code(payload: bytes) -> int | None:
    """The code of a close frame's payload (None when it has none)."""
    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None

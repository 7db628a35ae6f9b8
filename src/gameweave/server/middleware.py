"""Pure ASGI middleware at the HTTP edge: body size, strict JSON and request rate (PROTOCOL §5)."""

from __future__ import annotations

import time
from typing import Any

from ..engine import UnparsableError, parse_json
from .errors import error_response
from .settings import MAX_FRAME


class TokenBucket:
    """A token-bucket rate limit: ``burst`` messages at once, ``rate`` per second after."""

    __slots__ = ("burst", "rate", "tokens", "stamp")

    def __init__(self, burst: float, rate: float):
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token; False if none is left (the message must be refused)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class LimitMiddleware:
    """HTTP bodies over 64 KiB get ``413 too_large`` — announced by ``Content-Length`` or
    sent chunked: the body is read here, at most 64 KiB of it, before the app sees it —,
    a JSON body (by its ``Content-Type``) that is JSON but for ``NaN`` or ``Infinity`` gets ``422 malformed`` ("the body
    is not valid JSON", as the routes say of any other), and each client address gets a token bucket of requests (``429 rate_limited``).
    WebSocket handshakes are not counted (a socket has its own frame limit)."""

    MAX_CLIENTS = 10000
    """Buckets kept before they are all forgotten (bounds memory under address floods)."""

    def __init__(self, app, burst: float = 600, rate: float = 300.0, on_refusal=None):
        self.app = app
        self.burst = burst
        self.rate = rate
        self.on_refusal = on_refusal
        self.buckets: dict[str, TokenBucket] = {}

    async def _refuse(self, code: str, message: str, scope, receive, send) -> None:
        if self.on_refusal is not None:
            self.on_refusal(code)
        await error_response(code, message)(scope, receive, send)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("?", 0))[0]
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= self.MAX_CLIENTS:
                self.buckets.clear()
            bucket = self.buckets[client] = TokenBucket(self.burst, self.rate)
        if not bucket.take():
            return await self._refuse("rate_limited", "too many requests; slow down", scope, receive, send)
        json_body = False
        for name, value in scope.get("headers", []):
            if name == b"content-type":
                json_body = b"json" in value.lower()
            if name == b"content-length":
                try:
                    if int(value) > MAX_FRAME:
                        return await self._refuse("too_large", "request body over 64 KiB", scope, receive, send)
                except ValueError:
                    return await self._refuse("malformed", "bad Content-Length", scope, receive, send)
        # read the whole body (at most 64 KiB) first, so a chunked body over the limit is
        # a 413 whatever the route would have done with it
        chunks: list[bytes] = []
        seen = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # the client went away
            body = msg.get("body", b"")
            seen += len(body)
            if seen > MAX_FRAME:
                return await self._refuse("too_large", "request body over 64 KiB", scope, receive, send)
            chunks.append(body)
            if not msg.get("more_body", False):
                break
        whole = b"".join(chunks)
        if json_body and _json_constant(whole):
            return await self._refuse("malformed", "the body is not valid JSON", scope, receive, send)
        buffered: dict[str, Any] | None = {"type": "http.request", "body": whole, "more_body": False}

        async def replay():
            nonlocal buffered
            if buffered is not None:
                msg, buffered = buffered, None
                return msg
            return await receive()

        return await self.app(scope, replay, send)


def _json_constant(body: bytes) -> bool:
    """True if ``body`` would be JSON but for a ``NaN``, ``Infinity`` or ``-Infinity``
    (Python's JSON reader takes them; they are not JSON: the engine's strict
    :func:`~gameweave.engine.parse_json` refuses them).  Bodies without those words are
    not read twice."""
    if b"NaN" not in body and b"Infinity" not in body:
        return False
    try:
        parse_json(body.decode("utf-8"))
    except UnparsableError as exc:
        return exc.reason == "json_constant"
    except UnicodeDecodeError:
        return False
    return False


class HeadAsGet:
    """``HEAD`` answered as the ``GET`` of the same URL without its body (RFC 9110
    §9.3.2: the same status and headers, ``Content-Length`` included), so monitors and
    ``curl -I`` see pages and health checks as they are; FastAPI's routes answer only the
    methods they name.  A URL with no ``GET`` answers 405 as before."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def without_body(msg):
            if msg["type"] == "http.response.body":
                if msg.get("more_body", False):
                    return
                msg = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(msg)

        return await self.app({**scope, "method": "GET"}, receive, without_body)


__all__ = ["HeadAsGet", "LimitMiddleware", "TokenBucket"]

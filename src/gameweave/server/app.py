"""The ASGI app: lobby routes (HTTP JSON), the play WebSocket, the static page.

Build it with :func:`create_app`; ``gameweave serve`` runs it under uvicorn.  The wire
protocol is docs/PROTOCOL.md; wire schemas (pydantic) are separate from storage rows.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable, Literal, Optional

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..bots import bot_names
from ..storage import Store, resolve_url
from ..tables import TableError
from .hub import MAX_FRAME, Connection, Hub, TokenBucket
from .replay import router as replay_router

log = logging.getLogger("gameweave.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The static front end (index.html, *.js, *.css)."""

HTTP_STATUS = {
    "malformed": 422, "too_large": 413, "unknown_bot": 400, "bad_token": 401,
    "bad_invite": 403, "unknown_match": 404, "unknown_deal": 404, "already_joined": 409,
    "deal_not_over": 409, "not_a_friend_match": 409, "rate_limited": 429, "not_found": 404,
    "method_not_allowed": 405, "server_error": 500,
}
"""HTTP status of each error code (PROTOCOL §3)."""

CLOSE_CODES = {"unknown_match": 4404, "bad_token": 4401, "malformed": 4400}
"""WebSocket close codes after a failed ``hello``."""

HELLO_TIMEOUT = 10.0
"""Seconds a socket has to send ``hello``."""
WS_BURST, WS_RATE, WS_MAX_REFUSED = 120, 60.0, 200
"""WebSocket frame rate limit: burst, frames per second, refused frames before closing."""
HTTP_BURST, HTTP_RATE = 600, 300.0
"""HTTP request rate limit per client address: burst, requests per second."""
MAX_SEATS_LISTED = 200
"""Most seats in one ``POST /api/my-matches``."""


# ---------------------------------------------------------------------------- wire schemas
class _Strict(BaseModel):
    """Base of every request body: unknown fields are refused and types are strict (a
    JSON string ``"3"`` or ``true`` is not a whole number; ``3.0`` is not either), so a
    wrongly typed field gets ``422 malformed`` (PROTOCOL §3)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class CreateMatch(_Strict):
    """``POST /api/matches`` body."""

    opponent: Literal["bot", "friend"] = "bot"
    bot: str = Field("random", max_length=32)
    format: Literal["first_to", "tally"] = "first_to"
    target: int = Field(3, ge=1, le=99)
    rules: Literal["gameweave", "anglo-american", "pagat", "classic"] = "gameweave"


class SeatCreated(BaseModel):
    """``POST /api/matches`` response."""

    match_id: str
    seat: int
    token: str
    invite_url: Optional[str]
    table_url: str


class JoinMatch(_Strict):
    """``POST /api/matches/{id}/join`` body."""

    invite: str = Field(..., max_length=128)


class SeatJoined(BaseModel):
    """``POST /api/matches/{id}/join`` response."""

    match_id: str
    seat: int
    token: str
    table_url: str


class SeatRef(_Strict):
    """One remembered seat."""

    match_id: str = Field(..., max_length=32)
    token: str = Field(..., max_length=128)


class MyMatches(_Strict):
    """``POST /api/my-matches`` body."""

    seats: list[SeatRef] = Field(default_factory=list, max_length=MAX_SEATS_LISTED)


def _error(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status or HTTP_STATUS.get(code, 400))


def _field_name(loc: tuple) -> str:
    """``('body', 'seats', 0, 'token')`` -> ``seats[0].token`` (user-given names are cut
    to 40 characters)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)[:40]
    return out


def describe_invalid(err: dict[str, Any]) -> str:
    """One pydantic/FastAPI validation error as a sentence for a person: ``"the body is not
    valid JSON"``, ``"'target' must be a whole number"``.  Holds no library internals
    (no positions, type names or Python wording), only the field and what it must be."""
    kind = err.get("type", "")
    loc = tuple(err.get("loc", ()))
    ctx = err.get("ctx") or {}
    where = loc[0] if loc else "body"
    rest = loc[1:]
    if where == "body" and kind == "json_invalid":
        return "the body is not valid JSON"
    if where == "body" and not rest:
        if kind == "missing":
            return "the body is missing: send a JSON object (Content-Type: application/json)"
        return "the body must be a JSON object"
    if where == "path":
        name = {"n": "the deal number"}.get(str(rest[0]) if rest else "", "a part of the address")
        return f"{name} in the address must be a whole number" if "int" in kind else f"{name} in the address is not valid"
    if where in ("header", "query"):
        return f"the {where} '{_field_name(rest)}' is not valid"
    field = f"'{_field_name(rest)}'"
    if kind == "missing":
        return f"{field} is required"
    if kind == "extra_forbidden":
        return f"{field} is not a field of this request"
    if kind.startswith("int_") or kind == "int_type":
        return f"{field} must be a whole number"
    if kind.startswith("string_") and kind not in ("string_too_long", "string_too_short"):
        return f"{field} must be a string"
    if kind == "string_too_long":
        return f"{field} must be at most {ctx.get('max_length', '?')} characters"
    if kind == "string_too_short":
        return f"{field} must be at least {ctx.get('min_length', '?')} characters"
    if kind == "literal_error":
        return f"{field} must be one of {ctx.get('expected', 'the allowed values')}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"{field} must be at least {ctx.get('ge', ctx.get('gt', '?'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"{field} must be at most {ctx.get('le', ctx.get('lt', '?'))}"
    if kind == "too_long":
        return f"{field} may hold at most {ctx.get('max_length', '?')} entries"
    if kind == "list_type":
        return f"{field} must be a list"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{field} must be a JSON object"
    return f"{field} is not valid"


class ApiError(Exception):
    """An HTTP error answered as ``{"error": {"code", "message"}}``."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


# ---------------------------------------------------------------------------- middleware
class LimitMiddleware:
    """Pure ASGI middleware: HTTP bodies over 64 KiB get ``413 too_large``; each client
    address gets a token bucket of requests (``429 rate_limited``)."""

    def __init__(self, app, burst: float = HTTP_BURST, rate: float = HTTP_RATE):
        self.app = app
        self.burst = burst
        self.rate = rate
        self.buckets: dict[str, TokenBucket] = {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("?", 0))[0]
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 10000:
                self.buckets.clear()
            bucket = self.buckets[client] = TokenBucket(self.burst, self.rate)
        if not bucket.take():
            return await _error("rate_limited", "too many requests; slow down")(scope, receive, send)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    if int(value) > MAX_FRAME:
                        return await _error("too_large", "request body over 64 KiB")(scope, receive, send)
                except ValueError:
                    return await _error("malformed", "bad Content-Length")(scope, receive, send)
        seen = 0
        too_big = False

        async def limited_receive():
            nonlocal seen, too_big
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_FRAME:
                    too_big = True
                    raise ApiError("too_large", "request body over 64 KiB")
            return msg

        try:
            return await self.app(scope, limited_receive, send)
        except ApiError as exc:
            if too_big:
                return await _error(exc.code, exc.message)(scope, receive, send)
            raise


# ---------------------------------------------------------------------------- the app
def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    bot_delay: float = 0.6,
    deck_source: Callable[[], tuple[Any, str]] | None = None,
    *,
    store: Store | None = None,
    http_burst: float = HTTP_BURST,
    http_rate: float = HTTP_RATE,
    ws_burst: float = WS_BURST,
    ws_rate: float = WS_RATE,
    hello_timeout: float = HELLO_TIMEOUT,
) -> FastAPI:
    """The table server as an ASGI app.

    Args:
        database_url: SQLAlchemy URL (``postgresql+psycopg://…``); default an SQLite file
            ``gameweave.db`` in ``data_dir``.
        data_dir: directory of the default SQLite file (default ``$GAMEWEAVE_DATA`` or
            ``~/.local/share/gameweave``).
        bot_delay: pause before each bot action, in seconds.
        deck_source: ``() -> (deck, salt)`` for every new deal: 40 card ints (R8 order)
            and a hex salt; default a cryptographic shuffle (:func:`~gameweave.tables.secure_deck`).
        store: an open :class:`Store` to use instead of ``database_url``/``data_dir``.
        http_burst, http_rate: HTTP requests per client address (burst, per second).
        ws_burst, ws_rate: WebSocket frames per socket (burst, per second).
        hello_timeout: seconds a socket has to say ``hello``.

    The database is opened (and migrated) at once; ``app.state.hub`` holds the live
    tables and ``app.state.database`` says where the data lives.
    """
    if store is None:
        store = Store(resolve_url(database_url, data_dir))
    hub = Hub(store, bot_delay=bot_delay, deck_source=deck_source)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # matches whose bot was to act when the server stopped continue at once
        for match_id in store.bot_matches_in_play():
            await hub.table(match_id)
        yield
        await hub.close()

    app = FastAPI(
        title="Gameweave table server",
        version="0.1.0",
        description="Conquian matches between two seats. Protocol: docs/PROTOCOL.md.",
        lifespan=lifespan,
        docs_url=None,  # served below from local files: the product needs no internet
        redoc_url=None,
    )
    app.state.hub = hub
    app.state.database = store.description
    app.add_middleware(LimitMiddleware, burst=http_burst, rate=http_rate)

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, exc: ApiError):
        return _error(exc.code, exc.message)

    @app.exception_handler(TableError)
    async def _table_error(_req: Request, exc: TableError):
        return _error(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_req: Request, exc: RequestValidationError):
        parts = []
        for e in exc.errors()[:3]:
            text = describe_invalid(e)
            if text not in parts:
                parts.append(text)
        return _error("malformed", "; ".join(parts) or "the request is malformed")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(req: Request, exc: StarletteHTTPException):
        # errors raised by the router or the static files, not by our routes
        status = exc.status_code
        if status == 404:
            code, message = "not_found", "there is nothing at this address (the API is listed at /docs)"
        elif status == 405:
            allowed = (exc.headers or {}).get("Allow") or (exc.headers or {}).get("allow") or ""
            code = "method_not_allowed"
            message = f"this address does not take {req.method[:16]}" + (f"; it takes {allowed}" if allowed else "")
        elif status == 413:
            code, message = "too_large", "request body over 64 KiB"
        else:
            code, message, status = "malformed", "the request is malformed", 400 if status < 500 else status
        response = _error(code, message, status)
        if status == 405 and exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(Exception)
    async def _crash(_req: Request, exc: Exception):  # pragma: no cover - last resort
        log.error("internal error: %s", type(exc).__name__)
        return _error("server_error", "internal error")

    async def seat_of(match_id: str, authorization: str | None):
        table = await hub.table(match_id)
        if table is None:
            raise ApiError("unknown_match", "no such match")
        token = _bearer(authorization)
        seat = table.seat_of_token(token)
        if seat < 0:
            raise ApiError("bad_token", "send 'Authorization: Bearer <seat token>' with a token of this match")
        return table, seat

    # ------------------------------------------------------------------ lobby
    @app.get("/api/bots", tags=["lobby"])
    async def list_bots() -> dict[str, list[str]]:
        """The bot names this server plays."""
        return {"bots": bot_names()}

    @app.post("/api/matches", status_code=201, response_model=SeatCreated, tags=["lobby"])
    async def create_match(body: CreateMatch) -> dict[str, Any]:
        """Create a match; you hold seat 1 (the token is given only now)."""
        table, token = await hub.create(body.opponent, body.bot, body.format, body.target, rules=body.rules)
        return {
            "match_id": table.match_id, "seat": 1, "token": token,
            "invite_url": table.invite_url(), "table_url": f"/table/{table.match_id}",
        }

    @app.post("/api/matches/{match_id}/join", response_model=SeatJoined, tags=["lobby"])
    async def join_match(match_id: str, body: JoinMatch) -> dict[str, Any]:
        """Join a friend match by its invite; you hold seat 2 (token given only now)."""
        table, token = await hub.join(match_id, body.invite)
        return {"match_id": table.match_id, "seat": 2, "token": token, "table_url": f"/table/{table.match_id}"}

    @app.get("/api/matches/{match_id}", tags=["lobby"])
    async def get_match(match_id: str, authorization: Optional[str] = Header(None)) -> dict[str, Any]:
        """The seat's summary of one match (one entry of ``POST /api/my-matches``)."""
        table, seat = await seat_of(match_id, authorization)
        async with hub.lock(match_id):
            return table.summary(seat)

    @app.post("/api/matches/{match_id}/invite-status", tags=["lobby"])
    async def invite_status(match_id: str, body: JoinMatch) -> dict[str, Any]:
        """Whether ``invite`` would take seat 2 now, without taking it; always 200:
        ``{"open": bool, "code": None | "unknown_match" | "not_a_friend_match" |
        "bad_invite" | "already_joined"}`` (the codes ``join`` would answer).  Lets the
        page explain a used or wrong invite without a refused request."""
        table = await hub.table(match_id)
        if table is None:
            code = "unknown_match"
        elif table.opponent != "friend":
            code = "not_a_friend_match"
        elif table.invite is None or not secrets.compare_digest(
            body.invite.encode("utf-8", "replace"), table.invite.encode()
        ):
            code = "bad_invite"
        elif table.token_hashes[1] is not None:
            code = "already_joined"
        else:
            code = None
        return {"open": code is None, "code": code}

    @app.get("/api/matches/{match_id}/view", tags=["lobby"])
    async def get_view(match_id: str, authorization: Optional[str] = Header(None)) -> dict[str, Any]:
        """The seat's current state frame (same object as on the WebSocket)."""
        table, seat = await seat_of(match_id, authorization)
        async with hub.lock(match_id):
            return hub.frame(table, seat)

    @app.post("/api/my-matches", tags=["lobby"])
    async def my_matches(body: MyMatches) -> dict[str, Any]:
        """Summaries of the remembered seats whose token is valid."""
        out = []
        for ref in body.seats:
            table = await hub.table(ref.match_id)
            if table is None:
                continue
            seat = table.seat_of_token(ref.token)
            if seat >= 0:
                out.append(table.summary(seat))
        return {"matches": out}

    @app.get("/api/matches/{match_id}/deals/{n}/record", tags=["lobby"])
    async def get_record(match_id: str, n: int, authorization: Optional[str] = Header(None)) -> dict[str, Any]:
        """A finished deal's §VII record with the revealed deck, salt and commitment."""
        table, _seat = await seat_of(match_id, authorization)
        return table.record(n)

    app.include_router(replay_router)  # GET /api/matches/{id}/deals/{n}/replay (server/replay.py)

    @app.get("/api/health", tags=["lobby"])
    async def health() -> dict[str, Any]:
        """Liveness check."""
        return {"ok": True}

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/{match_id}")
    async def play(ws: WebSocket, match_id: str) -> None:
        await ws.accept()
        await _serve_socket(hub, ws, match_id, ws_burst, ws_rate, hello_timeout)

    # ------------------------------------------------------------------ the page
    def index() -> Any:
        page = WEB_DIR / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(
            "<!doctype html><title>Gameweave</title><h1>Gameweave table server</h1>"
            "<p>The page is not installed; the API is at <a href='/docs'>/docs</a>.</p>"
        )

    @app.get("/", include_in_schema=False)
    async def root():
        return index()

    @app.get("/table/{match_id}", include_in_schema=False)
    async def table_page(match_id: str):
        return index()

    @app.get("/join/{match_id}/{invite}", include_in_schema=False)
    async def join_page(match_id: str, invite: str):
        return index()

    @app.get("/replay/{match_id}/{n}", include_in_schema=False)
    async def replay_page(match_id: str, n: str):
        return index()

    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    _add_offline_docs(app)
    return app


DOCS_ASSETS_URL = "/docs-assets"
"""Where the Swagger UI files (JS, CSS, favicon) of ``/docs`` are served from."""


def docs_assets_dir() -> Path | None:
    """The folder of the Swagger UI files shipped by the ``fastapi-offline`` package
    (``swagger-ui-bundle.js``, ``swagger-ui.css``, ``favicon.png``), or None if it is not
    installed."""
    try:
        from importlib.resources import files

        folder = Path(str(files("fastapi_offline") / "static"))
    except (ImportError, ModuleNotFoundError, TypeError):
        return None
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


def _add_offline_docs(app: FastAPI) -> None:
    """``GET /docs``: the Swagger UI page with its JS and CSS served by this server (no
    CDN), so the API docs work with no internet."""
    from fastapi.openapi.docs import get_swagger_ui_html

    assets = docs_assets_dir()
    if assets is not None:
        app.mount(DOCS_ASSETS_URL, StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs(request: Request):
        root = request.scope.get("root_path", "")
        if assets is None:
            return HTMLResponse(
                "<!doctype html><title>Gameweave API</title><h1>Gameweave API</h1>"
                f"<p>The API docs page is not installed; the OpenAPI schema is at "
                f"<a href='{root}{app.openapi_url}'>{app.openapi_url}</a>.</p>"
            )
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - API docs",
            swagger_js_url=f"{root}{DOCS_ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=(f"{root}/static/favicon.svg" if (WEB_DIR / "favicon.svg").is_file()
                                 else f"{root}{DOCS_ASSETS_URL}/favicon.png"),
            swagger_ui_parameters={"validatorUrl": None},  # no call to an online validator
        )


async def _send_now(ws: WebSocket, frame: dict[str, Any]) -> None:
    try:
        await ws.send_text(json.dumps(frame, separators=(",", ":")))
    except Exception:
        pass


def _parse_frame(msg: dict[str, Any]) -> tuple[dict[str, Any] | None, str, str]:
    """Decode one received WebSocket message: ``(object, error_code, error_message)``."""
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
    return obj, "", ""


async def _serve_socket(hub: Hub, ws: WebSocket, match_id: str, burst: float, rate: float,
                        hello_timeout: float) -> None:
    """One seat's socket: hello, then actions until it closes (PROTOCOL §4)."""
    # ---- hello
    try:
        msg = await asyncio.wait_for(ws.receive(), hello_timeout)
    except asyncio.TimeoutError:
        await _send_now(ws, {"type": "error", "code": "malformed", "message": "say hello first"})
        await ws.close(code=4400, reason="no hello")
        return
    except Exception:
        return
    if msg["type"] == "websocket.disconnect":
        return
    obj, code, message = _parse_frame(msg)
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
            elif not table.token_ok(s - 1, obj.get("token")):
                code, message = "bad_token", f"that token does not hold seat {s} of this match"
            else:
                seat = s - 1
    if seat < 0:
        if code == "too_large":
            code = "malformed"
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
    bucket = TokenBucket(burst, rate)
    refused = 0
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if conn.closed:
                break
            if not bucket.take():
                refused += 1
                if refused == 1 or refused % 20 == 0:
                    conn.send({"type": "error", "code": "rate_limited", "message": "too many frames; slow down"})
                if refused >= WS_MAX_REFUSED:
                    conn.close(1008, "flood")
                    break
                continue
            obj, code, message = _parse_frame(msg)
            if obj is None:
                conn.send({"type": "error", "code": code, "message": message})
                continue
            kind = obj.get("type")
            try:
                if kind == "action":
                    await hub.act(match_id, seat, token, obj.get("action"), obj.get("version"))
                elif kind == "next_deal":
                    await hub.next_deal(match_id, seat, token, obj.get("version"))
                elif kind == "ping":
                    conn.send({"type": "pong"})
                elif kind == "hello":
                    s = obj.get("seat")
                    if s != seat + 1 or not table.token_ok(seat, obj.get("token")):
                        raise TableError("bad_token", "this socket already holds a seat; hello again with its token")
                    conn.send(hub.frame(table, seat))
                else:
                    raise TableError("malformed", "unknown message type; use hello, action, next_deal or ping")
            except TableError as exc:
                frame = {"type": "error", "code": exc.code, "message": exc.message}
                if exc.version is not None:
                    frame["version"] = exc.version
                conn.send(frame)
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


__all__ = ["create_app", "WEB_DIR"]

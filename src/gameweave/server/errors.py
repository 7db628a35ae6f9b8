"""Wire errors: the code -> HTTP status table, the error body, and the exception
handlers that turn every failure into ``{"error": {"code", "message", "params"}}``
(PROTOCOL §3): a stable code, an English sentence for logs and curl, and the parameters
the page fills into ``error.<code>`` from its catalog (issue 10).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..tables import TableError

log = logging.getLogger("gameweave.server")

HTTP_STATUS = {
    "malformed": 422, "bad_option": 422, "too_large": 413, "unknown_bot": 400, "bad_token": 401,
    "bad_invite": 403, "unknown_match": 404, "unknown_deal": 404, "already_joined": 409,
    "deal_not_over": 409, "not_a_friend_match": 409, "rate_limited": 429, "not_found": 404,
    "method_not_allowed": 405, "server_error": 500, "bad_name": 422, "unknown_language": 404,
    "hints_off": 409, "not_your_turn": 409, "not_a_tutorial": 409, "bad_username": 422, "bad_password": 422,
    "username_taken": 409, "bad_credentials": 401, "not_signed_in": 401, "cross_origin": 403,
    "seat_not_held": 404,
    "seat_taken": 409, "table_gone": 404, "account_needed": 401, "own_table": 409, "too_many_tables": 409,
    "already_queued": 409, "unknown_ticket": 404,
    "unknown_player": 404,
}
"""HTTP status of each error code (PROTOCOL §3).  ``seat_taken`` and ``table_gone`` are
raised by the lobby service; the sit route answers them as ``200 {"seated": false,
"code"}`` (losing a race for a seat is an answer, §3.15)."""

WS_CODES = (
    "malformed", "too_large", "unknown_match", "bad_token", "bad_watch_key", "rate_limited", "server_error",
    "stale", "illegal", "match_over", "deal_over", "deal_not_over", "not_your_turn", "spectator",
    "unknown_phrase",
)
"""The codes of WebSocket ``error`` frames (PROTOCOL §4.4)."""

ERROR_CODES = tuple(sorted(set(HTTP_STATUS) | set(WS_CODES)))
"""Every error code the server can send, over HTTP or the WebSocket; each has an
``error.<code>`` message in both catalogs (a test checks it)."""

CLOSE_CODES = {"unknown_match": 4404, "bad_token": 4401, "bad_watch_key": 4401, "malformed": 4400}
"""WebSocket close codes after a failed ``hello``."""


class ApiError(TableError):
    """An HTTP error answered as ``{"error": {"code", "message", "params"}}`` with the
    status of :data:`HTTP_STATUS`: a :class:`~gameweave.tables.TableError` that no state
    version goes with (one refusal type, one handler)."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None):
        super().__init__(code, message, None, params)


def error_response(code: str, message: str, status: int | None = None,
                   params: dict[str, Any] | None = None) -> JSONResponse:
    """The JSON error body for ``code`` (status from :data:`HTTP_STATUS` unless given)."""
    return JSONResponse({"error": {"code": code, "message": message, "params": dict(params or {})}},
                        status_code=status or HTTP_STATUS.get(code, 400))


def _characters(n: object) -> str:
    """``"1 character"``, ``"32 characters"``."""
    return f"{n} character" if n == 1 else f"{n} characters"


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


NOT_AN_OBJECT = "the body must be a JSON object"
NOT_JSON_TYPE = "the body must be a JSON object sent with Content-Type: application/json"


def _json_type(content_type: str) -> bool:
    """True for a JSON media type (``application/json``, ``application/…+json``), which
    FastAPI reads a body as."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


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
        return NOT_AN_OBJECT
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
        return f"{field} must be at most {_characters(ctx.get('max_length', '?'))}"
    if kind == "string_too_short":
        least = ctx.get("min_length", "?")
        return f"{field} must not be empty" if least == 1 else f"{field} must be at least {_characters(least)}"
    if kind == "literal_error":
        return f"{field} must be one of {ctx.get('expected', 'the allowed values')}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"{field} must be at least {ctx.get('ge', ctx.get('gt', '?'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"{field} must be at most {ctx.get('le', ctx.get('lt', '?'))}"
    if kind == "too_long":
        return f"{field} may hold at most {ctx.get('max_length', '?')} entries"
    if kind.startswith("bool_"):
        return f"{field} must be true or false"
    if kind == "list_type":
        return f"{field} must be a list"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{field} must be a JSON object"
    return f"{field} is not valid"


_API_PREFIXES = ("/api/", "/ws/", "/static/", "/docs-assets/", "/openapi.json", "/metrics")


def _wants_page(req: Request) -> bool:
    """A browser asking for a page (GET or HEAD, ``Accept: text/html``) at an address
    outside the API, the WebSockets and the static files."""
    if req.method not in ("GET", "HEAD"):
        return False
    path = req.url.path
    if path == "/api" or path.startswith(_API_PREFIXES):
        return False
    return "text/html" in req.headers.get("accept", "")


def install_handlers(app: FastAPI, on_refusal=None) -> None:
    """Register the exception handlers of the wire errors on ``app``.

    ``on_refusal(code)`` (optional) is called for every refusal, for the metrics.
    """

    def refuse(code: str, message: str, status: int | None = None, params: dict[str, Any] | None = None) -> JSONResponse:
        if on_refusal is not None:
            on_refusal(code)
        return error_response(code, message, status, params)

    @app.exception_handler(TableError)  # ApiError too
    async def _table_error(_req: Request, exc: TableError):
        response = refuse(exc.code, exc.message, params=exc.params)
        retry = (exc.params or {}).get("retry_after")
        if isinstance(retry, int):
            response.headers["Retry-After"] = str(retry)
        return response

    @app.exception_handler(RequestValidationError)
    async def _invalid(req: Request, exc: RequestValidationError):
        parts = []
        for e in exc.errors()[:3]:
            text = describe_invalid(e)
            if text not in parts:
                parts.append(text)
        if parts == [NOT_AN_OBJECT] and not _json_type(req.headers.get("content-type", "")):
            parts = [NOT_JSON_TYPE]  # an object sent as text/plain (or as nothing) is not read as JSON
        return refuse("malformed", "; ".join(parts) or "the request is malformed")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(req: Request, exc: StarletteHTTPException):
        # errors raised by the router, the body parser or the static files, not by our routes
        status = exc.status_code
        if status == 404 and _wants_page(req):
            # a browser at an address that is no page: the page itself, which says so in
            # the reader's language with a way back to the lobby (the API keeps JSON)
            from .routes.pages import index

            page = index()
            page.status_code = 404
            return page
        if status == 404:
            code, message = "not_found", "there is nothing at this address (the API is listed at /docs)"
        elif status == 405:
            allowed = (exc.headers or {}).get("Allow") or (exc.headers or {}).get("allow") or ""
            code = "method_not_allowed"
            message = f"this address does not take {req.method[:16]}" + (f"; it takes {allowed}" if allowed else "")
        elif status == 413:
            code, message = "too_large", "request body over 64 KiB"
        elif status == 400:
            # FastAPI's body parser: not UTF-8 text, nested too deep, a number too long
            # for a whole number, … — all "not valid JSON" for the client (PROTOCOL §3)
            code, message, status = "malformed", "the body is not valid JSON (UTF-8 text, nested at most a few hundred deep, numbers under 4,300 digits)", 422
        else:
            code, message, status = "malformed", "the request is malformed", 422 if status < 500 else status
        response = refuse(code, message, status)
        if status == 405 and exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(Exception)
    async def _crash(_req: Request, exc: Exception):  # pragma: no cover - last resort
        log.error("internal error: %s", type(exc).__name__)
        return refuse("server_error", "internal error")


__all__ = ["ApiError", "CLOSE_CODES", "ERROR_CODES", "HTTP_STATUS", "WS_CODES", "describe_invalid", "error_response", "install_handlers"]

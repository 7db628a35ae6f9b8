"""The browser page (one ``index.html`` for every page address), its static files, and
the offline API docs (``/docs``, Swagger UI served from the ``fastapi-offline`` package)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
"""The static front end (index.html, *.js, *.css)."""

DOCS_ASSETS_URL = "/docs-assets"
"""Where the Swagger UI files (JS, CSS, favicon) of ``/docs`` are served from."""

router = APIRouter(include_in_schema=False)


def index(status_code: int = 200) -> Any:
    """The page (``index.html``), or a short note if it is not installed; ``status_code``
    404 for an address naming nothing (the page then says so in the reader's language)."""
    page = WEB_DIR / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html", status_code=status_code)
    return HTMLResponse(
        "<!doctype html><title>Gameweave</title><h1>Gameweave table server</h1>"
        "<p>The page is not installed; the API is at <a href='/docs'>/docs</a>.</p>", status_code=status_code
    )


@router.get("/")
async def root():
    """The lobby page."""
    return index()


@router.get("/table/{match_id}")
async def table_page(match_id: str, request: Request):
    """The table page (the page routes on ``location.pathname``); 404 (the same page,
    which says "no such match") when there is no such match."""
    return index(200 if await request.app.state.hub.table(match_id) is not None else 404)


@router.get("/join/{match_id}/{invite}")
async def join_page(match_id: str, invite: str):
    """The join page."""
    return index()


@router.get("/watch/{match_id}/{watch_key}")
async def watch_page(match_id: str, watch_key: str):
    """The spectators' page (the page opens the WebSocket with the watch key)."""
    return index()


@router.get("/account")
async def account_page():
    """The account page: sign up, sign in, sign out, change the password, delete."""
    return index()


@router.get("/continue/{match_id}")
async def continue_page(match_id: str):
    """A guest's "continue on another device" link (issue 20): the seat and its token
    ride in the fragment (``#seat=N&token=T``), which never reaches the server."""
    return index()


@router.get("/leaderboard")
async def leaderboard_page():
    """The leaderboard page: a tab per profile (issue 20)."""
    return index()


@router.get("/player/{name}")
async def player_page(name: str, request: Request):
    """A player's public profile page (issue 20); 404 (the same page, which says so)
    when there is no player of that name."""
    return index(200 if await request.app.state.hub.ratings.account_named(name) is not None else 404)


@router.get("/replay/{match_id}/{n}")
async def replay_page(match_id: str, n: str, request: Request):
    """The replay page; 404 (the same page, which says so) for a match that does not
    exist."""
    return index(200 if await request.app.state.hub.table(match_id) is not None else 404)


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


def mount_static(app: FastAPI) -> None:
    """Mount ``/static`` and the offline ``/docs`` page on ``app``."""
    from fastapi.openapi.docs import get_swagger_ui_html

    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
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

"""The ASGI app factory: lobby and match routers (HTTP JSON), the play WebSocket, the
operations routes, the static page.

Build it with :func:`create_app`; ``gameweave serve`` runs it under uvicorn.  The wire
protocol is docs/PROTOCOL.md; wire schemas (``schemas.py``, pydantic) are separate from
storage rows.  Layout (as in the FastAPI full-stack template): ``settings.py`` (one
settings object), ``deps.py``, ``schemas.py``, ``errors.py``, ``middleware.py``,
``routes/{lobby,matches,advice,tutorial,ops,pages}.py``, ``ws.py``, ``hub.py`` (the service: one
``room.py`` per live match; ``steps.py`` the one path of every change; ``clock.py``,
``presence.py``, ``botrunner.py``, ``database.py``), ``bus.py`` and ``sync.py`` (Redis,
several nodes), ``metrics.py``.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any
from collections.abc import Callable

from fastapi import FastAPI, WebSocket

from .. import __version__
from ..bots import bot_names, make_bot
from ..bots.greedy import choose_greedy
from ..storage import Store, resolve_url
from ..storage.accounts import AccountStore
from ..tables import TestDecks
from ..tables.timeouts import TimeoutPolicy
from ..tables.tutorial import TUTORIAL_BOT, tutorial_bot
from .accounts import Accounts
from .botrunner import Bots
from .errors import HTTP_STATUS, install_handlers
from .hub import Hub
from .metrics import Metrics
from .middleware import HeadAsGet, LimitMiddleware
from .lobby import Lobby
from .lobbyws import serve_lobby
from .routes import account, account_matches, advice, lobby, matches, open as open_tables, ops, pages, players, tutorial
from .routes.pages import WEB_DIR
from .settings import Settings
from .ws import serve_socket

log = logging.getLogger("gameweave.server")


def make_server_bot(name: str, seed: int | None = None) -> Any:
    """The bot of a match's seat 2 by its stored name: the guide of a guided deal
    (:data:`~gameweave.tables.tutorial.TUTORIAL_BOT`, a scripted bot not offered in the
    lobby) or :func:`~gameweave.bots.make_bot`'s.  Raises :class:`ValueError` for an
    unknown name."""
    if name == TUTORIAL_BOT:
        return tutorial_bot(seed)
    return make_bot(name, seed)


def build_hub(settings: Settings, store: Store, deck_source: Callable[[], tuple[Any, ...]] | None = None) -> Hub:
    """The :class:`Hub` of ``settings`` on ``store``, with what it is given rather than
    imports: the bots of :mod:`gameweave.bots` and the guided deal's guide
    (:func:`make_server_bot`), the timeout policy whose chooser is the greedy bot's; the
    Redis bus when ``settings.redis_url`` is set."""
    bus = None
    if settings.redis_url:
        from .bus import Bus

        bus = Bus(settings.redis_url, settings.redis_prefix, settings.node_id)
    return Hub(store, bot_delay=settings.bot_delay, deck_source=deck_source, bus=bus,
               idle_evict_s=settings.idle_evict_s, bot_lease_s=settings.bot_lease_s,
               presence_timeout_s=settings.presence_timeout_s, presence_sweep_s=settings.presence_sweep_s,
               clock_scale=settings.clock_scale, abandon_after_days=settings.abandon_after_days,
               phrase_interval_s=settings.phrase_interval_s, bots=Bots(bot_names, make_server_bot),
               timeout_policy=TimeoutPolicy(choose_greedy))


def build_accounts(settings: Settings, store: Store, hub: Hub) -> Accounts:
    """The accounts service (issue 20) on ``store``'s database, checking the seats a
    sign-up brings along through ``hub``."""

    async def seat_check(match_id: str, seat: int, token: str) -> bool:
        table, index = await hub.seat_for_token(match_id, token)
        return table is not None and index == seat - 1

    return Accounts(AccountStore(store.engine), timedelta(days=settings.session_idle_days), seat_check=seat_check)


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    bot_delay: float | None = None,
    deck_source: Callable[[], tuple[Any, str]] | None = None,
    *,
    store: Store | None = None,
    settings: Settings | None = None,
    rating_of: Callable[[int, str], Any] | None = None,
    **overrides: Any,
) -> FastAPI:
    """The table server as an ASGI app.

    Args:
        database_url: SQLAlchemy URL (``postgresql+psycopg://…``); default an SQLite file
            ``gameweave.db`` in ``data_dir``.
        data_dir: directory of the default SQLite file (default ``$GAMEWEAVE_DATA`` or
            ``~/.local/share/gameweave``).
        bot_delay: pause before each bot action, in seconds (default 0.6).
        deck_source: ``() -> (deck, salt)`` for every new deal: 40 card ints (R8 order)
            and a hex salt, or ``(deck, salt, test)``; default a cryptographic shuffle
            (:func:`~gameweave.tables.secure_deck`), or the settings' ``test_decks``.
        store: an open :class:`Store` to use instead of ``database_url``/``data_dir``.
        settings: a whole :class:`Settings`; otherwise one is built from the environment
            (``GAMEWEAVE_*``), the arguments above and ``overrides`` (any other field of
            :class:`Settings`: ``redis_url``, ``redis_prefix``, ``node_id``,
            ``http_burst``, ``ws_rate``, ``hello_timeout``, ``idle_evict_s`` …).
        rating_of: ``(account_id, rules) -> float``, the ratings the queue pairs by
            (:mod:`~gameweave.server.lobby`; default the stored Glicko-2 ratings, 1500 before
            any rated deal).

    The database is opened (and migrated, under a lock on PostgreSQL so that nodes may
    start together) at once; Redis is connected at start-up.  ``app.state.hub`` holds the
    live tables, ``app.state.settings`` the settings and ``app.state.database`` says where
    the data lives.
    """
    if settings is None:
        given = {k: v for k, v in (("database_url", database_url), ("data_dir", data_dir),
                                   ("bot_delay", bot_delay)) if v is not None}
        settings = Settings(**given, **overrides)
    if deck_source is None and settings.test_decks is not None:
        deck_source = TestDecks.from_file(settings.test_decks)  # TestDeckError for a bad file
    if store is None:
        store = Store(resolve_url(settings.database_url, settings.data_dir), background_checkpoint=True)
    hub = build_hub(settings, store, deck_source)
    metrics = Metrics(settings.node_id, live_matches=lambda: len(hub.rooms), sockets=hub.socket_count)
    hub.metrics = metrics

    accounts = build_accounts(settings, store, hub)
    meet = hub.sync.lobby_of = Lobby(hub, accounts, rating_of or hub.ratings.store.rating_of,  # the stored ratings
                                     away_s=settings.open_away_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # Redis first; then bot matches left mid-move continue
        await hub.start()
        await meet.start()
        yield
        meet.close()
        await hub.close()
        accounts.close()

    app = FastAPI(
        title="Gameweave table server",
        version=__version__,
        description="Conquian matches between two seats. Protocol: docs/PROTOCOL.md.",
        lifespan=lifespan,
        docs_url=None,  # served by routes/pages.py from local files: the product needs no internet
        redoc_url=None,
    )
    app.state.hub, app.state.settings, app.state.metrics, app.state.accounts = hub, settings, metrics, accounts
    app.state.lobby = meet
    app.state.database = store.description
    app.state.test_decks = deck_source if isinstance(deck_source, TestDecks) else None
    app.add_middleware(LimitMiddleware, burst=settings.http_burst, rate=settings.http_rate,
                       on_refusal=metrics.refusal)
    app.add_middleware(HeadAsGet)
    install_handlers(app, on_refusal=metrics.refusal)
    _add_routes(app, hub, meet, settings)
    return app


def _add_routes(app: FastAPI, hub: Hub, meet: Lobby, settings: Settings) -> None:
    """Every router (a file per resource), the WebSockets and the static files."""
    for routes in (lobby, matches, advice, tutorial, account, account_matches, open_tables, players, ops, pages):
        app.include_router(routes.router)
    _add_sockets(app, hub, meet, settings)
    pages.mount_static(app)


def _add_sockets(app: FastAPI, hub: Hub, meet: Lobby, settings: Settings) -> None:
    """The WebSockets: the lobby feed first (``/ws/lobby`` is no match id), then play."""

    @app.websocket("/ws/lobby")
    async def lobby_feed(ws: WebSocket) -> None:
        """The lobby feed: open tables and queue news (PROTOCOL §3.17)."""
        await ws.accept()
        await serve_lobby(meet, ws)

    @app.websocket("/ws/{match_id:path}")  # any other address under /ws/: unknown_match (PROTOCOL §1)
    async def play(ws: WebSocket, match_id: str) -> None:
        """One seat's play socket (PROTOCOL §4)."""
        await ws.accept()
        await serve_socket(hub, ws, match_id, settings)


__all__ = ["HTTP_STATUS", "WEB_DIR", "create_app"]

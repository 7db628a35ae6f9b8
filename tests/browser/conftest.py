"""Browser tests: a table server in this process and Debian's Chromium under Playwright.

The server runs under ``uvicorn.Server`` in a background thread on a free 127.0.0.1
port, with a temporary SQLite database, no bot delay and a deck source the tests can
load with fixed deck orders (R8) to set up forcing situations.

If Chromium or Playwright is missing the tests are skipped with the reason — unless
``GAMEWEAVE_REQUIRE_BROWSER=1`` (CI sets it), where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit
from collections.abc import Iterator

import pytest

CHROMIUM = os.environ.get("GAMEWEAVE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


def _unavailable(reason: str) -> None:
    if os.environ.get("GAMEWEAVE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests cannot run: {reason} (GAMEWEAVE_REQUIRE_BROWSER=1)")
    pytest.skip(f"browser tests skipped: {reason}")


class DeckQueue:
    """A ``deck_source`` for the server, as ``gameweave serve --test-decks FILE`` deals:
    fixed deck orders first, in order, each marked as a test deal (``(deck, salt, True)``:
    the match says ``test: true`` and claims no fair shuffle), then cryptographic
    shuffles."""

    def __init__(self) -> None:
        self.queue: list[tuple[tuple[int, ...], str]] = []
        self.lock = threading.Lock()

    def push(self, deck: tuple[int, ...], salt: str = "0123456789abcdef0123456789abcdef") -> None:
        with self.lock:
            self.queue.append((tuple(deck), salt))

    def __call__(self) -> tuple[tuple[int, ...], str, bool]:
        from gameweave.tables import secure_deck

        with self.lock:
            if self.queue:
                deck, salt = self.queue.pop(0)
                return deck, salt, True
        deck, salt = secure_deck()
        return tuple(deck), salt, False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A running table server: ``url`` (http://127.0.0.1:PORT) and ``decks``."""

    def __init__(self, url: str, decks: DeckQueue, app) -> None:
        self.url = url
        self.decks = decks
        self.app = app


def _serve(data: Path, **overrides) -> Iterator[LiveServer]:
    """Run a table server on a free port until the generator is closed."""
    import uvicorn

    from gameweave.server import create_app

    decks = DeckQueue()
    app = create_app(database_url=f"sqlite:///{data / 'gameweave.db'}", bot_delay=0.0, deck_source=decks, **overrides)
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", ws_ping_interval=None)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="gameweave-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the table server did not start")
        time.sleep(0.05)
    yield LiveServer(f"http://127.0.0.1:{port}", decks, app)
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[LiveServer]:
    """The table server in a background thread (session-wide; SQLite in a temp dir)."""
    yield from _serve(tmp_path_factory.mktemp("server"))


PEOPLE_CLOCK_SCALE = 0.1
"""The people server's clocks run 10x fast: the 60 s clock is 6 s (+ a 3 s bank)."""

PEOPLE_HEARTBEAT_MS = 1000
"""The people pages' heartbeat (localStorage gameweave.heartbeat_ms), for a presence
timeout of 3 s on the people server."""


@pytest.fixture(scope="session")
def people_server(tmp_path_factory) -> Iterator[LiveServer]:
    """A second server for the tests of playing with people (issue 10): fast clocks
    (settings clock_scale), presence timing out after 3 s of silence, swept every 0.5 s."""
    yield from _serve(tmp_path_factory.mktemp("people"), clock_scale=PEOPLE_CLOCK_SCALE,
                      presence_timeout_s=3.0, presence_sweep_s=0.5)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (never downloads a browser)."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - depends on the environment
        _unavailable(f"the playwright package is not installed ({exc})")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as exc:
        pw.stop()
        _unavailable(f"Chromium did not start: {exc}")
    yield b
    b.close()
    pw.stop()


class PageWatch:
    """Collects console errors and uncaught page errors of every page it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page) -> None:
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text} at {m.location.get('url')}")
                if m.type == "error" and not _refused_sign_in(m.text) and not _page_not_found(m) else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))


def _refused_sign_in(text: str) -> bool:
    """Chromium logs every 4xx answer as a console error; a refused sign-in (401
    bad_credentials, issue 20) is an answer the account page words, not a page error."""
    return "status of 401 (Unauthorized)" in text


def _page_not_found(message) -> bool:
    """Chromium logs the 404 of a page address naming no match or no player (the page
    itself, which then says "no such match" in words) as a console error: an answer,
    not a page error."""
    path = urlsplit(message.location.get("url") or "").path
    return "status of 404" in message.text and path.startswith(("/table/", "/player/", "/replay/"))


def _contexts(browser, url: str, init_script: str):
    """Yield ``make(viewport=None, **options)`` opening browser contexts on ``url`` with
    ``init_script`` run first in every page; close them at the end and fail the test on
    any console error or page error (:class:`PageWatch`)."""
    watch = PageWatch()
    contexts = []

    def make(viewport=None, **options):
        # options: more browser-context options, e.g. has_touch=True, is_mobile=True (a phone)
        ctx = browser.new_context(viewport=viewport or DESKTOP, base_url=url, **options)
        ctx.add_init_script(init_script)
        ctx.set_default_timeout(15000)
        ctx.on("page", watch.watch)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()
    assert not watch.errors, "errors in the page:\n" + "\n".join(watch.errors)


@pytest.fixture
def new_context(browser, live_server):
    """Make browser contexts (separate browsers, as two people have); bot moves are shown
    without the human pause (localStorage gameweave.pace = 0).  Fails the test if any
    page logged a console error."""
    yield from _contexts(browser, live_server.url, "try { localStorage.setItem('gameweave.pace', '0'); } catch (e) {}")


@pytest.fixture
def people_context(browser, people_server):
    """Browser contexts on the people server (``people_context(locale="es-MX")``): bot
    pace 0, a heartbeat every second; fails the test on any console error."""
    yield from _contexts(browser, people_server.url,
                         "try { localStorage.setItem('gameweave.pace', '0');"
                         f" localStorage.setItem('gameweave.heartbeat_ms', '{PEOPLE_HEARTBEAT_MS}'); }} catch (e) {{}}")

"""Shared fixtures (generic; the browser tests keep theirs in tests/browser/conftest.py).

Long runs: tests marked ``long`` (conformance over thousands of deals, arenas, the
Redis outage runs: every test outside tests/browser that takes over 10 s alone) are left
out of a plain ``pytest``, for every local edit; ``pytest --long`` runs them too — the
README's whole-suite command and ``.ci/run`` do.

Deals: ``tests/deals.py`` is the one deal driver (deal, walk every decision, play);
``rules_helpers.py`` the rules tests' card and checked-play helpers; ``worlds.py`` the
states with the same view and other hidden cards (R21); ``rules_reference.py`` the move
generator written from the rules.

Language: every test starts in an English locale (``LANG=C.UTF-8``, no ``LANGUAGE`` or
``LC_*``), so output the tests pin does not follow the machine's locale; a test that
checks the locale sets its own.

Databases: ``db_url`` runs a test on SQLite always, and also on PostgreSQL when
``GAMEWEAVE_TEST_DATABASE_URL`` is set (CI sets it).  Each test worker gets its own fresh
PostgreSQL database (``gw_test_<hex>``, dropped at the end), so parallel workers never
collide.  If the variable is set but the server is unreachable, the tests using it
**fail** (the fixture raises); they are never skipped.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from collections.abc import Iterator

import pytest
from wsclient import WsSeat

PG_ENV = "GAMEWEAVE_TEST_DATABASE_URL"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the tests marked long (the README's whole-suite command and CI pass it)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--long``, deselect the tests marked ``long`` (they are counted as deselected)."""
    if config.getoption("--long"):
        return
    long = [item for item in items if item.get_closest_marker("long") is not None]
    if long:
        config.hook.pytest_deselected(items=long)
        items[:] = [item for item in items if item.get_closest_marker("long") is None]


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get(PG_ENV) else ["sqlite"]


@pytest.fixture(scope="session")
def pg_database_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test worker; dropped afterwards.

    Raises (so the test fails) if ``GAMEWEAVE_TEST_DATABASE_URL`` is unset or the server
    cannot be reached.
    """
    from pg import fresh_database

    base = os.environ.get(PG_ENV)
    if not base:
        raise RuntimeError(f"{PG_ENV} is not set")
    with fresh_database(base) as url:
        yield url


@pytest.fixture(params=_backends())
def db_url(request, tmp_path: Path) -> str:
    """A database URL: an SQLite file in ``tmp_path``, or (second run) this worker's
    PostgreSQL database.  Matches have unique random ids, so tests sharing the
    PostgreSQL database do not see each other's matches."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gameweave-test.db'}"
    return request.getfixturevalue("pg_database_url")


# ---------------------------------------------------------------------------- table server
@pytest.fixture
def table_server():
    """Factory: ``table_server(database_url, decks=[...], bot_delay=0)`` starts the app in
    a Starlette TestClient (lifespan on) and returns the client; ``decks`` is a list of
    deck orders (40 ints) used for the match's deals in turn (then secure shuffles).
    Every client started is closed at the end of the test."""
    from fastapi.testclient import TestClient

    from gameweave.server import create_app
    from gameweave.tables import secure_deck

    started = []

    def make(database_url: str, decks=None, bot_delay: float = 0.0, **kw):
        queue = list(decks or [])

        def source():
            if queue:
                return tuple(queue.pop(0)), uuid.uuid4().hex
            return secure_deck()

        app = create_app(database_url=database_url, bot_delay=bot_delay, deck_source=source, **kw)
        client = TestClient(app)
        client.__enter__()
        started.append(client)
        return client

    yield make
    for c in started:
        try:
            c.__exit__(None, None, None)
        except Exception:
            pass


@pytest.fixture
def friend_match():
    """Function ``friend_match(client, **body)``: create a friend match and join it;
    returns ``(seat-1 response, seat-2 response)``."""
    return _friend_match


def _friend_match(client, **body) -> tuple[dict, dict]:
    r = client.post("/api/matches", json={"opponent": "friend", **body})
    assert r.status_code == 201, r.text
    m = r.json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    r2 = client.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite})
    assert r2.status_code == 200, r2.text
    return m, r2.json()


@pytest.fixture
def ws_seat():
    """Factory ``ws_seat(client, match_id, seat, token)`` -> :class:`WsSeat` (closed at the end)."""
    opened = []

    def make(client, match_id, seat, token):
        s = WsSeat(client, match_id, seat, token)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


@pytest.fixture(autouse=True)
def _asyncio_run_beside_playwright(monkeypatch):
    """Playwright's sync API (the session-wide ``browser`` fixture) keeps an event loop
    running in the worker's main thread for the rest of the session, and ``asyncio.run``
    then refuses to start.  Tests that call ``asyncio.run`` after a browser test on the
    same xdist worker run their coroutine in a fresh thread instead."""
    import asyncio
    import threading

    original = asyncio.run

    def run(main, **kw):
        if asyncio._get_running_loop() is None:
            return original(main, **kw)
        box: dict = {}

        def target() -> None:
            try:
                box["result"] = original(main, **kw)
            except BaseException as exc:  # re-raised in the test's thread
                box["error"] = exc

        t = threading.Thread(target=target)
        t.start()
        t.join()
        if "error" in box:
            raise box["error"]
        return box.get("result")

    monkeypatch.setattr(asyncio, "run", run)

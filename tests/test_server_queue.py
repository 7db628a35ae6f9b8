"""The quick-match queue's guards against meeting nobody real (PROTOCOL §3.16): two
tabs of one browser are never paired with each other (the page's browser key, kept as
a hash with the entry), and an entry whose page closed leaves the queue promptly.  The
queue's ordinary cases are tests/test_server_open.py (whose helpers these use); the
several-node cases tests/test_server_nodes_lobby.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from gameweave.server import create_app
from gameweave.server.lobby import browser_hash
from gameweave.server.matchmaking import can_meet, plan
from gameweave.storage.schema import open_tables, queue_entries
from test_server_open import _entry, _post

KEY = "b7f3c1d0e9a8465f8f7e6d5c4b3a2910"
"""A browser key as the page makes one (16 random bytes, hex)."""


@pytest.fixture
def client(db_url):
    """One node's app on an empty queue (PostgreSQL is shared by a worker's tests)."""
    app = create_app(database_url=db_url, bot_delay=0)
    with app.state.hub.store.engine.begin() as conn:
        conn.execute(open_tables.delete())
        conn.execute(queue_entries.delete())
    with TestClient(app) as c:
        yield c


def test_two_entries_of_one_browser_never_meet_any_other_pair_still_does():
    now = datetime(2026, 1, 1, tzinfo=UTC)
    same = browser_hash(KEY)
    assert not can_meet(_entry(1, 1500, 5, browser=same), _entry(2, 1500, 5, browser=same), now)
    assert can_meet(_entry(1, 1500, 5, browser=same), _entry(2, 1500, 5, browser=browser_hash("other")), now)
    assert can_meet(_entry(1, 1500, 5), _entry(2, 1500, 5), now)  # clients that send no key meet as before
    # the oldest passes over its own browser's other tab for the next one
    a, b, c = _entry(1, 1500, 20, browser=same), _entry(2, 1500, 10, browser=same), _entry(3, 1600, 5)
    assert [(x.id, y.id) for x, y in plan([a, b, c], now)] == [(1, 3)]


def test_two_tabs_of_one_guest_browser_are_not_paired_and_the_key_is_kept_only_hashed(client):
    lobby = client.app.state.lobby
    one = _post(client, "/api/queue", {"name": "Ana", "browser": KEY})
    two = _post(client, "/api/queue", {"name": "Ana", "browser": KEY})
    assert one.status_code == two.status_code == 201
    client.portal.call(lobby.pair_once)
    tickets = [r.json()["ticket"] for r in (one, two)]
    assert [_post(client, "/api/queue/status", {"ticket": t}).json()["status"] for t in tickets] == ["waiting"] * 2
    with lobby.store.engine.connect() as conn:
        kept = [r.browser_sha256 for r in conn.execute(queue_entries.select()).all()]
    assert kept == [browser_hash(KEY)] * 2 and KEY not in str(kept)
    bea = _post(client, "/api/queue", {"name": "Bea", "browser": "another browser's key"}).json()
    client.portal.call(lobby.pair_once)
    got = [_post(client, "/api/queue/status", {"ticket": t}).json() for t in (*tickets, bea["ticket"])]
    assert [g["status"] for g in got] == ["paired", "waiting", "paired"]  # the oldest meets Bea, not its own tab
    assert got[0]["match_id"] == got[2]["match_id"] and (got[0]["seat"], got[2]["seat"]) == (1, 2)


def test_a_browser_key_is_optional_and_checked_like_every_field(client):
    assert _post(client, "/api/queue", {"browser": None}).status_code == 201
    for bad in ("", "x" * 129, 7):
        r = _post(client, "/api/queue", {"browser": bad})
        assert r.status_code == 422, (bad, r.text)

"""The quick-match queue's guards against meeting nobody real (PROTOCOL §3.16): two
tabs of one browser are never paired with each other (the page's browser key, kept as
a hash with the entry), and an entry whose page closed leaves the queue promptly.  The
queue's ordinary cases are tests/test_server_open.py (whose helpers these use); the
several-node cases tests/test_server_nodes_lobby.py."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from gameweave.server import create_app
from gameweave.server.lobby import FRESH_S, LEFT_S, browser_hash, ticket_hash
from gameweave.server.matchmaking import can_meet, plan
from gameweave.storage.schema import open_tables, queue_entries
from test_server_open import _entry, _post

KEY = "b7f3c1d0e9a8465f8f7e6d5c4b3a2910"
"""A browser key as the page makes one (16 random bytes, hex)."""

PING_S = int(re.search(r"const PING_MS = (\d+);", (Path(__file__).parents[1] / "src/gameweave/web/queue.js")
                       .read_text()).group(1)) / 1000
"""The page's ping period while queued (web/queue.js ``PING_MS``)."""


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


# ---------------------------------------------------------------------------- a closed page leaves
def _row(client, ticket):
    return client.app.state.lobby.store.entry(ticket_hash(ticket), touch=False)


def _left_at(client, ticket):
    """The entry's ``left_at`` once the closed socket's news reached the database (it is
    written by a task of its own, a moment after the socket closed)."""
    deadline = time.monotonic() + 3
    while True:
        with client.app.state.lobby.store.engine.connect() as conn:
            got = conn.execute(select(queue_entries.c.left_at).where(
                queue_entries.c.ticket_sha256 == ticket_hash(ticket))).scalar()
        if got is not None or time.monotonic() > deadline:
            return got
        time.sleep(0.02)


def _follow(ws, ticket):
    ws.receive_json()  # the open tables
    ws.send_json({"type": "follow", "ticket": ticket})
    assert ws.receive_json()["status"] == "waiting"


def test_a_closed_lobby_socket_is_no_opponent_and_a_page_that_comes_back_keeps_its_place(client):
    lobby = client.app.state.lobby
    ana = _post(client, "/api/queue", {"name": "Ana", "browser": "ana's"}).json()
    with client.websocket_connect("/ws/lobby") as ws:
        _follow(ws, ana["ticket"])
    assert _left_at(client, ana["ticket"]) is not None  # its page was closed (or reloads)
    bea = _post(client, "/api/queue", {"name": "Bea", "browser": "bea's"}).json()
    client.portal.call(lobby.pair_once)
    assert [_row(client, t["ticket"]).status for t in (ana, bea)] == ["waiting", "waiting"]  # no ghost for Bea
    with client.websocket_connect("/ws/lobby") as ws:  # the reload: the same ticket, followed again
        _follow(ws, ana["ticket"])
        client.portal.call(lobby.pair_once)
        told = ws.receive_json()
    assert told["status"] == "paired" and told["seat"] == 1  # its place (the oldest) kept
    assert _row(client, bea["ticket"]).status == "paired"


def test_an_entry_left_for_left_s_is_gone_one_asked_for_meanwhile_stays(client):
    from sqlalchemy import update

    lobby = client.app.state.lobby
    gone, back = (_post(client, "/api/queue", {"name": n, "browser": n}).json() for n in ("Ana", "Bea"))
    for entry in (gone, back):
        with client.websocket_connect("/ws/lobby") as ws:
            _follow(ws, entry["ticket"])
        assert _left_at(client, entry["ticket"]) is not None
    with lobby.store.engine.begin() as conn:  # both left a moment longer ago than LEFT_S
        conn.execute(update(queue_entries).values(left_at=datetime.now(UTC) - timedelta(seconds=LEFT_S + 1)))
    assert _post(client, "/api/queue/status", {"ticket": back["ticket"]}).json()["status"] == "waiting"  # heard
    client.portal.call(lobby.pair_once)
    assert _row(client, gone["ticket"]).status == "gone"
    assert _row(client, back["ticket"]).status == "waiting"  # and alone: nobody to meet


def test_one_of_two_sockets_following_an_entry_closing_leaves_it_in_the_queue(client):
    """A duplicated tab follows the same ticket: closing one of the two sockets is not
    the player leaving."""
    ana = _post(client, "/api/queue", {"name": "Ana"}).json()
    with client.websocket_connect("/ws/lobby") as stays:
        _follow(stays, ana["ticket"])
        with client.websocket_connect("/ws/lobby") as closes:
            _follow(closes, ana["ticket"])
        stays.send_json({"type": "ping"})
        assert stays.receive_json()["status"] == "waiting"
        assert _row(client, ana["ticket"]).status == "waiting"
        with client.app.state.lobby.store.engine.connect() as conn:
            assert conn.execute(select(queue_entries.c.left_at)).scalar() is None


def test_fresh_s_is_what_the_pages_keep_alive_allows():
    """Two of the page's 5 s pings missed and a margin for a slow phone, no more; a left
    page has longer than one ping to come back."""
    assert FRESH_S == 12.0 and 2 * PING_S < FRESH_S <= 2 * PING_S + 3 and LEFT_S > PING_S


def test_an_entry_not_heard_from_for_fresh_s_is_not_paired(client):
    from sqlalchemy import update

    lobby = client.app.state.lobby
    ana, bea = (_post(client, "/api/queue", {"name": n, "browser": n}).json() for n in ("Ana", "Bea"))
    with lobby.store.engine.begin() as conn:  # Ana's page went silent 13 s ago
        conn.execute(update(queue_entries).where(queue_entries.c.ticket_sha256 == ticket_hash(ana["ticket"])).values(
            seen_at=datetime.now(UTC) - timedelta(seconds=FRESH_S + 1)))
    client.portal.call(lobby.pair_once)
    assert [_row(client, t["ticket"]).status for t in (ana, bea)] == ["waiting", "waiting"]

"""Open tables, the quick-match queue and the lobby feed on one node (issue 20 item 3;
PROTOCOL §3.15-§3.17).  The several-node cases (two nodes racing for one seat, a node
killed mid-queue) are tests/test_server_nodes_lobby.py."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from gameweave.accounts import Passwords, username_key
from gameweave.server import create_app
from gameweave.server.lobby_schemas import LobbyFrame
from gameweave.server.matchmaking import can_meet, plan, window
from gameweave.storage.lobby import LobbyStore
from gameweave.storage.schema import open_tables, queue_entries
from gameweave.tables import hash_token

ORIGIN = {"Origin": "http://testserver"}
LIGHT = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@pytest.fixture
def app(db_url):
    ratings = {}

    async def rating_of(account_id: int, rules: str) -> float:
        return ratings.get(account_id, 1500.0)

    app = create_app(database_url=db_url, bot_delay=0, rating_of=rating_of)
    with app.state.hub.store.engine.begin() as conn:  # PostgreSQL is shared by the tests of a worker
        conn.execute(open_tables.delete())
        conn.execute(queue_entries.delete())
    app.state.accounts.passwords = LIGHT
    app.state.ratings = ratings
    return app


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def _post(c, path, body=None, headers=None):
    return c.post(path, json=body if body is not None else {}, headers={**ORIGIN, **(headers or {})})


def _account(app, name: str) -> TestClient:
    """A second browser (its own cookies) signed up as ``name`` and a few random
    characters (``.username``, ``.account_id``)."""
    c = TestClient(app)
    c.username = f"{name}{uuid.uuid4().hex[:6]}"
    r = _post(c, "/api/account/sign-up", {"username": c.username, "password": "tres tigres tristes"})
    assert r.status_code == 201, r.text
    c.account_id = app.state.accounts.store.by_key(username_key(c.username)).id
    return c


FRAMES = TypeAdapter(LobbyFrame)


def _recv(ws) -> dict:
    """The next lobby frame, held to its documented model (PROTOCOL §3.17)."""
    frame = ws.receive_json()
    FRAMES.validate_python(frame)
    return frame


def _view(c, mid, token):
    r = c.get(f"/api/matches/{mid}/view", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------------------- who meets whom
def _entry(i, rating, waited, rules="gameweave", clock=None, rated=False, account=None, now=None, browser=None):
    now = now or datetime(2026, 1, 1, tzinfo=UTC)
    return SimpleNamespace(id=i, rules=rules, clock=clock, rated=rated, account_id=account, rating=rating,
                           created_at=now - timedelta(seconds=waited), browser=browser)


def test_the_window_widens_from_100_to_400_over_30_s_and_the_oldest_takes_the_nearest():
    assert [window(s) for s in (0, 15, 30, 90)] == [100, 250, 400, 400]
    now = datetime(2026, 1, 1, tzinfo=UTC)
    # 1500 and 1700 (gap 200): not at once, yes once both waited 10+ s (window 200)
    assert not can_meet(_entry(1, 1500, 0), _entry(2, 1700, 0), now)
    assert not can_meet(_entry(1, 1500, 30), _entry(2, 1700, 0), now)  # the newcomer's window is still 100
    assert can_meet(_entry(1, 1500, 10), _entry(2, 1700, 10), now)
    # the oldest chooses first and takes the nearest rating, not the next in line
    a, b, c = _entry(1, 1500, 20), _entry(2, 1580, 10), _entry(3, 1510, 5)
    assert [(x.id, y.id) for x, y in plan([a, b, c], now)] == [(1, 3)]
    # never across profiles, clocks, rated/casual, nor one account with itself
    for other in (_entry(2, 1500, 5, rules="classic"), _entry(2, 1500, 5, clock=60),
                  _entry(2, 1500, 5, rated=True), _entry(2, 1500, 5, account=7)):
        assert plan([_entry(1, 1500, 5, account=7), other], now) == []


# ---------------------------------------------------------------------------- open tables
def test_an_open_table_is_listed_live_and_the_first_to_sit_takes_seat_2_once(client):
    with client.websocket_connect("/ws/lobby") as ws:
        assert _recv(ws) == {"type": "open_tables", "tables": []}
        r = _post(client, "/api/open-tables", {"rules": "classic", "clock": 60, "name": "Ana"})
        assert r.status_code == 201, r.text
        mid, tok1 = r.json()["match_id"], r.json()["token"]
        added = _recv(ws)
        assert added["type"] == "open_table" and added["table"]["match_id"] == mid
        assert added["table"] == {"match_id": mid, "rules": "classic", "format": added["table"]["format"],
                                  "target": added["table"]["target"], "clock": 60, "rated": False, "name": "Ana",
                                  "rating": None, "created_at": added["table"]["created_at"]}
        assert [t["match_id"] for t in client.get("/api/open-tables").json()["tables"]] == [mid]
        m = _view(client, mid, tok1)["match"]
        assert m["open_table"] is True and m["invite_url"] is None  # seat 2 by sitting, never by an invite
        # no invite opens it: the invite was cleared
        assert _post(client, f"/api/matches/{mid}/join", {"invite": ""}).json()["error"]["code"] == "bad_invite"
        sat = _post(client, f"/api/open-tables/{mid}/sit", {"name": "Bea"})
        assert sat.status_code == 200 and sat.json()["seated"] is True and sat.json()["seat"] == 2, sat.text
        assert _recv(ws) == {"type": "open_table_gone", "match_id": mid, "reason": "taken"}
        late = _post(client, f"/api/open-tables/{mid}/sit", {"name": "Cy"})
        # the loser of the race gets an answer, not an error
        assert late.status_code == 200 and late.json() == {"seated": False, "code": "seat_taken", "match_id": mid,
                                                           "seat": None, "token": None, "table_url": None,
                                                           "rated": False}
        assert client.get("/api/open-tables").json()["tables"] == []
    v2 = _view(client, mid, sat.json()["token"])
    assert v2["seat"] == 2 and v2["match"]["players"]["2"]["name"] == "Bea"
    assert _view(client, mid, tok1)["match"]["open_table"] is False


def test_sitting_is_atomic_in_the_database_one_of_eight_at_once_sits(client, app):
    mid = _post(client, "/api/open-tables", {}).json()["match_id"]
    store = LobbyStore(app.state.hub.store)
    results, start = [], threading.Barrier(8)

    def sit(i):
        start.wait()
        results.append(store.take_open(mid, hash_token(f"t{i}"), f"p{i}"))

    threads = [threading.Thread(target=sit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok"] + ["taken"] * 7
    assert store.open_row(mid).status == "taken"


def test_rated_tables_need_accounts_on_both_sides_and_the_seats_join_the_accounts(client, app):
    r = _post(client, "/api/open-tables", {"rated": True})
    assert r.status_code == 401 and r.json()["error"]["code"] == "account_needed"
    ana, bea = _account(app, "ana"), _account(app, "bea")
    app.state.ratings[ana.account_id] = 1720.4
    r = _post(ana, "/api/open-tables", {"rated": True})
    assert r.status_code == 201 and r.json()["rated"] is True, r.text
    mid = r.json()["match_id"]
    row = client.get("/api/open-tables").json()["tables"][0]
    assert row["rated"] is True and row["name"] == ana.username and row["rating"] == 1720
    guest = _post(client, f"/api/open-tables/{mid}/sit", {})
    assert guest.status_code == 401 and guest.json()["error"]["code"] == "account_needed"
    own = _post(ana, f"/api/open-tables/{mid}/sit", {})
    assert own.status_code == 409 and own.json()["error"]["code"] == "own_table"
    sat = _post(bea, f"/api/open-tables/{mid}/sit", {})
    assert sat.status_code == 200 and sat.json()["seated"] is True and sat.json()["rated"] is True
    assert {"match_id": mid, "seat": 1} in ana.get("/api/account").json()["seats"]
    assert {"match_id": mid, "seat": 2} in bea.get("/api/account").json()["seats"]
    assert _view(bea, mid, sat.json()["token"])["match"]["rated"] is True


def test_a_cancelled_table_leaves_every_list_and_its_match_closes(client):
    r = _post(client, "/api/open-tables", {}).json()
    mid, tok = r["match_id"], r["token"]
    with client.websocket_connect("/ws/lobby") as ws:
        assert [t["match_id"] for t in _recv(ws)["tables"]] == [mid]
        bad = client.post(f"/api/open-tables/{mid}/cancel", headers={**ORIGIN, "Authorization": "Bearer nope"})
        assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_token"
        ok = client.post(f"/api/open-tables/{mid}/cancel", headers={**ORIGIN, "Authorization": f"Bearer {tok}"})
        assert ok.json() == {"withdrawn": True}
        assert _recv(ws) == {"type": "open_table_gone", "match_id": mid, "reason": "cancelled"}
    assert _view(client, mid, tok)["match"]["abandoned"] is True
    gone = _post(client, f"/api/open-tables/{mid}/sit", {})
    assert gone.status_code == 200 and gone.json()["seated"] is False and gone.json()["code"] == "table_gone"
    unknown = _post(client, "/api/open-tables/0123456789abcdef/sit", {})
    assert unknown.json()["seated"] is False and unknown.json()["code"] == "table_gone"


def test_a_table_whose_creator_is_away_for_long_is_withdrawn_one_at_the_table_stays(client, app):
    away = _post(client, "/api/open-tables", {}).json()
    here = _post(client, "/api/open-tables", {}).json()
    lobby = app.state.lobby
    with client.websocket_connect(f"/ws/{here['match_id']}") as seat:
        # the creator sits at its table before the away time is cut (the lobby's own sweep
        # runs too: a table left unattended meanwhile would be withdrawn by it)
        seat.send_json({"type": "hello", "seat": 1, "token": here["token"]})
        assert seat.receive_json()["type"] == "state"
        lobby.away_s = 0.5
        time.sleep(0.8)
        client.portal.call(lobby.sweep)  # the creator at the table is seen; the other is away
        listed = [t["match_id"] for t in client.get("/api/open-tables").json()["tables"]]
        assert listed == [here["match_id"]]
        assert _view(client, away["match_id"], away["token"])["match"]["abandoned"] is True
        assert LobbyStore(app.state.hub.store).open_row(away["match_id"]).status == "left"


def test_open_tables_are_limited_per_address_and_refused_across_origins(client):
    for _ in range(3):
        assert _post(client, "/api/open-tables", {}).status_code == 201
    r = _post(client, "/api/open-tables", {})
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_tables"
    evil = client.post("/api/open-tables", json={}, headers={"Origin": "http://127.0.0.1:9999"})
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "cross_origin"
    assert len(client.get("/api/open-tables").json()["tables"]) == 3


def test_a_missed_withdrawal_is_told_with_its_reason_when_the_list_is_checked(client):
    """A node that missed a table's event (Redis away, another node withdrew it) learns it
    at its next check against the database, and tells its sockets why the table left, as
    stored (``left``, ``cancelled``, ``taken``), not one reason for all."""
    lobby = client.app.state.lobby
    made = {why: _post(client, "/api/open-tables", {}).json()["match_id"] for why in ("left", "cancelled")}
    with client.websocket_connect("/ws/lobby") as ws:
        assert sorted(t["match_id"] for t in _recv(ws)["tables"]) == sorted(made.values())
        for why, mid in made.items():  # withdrawn behind this node's back: no event
            assert client.portal.call(lobby.db.run, lobby.store.close_open, mid, why)
        client.portal.call(lobby.refresh)
        told = {f["match_id"]: f["reason"] for f in (_recv(ws), _recv(ws))}
    assert told == {mid: why for why, mid in made.items()}


# ---------------------------------------------------------------------------- the queue
def test_two_guests_queue_are_paired_once_told_at_once_and_land_at_one_table(client):
    with client.websocket_connect("/ws/lobby") as ws:
        _recv(ws)
        a = _post(client, "/api/queue", {"clock": 30, "rated": True, "name": "Ana"})
        assert a.status_code == 201 and a.json()["status"] == "waiting" and a.json()["rated"] is False  # a guest
        ws.send_json({"type": "follow", "ticket": a.json()["ticket"]})
        assert _recv(ws)["status"] == "waiting"
        b = _post(client, "/api/queue", {"clock": 30, "name": "Bea"}).json()
        told = _recv(ws)
        assert told["type"] == "queue" and told["status"] == "paired" and told["seat"] == 1
    sb = _post(client, "/api/queue/status", {"ticket": b["ticket"]}).json()
    assert sb["status"] == "paired" and sb["match_id"] == told["match_id"] and sb["seat"] == 2
    v1, v2 = _view(client, told["match_id"], told["token"]), _view(client, sb["match_id"], sb["token"])
    assert v1["seat"] == 1 and v2["seat"] == 2 and v1["match"]["rated"] is False
    assert [v1["match"]["players"][s]["name"] for s in ("1", "2")] == ["Ana", "Bea"]
    assert v1["match"]["clock"] is not None and v1["match"]["open_table"] is False


def test_a_paired_entry_keeps_its_seat_token_only_for_paired_keep_s(client):
    """The seat token waits in the queue, in the clear, only while its player may come
    for it: the sweep keeps it for PAIRED_KEEP_S after pairing, then clears it (the
    status then answers paired, with no token)."""
    from sqlalchemy import update

    from gameweave.server.lobby import PAIRED_KEEP_S, ticket_hash

    lobby = client.app.state.lobby
    a, b = (_post(client, "/api/queue", {"name": n}).json() for n in ("Ana", "Bea"))
    client.portal.call(lobby.pair_once)
    client.portal.call(lobby.sweep)
    got = [_post(client, "/api/queue/status", {"ticket": t["ticket"]}).json() for t in (a, b)]
    assert all(g["status"] == "paired" and g["token"] for g in got)
    store = lobby.store
    with store.engine.begin() as conn:  # paired a moment longer ago than the token is kept
        conn.execute(update(queue_entries).where(queue_entries.c.ticket_sha256 == ticket_hash(a["ticket"])).values(
            seen_at=datetime.now(UTC) - timedelta(seconds=PAIRED_KEEP_S + 1)))
    client.portal.call(lobby.sweep)
    late, fresh = (_post(client, "/api/queue/status", {"ticket": t["ticket"]}).json() for t in (a, b))
    assert late["status"] == "paired" and late["match_id"] == got[0]["match_id"] and late["token"] is None
    assert fresh["token"] == got[1]["token"]  # the other one's time is not up
    with store.engine.connect() as conn:
        tokens = [r.token for r in conn.execute(queue_entries.select()).all()]
    assert got[0]["token"] not in tokens and got[1]["token"] in tokens


def test_cancel_leaves_the_queue_and_tickets_are_checked(client):
    a = _post(client, "/api/queue", {}).json()
    left = _post(client, "/api/queue/cancel", {"ticket": a["ticket"]}).json()
    assert left["status"] == "cancelled"
    _post(client, "/api/queue", {})
    client.portal.call(client.app.state.lobby.pair_once)
    assert _post(client, "/api/queue/status", {"ticket": a["ticket"]}).json()["status"] == "cancelled"
    r = _post(client, "/api/queue/status", {"ticket": "x" * 20})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_ticket"
    assert _post(client, "/api/queue", {"rules": "nope"}).status_code == 422


def test_signed_in_players_queue_rated_meet_only_each_other_and_the_seats_join_the_accounts(client, app):
    ana, bea = _account(app, "ana"), _account(app, "bea")
    guest = _post(client, "/api/queue", {}).json()
    a = _post(ana, "/api/queue", {}).json()
    assert a["rated"] is True
    again = _post(ana, "/api/queue", {})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_queued"
    client.portal.call(app.state.lobby.pair_once)
    assert _post(ana, "/api/queue/status", {"ticket": a["ticket"]}).json()["status"] == "waiting"  # not the guest
    b = _post(bea, "/api/queue", {}).json()
    client.portal.call(app.state.lobby.pair_once)
    sa = _post(ana, "/api/queue/status", {"ticket": a["ticket"]}).json()
    sb = _post(bea, "/api/queue/status", {"ticket": b["ticket"]}).json()
    assert sa["status"] == sb["status"] == "paired" and sa["match_id"] == sb["match_id"]
    assert _view(ana, sa["match_id"], sa["token"])["match"]["rated"] is True
    assert {"match_id": sa["match_id"], "seat": sa["seat"]} in ana.get("/api/account").json()["seats"]
    assert {"match_id": sb["match_id"], "seat": sb["seat"]} in bea.get("/api/account").json()["seats"]
    assert _post(client, "/api/queue/status", {"ticket": guest["ticket"]}).json()["status"] == "waiting"


@pytest.mark.parametrize("frame", [{"type": "ping", "x": 1}, {"type": "follow"}, {"type": "follow", "ticket": 5},
                                   {"type": "follow", "ticket": "t", "seat": 1}, {"type": 7}])
def test_the_lobby_socket_refuses_unknown_fields_and_a_ticket_that_is_no_string_as_malformed(client, frame):
    """PROTOCOL §3.17: as on a seat's socket, a field the frame does not have or a
    wrongly typed ticket is ``malformed`` (``unknown_ticket`` is for a string this server
    does not know)."""
    with client.websocket_connect("/ws/lobby") as ws:
        _recv(ws)
        ws.send_json(frame)
        assert _recv(ws)["code"] == "malformed"


def test_the_lobby_socket_answers_bad_frames_with_codes(client):
    with client.websocket_connect("/ws/lobby") as ws:
        _recv(ws)
        ws.send_text("not json")
        assert _recv(ws)["code"] == "malformed"
        ws.send_json({"type": "follow", "ticket": "nope"})
        assert _recv(ws)["code"] == "unknown_ticket"
        ws.send_json({"type": "dance"})
        assert _recv(ws)["code"] == "malformed"
        ws.send_json({"type": "ping"})  # following nothing: nothing to say
        ticket = _post(client, "/api/queue", {"rules": "classic"}).json()["ticket"]
        ws.send_json({"type": "follow", "ticket": ticket})
        assert _recv(ws)["status"] == "waiting"
        ws.send_json({"type": "ping"})  # still there: the entry's news again
        again = _recv(ws)
        assert again["type"] == "queue" and again["status"] == "waiting" and again["token"] is None


def test_pairing_at_once_from_four_writers_pairs_each_entry_exactly_once(client, app):
    """Four pairings at the same moment (as four nodes do) over ten waiting players:
    five matches, each player in exactly one (PostgreSQL: FOR UPDATE SKIP LOCKED)."""
    from gameweave.server.lobby import ticket_hash

    lobby, store = app.state.lobby, LobbyStore(app.state.hub.store)
    for i in range(10):
        store.enqueue(ticket_hash(f"ticket-{i}"), rules="classic", clock=None, rated=False,
                      account_id=None, name=f"p{i}", address="10.0.0.1", rating=1500.0)
    made, start = [], threading.Barrier(4)

    def pair():
        start.wait()
        made.extend(store.pair_waiting(timedelta(seconds=20), timedelta(seconds=60), plan, lobby._make_match))

    threads = [threading.Thread(target=pair) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client.portal.call(lobby.pair_once)  # whatever a lost race left waiting is paired now
    rows = [store.entry(ticket_hash(f"ticket-{i}"), touch=False) for i in range(10)]
    assert all(r.status == "paired" for r in rows)
    by_match = {}
    for r in rows:
        by_match.setdefault(r.match_id, []).append(r.seat)
    assert len(by_match) == 5 and all(sorted(s) == [1, 2] for s in by_match.values())
    assert len({p.match_id for p in made}) == len(made) <= 5

"""Open tables and the quick-match queue across real ``gameweave serve`` nodes on one
PostgreSQL and one Redis (issue 20 items 3 and 6; PROTOCOL §3.15-§3.17, §7): the lobby
feed on every node within a second, two people on two nodes racing for one seat (exactly
one sits), two players on two nodes meeting by an open table and by quick match and
playing a deal to its end, and the queue going on after a node is killed mid-queue."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from nodes import Cluster, NEEDS_NODES, Node, PG_ENV, REDIS_ENV
from pg import fresh_database
from test_server_nodes import Seat, assert_in_order, play_steps

pytestmark = NEEDS_NODES

FEED_WAIT = 1.0
"""An open table must reach every node's lobby feed within this many seconds."""


@pytest.fixture
def cluster(tmp_path):
    """Factory ``cluster(n)`` -> n ready nodes on a fresh PostgreSQL database and one
    Redis prefix (:class:`nodes.Cluster`, as in test_server_nodes.py)."""
    with fresh_database(os.environ[PG_ENV], "gw_lobby") as url:
        c = Cluster(tmp_path, url, os.environ[REDIS_ENV])
        yield c.start
        c.close()


def _origin(node: Node) -> dict:
    return {"Origin": node.url}


def _sign_up(node: Node, name: str) -> httpx.Client:
    c = httpx.Client(base_url=node.url, headers=_origin(node))
    r = c.post("/api/account/sign-up", json={"username": f"{name}{random.randrange(10**6)}",
                                              "password": "tres tigres tristes"})
    assert r.status_code == 201, r.text
    c.username = r.json()["username"]  # type: ignore[attr-defined]
    return c


def _rating_events(node: Node, who: httpx.Client, match_id: str) -> list[dict]:
    """The rated deals of ``match_id`` on ``who``'s public profile, read on ``node``."""
    prof = httpx.get(f"{node.url}/api/players/{who.username}").json()  # type: ignore[attr-defined]
    return [h for r in prof["ratings"] for h in r["history"] if h["match_id"] == match_id]


def _ratings_changed_once(nodes: tuple[Node, ...], players: tuple[httpx.Client, ...], match_id: str) -> None:
    """R20/issue 20: after a rated deal both players' ratings moved once (one history
    entry each, its deviation below the start's 350), seen the same from every node."""
    deadline = time.monotonic() + 10
    for who in players:
        while not _rating_events(nodes[0], who, match_id):
            assert time.monotonic() < deadline, f"{who.username}'s rating did not change"  # type: ignore[attr-defined]
            time.sleep(0.2)
    time.sleep(1.0)  # a second application, if any, would show by now
    scores = []
    for node in nodes:
        for who in players:
            events = _rating_events(node, who, match_id)
            assert len(events) == 1, events
            assert events[0]["rd"] < 350
            scores.append(events[0]["score"])
    assert sorted(scores[:2]) in ([0.0, 1.0], [0.5, 0.5])


async def _lobby_feed(node: Node):
    import websockets

    ws = await websockets.connect(f"{node.ws_url}/ws/lobby")
    first = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert first["type"] == "open_tables"
    return ws


async def _next(ws, kind: str, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} frame within {timeout} s"
        frame = json.loads(await asyncio.wait_for(ws.recv(), left))
        if frame["type"] == kind:
            return frame


async def _play_a_deal(a: Node, b: Node, mid: str, tok1: str, tok2: str, seed: int) -> dict:
    s1, s2 = Seat(a, mid, 1, tok1), Seat(b, mid, 2, tok2)
    await s1.connect()
    await s2.connect()
    steps = await play_steps({1: s1, 2: s2}, random.Random(seed))
    assert steps > 3 and s1.state["version"] == s2.state["version"]
    assert s1.state["deal"]["reveal"] is not None and s2.state["view"]["status"] != "playing"
    for s in (s1, s2):
        assert_in_order(s)
    await s1.close()
    await s2.close()
    return s1.state


def test_an_open_table_reaches_every_node_one_of_two_racing_sits_and_they_play_a_rated_deal(cluster):
    a, b = cluster(2)
    ana, bea, cy = _sign_up(a, "ana"), _sign_up(b, "bea"), _sign_up(a, "cy")

    async def scenario():
        feed_b = await _lobby_feed(b)
        made = time.monotonic()
        r = ana.post("/api/open-tables", json={"rated": True, "clock": 60})
        assert r.status_code == 201, r.text
        mid, tok1 = r.json()["match_id"], r.json()["token"]
        added = await _next(feed_b, "open_table", FEED_WAIT)
        assert added["table"]["match_id"] == mid and added["table"]["rated"] is True
        assert time.monotonic() - made < FEED_WAIT
        # two people on two nodes sit at the same moment: exactly one gets the seat
        with ThreadPoolExecutor(2) as pool:
            got = list(pool.map(lambda c: c.post(f"/api/open-tables/{mid}/sit", json={}), (bea, cy)))
        outcomes = [g.json() for g in got]
        assert all(g.status_code == 200 for g in got), [g.text for g in got]
        assert sorted(o["seated"] for o in outcomes) == [False, True], outcomes
        assert next(o for o in outcomes if not o["seated"])["code"] == "seat_taken"  # an answer, not an error
        gone = await _next(feed_b, "open_table_gone", FEED_WAIT)
        assert gone == {"type": "open_table_gone", "match_id": mid, "reason": "taken"}
        await feed_b.close()
        winner = next(o for o in outcomes if o["seated"])
        for node in (a, b):
            assert httpx.get(node.url + "/api/open-tables").json()["tables"] == []
        final = await _play_a_deal(a, b, mid, tok1, winner["token"], seed=5)
        assert final["match"]["rated"] is True
        return mid, next(c for c, o in zip((bea, cy), outcomes) if o["seated"])

    mid, sitter = asyncio.run(scenario())
    _ratings_changed_once((a, b), (ana, sitter), mid)
    # the seats joined the accounts
    assert any(s["seat"] == 1 for s in ana.get("/api/account").json()["seats"])


def test_many_races_for_open_seats_on_two_nodes_each_seat_goes_once(cluster):
    a, b = cluster(2)
    for _ in range(3):
        mid = httpx.post(a.url + "/api/open-tables", json={}, headers=_origin(a)).json()["match_id"]
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda n, m=mid: httpx.post(f"{n.url}/api/open-tables/{m}/sit", json={},
                                                             headers=_origin(n)), (a, b, a, b)))
        outcomes = [g.json() for g in got]
        assert sorted(o["seated"] for o in outcomes) == [False, False, False, True], outcomes
        assert all(o["code"] == "seat_taken" and o["token"] is None for o in outcomes if not o["seated"])


def test_a_table_whose_creator_left_leaves_every_nodes_list_one_whose_creator_sits_stays(cluster):
    """``open_away_s`` 3 s: the creator at the table on node a keeps it listed (node b
    reads the seat's presence in Redis); the one who never came is withdrawn."""
    a, b = cluster(2, env={"GAMEWEAVE_OPEN_AWAY_S": "3"})

    async def scenario():
        feed_b = await _lobby_feed(b)
        here = httpx.post(a.url + "/api/open-tables", json={}, headers=_origin(a)).json()
        away = httpx.post(a.url + "/api/open-tables", json={}, headers=_origin(a)).json()
        seat = Seat(a, here["match_id"], 1, here["token"])
        await seat.connect()
        gone = await _next(feed_b, "open_table_gone", 10)
        assert gone == {"type": "open_table_gone", "match_id": away["match_id"], "reason": "left"}
        for node in (a, b):
            assert [t["match_id"] for t in httpx.get(node.url + "/api/open-tables").json()["tables"]] == \
                [here["match_id"]]
        view = httpx.get(f"{b.url}/api/matches/{away['match_id']}/view",
                         headers={"Authorization": f"Bearer {away['token']}"}).json()
        assert view["match"]["abandoned"] is True
        await seat.close()
        await feed_b.close()

    asyncio.run(scenario())


def test_quick_match_pairs_two_nodes_at_once_and_the_queue_outlives_a_killed_node(cluster):
    a, b = cluster(2)
    ana, bea = _sign_up(a, "ana"), _sign_up(b, "bea")

    async def scenario():
        feed_a = await _lobby_feed(a)
        qa = ana.post("/api/queue", json={"clock": 30}).json()
        assert qa["rated"] is True
        await feed_a.send(json.dumps({"type": "follow", "ticket": qa["ticket"]}))
        assert (await _next(feed_a, "queue", 2))["status"] == "waiting"
        asked = time.monotonic()
        qb = bea.post("/api/queue", json={"clock": 30}).json()
        told = await _next(feed_a, "queue", 3)
        assert told["status"] == "paired" and time.monotonic() - asked < 2.0
        await feed_a.close()
        sb = httpx.post(b.url + "/api/queue/status", json={"ticket": qb["ticket"]}).json()
        assert sb["status"] == "paired" and sb["match_id"] == told["match_id"]
        tokens = {told["seat"]: told["token"], sb["seat"]: sb["token"]}
        nodes = {told["seat"]: a, sb["seat"]: b}
        final = await _play_a_deal(nodes[1], nodes[2], told["match_id"], tokens[1], tokens[2], seed=9)
        assert final["match"]["rated"] is True  # two accounts who left rated on
        await asyncio.to_thread(_ratings_changed_once, (a, b), (ana, bea), told["match_id"])
        for who, entry in ((ana, told), (bea, sb)):
            assert {"match_id": entry["match_id"], "seat": entry["seat"]} in who.get("/api/account").json()["seats"]

        # a player waits on node b; b is killed; node a pairs them with the next one
        qc = httpx.post(b.url + "/api/queue", json={"rules": "pagat"}, headers=_origin(b)).json()
        assert httpx.post(b.url + "/api/queue/status", json={"ticket": qc["ticket"]}).json()["status"] == "waiting"
        b.kill()
        await asyncio.sleep(1.0)
        assert httpx.post(a.url + "/api/queue/status", json={"ticket": qc["ticket"]}).json()["status"] == "waiting"
        qd = httpx.post(a.url + "/api/queue", json={"rules": "anglo-american"}, headers=_origin(a)).json()
        deadline = time.monotonic() + 5
        while (sc := httpx.post(a.url + "/api/queue/status", json={"ticket": qc["ticket"]}).json())["status"] != "paired":
            assert time.monotonic() < deadline, sc
            await asyncio.sleep(0.2)
        sd = httpx.post(a.url + "/api/queue/status", json={"ticket": qd["ticket"]}).json()
        assert sd["status"] == "paired" and sd["match_id"] == sc["match_id"] and {sc["seat"], sd["seat"]} == {1, 2}
        view = httpx.get(f"{a.url}/api/matches/{sc['match_id']}/view",
                         headers={"Authorization": f"Bearer {sc['token']}"}).json()
        assert view["seat"] == sc["seat"] and view["match"]["rules"] == "anglo-american"  # pagat is its alias

    asyncio.run(scenario())


def test_quick_match_keeps_one_browser_apart_and_a_page_that_left_on_one_node_comes_back_on_another(cluster):
    """PROTOCOL §3.16 across nodes: two tabs of one browser queuing on two nodes are not
    paired with each other (the key's hash is in the database); a page whose lobby socket
    closed on node a is no opponent, and following its ticket again on node b keeps its
    place; a page that never comes back is gone after LEFT_S on every node."""
    from gameweave.server.lobby import LEFT_S

    a, b = cluster(2)
    key = "0123456789abcdef0123456789abcdef"

    def queue(node: Node, name: str, browser: str) -> dict:
        return httpx.post(node.url + "/api/queue", json={"rules": "classic", "name": name, "browser": browser},
                          headers=_origin(node)).json()

    def status(node: Node, entry: dict) -> str:
        return httpx.post(node.url + "/api/queue/status", json={"ticket": entry["ticket"]}).json()["status"]

    async def follow(node: Node, entry: dict):
        ws = await _lobby_feed(node)
        await ws.send(json.dumps({"type": "follow", "ticket": entry["ticket"]}))
        assert (await _next(ws, "queue", 2))["status"] == "waiting"
        return ws

    async def scenario():
        tab1, tab2 = queue(a, "Ana", key), queue(b, "Ana", key)
        await asyncio.sleep(1.5)  # three pairings on each node
        assert [status(a, t) for t in (tab1, tab2)] == ["waiting", "waiting"]
        httpx.post(a.url + "/api/queue/cancel", json={"ticket": tab2["ticket"]}, headers=_origin(a))
        ws = await follow(a, tab1)
        await ws.close()  # the page reloads ...
        await asyncio.sleep(0.5)
        bea = queue(b, "Bea", "bea's browser")
        await asyncio.sleep(1.0)
        assert status(b, bea) == "waiting"  # ... and nobody is paired with it meanwhile
        ws = await follow(b, tab1)  # back, on the other node
        told = await _next(ws, "queue", 3)
        assert told["status"] == "paired" and told["seat"] == 1  # its place kept
        assert status(a, bea) == "paired"
        await ws.close()

        cy = queue(a, "Cy", "cy's browser")
        ws = await follow(a, cy)
        await ws.close()  # closed for good
        await asyncio.sleep(LEFT_S + 1.5)
        assert status(b, cy) == "gone"

    asyncio.run(scenario())

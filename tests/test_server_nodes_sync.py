"""Several nodes, the bus's faults (issue 18): real ``gameweave serve`` processes on one
PostgreSQL database and one Redis, as in tests/test_server_nodes.py.

* Redis going away and coming back: a TCP proxy (tests/tcpproxy.py) stands between the
  nodes and the shared Redis and is cut for 10 s during play (the shared Redis server is
  never stopped); within 2 s of it coming back every socket on every node, and the HTTP
  view on every node, is at the latest version — five outages in a row.
* Action ids on the bus: a classic and an anglo-american deal played through two nodes
  reload nothing (``gameweave_match_reloads_total`` stays 0 on both).
* The clock across nodes: after a timeout both nodes send the same ``match.clock`` and
  ``match.timed_out``.

Run when ``GAMEWEAVE_TEST_DATABASE_URL`` and ``GAMEWEAVE_TEST_REDIS_URL`` are both set.
"""

from __future__ import annotations

import asyncio
import os
import random
import time

import httpx
import pytest

from nodes import NEEDS_NODES, Node, REDIS_ENV
from tcpproxy import TcpProxy
from test_server_nodes import (Seat, assert_in_order, cluster, fresh_pg, friend_match, metric,
                               play_steps)

__all__ = ["cluster", "fresh_pg"]  # fixtures, used by name

pytestmark = NEEDS_NODES


async def _versions_over_http(nodes: list[Node], mid: str, token: str, want: int, until: float) -> list[int]:
    """Poll ``GET /view`` on every node until each shows version ``want`` or ``until``
    (monotonic) passes; the versions last seen."""
    seen = [-1] * len(nodes)
    async with httpx.AsyncClient(timeout=2) as client:
        while True:
            for i, node in enumerate(nodes):
                if seen[i] < want:
                    r = await client.get(f"{node.url}/api/matches/{mid}/view",
                                         headers={"Authorization": f"Bearer {token}"})
                    seen[i] = r.json()["version"]
            if min(seen) >= want or time.monotonic() > until:
                return seen
            await asyncio.sleep(0.05)


async def _drain(seat: Seat, until: float) -> None:
    """Read the seat's frames until ``until`` (monotonic); a quiet socket is fine."""
    while (left := until - time.monotonic()) > 0:
        try:
            await seat.recv(left)
        except TimeoutError:
            return


async def _act(seat: Seat) -> int:
    """The seat plays a legal action at the version its socket shows; returns the
    version the action makes (its own socket is waited for)."""
    st = seat.state
    await seat.send({"type": "action", "action": st["view"]["legal"][0], "version": st["version"]})
    await seat.until_version(st["version"] + 1, timeout=5)
    return st["version"] + 1


def _stored_version(url: str, mid: str) -> int:
    from sqlalchemy import create_engine, text

    eng = create_engine(url)
    try:
        with eng.connect() as conn:
            return conn.execute(text("SELECT version FROM matches WHERE id = :m"), {"m": mid}).scalar_one()
    finally:
        eng.dispose()


OUTAGE_S = 10.0
"""How long Redis is away each time."""

CAUGHT_UP_S = 2.0
"""Within this many seconds of Redis coming back every socket is at the latest version."""

OUTAGES = 5
"""How many times Redis goes away in the test."""


async def _outage(proxy: TcpProxy, seats: dict[int, Seat], nodes: list[Node], mid: str, db_url: str) -> float:
    """One outage: the seat to act plays during it, Redis comes back, a move about a
    second later; returns how long after Redis came back every socket and every node's
    HTTP view were at the stored version."""
    actor = seats[1].state["view"]["to_act"]
    proxy.cut()
    cut_at = time.monotonic()
    await asyncio.sleep(0.3)
    if seats[actor].state["view"]["to_act"] == actor:  # a step while Redis is away
        await _act(seats[actor])
    for s in seats.values():
        await _drain(s, cut_at + OUTAGE_S)
    proxy.restore()
    back_at = time.monotonic()
    for s in seats.values():
        await _drain(s, back_at + 1.0)
    top = max(s.state["version"] for s in seats.values())
    movers = [n for n, s in seats.items() if s.state["version"] == top and s.state["view"]["to_act"] == n]
    if movers and seats[movers[0]].state["view"]["legal"]:  # a move about a second after Redis came back
        await _act(seats[movers[0]])
    latest = _stored_version(db_url, mid)
    for s in seats.values():
        await s.until_version(latest, timeout=max(0.05, back_at + CAUGHT_UP_S - time.monotonic()))
    sockets_at = time.monotonic() - back_at
    seen = await _versions_over_http(nodes, mid, seats[1].token, latest, back_at + CAUGHT_UP_S)
    assert seen == [latest] * len(nodes), (seen, latest)
    return max(sockets_at, time.monotonic() - back_at)


@pytest.mark.long
@pytest.mark.timeout(300)
def test_redis_away_10_s_five_times_every_socket_on_every_node_is_current_within_2_s(cluster, fresh_pg):
    """The fault of issue 18 (5 of 7 runs): after Redis came back, a move committed about
    a second later sometimes never reached the other node.  Now every socket (both
    seats, both nodes) and the HTTP view on both nodes are at the stored version within
    2 s of Redis coming back, after each of five outages of 10 s."""
    redis_port = int(os.environ[REDIS_ENV].rsplit(":", 1)[1].split("/")[0])
    proxy = TcpProxy("127.0.0.1", redis_port)
    try:
        a, b = cluster(2, redis_url=f"redis://127.0.0.1:{proxy.port}/0")
        mid, tok1, tok2 = friend_match(a, b)

        async def scenario() -> list[float]:
            seats = {1: Seat(a, mid, 1, tok1), 2: Seat(b, mid, 2, tok2)}
            for s in seats.values():
                await s.connect()
            rng = random.Random(18)
            took = []
            for _ in range(OUTAGES):
                if seats[1].state["view"]["status"] != "playing":
                    v = seats[1].state["version"]
                    for s in seats.values():
                        await s.send({"type": "next_deal", "version": v})
                    for s in seats.values():
                        await s.until_version(v + 1, timeout=5)
                await play_steps(seats, rng, stop=lambda st, n=seats[1].state["version"]: st["version"] >= n + 2)
                took.append(await _outage(proxy, seats, [a, b], mid, fresh_pg))
            for s in seats.values():
                assert_in_order(s)
                await s.close()
            return took

        took = asyncio.run(scenario())
        assert len(took) == OUTAGES and max(took) < CAUGHT_UP_S + 0.5, took
    finally:
        proxy.close()


def _deal_through_two_nodes(a: Node, b: Node, rules: str, seed: int) -> None:
    m = httpx.post(a.url + "/api/matches", json={"opponent": "friend", "format": "tally", "rules": rules}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    j = httpx.post(f"{b.url}/api/matches/{m['match_id']}/join", json={"invite": invite})
    assert j.status_code == 200, j.text
    mid = m["match_id"]

    async def scenario() -> None:
        s1, s2 = Seat(a, mid, 1, m["token"]), Seat(b, mid, 2, j.json()["token"])
        await s1.connect()
        await s2.connect()
        steps = await play_steps({1: s1, 2: s2}, random.Random(seed))
        assert steps > 3 and s1.state["view"]["status"] != "playing"
        assert s1.state["version"] == s2.state["version"]
        assert len(s1.state["view"]["history"]) == len(s2.state["view"]["history"])
        for s in (s1, s2):
            assert_in_order(s)
            await s.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("rules", ["classic", "anglo-american"])
def test_a_deal_through_two_nodes_reloads_nothing(cluster, rules):
    """Ints on the bus (issue 18): the other node applies every step from the event
    (never a reload from the database), in the profiles whose text differs too."""
    a, b = cluster(2)
    _deal_through_two_nodes(a, b, rules, seed=31)
    for node in (a, b):
        assert metric(node, "gameweave_match_reloads_total") == 0, node.stderr()[-3000:]


def _same_clock(f1: dict, f2: dict) -> None:
    """Two nodes' frames of one version show one clock and one timeout mark."""
    c1, c2 = f1["match"]["clock"], f2["match"]["clock"]
    assert f1["version"] == f2["version"]
    assert c1["bank"] == c2["bank"] and c1["to_act"] == c2["to_act"] and c1["per_decision"] == c2["per_decision"]
    if c1["deadline_in_ms"] is not None:
        # both count from the decision's start on the node that made the step
        assert abs(c1["deadline_in_ms"] - c2["deadline_in_ms"]) < 700, (c1, c2)
    assert f1["match"]["timed_out"] == f2["match"]["timed_out"]
    assert [f1["match"]["players"][s]["away"] for s in "12"] == [f2["match"]["players"][s]["away"] for s in "12"]


@pytest.mark.timeout(120)
def test_after_a_timeout_both_nodes_send_the_same_clock_and_timed_out(cluster):
    """Issue 18: the node that does not hold a match's clock showed a wrong clock after a
    timeout (bank 1.5 instead of 0, deadline 4,500 ms instead of 3,000, no timed_out, a
    different away).  Seat 1 on node A, seat 2 on node B, a 60 s clock scaled to 3 s and a
    1.5 s bank: nobody acts, the server plays for seat 1 twice."""
    env = {"GAMEWEAVE_CLOCK_SCALE": "0.05", "GAMEWEAVE_PRESENCE_TIMEOUT_S": "60"}
    a, b = cluster(2, env=env)
    m = httpx.post(a.url + "/api/matches", json={"opponent": "friend", "format": "tally", "clock": 60}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    tok2 = httpx.post(f"{b.url}/api/matches/{m['match_id']}/join", json={"invite": invite}).json()["token"]
    mid = m["match_id"]

    async def scenario() -> None:
        s1, s2 = Seat(a, mid, 1, m["token"]), Seat(b, mid, 2, tok2)
        await s1.connect()
        await s2.connect()
        v = s1.state["version"]
        f1 = await s1.until_version(v + 1, timeout=15)  # 3 s + 1.5 s: the server turns for seat 1
        f2 = await s2.until_version(v + 1, timeout=2)
        assert f1["view"]["history"][-1]["action"] == "turn"
        _same_clock(f1, f2)
        assert f1["match"]["clock"]["bank"] == {"1": 0, "2": 1.5}
        assert f1["match"]["timed_out"] == {"seat": 1, "version": v + 1}
        assert f1["match"]["clock"]["to_act"] == 1 and 2000 < f2["match"]["clock"]["deadline_in_ms"] <= 3000
        for node, token in ((a, m["token"]), (b, tok2)):  # the HTTP view of each node says the same
            view = httpx.get(f"{node.url}/api/matches/{mid}/view", headers={"Authorization": f"Bearer {token}"}).json()
            assert view["version"] == v + 1 and view["match"]["timed_out"] == f1["match"]["timed_out"]
            assert view["match"]["clock"]["bank"] == f1["match"]["clock"]["bank"]
        if "refuse" in f1["view"]["legal"]:  # seat 1 decides on the turned card: the server refuses
            f1 = await s1.until_version(v + 2, timeout=10)
            f2 = await s2.until_version(v + 2, timeout=2)
            _same_clock(f1, f2)
            assert f2["match"]["players"]["1"]["away"] is True  # two timeouts in a row, on both nodes
            assert f2["match"]["timed_out"] == {"seat": 1, "version": v + 2}
        await s1.close()
        await s2.close()

    asyncio.run(scenario())

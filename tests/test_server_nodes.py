"""Several nodes: real ``gameweave serve`` processes on loopback ports sharing one
PostgreSQL database and one Redis (PROTOCOL §7, docs/DEPLOY.md).

Run when ``GAMEWEAVE_TEST_DATABASE_URL`` and ``GAMEWEAVE_TEST_REDIS_URL`` are both set
(CI sets them; ``.ci/run`` exports both); skipped otherwise, with the reason.  Each test
gets a fresh database and its own Redis prefix, so runs never see each other.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import uuid

import httpx
import pytest

from gameweave.engine.conformance import build_deck

from nodes import Cluster, NEEDS_NODES, Node, PG_ENV, REDIS_ENV
from pg import fresh_database

pytestmark = NEEDS_NODES

FRAME_WAIT = 1.0
"""Every version must reach every socket within this many seconds (issue 13)."""


@pytest.fixture
def fresh_pg():
    """A new, empty PostgreSQL database (dropped afterwards)."""
    with fresh_database(os.environ[PG_ENV], "gw_nodes") as url:
        yield url


@pytest.fixture
def cluster(fresh_pg, tmp_path):
    """Factory ``cluster(n, bot_delay=0.05, start_together=True, redis_url=None,
    env=None)`` -> n ready nodes on one database and one Redis prefix
    (:class:`nodes.Cluster`); every node is stopped, the prefix's keys deleted and the
    logs checked for tracebacks at the end."""
    c = Cluster(tmp_path, fresh_pg, os.environ[REDIS_ENV])
    yield c.start
    c.close()


class Seat:
    """An async WebSocket client for one seat: every frame it gets, in order."""

    def __init__(self, node: Node, match_id: str, seat: int, token: str):
        self.node, self.match_id, self.seat, self.token = node, match_id, seat, token
        self.frames: list[dict] = []
        self.state: dict | None = None
        self.ws = None

    async def connect(self, node: Node | None = None) -> dict:
        import websockets

        self.node = node or self.node
        self.ws = await websockets.connect(f"{self.node.ws_url}/ws/{self.match_id}")
        await self.ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token}))
        return await self.recv()

    async def recv(self, timeout: float = 5.0) -> dict:
        obj = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(obj)
        if obj["type"] == "state":
            self.state = obj
        return obj

    async def until_version(self, version: int, timeout: float = FRAME_WAIT) -> dict:
        """Read frames until the state has ``version`` (fails after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while self.state is None or self.state["version"] < version:
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat} on port {self.node.port}: version {version} did not come in {timeout} s"
            await self.recv(left)
        return self.state

    async def send(self, obj: dict) -> None:
        await self.ws.send(json.dumps(obj))

    def versions(self) -> list[int]:
        return [f["version"] for f in self.frames if f["type"] == "state"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def assert_in_order(seat: Seat) -> None:
    """Every version the socket got, in order, none skipped (presence frames may repeat one)."""
    vs = seat.versions()
    assert all(b in (a, a + 1) for a, b in zip(vs, vs[1:])), vs


def friend_match(a: Node, b: Node) -> tuple[str, str, str]:
    m = httpx.post(a.url + "/api/matches", json={"opponent": "friend", "format": "tally"}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    j = httpx.post(f"{b.url}/api/matches/{m['match_id']}/join", json={"invite": invite})
    assert j.status_code == 200, j.text
    return m["match_id"], m["token"], j.json()["token"]


async def play_steps(seats: dict[int, Seat], rng: random.Random, max_steps: int = 400, stop=None) -> int:
    """Play random legal actions, each by the seat to act, until the deal ends (or
    ``stop(state)``); after each, every seat must see the new version within 1 s."""
    steps = 0
    while steps < max_steps:
        state = seats[1].state
        view = state["view"]
        if view["status"] != "playing" or (stop is not None and stop(state)):
            return steps
        actor = seats[view["to_act"]]
        legal = actor.state["view"]["legal"]
        assert legal, actor.state
        await actor.send({"type": "action", "action": rng.choice(legal), "version": state["version"]})
        for s in seats.values():
            await s.until_version(state["version"] + 1)
        steps += 1
    raise AssertionError("the deal did not end")


def metric(node: Node, name: str) -> float:
    text = httpx.get(node.url + "/metrics").text
    return sum(float(v) for v in re.findall(rf"^{name}\{{[^}}]*\}} ([0-9.e+]+)$", text, re.M))


def test_nodes_start_together_on_a_fresh_database_and_every_route_works_through_any(cluster):
    a, b, c = cluster(3)  # started at once: the migrations run one after another
    m = httpx.post(a.url + "/api/matches", json={"opponent": "friend"}).json()
    mid, tok = m["match_id"], m["token"]
    for node in (a, b, c):
        r = httpx.get(f"{node.url}/api/matches/{mid}/view", headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 200 and r.json()["version"] == 1
        ready = httpx.get(node.url + "/api/ready").json()
        assert ready["database"] is True and ready["redis"] is True
    invite = m["invite_url"].rsplit("/", 1)[1]
    assert httpx.post(f"{b.url}/api/matches/{mid}/invite-status", json={"invite": invite}).json()["open"] is True
    tok2 = httpx.post(f"{c.url}/api/matches/{mid}/join", json={"invite": invite}).json()["token"]
    assert httpx.post(f"{a.url}/api/matches/{mid}/join", json={"invite": invite}).json()["error"]["code"] == "already_joined"
    for node in (a, b, c):
        r = httpx.post(node.url + "/api/my-matches", json={"seats": [{"match_id": mid, "token": tok2}]})
        assert [s["seat"] for s in r.json()["matches"]] == [2]


def test_a_deal_with_seat_1_on_node_a_and_seat_2_on_node_b(cluster):
    a, b = cluster(2)
    mid, tok1, tok2 = friend_match(a, b)

    async def scenario():
        s1, s2 = Seat(a, mid, 1, tok1), Seat(b, mid, 2, tok2)
        await s1.connect()
        await s2.connect()
        rng = random.Random(13)
        steps = await play_steps({1: s1, 2: s2}, rng)
        assert steps > 3
        assert s1.state["version"] == s2.state["version"] and s1.state["deal"]["reveal"] is not None
        # both seats ask for the next deal at once, through different nodes: one deals
        v = s1.state["version"]
        await asyncio.gather(s1.send({"type": "next_deal", "version": v}), s2.send({"type": "next_deal", "version": v}))
        await s1.until_version(v + 1)
        await s2.until_version(v + 1)
        errors = []
        for s in (s1, s2):
            try:
                while True:
                    f = await s.recv(0.5)
                    if f["type"] == "error":
                        errors.append(f["code"])
            except TimeoutError:
                pass
        assert errors == [], errors  # each seat moved on (issue 10): the second one dealt, nothing refused
        assert s1.state["version"] == s2.state["version"] == v + 1
        assert s1.state["match"]["deal_number"] == 2
        for s in (s1, s2):
            assert_in_order(s)
        await s1.close()
        await s2.close()

    asyncio.run(scenario())


def test_a_bot_match_watched_from_two_nodes_moves_each_bot_action_once(cluster):
    a, b = cluster(2)
    m = httpx.post(a.url + "/api/matches", json={"opponent": "bot", "bot": "greedy", "format": "tally"}).json()
    mid, tok = m["match_id"], m["token"]

    async def scenario():
        s1 = Seat(b, mid, 1, tok)
        await s1.connect()
        rng = random.Random(5)
        while s1.state["view"]["status"] == "playing":
            view = s1.state["view"]
            if view["to_act"] == 1:
                await s1.send({"type": "action", "action": rng.choice(view["legal"]), "version": s1.state["version"]})
                await s1.until_version(s1.state["version"] + 1)
            else:
                await s1.until_version(s1.state["version"] + 1, timeout=5)
            # node A holds the match too (it created it) and shows the same version
            r = httpx.get(f"{a.url}/api/matches/{mid}/view", headers={"Authorization": f"Bearer {tok}"}).json()
            assert r["version"] >= s1.state["version"] - 1
        assert_in_order(s1)
        bot_actions = sum(1 for e in s1.state["view"]["history"] if e["seat"] == 2)
        assert bot_actions > 0
        assert len(s1.state["view"]["history"]) == s1.state["version"] - 1
        await s1.close()
        return bot_actions

    bot_actions = asyncio.run(scenario())
    assert metric(a, "gameweave_bot_moves_total") + metric(b, "gameweave_bot_moves_total") == bot_actions


def test_sigkill_of_a_node_mid_deal_clients_continue_through_another_at_the_same_version(cluster):
    a, b = cluster(2)
    mid, tok1, tok2 = friend_match(a, b)

    async def scenario():
        s1, s2 = Seat(a, mid, 1, tok1), Seat(b, mid, 2, tok2)
        await s1.connect()
        await s2.connect()
        rng = random.Random(7)
        await play_steps({1: s1, 2: s2}, rng, stop=lambda st: st["version"] >= 8)
        v = s2.state["version"]
        a.kill()
        first = await s1.connect(b)  # the page reconnects; the proxy sends it to a live node
        assert first["type"] == "state" and first["version"] == v
        assert first["view"]["history"] == s2.state["view"]["history"]
        await play_steps({1: s1, 2: s2}, rng)
        assert s1.state["version"] == s2.state["version"] and s1.state["view"]["status"] != "playing"
        assert_in_order(s2)
        await s1.close()
        await s2.close()

    asyncio.run(scenario())


def test_a_dead_nodes_bot_lease_is_taken_over_within_10_s(cluster):
    import redis

    a, b = cluster(2, bot_delay=0.8)
    m = httpx.post(a.url + "/api/matches", json={"opponent": "bot", "bot": "random", "format": "tally"}).json()
    mid, tok = m["match_id"], m["token"]
    httpx.get(f"{b.url}/api/matches/{mid}/view", headers={"Authorization": f"Bearer {tok}"})  # B holds it too
    prefix = re.search(r"--redis-prefix', '([^']+)'", repr(a.proc.args)).group(1)
    r = redis.Redis.from_url(os.environ[REDIS_ENV])

    async def scenario():
        s1 = Seat(a, mid, 1, tok)
        await s1.connect()
        rng = random.Random(3)
        for _ in range(200):
            view = s1.state["view"]
            assert view["status"] == "playing", "the deal ended before a bot sequence could be cut"
            history = view["history"]
            if view["to_act"] == 2 and history and history[-1]["seat"] == 2:
                holder = r.get(f"{prefix}:bot:{mid}")
                if holder is not None:  # the bot is mid-sequence and its node holds the lease
                    break
            if view["to_act"] == 1:
                await s1.send({"type": "action", "action": rng.choice(view["legal"]), "version": s1.state["version"]})
            await s1.until_version(s1.state["version"] + 1, timeout=5)
        else:
            raise AssertionError("no bot sequence to cut")
        dead, alive = (a, b) if holder.decode() == "n0" else (b, a)
        v = s1.state["version"]
        killed_at = time.monotonic()
        dead.kill()
        if s1.node is dead:
            await s1.connect(alive)
        await s1.until_version(v + 1, timeout=10)
        took = time.monotonic() - killed_at
        assert took < 10, took
        assert len(s1.state["view"]["history"]) == s1.state["version"] - 1
        await s1.close()

    asyncio.run(scenario())
    r.close()


def test_the_same_action_through_two_nodes_exactly_one_applies_the_other_is_told_why(fresh_pg):
    """Two hubs, each a node with its own Redis connection, on one PostgreSQL database."""
    from gameweave.server.bus import Bus
    from gameweave.server.hub import Hub
    from gameweave.storage import Store
    from gameweave.tables import TableError

    deck = build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s", "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h")
    prefix = f"gwtest-{uuid.uuid4().hex[:10]}"

    async def scenario():
        hubs = [Hub(Store(fresh_pg), bot_delay=0, deck_source=lambda: (deck, "ab" * 16),
                    bus=Bus(os.environ[REDIS_ENV], prefix, f"h{i}")) for i in range(2)]
        for h in hubs:
            await h.start()
        table, tok = await hubs[0].create("friend", None, "tally", 3)
        mid = table.match_id
        await hubs[1].table(mid)
        codes = []
        for action in ("turn", "meld 4h 5h 6h", "throw Kd"):
            v = hubs[0].tables[mid].version
            res = await asyncio.gather(*(h.act(mid, 0, tok, action, v) for h in hubs), return_exceptions=True)
            ok = [x for x in res if not isinstance(x, Exception)]
            bad = [x for x in res if isinstance(x, Exception)]
            assert len(ok) == 1 and len(bad) == 1 and isinstance(bad[0], TableError), res
            codes.append(bad[0].code)
            # the loser's node is at the winner's version at once; the other one within 1 s
            for _ in range(100):
                if all(h.tables[mid].version == v + 1 for h in hubs):
                    break
                await asyncio.sleep(0.01)
            assert [h.tables[mid].version for h in hubs] == [v + 1, v + 1]
        # the same turn twice -> illegal; the same meld twice -> illegal; the same throw -> not_your_turn
        assert codes == ["illegal", "illegal", "not_your_turn"]
        assert hubs[0].store.count_actions(mid) == 3
        for h in hubs:
            await h.close()

    asyncio.run(scenario())


def test_presence_a_clock_timeout_and_a_phrase_across_two_nodes(cluster, monkeypatch):
    """Issue 10 with seat 1 on node A and seat 2 on node B: a seat gone silent on B is
    shown offline on A (presence keys in Redis with a TTL); a clock timeout is played
    once, by the lease holder; a quick phrase reaches the seat on the other node."""
    monkeypatch.setenv("GAMEWEAVE_PRESENCE_TIMEOUT_S", "1.5")
    monkeypatch.setenv("GAMEWEAVE_PRESENCE_SWEEP_S", "0.3")
    monkeypatch.setenv("GAMEWEAVE_CLOCK_SCALE", "0.05")  # the 60 s clock: 3 s plus a 1.5 s bank
    a, b = cluster(2)
    m = httpx.post(a.url + "/api/matches", json={"opponent": "friend", "format": "tally", "clock": 60,
                                                 "name": "Ana"}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    j = httpx.post(f"{b.url}/api/matches/{m['match_id']}/join", json={"invite": invite, "name": "Beto"}).json()
    mid = m["match_id"]

    async def scenario():
        s1, s2 = Seat(a, mid, 1, m["token"]), Seat(b, mid, 2, j["token"])
        await s1.connect()
        await s2.connect()
        await s2.send({"type": "phrase", "key": "good_luck"})
        deadline = time.monotonic() + 5
        while not any(f["type"] == "phrase" for f in s1.frames):
            await s1.recv(max(0.1, deadline - time.monotonic()))
        assert [f for f in s1.frames if f["type"] == "phrase"] == [{"type": "phrase", "seat": 2, "key": "good_luck"}]
        # seat 2 falls silent on node B; seat 1 keeps its heartbeat on node A
        start = time.monotonic()
        seen_offline = False
        while time.monotonic() - start < 12:
            await s1.send({"type": "heartbeat"})
            try:
                f = await s1.recv(0.3)
            except TimeoutError:
                continue
            if f["type"] == "state" and f["match"]["players"]["2"]["online"] is False:
                seen_offline = True
                break
        assert seen_offline, "seat 2 stayed online on node A"
        # the clock runs out for seat 1 (3 s and its 1.5 s bank): the server turns for it, once
        v0 = s2.frames[0]["version"]
        while time.monotonic() - start < 20 and not (s1.state and s1.state["view"]["history"]):
            await s1.send({"type": "heartbeat"})
            try:
                await s1.recv(0.3)
            except TimeoutError:
                pass
        first = s1.state["view"]["history"]
        assert first and first[0]["seat"] == 1 and first[0]["action"] == "turn", first
        played = min(f["version"] for f in s1.frames if f["type"] == "state" and f["view"]["history"])
        assert played == v0 + 1
        f2 = await s2.until_version(played)
        assert f2["view"]["history"][0] == first[0]
        assert all(e["action"] != "turn" or i == 0 for i, e in enumerate(s1.state["view"]["history"][:2]))
        assert_in_order(s1)
        await s1.close()
        await s2.close()

    asyncio.run(scenario())

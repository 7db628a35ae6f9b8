"""Seats that follow the account across nodes (issue 20, items 2 and 6; PROTOCOL §3.14,
§7): real ``gameweave serve`` processes on one PostgreSQL and one Redis.  Signed in on
node A, a player makes a match (its seat joins the account) and holds it with a socket
on A; signed in again on node B, the account lists the match and takes its seat there;
B's socket replaces A's (close 4000) and plays the move; another account, also on B,
neither lists nor takes it.

Run when ``GAMEWEAVE_TEST_DATABASE_URL`` and ``GAMEWEAVE_TEST_REDIS_URL`` are both set."""

from __future__ import annotations

import asyncio
import json
import os

import httpx
import pytest

from nodes import Cluster, NEEDS_NODES, PG_ENV, REDIS_ENV
from pg import fresh_database

pytestmark = NEEDS_NODES
PASSWORD = "tres tigres tristes comen"


@pytest.fixture
def two_nodes(tmp_path):
    with fresh_database(os.environ[PG_ENV], "gw_seats") as url:
        c = Cluster(tmp_path, url, os.environ[REDIS_ENV])
        try:
            yield c.start(2)
        finally:
            c.close()


def _browser(node, path: str, username: str) -> httpx.Client:
    """An HTTP client with its own cookie jar (one browser), signed up or in on ``node``."""
    client = httpx.Client(base_url=node.url, headers={"Origin": node.url}, timeout=10)
    r = client.post(f"/api/account/{path}", json={"username": username, "password": PASSWORD})
    assert r.status_code in (200, 201), r.text
    return client


async def _hello(node, match_id: str, seat: int, token: str):
    import websockets

    ws = await websockets.connect(f"{node.ws_url}/ws/{match_id}")
    await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
    frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert frame["type"] == "state", frame
    return ws, frame


async def _next_state(ws, version: int) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if frame["type"] == "state" and frame["version"] > version:
            return frame


def test_sign_in_on_node_a_then_list_and_take_the_seat_on_node_b(two_nodes):
    a, b = two_nodes
    laptop = _browser(a, "sign-up", "Ana")
    made = laptop.post("/api/matches", json={"opponent": "bot", "format": "tally"})
    assert made.status_code == 201, made.text
    mid, token = made.json()["match_id"], made.json()["token"]
    phone = _browser(b, "sign-in", "ana")
    listed = phone.get("/api/account/matches").json()["matches"]
    assert [(m["match_id"], m["seat"], m["players"]["1"]["name"]) for m in listed] == [(mid, 1, "Ana")]
    taken = phone.post(f"/api/account/matches/{mid}/take", json={"seat": 1})
    assert taken.status_code == 200 and taken.json()["token"] == token
    # another account, on node B too, sees none of it
    other = _browser(b, "sign-up", "Beto")
    assert other.get("/api/account/matches").json() == {"matches": []}
    refused = other.post(f"/api/account/matches/{mid}/take", json={"seat": 1})
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "seat_not_held"
    assert token not in refused.text

    async def scenario():
        import websockets

        on_a, first = await _hello(a, mid, 1, token)
        on_b, state = await _hello(b, mid, 1, taken.json()["token"])
        # the seat moved: A's socket is replaced, on the other node, as two tabs are
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(on_a.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
        assert state["view"]["to_act"] == 1 and state["view"]["legal"]
        await on_b.send(json.dumps({"type": "action", "action": state["view"]["legal"][0],
                                    "version": state["version"]}))
        after = await _next_state(on_b, state["version"])
        assert after["version"] == state["version"] + 1 and after["view"]["history"]
        await on_b.close()
        return first["version"]

    asyncio.run(scenario())
    for client in (laptop, phone, other):
        client.close()

"""Accounts across real ``gameweave serve`` nodes on one PostgreSQL and one Redis (issue
20 item 6; PROTOCOL §3.13, §7): a session made on one node is good on the other, the
sign-in rate limit counts the failures of every node together, and sign-up and sign-in
go on after a node is killed."""

from __future__ import annotations

import os
import random

import httpx
import pytest

from nodes import Cluster, NEEDS_NODES, Node, PG_ENV, REDIS_ENV
from pg import fresh_database

pytestmark = NEEDS_NODES
PASSWORD = "tres tigres tristes"


@pytest.fixture
def two_nodes(tmp_path):
    with fresh_database(os.environ[PG_ENV], "gw_acct") as url:
        c = Cluster(tmp_path, url, os.environ[REDIS_ENV])
        yield c.start(2)
        c.close()


def _post(node: Node, path: str, body: dict, cookies: httpx.Cookies | None = None) -> httpx.Response:
    return httpx.post(f"{node.url}/api/account/{path}", json=body, headers={"Origin": node.url}, cookies=cookies)


def _name(prefix: str) -> str:
    return f"{prefix}{random.randrange(10**6)}"


def test_sessions_and_the_sign_in_limit_are_every_nodes_and_outlive_a_killed_node(two_nodes):
    a, b = two_nodes
    ana = _name("ana")
    r = _post(a, "sign-up", {"username": ana, "password": PASSWORD})
    assert r.status_code == 201, r.text
    # the session cookie made on node a is good on node b
    who = httpx.get(f"{b.url}/api/account", cookies=r.cookies).json()
    assert who["signed_in"] is True and who["username"] == ana
    # ten failures, alternating between the nodes, meet the per-account limit on both
    codes = [_post((a, b)[i % 2], "sign-in", {"username": ana, "password": f"wrong {i}"}).json()["error"]["code"]
             for i in range(12)]
    assert codes[:10] == ["bad_credentials"] * 10 and codes[10:] == ["rate_limited"] * 2
    limited = _post(a, "sign-in", {"username": ana, "password": PASSWORD})
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    # another account made on node a signs in on node b after node a is killed; sign-up too
    bea = _name("bea")
    assert _post(a, "sign-up", {"username": bea, "password": PASSWORD}).status_code == 201
    a.kill()
    r = _post(b, "sign-in", {"username": bea, "password": PASSWORD})
    assert r.status_code == 200 and r.json()["username"] == bea
    assert httpx.get(f"{b.url}/api/account", cookies=r.cookies).json()["signed_in"] is True
    r = _post(b, "sign-up", {"username": _name("cy"), "password": PASSWORD})
    assert r.status_code == 201, r.text
    assert _post(b, "sign-in", {"username": ana, "password": PASSWORD}).status_code == 429  # still counted

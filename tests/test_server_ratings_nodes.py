"""Ratings across several nodes (issue 20): real ``gameweave serve`` processes on one
PostgreSQL database and one Redis.  Two nodes both see a rated deal end (each holds one
seat's socket) and the ratings change once; a deal that ended with no update (a node
killed right after the deal's end) is applied once by the next node's start-up sweep,
and not again by the one after.

The rated match is made directly in the database (the open-table and quick-match routes
that create rated matches come with another part of issue 20), its seats linked to two
accounts as ``account_seats`` links them.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
import uuid

import httpx
import pytest
from sqlalchemy import func, select

from gameweave.engine import shuffled_deck
from gameweave.storage import Store
from gameweave.storage.accounts import AccountStore, SeatLink
from gameweave.storage.ratings import RatingStore
from gameweave.storage.schema import rating_events
from gameweave.tables import Table, hash_token, new_token

from nodes import Cluster, NEEDS_NODES, PG_ENV, REDIS_ENV
from pg import fresh_database
from test_server_nodes import Seat, metric, play_steps

pytestmark = NEEDS_NODES



@pytest.fixture
def fresh_pg():
    """A new, empty PostgreSQL database (dropped afterwards)."""
    with fresh_database(os.environ[PG_ENV], "gw_rated") as url:
        yield url


@pytest.fixture
def cluster(fresh_pg, tmp_path):
    """Factory ``cluster(n)`` -> n more ready nodes on one database and one Redis prefix."""
    c = Cluster(tmp_path, fresh_pg, os.environ[REDIS_ENV])
    yield c.start
    c.close()


def rated_match(url: str, seed: int = 5) -> tuple[str, list[str], list[int]]:
    """A rated friend match (tally, 3 deals) between two new accounts, stored directly:
    ``(match id, seat tokens, account ids)``."""
    store = Store(url, run_migrations=False)
    acc = AccountStore(store.engine)
    tail = uuid.uuid4().hex[:6]
    ids = [acc.create(f"ana{tail}", f"ana{tail}", "x").id, acc.create(f"ben{tail}", f"ben{tail}", "x").id]
    table, t1 = Table.create(opponent="friend", bot=None, format="tally", target=3, deck=shuffled_deck(seed),
                             salt="0f" * 16, name=f"ana{tail}", rated=True)
    store.create(table)
    t2 = new_token()
    assert store.join(table.match_id, hash_token(t2), f"ben{tail}")
    for seat, (account, token) in enumerate(zip(ids, (t1, t2))):
        assert acc.link_seats(account, [SeatLink(table.match_id, seat + 1, token)]) == 1
    store.close()
    return table.match_id, [t1, t2], ids


def events(url: str, match_id: str) -> dict[int, int]:
    """Rating events per deal of a match."""
    store = Store(url, run_migrations=False)
    with store.engine.connect() as conn:
        rows = conn.execute(select(rating_events.c.deal_number, func.count()).where(
            rating_events.c.match_id == match_id).group_by(rating_events.c.deal_number)).all()
    store.close()
    return {int(n): int(c) for n, c in rows}


def ratings(url: str, account: int):
    store = Store(url, run_migrations=False)
    got = RatingStore(store.engine).ratings_of(account)
    store.close()
    return got


def outcome(node, which: str) -> float:
    """A node's ``gameweave_rated_deals_total`` with ``outcome=which``."""
    text = httpx.get(node.url + "/metrics").text
    return sum(float(v) for v in re.findall(
        rf'^gameweave_rated_deals_total\{{[^}}]*outcome="{which}"[^}}]*\}} ([0-9.e+]+)$', text, re.M))


def wait_for(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_two_nodes_both_see_a_rated_deal_end_and_the_ratings_change_once(cluster, fresh_pg):
    a, b = cluster(2)
    mid, tokens, (ana, ben) = rated_match(fresh_pg)

    async def scenario():
        s1, s2 = Seat(a, mid, 1, tokens[0]), Seat(b, mid, 2, tokens[1])
        await s1.connect()
        await s2.connect()
        assert s1.state["match"]["rated"] is True
        start = s1.state["match"]["players"]["1"]["rating"]  # no rated deal yet: the start, provisional
        assert (start["rating"], start["rd"], start["provisional"]) == (1500, 350, True)
        v = s1.state["version"]
        await s2.send({"type": "resign", "scope": "deal", "version": v})  # a resign is a loss
        await s1.until_version(v + 1)
        await s2.until_version(v + 1)
        wait_for(lambda: events(fresh_pg, mid).get(1) == 2)
        # seat 1's socket (node a, which did not store the resign) hears the new ratings
        deadline = time.monotonic() + 5
        while s1.state["match"]["players"]["2"]["rating"]["rd"] == 350:  # still the start
            assert time.monotonic() < deadline, "the new ratings did not reach node a's socket"
            await s1.recv(deadline - time.monotonic())
        shown = s1.state["match"]["players"]
        assert shown["1"]["rating"]["rating"] > 1500 > shown["2"]["rating"]["rating"]
        assert shown["1"]["rating"]["provisional"] is True and shown["1"]["rating"]["rules"] == "gameweave"
        # the next deal, played to its end through both nodes
        v = s1.state["version"]
        await s1.send({"type": "next_deal", "version": v})
        await s2.send({"type": "next_deal", "version": v})
        await s1.until_version(v + 1)
        await s2.until_version(v + 1)
        await play_steps({1: s1, 2: s2}, random.Random(7))
        await s1.close()
        await s2.close()

    asyncio.run(scenario())
    wait_for(lambda: events(fresh_pg, mid) == {1: 2, 2: 2})
    wait_for(lambda: metric(a, "gameweave_rated_deals_total") + metric(b, "gameweave_rated_deals_total") == 4)
    applied = [outcome(n, "applied") for n in (a, b)]
    assert sum(applied) == 2 and sum(outcome(n, "already") for n in (a, b)) == 2  # two deals, each applied by one node; the other node's try changed nothing
    (ra,), (rb,) = ratings(fresh_pg, ana), ratings(fresh_pg, ben)
    assert ra.deals == rb.deals == 2 and ra.won + ra.tablas + ra.lost == 2
    assert rb.lost >= 1  # deal 1 was resigned by seat 2
    time.sleep(1.0)
    assert events(fresh_pg, mid) == {1: 2, 2: 2}


def test_a_deal_that_ended_with_no_update_is_applied_once_by_the_next_start(cluster, fresh_pg):
    (a,) = cluster(1)  # migrates the database
    mid, tokens, (ana, ben) = rated_match(fresh_pg, seed=9)
    # the deal's end is committed as a node commits it, and the node dies before the update
    store = Store(fresh_pg, run_migrations=False)
    table = store.load(mid)
    prev = table.version
    store.resign(table, prev, table.resign(0, "deal"))
    store.close()
    a.kill()
    assert events(fresh_pg, mid) == {}
    (b,) = cluster(1)
    assert events(fresh_pg, mid) == {1: 2}  # the start-up sweep ran before the node was ready
    assert outcome(b, "applied") == 1
    (c,) = cluster(1)
    assert metric(c, "gameweave_rated_deals_total") == 0  # nothing left to apply
    b.kill()
    (d,) = cluster(1)
    assert events(fresh_pg, mid) == {1: 2} and metric(d, "gameweave_rated_deals_total") == 0
    assert ratings(fresh_pg, ana)[0].lost == 1 and ratings(fresh_pg, ben)[0].won == 1

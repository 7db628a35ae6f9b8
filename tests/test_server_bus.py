"""The Redis bus itself (issue 18), on the test Redis through a TCP proxy
(tests/tcpproxy.py; the shared Redis server is never stopped): events published while
Redis is away wait in order and go out when it is back, each with its match's next
sequence number; a subscription that goes quiet without a FIN is noticed by its ping,
and the node resyncs once a new subscription is confirmed.  Needs
``GAMEWEAVE_TEST_REDIS_URL``."""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import pytest

from gameweave.server.bus import Bus

from tcpproxy import TcpProxy

REDIS_ENV = "GAMEWEAVE_TEST_REDIS_URL"
pytestmark = pytest.mark.skipif(not os.environ.get(REDIS_ENV), reason=f"the bus tests need {REDIS_ENV}")


class Listener:
    """What a node's hub hears: every event, and each resync."""

    def __init__(self):
        self.events: list[dict] = []
        self.resyncs: list[float] = []

    async def on_event(self, event: dict) -> None:
        self.events.append(event)

    async def on_resync(self) -> None:
        self.resyncs.append(time.monotonic())

    async def until(self, pred, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            assert time.monotonic() < deadline, (self.events, self.resyncs)
            await asyncio.sleep(0.02)


def _proxy() -> TcpProxy:
    port = int(os.environ[REDIS_ENV].rsplit(":", 1)[1].split("/")[0])
    return TcpProxy("127.0.0.1", port)


async def _bus(proxy: TcpProxy, prefix: str, node: str) -> tuple[Bus, Listener]:
    bus = Bus(f"redis://127.0.0.1:{proxy.port}/0", prefix, node)
    heard = Listener()
    await bus.start(heard.on_event, heard.on_resync)
    return bus, heard


@pytest.mark.timeout(60)
def test_events_wait_while_redis_is_away_and_arrive_in_order_with_the_match_s_sequence():
    proxy = _proxy()
    prefix = f"gwtest-{uuid.uuid4().hex[:10]}"

    async def scenario():
        a, _ = await _bus(proxy, prefix, "a")
        b, heard = await _bus(proxy, prefix, "b")
        a.publish({"kind": "action", "match": "m1", "version": 2})
        await heard.until(lambda: len(heard.events) == 1, 5)
        proxy.cut()
        await asyncio.sleep(0.3)
        for v in (3, 4, 5):  # committed while Redis is away: they wait
            a.publish({"kind": "action", "match": "m1", "version": v})
        a.publish({"kind": "action", "match": "m2", "version": 7})
        await asyncio.sleep(2.0)
        proxy.restore()
        back = time.monotonic()
        await heard.until(lambda: len(heard.resyncs) == 1, 3)  # b subscribed again, then resynced
        await heard.until(lambda: len(heard.events) >= 5, 3)
        assert time.monotonic() - back < 2.0
        assert await a.flush(2)  # nothing left waiting
        m1 = [e for e in heard.events if e["match"] == "m1"]
        assert [e["version"] for e in m1][-3:] == [3, 4, 5]  # in order, none dropped
        seqs = [e["seq"] for e in m1]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one counter per match
        assert [e["seq"] for e in heard.events if e["match"] == "m2"] == [1]
        assert all(e["node"] == "a" for e in heard.events)
        for bus in (a, b):
            await bus.close()

    _play(scenario, proxy, prefix)


@pytest.mark.timeout(60)
def test_a_subscription_that_goes_quiet_is_noticed_and_the_node_resyncs():
    proxy = _proxy()
    prefix = f"gwtest-{uuid.uuid4().hex[:10]}"

    async def scenario():
        b, heard = await _bus(proxy, prefix, "b")
        direct = Bus(os.environ[REDIS_ENV], prefix, "direct")  # publishes around the proxy
        proxy.freeze()  # no FIN, no RST: only the ping can tell
        direct.publish({"kind": "phrase", "match": "m1", "seat": 0, "key": "hi"})
        await direct._send_batch()
        await asyncio.sleep(4.5)  # past the 3 s without an answer
        proxy.thaw()
        await heard.until(lambda: len(heard.resyncs) >= 1, 8)  # a new subscription, confirmed, then a resync
        direct.publish({"kind": "phrase", "match": "m1", "seat": 0, "key": "after"})
        await direct._send_batch()
        await heard.until(lambda: any(e.get("key") == "after" for e in heard.events), 3)
        await b.close()
        await direct.close()

    _play(scenario, proxy, prefix)


def _play(scenario, proxy: TcpProxy, prefix: str) -> None:
    """Run ``scenario()``, then close the proxy and remove the test's keys."""
    try:
        asyncio.run(scenario())
    finally:
        proxy.close()
        _clean(prefix)


def _clean(prefix: str) -> None:
    import redis

    r = redis.Redis.from_url(os.environ[REDIS_ENV])
    for key in r.scan_iter(f"{prefix}:*"):
        r.delete(key)
    r.close()


@pytest.mark.timeout(60)
def test_issue10_a_noted_presence_rides_the_next_batch_waits_while_redis_is_away_and_a_drop_wins():
    """``Bus.note_presence`` (the heartbeat's touch, issue 10) costs no round trip of its
    own: the key appears with the next batch, with its TTL; a touch whose batch failed
    is sent again once Redis is back, but not for a seat whose socket closed meanwhile
    (``drop_presence`` while the batch was on its way)."""
    proxy = _proxy()
    prefix = f"gwtest-{uuid.uuid4().hex[:10]}"

    async def scenario():
        a, _ = await _bus(proxy, prefix, "a")
        key = lambda seat: f"{prefix}:presence:m1:{seat}"  # noqa: E731
        a.note_presence("m1", 0, 0.5)
        deadline = time.monotonic() + 3
        while await a.redis.get(key(0)) is None:
            assert time.monotonic() < deadline, "the noted presence was never set"
            await asyncio.sleep(0.02)
        assert (await a.redis.get(key(0))).decode() == "a"
        assert 0 < await a.redis.pttl(key(0)) <= 500
        await asyncio.sleep(0.6)  # it lapses
        proxy.freeze()  # Redis stops answering: the next batch hangs on its way
        a.note_presence("m1", 0, 5.0)
        a.note_presence("m1", 1, 5.0)
        deadline = time.monotonic() + 3
        while key(0) not in a._sending:
            assert time.monotonic() < deadline, "the batch with the touches never left"
            await asyncio.sleep(0.01)
        dropping = asyncio.create_task(a.drop_presence("m1", 0))  # seat 1's socket closes meanwhile
        await asyncio.sleep(0.1)
        proxy.cut()  # the batch fails
        proxy.thaw()
        await asyncio.sleep(0.3)
        proxy.restore()
        await dropping
        deadline = time.monotonic() + 5
        while await a.redis.get(key(1)) is None:
            assert time.monotonic() < deadline, "the touch of the failed batch never arrived"
            await asyncio.sleep(0.05)
        assert 2000 < await a.redis.pttl(key(1)) <= 5000
        await asyncio.sleep(0.3)
        assert await a.redis.get(key(0)) is None  # not brought back by the touch that waited
        await a.close()

    _play(scenario, proxy, prefix)


@pytest.mark.timeout(60)
def test_issue10_the_presence_sweep_reads_every_match_in_one_round_trip_per_batch(monkeypatch):
    """``Bus.presences`` answers for many matches at once (the presence sweep asks for
    every match with seats on other nodes each time), each seat as its own key says,
    across the batch boundary; None while Redis cannot be reached."""
    import gameweave.server.bus as busmod

    monkeypatch.setattr(busmod, "PRESENCE_BATCH", 3)
    proxy = _proxy()
    prefix = f"gwtest-{uuid.uuid4().hex[:10]}"

    async def scenario():
        a, _ = await _bus(proxy, prefix, "a")
        ids = [f"m{i}" for i in range(7)]
        for i, m in enumerate(ids):  # seat 1 heard in the even matches, seat 2 in every third
            if i % 2 == 0:
                await a.touch_presence(m, 0, 30)
            if i % 3 == 0:
                await a.touch_presence(m, 1, 30)
        calls = []
        real = a.redis.mget

        async def counted(keys):
            calls.append(len(keys))
            return await real(keys)

        a.redis.mget = counted
        got = await a.presences(ids)
        assert got == {m: (i % 2 == 0, i % 3 == 0) for i, m in enumerate(ids)}
        assert calls == [6, 6, 2]  # 7 matches, 3 a batch: three round trips
        assert await a.presence("m3") == (False, True)
        assert await a.presences([]) == {}
        proxy.cut()
        assert await a.presences(ids) is None
        proxy.restore()
        await a.close()

    _play(scenario, proxy, prefix)

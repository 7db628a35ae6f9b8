"""Several nodes inside one process (issue 18): two hubs on one database joined by an
in-memory bus that numbers each match's events as Redis does (``seq``).  Ints on the
bus: a classic and an anglo-american deal played through both hubs reload nothing; a
lost event shows as a gap in the sequence and the node catches up from the database; the
clock state travels with each event.  The real thing (processes, Redis) is in
tests/test_server_nodes_sync.py."""

from __future__ import annotations

import asyncio
import random

import pytest

from gameweave.engine.conformance import build_deck
from gameweave.server.hub import Hub
from gameweave.server.metrics import Metrics
from gameweave.storage import Store


class Net:
    """The in-memory Redis: every published event reaches every node in publish order,
    with a per-match sequence number; ``drop`` loses the next n events."""

    def __init__(self):
        self.nodes: list[FakeBus] = []
        self.seq: dict[str, int] = {}
        self.drop = 0
        self.queue: asyncio.Queue | None = None
        self.leases: dict[str, str] = {}

    async def run(self) -> None:
        while True:
            event = await self.queue.get()
            for node in list(self.nodes):
                await node.on_event(dict(event))
            self.queue.task_done()

    async def settle(self) -> None:
        await self.queue.join()


class FakeBus:
    """A :class:`~gameweave.server.bus.Bus` look-alike on a :class:`Net`."""

    def __init__(self, net: Net, node_id: str):
        self.net, self.node_id = net, node_id
        self.on_event = self.on_resync = None

    async def start(self, on_event, on_resync):
        self.on_event, self.on_resync = on_event, on_resync
        self.net.nodes.append(self)

    def publish(self, event):
        event["node"] = self.node_id
        match = event.get("match")
        if isinstance(match, str):
            event["seq"] = self.net.seq[match] = self.net.seq.get(match, 0) + 1
        if self.net.drop:
            self.net.drop -= 1
            return
        self.net.queue.put_nowait(event)

    async def acquire(self, match_id, ttl):
        return self.net.leases.setdefault(match_id, self.node_id) == self.node_id

    async def release(self, match_id):
        if self.net.leases.get(match_id) == self.node_id:
            del self.net.leases[match_id]

    async def seat_generation(self, match_id, seat):
        return 1

    async def touch_presence(self, *args):
        pass

    async def drop_presence(self, *args):
        pass

    async def presence(self, match_id):
        return True, True

    async def presences(self, match_ids):
        return {m: (True, True) for m in match_ids}

    async def ping(self):
        return True

    async def close(self):
        self.net.nodes.remove(self)


async def _cluster(url: str, deck) -> tuple[Net, list[Hub], asyncio.Task]:
    net = Net()
    net.queue = asyncio.Queue()
    runner = asyncio.create_task(net.run())
    hubs = []
    for i in range(2):
        hub = Hub(Store(url), bot_delay=0, deck_source=lambda: (deck, "ab" * 16), bus=FakeBus(net, f"h{i}"))
        hub.metrics = Metrics(f"h{i}", live_matches=lambda: 0, sockets=lambda: 0)
        await hub.start()
        hubs.append(hub)
    return net, hubs, runner


def _reloads(hub: Hub) -> float:
    text = hub.metrics.render()[0].decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("gameweave_match_reloads_total{"))


async def _match(net: Net, hubs: list[Hub], rules: str) -> tuple[str, list[str]]:
    table, tok1 = await hubs[0].create("friend", None, "tally", 3, rules=rules)
    _t, tok2 = await hubs[1].join(table.match_id, table.invite)
    await net.settle()
    return table.match_id, [tok1, tok2]


async def _play(net: Net, hubs: list[Hub], mid: str, tokens: list[str], rng: random.Random, steps: int) -> None:
    """Seat 1 acts through hub 0, seat 2 through hub 1, random legal actions (sent as
    the ids of the seat's own copy's legal actions)."""
    for _ in range(steps):
        t = hubs[0].tables[mid]
        if not t.playing:
            return
        seat = t.state.to_act
        mine = hubs[seat].tables[mid]
        await hubs[seat].act(mid, seat, tokens[seat], rng.choice(mine.state.legal_actions()), mine.version)
        await net.settle()


@pytest.mark.parametrize("rules", ["classic", "anglo-american", "gameweave"])
def test_a_deal_through_two_nodes_applies_every_step_from_the_event_and_reloads_nothing(db_url, rules):
    async def scenario():
        net, hubs, runner = await _cluster(db_url, build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s",
                                                              "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h"))
        mid, tokens = await _match(net, hubs, rules)
        await _play(net, hubs, mid, tokens, random.Random(11), 400)
        a, b = (h.tables[mid] for h in hubs)
        assert not a.playing and a.version == b.version and a.state.history == b.state.history
        assert a.match.results == b.match.results
        # each seat moves on through its own node: a ready event, then a deal event (the
        # other node reads the new deal's row: the deck never travels on the bus)
        await hubs[0].next_deal(mid, 0, tokens[0], a.version)
        await net.settle()
        assert b.ready == [True, False]
        await hubs[1].next_deal(mid, 1, tokens[1], b.version)
        await net.settle()
        assert a.version == b.version and len(a.deals) == len(b.deals) == 2
        assert a.deal.deck == b.deal.deck and a.state.opener == b.state.opener  # R9
        await _play(net, hubs, mid, tokens, random.Random(12), 5)
        assert a.state.history == b.state.history
        assert [_reloads(h) for h in hubs] == [0, 0]
        runner.cancel()
        for h in hubs:
            await h.close()

    asyncio.run(scenario())


def test_a_lost_event_is_a_gap_in_the_sequence_and_the_node_catches_up(db_url):
    async def scenario():
        net, hubs, runner = await _cluster(db_url, build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s",
                                                              "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h"))
        mid, tokens = await _match(net, hubs, "classic")
        seat = hubs[0].tables[mid].state.to_act  # classic draws the first opener (R9)
        mine, other = hubs[seat], hubs[1 - seat]
        t0 = mine.tables[mid]
        net.drop = 1  # the opener's turn never reaches the other node ...
        await mine.act(mid, seat, tokens[seat], "turn", t0.version)
        await net.settle()
        assert other.tables[mid].version == t0.version - 1
        # ... a quick phrase of the same seat (no new version) carries the next sequence number
        conn = type("C", (), {"match_id": mid, "seat": seat})()
        await mine.phrase(conn, "good_luck")
        await net.settle()
        assert other.tables[mid].version == t0.version  # it saw the gap and caught up
        assert _reloads(other) == 1 and _reloads(mine) == 0
        runner.cancel()
        for h in hubs:
            await h.close()

    asyncio.run(scenario())


def test_after_resubscribing_a_node_catches_up_what_it_missed(db_url):
    async def scenario():
        net, hubs, runner = await _cluster(db_url, build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s",
                                                              "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h"))
        mid, tokens = await _match(net, hubs, "gameweave")
        t0 = hubs[0].tables[mid]
        net.drop = 2  # the last two events are lost: nothing later reveals them
        await hubs[0].act(mid, 0, tokens[0], "turn", t0.version)
        await hubs[0].act(mid, 0, tokens[0], "meld 4h 5h 6h", t0.version)
        await net.settle()
        assert hubs[1].tables[mid].version == t0.version - 2
        await hubs[1].sync.resync()  # what the bus does once its new subscription is confirmed
        assert hubs[1].tables[mid].state.history == t0.state.history and _reloads(hubs[1]) == 1
        await hubs[1].sync.resync()  # nothing behind: one query, no reload
        assert _reloads(hubs[1]) == 1
        runner.cancel()
        for h in hubs:
            await h.close()

    asyncio.run(scenario())


def test_the_clock_state_travels_with_each_event(db_url):
    async def scenario():
        net, hubs, runner = await _cluster(db_url, build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s",
                                                              "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h"))
        table, tok1 = await hubs[0].create("friend", None, "tally", 3, clock=60)
        mid = table.match_id
        _t, tok2 = await hubs[1].join(mid, table.invite)
        await net.settle()
        a = hubs[0].tables[mid]
        a.bank = [12.5, 30.0]  # as after seat 1 ran 17.5 s into its bank
        a.timeouts, a.away = [1, 0], [False, False]
        a.timed_out = (0, a.version)
        await hubs[0].act(mid, 0, tok1, "turn", a.version)
        await net.settle()
        b = hubs[1].tables[mid]
        assert b.version == a.version and b.bank == a.bank and b.timeouts == a.timeouts == [0, 0]
        assert b.timed_out == a.timed_out
        ca, cb = (h.rooms[mid].clock.info(h.tables[mid]) for h in hubs)
        assert ca["bank"] == cb["bank"] and ca["to_act"] == cb["to_act"] == 1
        assert abs(ca["deadline_in_ms"] - cb["deadline_in_ms"]) < 200
        runner.cancel()
        for h in hubs:
            await h.close()

    asyncio.run(scenario())

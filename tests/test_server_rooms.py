"""The server core of issue 18, inside one process: one room per live match, the one
authoritative path and its storage-error policy, store calls off the event loop, the
timeout policy given in, and the reload counter.  On SQLite always, and on PostgreSQL
when ``GAMEWEAVE_TEST_DATABASE_URL`` is set."""

from __future__ import annotations

import ast
import asyncio
import threading
from pathlib import Path

import pytest

from gameweave.engine import REFUSE, TURN, GameState
from gameweave.engine.conformance import build_deck
from gameweave.server.hub import Hub
from gameweave.server.metrics import Metrics
from gameweave.server.room import MatchRoom
from gameweave.storage import Store
from gameweave.tables import TableError
from gameweave.tables.timeouts import TimeoutPolicy, first_legal

SERVER = Path(__file__).resolve().parent.parent / "src" / "gameweave" / "server"

# seat 1 opens; the first stock card 6h melds with 4h 5h, so seat 1 then throws
A = "4h 5h Ac 2s 3d Jd Qs Kd 7c 7s"
B = "3c 4c 5c Ks Js Qh 6d 7d Ah Ad"
DECK = build_deck(A, B, "6h")


def _hub(url: str, **kw) -> Hub:
    hub = Hub(Store(url), bot_delay=0, deck_source=lambda: (DECK, "ab" * 16), **kw)
    hub.metrics = Metrics("t", live_matches=lambda: len(hub.rooms), sockets=hub.socket_count)
    return hub


def _reloads(hub: Hub) -> dict[str, float]:
    text = hub.metrics.render()[0].decode()
    out = {}
    for line in text.splitlines():
        if line.startswith("gameweave_match_reloads_total{"):
            reason = line.split('reason="')[1].split('"')[0]
            out[reason] = float(line.rsplit(" ", 1)[1])
    return {k: v for k, v in out.items() if v}


async def _match(hub: Hub, **kw) -> tuple[str, str, str]:
    table, tok1 = await hub.create("friend", None, "tally", 3, **kw)
    _table, tok2 = await hub.join(table.match_id, table.invite)
    return table.match_id, tok1, tok2


# ---------------------------------------------------------------------------- one room per match
def test_one_room_holds_everything_of_a_match_and_forgetting_it_is_one_pop(tmp_path):
    async def scenario():
        hub = _hub(f"sqlite:///{tmp_path / 'r.db'}")
        mid, tok1, _tok2 = await _match(hub)
        room = hub.rooms[mid]
        assert isinstance(room, MatchRoom) and room.table is hub.tables[mid] and hub.locks[mid] is room.lock
        assert room.take_phrase(0, 3.0) and not room.take_phrase(0, 3.0)  # the seat's last phrase lives here
        await hub.act(mid, 0, tok1, "turn", room.table.version)
        assert hub.evict_idle(now=room.used + 10**6) == 1
        assert hub.rooms == {} and hub.tables == {} and hub.locks == {} and hub.used == {}
        assert room.closed  # its clock and bot tasks were stopped
        again = await hub.table(mid)  # reloads on demand, in a new room with no last phrase
        assert again.version == 2 and hub.rooms[mid] is not room and hub.rooms[mid].last_phrase == {}
        assert _reloads(hub) == {}  # a first load after an eviction is not a reload
        await hub.close()

    asyncio.run(scenario())


def test_the_hub_and_its_rooms_import_no_bot():
    """The timeout move comes from a policy the hub is given, the bots from a factory
    given in; only ``app.py`` (where the hub is built) imports :mod:`gameweave.bots`."""
    for name in ("hub", "room", "steps", "sync", "clock", "presence", "botrunner", "database", "bus"):
        tree = ast.parse((SERVER / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert "bots" not in (node.module or "").split("."), (name, node.module)
            elif isinstance(node, ast.Import):
                assert all("bots" not in a.name.split(".") for a in node.names), name


# ---------------------------------------------------------------------------- the timeout policy
def test_r10_r11_the_timeout_policy_refuses_else_turns_else_asks_its_chooser():
    st = GameState.new(seed=3)
    assert st.legal_actions() == [TURN] and TimeoutPolicy()(st, st.to_act) == TURN
    while st.status == "playing" and (REFUSE in st.legal_actions() or TURN in st.legal_actions()):
        if REFUSE in st.legal_actions():  # melding is optional: the policy lets the card go
            assert TimeoutPolicy()(st, st.to_act) == REFUSE
        st.apply(st.legal_actions()[0])
    assert st.status == "playing"  # a decision with neither: a throw or a meld to choose
    asked = []

    def chooser(view, legal):
        asked.append((view.seat, tuple(legal)))
        return legal[-1]

    assert TimeoutPolicy(chooser)(st, st.to_act) == st.legal_actions()[-1]
    assert asked == [(st.to_act, tuple(st.legal_actions()))]
    assert TimeoutPolicy()(st, st.to_act) == first_legal(None, st.legal_actions()) == st.legal_actions()[0]
    with pytest.raises(ValueError):
        TimeoutPolicy(lambda view, legal: -1)(st, st.to_act)


def test_a_timeout_plays_the_move_of_the_policy_the_hub_was_given(tmp_path):
    played = []

    def chooser(view, legal):  # pragma: no cover - the first decision is a turn
        return legal[0]

    class Recording(TimeoutPolicy):
        def __call__(self, state, seat):
            a = super().__call__(state, seat)
            played.append((seat, a))
            return a

    async def scenario():
        hub = _hub(f"sqlite:///{tmp_path / 't.db'}", clock_scale=0.01, timeout_policy=Recording(chooser))
        mid, _tok1, _tok2 = await _match(hub, clock=60)
        room = hub.rooms[mid]  # joined: the clock runs (0.6 s and a 0.3 s bank)
        for _ in range(300):
            if played:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert played[0] == (0, TURN) and room.table.state.history[0] == TURN
        assert room.table.timed_out == (0, 2) and room.table.bank[0] == 0
        await hub.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- storage off the loop
def test_every_store_call_runs_off_the_event_loop(tmp_path, monkeypatch):
    calls: list[tuple[str, str]] = []
    for name in ("load", "create", "join", "mark_ready", "add_deal", "resign", "abandon", "quiet_matches",
                 "commit_actions", "heads"):
        original = getattr(Store, name)

        def wrapped(self, *args, _name=name, _original=original, **kw):
            calls.append((_name, threading.current_thread().name))
            return _original(self, *args, **kw)

        monkeypatch.setattr(Store, name, wrapped)

    async def scenario():
        hub = _hub(f"sqlite:///{tmp_path / 'o.db'}")
        mid, tok1, tok2 = await _match(hub)
        t = hub.tables[mid]
        await hub.act(mid, 0, tok1, "turn", t.version)
        await hub.resign(mid, 1, tok2, "deal", t.version)
        await hub.next_deal(mid, 0, tok1, t.version)
        await hub.next_deal(mid, 1, tok2, t.version)
        await hub.close_abandoned()
        hub.evict_idle(now=hub.rooms[mid].used + 10**6)
        assert (await hub.table(mid)).version == t.version
        await hub.close()
        return threading.current_thread().name

    loop_thread = asyncio.run(scenario())
    names = {n for n, _ in calls}
    assert {"load", "create", "join", "mark_ready", "add_deal", "resign", "quiet_matches", "commit_actions"} <= names
    assert all(thread != loop_thread and thread.startswith("gameweave-") for _, thread in calls), calls


# ---------------------------------------------------------------------------- one storage-error policy
async def _two_nodes(url: str) -> tuple[Hub, Hub, str, str, str]:
    """Two hubs (no bus) on one database holding the same match at the same version."""
    a = _hub(url)
    mid, tok1, tok2 = await _match(a)
    b = _hub(url)
    assert (await b.table(mid)).version == a.tables[mid].version
    return a, b, mid, tok1, tok2


@pytest.mark.parametrize("first, then, code", [
    (("resign", 0, "deal"), ("resign", 1, "deal"), "deal_over"),
    (("resign", 0, "match"), ("resign", 1, "deal"), "match_over"),
    (("act", 0, "turn"), ("resign", 1, "match"), "stale"),
    (("resign", 0, "deal"), ("act", 0, "turn"), "deal_over"),
])
def test_r20_resign_after_a_reload_answers_by_the_same_checks_as_in_one_node(db_url, first, then, code):
    """Node B's copy is one step behind (node A stored it); B's message passes B's checks,
    loses the write, reloads, and is checked again: it hears the code one node gives
    for the same two messages in that order (before issue 18, a resignation always got
    ``stale`` here)."""
    async def send(hub, mid, tokens, msg, version):
        kind, seat, arg = msg
        if kind == "resign":
            return await hub.resign(mid, seat, tokens[seat], arg, version)
        return await hub.act(mid, seat, tokens[seat], arg, version)

    async def scenario():
        a, b, mid, tok1, tok2 = await _two_nodes(db_url)
        tokens = [tok1, tok2]
        v = a.tables[mid].version
        await send(a, mid, tokens, first, v)
        with pytest.raises(TableError) as lost:
            await send(b, mid, tokens, then, v)
        assert lost.value.version == v + 1 and b.tables[mid].version == v + 1
        assert _reloads(b) == {"conflict": 1}
        with pytest.raises(TableError) as one_node:  # the same second message on the node that has both
            await send(a, mid, tokens, then, v)
        assert lost.value.code == one_node.value.code == code
        for h in (a, b):
            await h.close()

    asyncio.run(scenario())


def test_next_deal_after_a_reload_answers_by_the_same_checks(db_url):
    """Deal 1 is over on both copies; seat 1 moved on through A, seat 2 through B (B
    deals deal 2).  Seat 2's next_deal sent again through A passes A's copy, loses the
    write, reloads and hears ``deal_not_over``, as one node says."""
    async def scenario():
        a, b, mid, tok1, tok2 = await _two_nodes(db_url)
        v = a.tables[mid].version
        await a.resign(mid, 0, tok1, "deal", v)
        b.rooms[mid].table = None  # B's live table dropped (as after a database error): it reloads
        assert (await b.table(mid)).version == v + 1 and _reloads(b) == {"dropped": 1}
        await a.next_deal(mid, 0, tok1, v + 1)  # A waits for seat 2
        await b.next_deal(mid, 1, tok2, v + 1)  # B sees both ready and deals deal 2
        assert b.tables[mid].version == v + 2 and a.tables[mid].version == v + 1
        with pytest.raises(TableError) as lost:
            await a.next_deal(mid, 1, tok2, v + 1)
        assert lost.value.code == "deal_not_over" and lost.value.version == v + 2
        assert _reloads(a) == {"conflict": 1}
        with pytest.raises(TableError) as one_node:
            await a.next_deal(mid, 1, tok2, v + 1)
        assert one_node.value.code == "deal_not_over"
        for h in (a, b):
            await h.close()

    asyncio.run(scenario())


def test_a_database_failure_drops_the_table_and_answers_server_error(tmp_path, monkeypatch):
    async def scenario():
        hub = _hub(f"sqlite:///{tmp_path / 'f.db'}")
        mid, tok1, tok2 = await _match(hub)
        v = hub.tables[mid].version

        def broken(*args, **kw):
            raise OSError("disk gone")

        monkeypatch.setattr(hub.store, "resign", broken)
        with pytest.raises(TableError) as exc:
            await hub.resign(mid, 0, tok1, "match", v)
        assert exc.value.code == "server_error" and exc.value.version == v
        assert mid not in hub.tables and mid in hub.rooms  # the room (and its sockets) stay
        monkeypatch.undo()
        t = await hub.table(mid)  # reloads: nothing was stored
        assert t.version == v and t.resigned is None
        await hub.act(mid, 0, tok1, "turn", v)
        await hub.close()

    asyncio.run(scenario())

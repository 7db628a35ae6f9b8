"""Races: the same action sent twice at once, and two conflicting actions at once —
exactly one applies, the other is refused with the code of the first check it fails
against the new state (``deal_over``, ``not_your_turn``, ``illegal`` or ``stale``,
PROTOCOL §4.2 "Races") and changes nothing.  Checked over one socket, inside one server (concurrent tasks), and between two
servers on one database."""

from __future__ import annotations

import asyncio

import pytest

from gameweave.engine.conformance import build_deck
from gameweave.server.hub import Hub
from gameweave.storage import Store, StorageError
from gameweave.tables import TableError

# seat 1 opens; the first stock card 6h melds with 4h 5h, so seat 1 then throws
A = "4h 5h Ac 2s 3d Jd Qs Kd 7c 7s"
B = "3c 4c 5c Ks Js Qh 6d 7d Ah Ad"
DECK = build_deck(A, B, "6h")


def _source():
    return DECK, "ab" * 16


async def _hub_with_match(url: str) -> tuple[Hub, str, str]:
    hub = Hub(Store(url), bot_delay=0, deck_source=_source)
    table, tok1 = await hub.create("friend", None, "first_to", 3)
    await hub.join(table.match_id, table.invite)
    return hub, table.match_id, tok1


def test_race_same_action_twice_and_conflicting_throws_in_one_server(db_url):
    async def scenario():
        hub, mid, tok = await _hub_with_match(db_url)
        t = hub.tables[mid]
        await hub.act(mid, 0, tok, "turn", t.version)
        await hub.act(mid, 0, tok, "meld 4h 5h 6h", t.version)
        v = t.version
        # the same action twice at once
        res = await asyncio.gather(
            hub.act(mid, 0, tok, "throw Kd", v), hub.act(mid, 0, tok, "throw Kd", v),
            return_exceptions=True,
        )
        ok = [r for r in res if not isinstance(r, Exception)]
        bad = [r for r in res if isinstance(r, Exception)]
        assert len(ok) == 1 and len(bad) == 1 and isinstance(bad[0], TableError)
        assert bad[0].code == "not_your_turn"  # the throw ended seat 1's decision (§4.2 Races)
        assert t.version == v + 1 and len(t.state.history) == 3 and t.state.to_act == 1
        assert hub.store.count_actions(mid) == 3
        await hub.close()

    asyncio.run(scenario())


_TOKENS: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _remember_seat2_tokens(monkeypatch):
    """Record seat 2's token when a test joins (the hub returns it once)."""
    original = Hub.join

    async def join(self, match_id, invite, name=None):
        table, token = await original(self, match_id, invite, name)
        _TOKENS[match_id] = token
        return table, token

    monkeypatch.setattr(Hub, "join", join)


def test_race_two_conflicting_actions_exactly_one_applies(db_url):
    async def scenario():
        hub, mid, tok = await _hub_with_match(db_url)
        t = hub.tables[mid]
        await hub.act(mid, 0, tok, "turn", t.version)
        await hub.act(mid, 0, tok, "meld 4h 5h 6h", t.version)
        v = t.version
        res = await asyncio.gather(
            hub.act(mid, 0, tok, "throw Ac", v), hub.act(mid, 0, tok, "throw Kd", v),
            return_exceptions=True,
        )
        errors = [r for r in res if isinstance(r, Exception)]
        assert len(errors) == 1 and errors[0].code in ("stale", "not_your_turn")
        assert t.version == v + 1
        thrown = t.state.history[-1]
        # both seats' stored logs agree with memory: reload from the database
        reloaded = hub.store.load(mid)
        assert reloaded.state.history == t.state.history and reloaded.version == t.version
        assert hub.store.count_actions(mid) == 3
        await hub.close()
        return thrown

    asyncio.run(scenario())


def test_race_stale_version_with_a_legal_action_gets_stale(db_url):
    async def scenario():
        hub, mid, tok = await _hub_with_match(db_url)
        t = hub.tables[mid]
        v0 = t.version
        await hub.act(mid, 0, tok, "turn", v0)
        await hub.act(mid, 0, tok, "refuse", t.version)
        await hub.act(mid, 1, _TOKENS[mid], "turn", t.version)
        await hub.act(mid, 1, _TOKENS[mid], "refuse", t.version)
        # seat 1 is to act again (take_or_turn); "turn" is legal but the version is old
        with pytest.raises(TableError) as exc:
            await hub.act(mid, 0, tok, "turn", v0)
        assert exc.value.code == "stale" and exc.value.version == t.version
        await hub.close()

    asyncio.run(scenario())


def test_race_over_one_socket_the_duplicate_is_refused(db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url, decks=[DECK])
    m1, m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s1.act("turn")
    s1.recv_state()
    s1.act("meld 4h 5h 6h")
    v = s1.recv_state()["version"]
    s1.act("throw Kd", v)
    s1.act("throw Kd", v)   # sent before the answer to the first
    s1.act("throw Ac", v)   # and a conflicting one
    frames = [s1.recv() for _ in range(3)]
    assert [f["type"] for f in frames] == ["state", "error", "error"]
    assert frames[0]["version"] == v + 1 and frames[0]["view"]["history"][-1]["action"] == "throw Kd"
    assert {f["code"] for f in frames[1:]} <= {"stale", "not_your_turn"}


def test_race_between_two_servers_on_one_database_exactly_one_commits(db_url):
    """Two server processes share a database: the version check in the UPDATE and the
    unique step number make the second writer fail, never both succeed; the loser is
    told why, as for a race inside one server (PROTOCOL §4.2 "Races")."""
    async def scenario():
        hub_a, mid, tok = await _hub_with_match(db_url)
        hub_b = Hub(Store(db_url), bot_delay=0, deck_source=_source)
        ta = await hub_a.table(mid)
        tb = await hub_b.table(mid)
        assert tb is not ta and tb.version == ta.version
        v = ta.version
        await hub_a.act(mid, 0, tok, "turn", v)
        with pytest.raises(TableError) as exc:
            await hub_b.act(mid, 0, tok, "turn", v)
        # B lost the write, reloaded, and checked the action again against the state
        # after A's `turn`: seat 1 must now meld or refuse, so a second `turn` is illegal
        assert exc.value.code == "illegal" and exc.value.version == v + 1
        # server B holds the reloaded copy, with A's action
        tb2 = await hub_b.table(mid)
        assert tb2.version == v + 1 and tb2.state.history == ta.state.history
        await hub_a.close()
        await hub_b.close()

    asyncio.run(scenario())


def test_storage_refuses_a_second_writer_for_the_same_step(db_url):
    store = Store(db_url)
    from gameweave.tables import Table

    table, tok = Table.create(opponent="friend", bot=None, format="tally", target=3, deck=DECK, salt="cd" * 16)
    store.create(table)
    prev = table.version
    a = table.check_action(0, tok, "turn", prev)
    table.apply_action(0, a)
    store.add_action(table, 0, "turn", 1, prev)
    with pytest.raises(StorageError):
        store.add_action(table, 0, "turn", 1, prev)
    store.close()


def test_race_the_loser_gets_the_code_of_its_first_failed_check_as_protocol_says(db_url):
    """PROTOCOL §4.2 "Races": the second of two messages at one version is checked against
    the state after the first (order kept: decision -> legal -> version)."""
    async def scenario():
        hub, mid, tok = await _hub_with_match(db_url)
        t = hub.tables[mid]
        v = t.version

        async def both(a1, a2, version):
            res = await asyncio.gather(hub.act(mid, 0, tok, a1, version), hub.act(mid, 0, tok, a2, version),
                                       return_exceptions=True)
            assert not isinstance(res[0], Exception), res
            assert isinstance(res[1], TableError), res
            return res[1].code

        # `turn` twice: after the first, seat 1 must meld or refuse the turned 6h -> illegal
        assert await both("turn", "turn", v) == "illegal"
        # `meld` twice: after the first, seat 1 must throw -> illegal
        assert await both("meld 4h 5h 6h", "meld 4h 5h 6h", t.version) == "illegal"
        # `throw Kd` twice: the first ends seat 1's decision -> not_your_turn
        assert await both("throw Kd", "throw Kd", t.version) == "not_your_turn"
        assert t.version == v + 3 and hub.store.count_actions(mid) == 3
        # still legal in the new position, only the version is old -> stale
        await hub.act(mid, 1, _TOKENS[mid], "turn", t.version)
        with pytest.raises(TableError) as exc:
            await hub.act(mid, 1, _TOKENS[mid], "refuse", t.version - 1)
        assert exc.value.code == "stale"
        await hub.close()

    asyncio.run(scenario())


def test_race_protocol_names_each_losers_code():
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs/PROTOCOL.md").read_text()
    races = doc[doc.index("**Races.**"):doc.index("### 4.3")]
    for code in ("deal_over", "not_your_turn", "illegal", "stale", "deal_not_over"):
        assert f"`{code}`" in races, code
    assert "`turn` sent twice" in races

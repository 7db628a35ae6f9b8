"""Playing with people (issue 10) through the HTTP/WS protocol: names, each seat's own
pace between deals, resigning a deal (R20: it counts as lost) or the match, abandoned
matches, the server's clock and its timeouts, presence from heartbeats, spectators that
never see a hidden card (R21 for a third party) and quick phrases."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from gameweave.engine import FULL_MASK
from gameweave.storage import Store
from gameweave.storage.schema import matches

from test_server_leak import leaked
from wsclient import WsClient


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _friend(client, name1=None, name2=None, **body) -> tuple[dict, dict]:
    r = client.post("/api/matches", json={"opponent": "friend", "name": name1, **body})
    assert r.status_code == 201, r.text
    m = r.json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    r2 = client.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite, "name": name2})
    assert r2.status_code == 200, r2.text
    return m, r2.json()


class Watcher(WsClient):
    """A spectator's socket: says ``hello`` with the watch key; keeps raw frames."""

    def __init__(self, client, match_id: str, key: str):
        super().__init__(client, match_id, {"watch": key})


@pytest.fixture
def watcher():
    """Factory ``watcher(client, match_id, key)`` -> :class:`Watcher` (closed at the end,
    before the server)."""
    opened = []

    def make(client, match_id, key):
        w = Watcher(client, match_id, key)
        opened.append(w)
        return w

    yield make
    for w in opened:
        w.close()


def until(seat, pred, limit: int = 200) -> dict:
    """Receive frames until one satisfies ``pred`` (the server pushes it by itself)."""
    for _ in range(limit):
        f = seat.recv()
        if pred(f):
            return f
    raise AssertionError("the expected frame never came")


# ---------------------------------------------------------------------------- names
def test_names_are_trimmed_and_shown_in_frames_summaries_records_and_replays(db_url, table_server, ws_seat):
    client = table_server(db_url)
    m1, m2 = _friend(client, "  Ana María ", "Beto")
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    players = s1.state["match"]["players"]
    assert players["1"]["name"] == "Ana María" and players["2"]["name"] == "Beto"
    assert players["1"]["kind"] == players["2"]["kind"] == "person"
    assert s1.state["match"]["opponent"]["kind"] == "person"  # kept for old clients
    summary = client.get(f"/api/matches/{mid}", headers=_auth(m2["token"])).json()
    assert summary["players"]["1"]["name"] == "Ana María"
    # a deal resigned at once gives a record and a replay that carry the names
    s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
    s1.recv_state()
    rec = client.get(f"/api/matches/{mid}/deals/1/record", headers=_auth(m1["token"])).json()
    assert rec["seats"]["1"]["name"] == "Ana María" and rec["seats"]["2"]["name"] == "Beto"
    rep = client.get(f"/api/matches/{mid}/deals/1/replay", headers=_auth(m2["token"])).json()
    assert rep["seats"]["2"]["name"] == "Beto"


def test_a_rematch_keeps_the_clock_and_the_asker_s_name(tmp_path, table_server):
    client = table_server(f"sqlite:///{tmp_path / 'r.db'}")
    m1, m2 = _friend(client, "Ana", "Beto", clock=30)
    r = client.post(f"/api/matches/{m1['match_id']}/rematch", headers=_auth(m2["token"]))
    assert r.status_code == 201
    new = client.get(f"/api/matches/{r.json()['match_id']}", headers=_auth(r.json()["token"])).json()
    assert new["players"]["1"]["name"] == "Beto" and new["clock"] == 30


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "Ana\nBeto", "a\u202eb", "\x00"])
def test_a_bad_name_is_refused_with_a_code_and_parameters(name, tmp_path, table_server):
    client = table_server(f"sqlite:///{tmp_path / 'n.db'}")
    r = client.post("/api/matches", json={"opponent": "friend", "name": name})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "bad_name" and r.json()["error"]["params"] == {"max": 24}
    m = client.post("/api/matches", json={"opponent": "friend"}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    r = client.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite, "name": name})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"


def test_a_name_of_24_characters_and_markup_is_kept_as_text(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'n.db'}")
    name = "<b>x</b>" + "é" * 16
    m = client.post("/api/matches", json={"opponent": "bot", "name": name}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    assert s1.state["match"]["players"]["1"]["name"] == name
    assert s1.state["match"]["players"]["2"] == {"name": None, "kind": "bot", "bot": "random", "online": True,
                                                 "away": False, "ready": True, "rating": None}


# ---------------------------------------------------------------------------- paces
def test_against_a_bot_moving_on_deals_at_once(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'b.db'}")
    m = client.post("/api/matches", json={"opponent": "bot", "format": "tally"}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
    over = s1.recv_state()
    assert over["match"]["waiting_for"] == [1]  # the bot is always ready
    s1.send({"type": "next_deal", "version": over["version"]})
    f = until(s1, lambda f: f["type"] == "state" and f["deal"]["number"] == 2)
    assert f["match"]["waiting_for"] == [] and f["match"]["last_deal"] == 1


def test_the_pace_survives_a_restart(db_url, table_server, ws_seat):
    client = table_server(db_url)
    m1, m2 = _friend(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
    v = s1.recv_state()["version"]
    s1.send({"type": "next_deal", "version": v})
    assert s1.recv_state()["match"]["waiting_for"] == [2]
    s1.close()
    client2 = table_server(db_url)  # a second process on the same database
    view = client2.get(f"/api/matches/{mid}/view", headers=_auth(m2["token"])).json()
    assert view["match"]["waiting_for"] == [2] and view["version"] == v


# ---------------------------------------------------------------------------- resign
def test_r20_resigning_a_deal_counts_it_as_won_by_the_other_seat(db_url, table_server, ws_seat):
    client = table_server(db_url)
    m1, m2 = _friend(client, "Ana", "Beto", format="first_to", target=2)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s2 = ws_seat(client, mid, 2, m2["token"])
    s1.recv_state()  # seat 2 connected
    v = s1.state["version"]
    s2.send({"type": "resign", "scope": "deal", "version": v})
    f1, f2 = s1.recv_state(), s2.recv_state()
    assert f1["version"] == f2["version"] == v + 1
    assert f1["view"]["status"] == "won" and f1["view"]["winner"] == 1 and f1["view"]["legal"] == []
    assert f1["choices"] == [] and f1["deal"]["resigned"] == 2 and f1["deal"]["reveal"] is not None
    assert f1["view"]["opponent_hand"] is not None  # the end of a deal shows the hand (R21)
    assert f1["match"]["score"] == {"1": 1, "2": 0, "tablas": 0} and f1["match"]["results"] == [1]
    rec = client.get(f"/api/matches/{mid}/deals/1/record", headers=_auth(m1["token"])).json()
    assert rec["result"] == {"status": "won", "winner": 1, "resigned": 2}
    rep = client.get(f"/api/matches/{mid}/deals/1/replay", headers=_auth(m1["token"]))
    assert rep.status_code == 200 and rep.json()["result"]["resigned"] == 2
    s1.act("turn")  # the deal is over
    assert s1.recv()["code"] == "deal_over"
    s1.send({"type": "resign", "scope": "deal", "version": v + 1})  # no deal being played
    assert s1.recv()["code"] == "deal_over"
    s1.send({"type": "resign", "scope": "set", "version": v + 1})
    assert s1.recv()["code"] == "malformed"
    # the score survives a reload from the database
    again = table_server(db_url).get(f"/api/matches/{mid}", headers=_auth(m1["token"])).json()
    assert again["score"] == {"1": 1, "2": 0, "tablas": 0}


def test_resigning_the_match_ends_it_with_the_other_seat_as_winner(db_url, table_server, ws_seat):
    client = table_server(db_url)
    m1, m2 = _friend(client, format="tally")
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s2 = ws_seat(client, mid, 2, m2["token"])
    s1.recv_state()
    s1.send({"type": "resign", "scope": "match", "version": s1.state["version"]})
    f1, f2 = s1.recv_state(), s2.recv_state()
    for f in (f1, f2):
        assert f["match"]["over"] is True and f["match"]["winner"] == 2 and f["match"]["resigned"] == 1
        assert f["deal"]["resigned"] == 1 and f["view"]["legal"] == []
    s2.send({"type": "next_deal", "version": f2["version"]})
    assert s2.recv()["code"] == "match_over"
    s2.send({"type": "resign", "scope": "match", "version": f2["version"]})
    assert s2.recv()["code"] == "match_over"
    fresh = table_server(db_url)
    for tok in (m1["token"], m2["token"]):
        summary = fresh.get(f"/api/matches/{mid}", headers=_auth(tok)).json()
        assert summary["status"] == "match_over" and summary["winner"] == 2 and summary["resigned"] == 1


# ---------------------------------------------------------------------------- abandon
def test_a_match_with_no_move_for_seven_days_is_closed_as_abandoned_on_load(db_url, table_server, ws_seat):
    client = table_server(db_url)
    m1, _m2 = _friend(client)
    mid = m1["match_id"]
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(update(matches).where(matches.c.id == mid)
                     .values(last_move_at=datetime.now(UTC) - timedelta(days=7, minutes=1)))
    store.close()
    fresh = table_server(db_url)
    summary = fresh.get(f"/api/matches/{mid}", headers=_auth(m1["token"])).json()
    assert summary["status"] == "abandoned" and summary["over"] is True and summary["winner"] is None
    s1 = ws_seat(fresh, mid, 1, m1["token"])
    assert s1.state["match"]["abandoned"] is True and s1.state["view"]["legal"] == []
    s1.act("turn")
    assert s1.recv()["code"] == "match_over"


def test_the_sweep_closes_quiet_matches_and_leaves_recent_ones(tmp_path):
    from gameweave.server.hub import Hub

    async def scenario():
        hub = Hub(Store(f"sqlite:///{tmp_path / 's.db'}"), bot_delay=0, abandon_after_days=7)
        old, _ = await hub.create("friend", None)
        closed = await hub.close_abandoned(now=time.time() + 6 * 86400)
        assert closed == 0 and not old.abandoned
        closed = await hub.close_abandoned(now=time.time() + 7 * 86400 + 60)
        assert closed == 1 and hub.tables[old.match_id].abandoned
        assert hub.store.load(old.match_id).abandoned
        await hub.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- clock
@pytest.mark.timeout(60)
def test_a_clock_timeout_is_played_by_the_server_and_two_in_a_row_mark_the_seat_away(tmp_path, table_server, ws_seat):
    # clock_scale 0.02: the 60 s clock is 1.2 s, its 30 s bank 0.6 s
    client = table_server(f"sqlite:///{tmp_path / 'c.db'}", clock_scale=0.02)
    m1, m2 = _friend(client, "Ana", "Beto", clock=60)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s2 = ws_seat(client, mid, 2, m2["token"])
    f = s1.recv_state()
    clock = f["match"]["clock"]
    assert clock["per_decision"] == pytest.approx(1.2) and clock["bank"] == {"1": 0.6, "2": 0.6}
    assert clock["to_act"] == 1 and 0 < clock["deadline_in_ms"] <= 1800
    assert f["view"]["legal"] == ["turn"]
    started = time.monotonic()
    # nobody acts: the server turns for seat 1 after its 1.2 s and its 0.6 s bank
    f1 = until(s1, lambda f: f["type"] == "state" and len(f["view"]["history"]) == 1)
    waited = time.monotonic() - started
    assert f1["view"]["history"][0] == {**f1["view"]["history"][0], "seat": 1, "action": "turn"}
    assert 1.5 <= waited < 10, waited
    assert f1["match"]["clock"]["bank"]["1"] == 0 and f1["match"]["players"]["1"]["away"] is False
    # both seats are told the server played that move (while it is the last one)
    assert f1["match"]["timed_out"] == {"seat": 1, "version": f1["version"]}
    f2 = until(s2, lambda f: f["type"] == "state" and len(f["view"]["history"]) == 1)
    assert f2["version"] == f1["version"] and f2["match"]["timed_out"] == {"seat": 1, "version": f1["version"]}
    # seat 1 decides on the turned card: melding is optional, the server refuses (no bank left)
    if "refuse" in f1["view"]["legal"]:
        f1 = until(s1, lambda f: f["type"] == "state" and len(f["view"]["history"]) == 2)
        assert f1["view"]["history"][1]["seat"] == 1 and f1["view"]["history"][1]["action"] == "refuse"
        assert f1["match"]["players"]["1"]["away"] is True  # two timeouts in a row
        # seat 2 acts itself in time; seat 1 stays away until it acts
        s2.act("turn", version=f1["version"])
        f1 = until(s1, lambda f: f["type"] == "state" and len(f["view"]["history"]) == 3)
        assert f1["match"]["timed_out"] is None  # a move made by a person is not a timeout
        assert f1["match"]["players"]["2"]["away"] is False and f1["match"]["players"]["1"]["away"] is True


@pytest.mark.timeout(60)
def test_a_decision_past_the_clock_uses_up_the_bank(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'c.db'}", clock_scale=0.05)  # 3 s, bank 1.5 s
    m1, m2 = _friend(client, clock=60)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    ws_seat(client, m1["match_id"], 2, m2["token"])
    s1.recv_state()
    time.sleep(3.5)  # past the clock, half a second into the bank (a second before the timeout)
    s1.act("turn")
    f = until(s1, lambda f: f["type"] == "state" and len(f["view"]["history"]) == 1)
    assert f["view"]["history"][0]["seat"] == 1  # its own move, in time
    bank = f["match"]["clock"]["bank"]
    assert 0 < bank["1"] <= 1.0 and bank["2"] == 1.5, bank
    assert f["match"]["clock"]["to_act"] == 1 and f["match"]["players"]["1"]["away"] is False


def test_a_clock_must_be_60_or_30_seconds(tmp_path, table_server):
    client = table_server(f"sqlite:///{tmp_path / 'c.db'}")
    for bad in (45, "60", 0):
        r = client.post("/api/matches", json={"opponent": "friend", "clock": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", bad
    r = client.post("/api/matches", json={"opponent": "bot", "clock": 30})
    assert r.status_code == 201
    view = client.get(f"/api/matches/{r.json()['match_id']}/view", headers=_auth(r.json()["token"])).json()
    assert view["match"]["clock"]["per_decision"] == 30 and view["match"]["clock"]["bank"] == {"1": 15, "2": 15}
    r = client.post("/api/matches", json={"opponent": "bot"})
    view = client.get(f"/api/matches/{r.json()['match_id']}/view", headers=_auth(r.json()["token"])).json()
    assert view["match"]["clock"] is None


# ---------------------------------------------------------------------------- presence
@pytest.mark.timeout(60)
def test_presence_goes_offline_when_heartbeats_stop_and_at_once_when_the_socket_closes(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'p.db'}", presence_timeout_s=0.8, presence_sweep_s=0.2)
    m1, m2 = _friend(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s2 = ws_seat(client, mid, 2, m2["token"])
    f = s1.recv_state()
    assert f["match"]["players"]["2"]["online"] is True
    started = time.monotonic()
    # seat 2 falls silent (its page froze or lost the network without closing)
    f = until(s1, lambda f: f["type"] == "state" and not f["match"]["players"]["2"]["online"])
    assert time.monotonic() - started < 5
    assert f["match"]["opponent"]["connected"] is False
    s2.send({"type": "heartbeat"})  # back: every seat hears it at once
    f = until(s1, lambda f: f["type"] == "state" and f["match"]["players"]["2"]["online"])
    s2.close()  # the page closed: offline at once
    f = until(s1, lambda f: f["type"] == "state" and not f["match"]["players"]["2"]["online"])
    assert time.monotonic() - started < 10


# ---------------------------------------------------------------------------- spectators
def test_r21_a_spectator_never_receives_a_hidden_card_and_never_acts(db_url, table_server, ws_seat, watcher):
    import random

    client = table_server(db_url, ws_burst=1e6, ws_rate=1e6)
    hub = client.app.state.hub
    m1, m2 = _friend(client, "Ana", "Beto", format="tally")
    mid = m1["match_id"]
    seats = {0: ws_seat(client, mid, 1, m1["token"]), 1: ws_seat(client, mid, 2, m2["token"])}
    seats[0].recv_state()
    watch_url = seats[0].state["match"]["watch_url"]
    assert watch_url.startswith(f"/watch/{mid}/") and seats[1].state["match"]["watch_url"] == watch_url
    key = watch_url.rsplit("/", 1)[1]
    assert key not in m1["invite_url"] and len(key) == 32
    assert client.get(watch_url).status_code == 200  # the page
    w = watcher(client, mid, key)
    first = w.recv()
    assert first["type"] == "state" and first["seat"] is None and first["view"]["hand"] == []
    assert first["match"]["watch_url"] is None and first["match"]["invite_url"] is None
    for s in (0, 1):  # both seats hear that one watches
        assert seats[s].recv_state()["match"]["spectators"] == 1
    rng = random.Random(7)
    deals = checked = 0
    while deals < 3:
        st = hub.tables[mid].state
        if not st.is_over:  # every frame of a deal being played, checked against that moment
            stock = 0
            for c in st.deck[st.stock_pos:]:
                stock |= 1 << c
            hidden = (st.hands[0] | st.hands[1] | stock) & FULL_MASK
            for raw in w.frames:
                assert not leaked(raw, hidden), raw
                assert '"hands":null' in raw and '"hand":[]' in raw and '"reveal":null' in raw
                checked += 1
        w.frames.clear()
        view = seats[0].state["view"]
        if view["status"] != "playing":
            assert w.state["view"]["hands"] is not None  # the reveal, once the deal is over
            assert sorted(w.state["view"]["hands"]["2"]) == sorted(seats[0].state["view"]["opponent_hand"])
            deals += 1
            for s in (0, 1):
                seats[s].send({"type": "next_deal", "version": seats[s].state["version"]})
                seats[0].recv_state(), seats[1].recv_state(), w.recv()
            assert w.state["deal"]["number"] == deals + 1
            w.frames[:] = w.frames[-1:]  # the first deal-over frame was the reveal; the new deal's is checked
            continue
        assert w.state["view"]["hands"] is None and w.state["view"]["legal"] == [] and w.state["choices"] == []
        s = view["to_act"] - 1
        seats[s].act(rng.choice(seats[s].state["view"]["legal"]))
        seats[0].recv_state(), seats[1].recv_state()
        assert w.recv()["version"] == seats[0].state["version"]
    assert checked > 20
    # a spectator never acts
    for frame in ({"type": "action", "action": "turn", "version": 1}, {"type": "next_deal", "version": 1},
                  {"type": "phrase", "key": "wow"}, {"type": "resign", "scope": "match", "version": 1}):
        w.ws.send_json(frame)
        err = w.recv()
        assert err["type"] == "error" and err["code"] == "spectator" and err["params"] == {}
    w.ws.send_json({"type": "ping"})
    assert w.recv() == {"type": "pong"}
    w.close()
    assert seats[0].recv_state()["match"]["spectators"] == 0


def test_a_wrong_watch_key_is_refused(tmp_path, table_server):
    client = table_server(f"sqlite:///{tmp_path / 'w.db'}")
    m1, _ = _friend(client)
    with client.websocket_connect(f"/ws/{m1['match_id']}") as ws:
        ws.send_json({"type": "hello", "watch": "0" * 32})
        err = ws.receive_json()
        assert err["code"] == "bad_watch_key" and err["params"] == {}
    with client.websocket_connect(f"/ws/{m1['match_id']}") as ws:
        ws.send_json({"type": "hello", "watch": m1["invite_url"].rsplit("/", 1)[1], "seat": 1})
        assert ws.receive_json()["code"] == "malformed"


# ---------------------------------------------------------------------------- phrases
def test_quick_phrases_reach_both_seats_and_spectators_and_are_rate_limited(tmp_path, table_server, ws_seat, watcher):
    client = table_server(f"sqlite:///{tmp_path / 'q.db'}")
    m1, m2 = _friend(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s2 = ws_seat(client, mid, 2, m2["token"])
    s1.recv_state()
    w = watcher(client, mid, s1.state["match"]["watch_url"].rsplit("/", 1)[1])
    w.recv()
    s1.recv_state(), s2.recv_state()  # one watches
    s2.send({"type": "phrase", "key": "good_luck"})
    for sock in (s1, s2, w):
        assert sock.recv() == {"type": "phrase", "seat": 2, "key": "good_luck"}
    s2.send({"type": "phrase", "key": "wow"})  # too soon
    assert s2.recv() == {"type": "error", "code": "rate_limited", "message": "one quick phrase every few seconds",
                         "params": {"seconds": 3}}
    s1.send({"type": "phrase", "key": "thanks"})  # the other seat has its own limit
    for sock in (s1, s2, w):
        assert sock.recv() == {"type": "phrase", "seat": 1, "key": "thanks"}
    s1.send({"type": "phrase", "key": "<script>"})
    err = s1.recv()
    assert err["code"] == "unknown_phrase"
    s1.send({"type": "phrase", "key": "hello", "text": "free text"})
    assert s1.recv()["code"] == "malformed"  # no free text, ever
    w.close()


@pytest.mark.parametrize("name", ["\U0001f469\U0001f3fd\u200d\U0001f680 Ana", "\U0001f3f3\ufe0f\u200d\U0001f308",
                                  "\U0001f600" * 24, "Jos\u00e9 \U0001f468\u200d\U0001f469\u200d\U0001f467"])
def test_an_emoji_name_joined_with_zwj_is_a_name_not_a_control_character(name, tmp_path, table_server):
    """Issue 10: names are 1-24 characters; the joiners inside an emoji are not control
    characters and do not count."""
    client = table_server(f"sqlite:///{tmp_path / 'e.db'}")
    r = client.post("/api/matches", json={"opponent": "friend", "name": name})
    assert r.status_code == 201, r.json()
    m = client.get(f"/api/matches/{r.json()['match_id']}", headers=_auth(r.json()["token"])).json()
    assert m["players"]["1"]["name"] == name

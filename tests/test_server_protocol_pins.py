"""What PROTOCOL says where it used to say two things (issue 18): a second ``next_deal``
(§4.1, §4.2), ``null`` in a create request (§3.2), which error frames carry the state
version (§4.4), and how often ``rate_limited`` is said (§5)."""

from __future__ import annotations

import pytest

from wsclient import WsClient


@pytest.fixture
def client(tmp_path, table_server):
    return table_server(f"sqlite:///{tmp_path / 'pins.db'}")


def _resign_deal(seat) -> dict:
    """Seat resigns the deal being played; returns its frame of the finished deal."""
    seat.send({"type": "resign", "scope": "deal", "version": seat.state["version"]})
    return seat.recv_state()


# ---------------------------------------------------------------------------- next_deal
def test_a_second_next_deal_from_a_seat_is_harmless_and_the_deal_comes_once_both_moved_on(
        client, friend_match, ws_seat):
    m1, m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s2 = ws_seat(client, m1["match_id"], 2, m2["token"])
    s1.recv_state()  # seat 2 came online
    v = _resign_deal(s1)["version"]
    s2.recv_state()
    for _ in range(2):  # seat 1 moves on, then says it again: nothing changes, nothing refused
        s1.send({"type": "next_deal", "version": v})
        f1, f2 = s1.recv_state(), s2.recv_state()
        assert f1["version"] == f2["version"] == v and f1["match"]["waiting_for"] == [2]
        assert f1["deal"]["number"] == 1 and f1["deal"]["reveal"] is not None
    s2.send({"type": "next_deal", "version": v})  # the other seat moves on: the deal comes
    f1, f2 = s1.recv_state(), s2.recv_state()
    assert f1["version"] == f2["version"] == v + 1 and f1["deal"]["number"] == 2
    s1.send({"type": "next_deal", "version": v})  # after the deal was dealt: deal_not_over
    err = s1.recv()
    assert err["type"] == "error" and err["code"] == "deal_not_over" and err["version"] == v + 1


def test_a_next_deal_after_the_bot_match_dealt_gets_deal_not_over(client, ws_seat):
    m = client.post("/api/matches", json={"opponent": "bot", "format": "tally"}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    v = _resign_deal(s1)["version"]
    s1.send({"type": "next_deal", "version": v})  # the bot is always ready: dealt at once
    s1.send({"type": "next_deal", "version": v})
    codes = []
    while len(codes) < 2:
        f = s1.recv()
        if f["type"] == "state" and f["version"] == v + 1:
            codes.append("dealt")
        elif f["type"] == "error":
            codes.append(f["code"])
    assert codes == ["dealt", "deal_not_over"]


# ---------------------------------------------------------------------------- null (§3.2)
@pytest.mark.parametrize("field", ["bot", "name", "clock"])
def test_null_is_the_same_as_leaving_out_bot_name_and_clock(client, field):
    r = client.post("/api/matches", json={"opponent": "bot", field: None})
    assert r.status_code == 201, r.text
    frame = client.get(f"/api/matches/{r.json()['match_id']}/view",
                       headers={"Authorization": f"Bearer {r.json()['token']}"}).json()
    assert frame["match"]["players"]["2"]["bot"] == "random"
    assert frame["match"]["players"]["1"]["name"] is None and frame["match"]["clock"] is None


@pytest.mark.parametrize("field", ["opponent", "rules", "format", "target", "stake", "tablas_stake", "hints"])
def test_null_is_refused_in_every_other_create_field(client, field):
    r = client.post("/api/matches", json={"opponent": "bot", "rules": "classic", field: None})
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", r.text


# ---------------------------------------------------------------------------- version (§4.4)
def test_errors_of_checks_against_the_match_carry_its_version(client, friend_match, ws_seat):
    m1, _m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    v = s1.state["version"]
    for frame, code in [
        ({"type": "action", "action": "turn", "version": v + 5}, "stale"),
        ({"type": "action", "action": None, "version": v}, "malformed"),  # not an action (step 5)
        ({"type": "action", "action": "turn", "version": "1"}, "malformed"),  # not a version (step 6)
        ({"type": "action", "action": "throw Ah", "version": v}, "illegal"),
        ({"type": "next_deal", "version": v}, "deal_not_over"),
        ({"type": "resign", "scope": "set", "version": v}, "malformed"),
    ]:
        s1.send(frame)
        err = s1.recv()
        assert err["type"] == "error" and err["code"] == code and err["version"] == v, (frame, err)


def test_errors_about_the_frame_itself_carry_no_version(client, friend_match, ws_seat):
    m1, _m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    for frame, code in [
        ({"type": "move"}, "malformed"),  # unknown type
        ({"type": "action", "action": "turn", "version": 1, "colour": "red"}, "malformed"),  # unknown field
        ({"type": "phrase", "key": "nonsense"}, "unknown_phrase"),
        ({"type": "hello", "seat": 1, "token": "0" * 64}, "bad_token"),  # hello again, wrong token
    ]:
        s1.send(frame)
        err = s1.recv()
        assert err["type"] == "error" and err["code"] == code and "version" not in err, (frame, err)
    s1.ws.send_text("{not json")
    err = s1.recv()
    assert err["code"] == "malformed" and "version" not in err
    s1.ws.send_text("x" * (64 * 1024 + 1))
    err = s1.recv()
    assert err["code"] == "too_large" and "version" not in err


def test_rate_limited_is_said_for_the_first_refused_frame_and_every_20th_then_the_flood_closes(
        tmp_path, table_server, friend_match, ws_seat):
    from starlette.websockets import WebSocketDisconnect

    client = table_server(f"sqlite:///{tmp_path / 'flood.db'}", ws_burst=1, ws_rate=0.001)
    m1, _m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    for _ in range(201):  # the first takes the one token; 200 are refused
        s1.send({"type": "ping"})
    got = []
    with pytest.raises(WebSocketDisconnect) as exc:
        while True:
            got.append(s1.recv())
    limited = {"type": "error", "code": "rate_limited", "message": "too many frames; slow down", "params": {}}
    assert got == [{"type": "pong"}] + [limited] * 11  # refused frames 1, 20, 40, …, 200
    assert exc.value.code == 1008 and exc.value.reason == "flood"


def test_a_spectators_refusal_carries_no_version(client, friend_match):
    m1, _m2 = friend_match(client)
    seat = WsClient(client, m1["match_id"], {"seat": 1, "token": m1["token"]})
    key = seat.recv()["match"]["watch_url"].rsplit("/", 1)[1]
    watcher = WsClient(client, m1["match_id"], {"watch": key})
    try:
        assert watcher.recv()["type"] == "state"
        watcher.ws.send_json({"type": "action", "action": "turn", "version": 1})
        err = watcher.recv()
        assert err["code"] == "spectator" and "version" not in err
    finally:
        watcher.close()
        seat.close()

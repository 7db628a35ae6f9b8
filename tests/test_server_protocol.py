"""The table server through its protocol (docs/PROTOCOL.md): two people play whole deals
over WebSockets — a forcing chain (R15) and a forced win (R16) — and every refused
message (out of turn, stale, forged token, illegal, malformed) changes nothing."""

from __future__ import annotations

import hashlib
import json

import pytest
from typer.testing import CliRunner

from gameweave.cli import app as cli_app
from gameweave.engine.conformance import build_deck

# The forcing chain of tests/test_rules_play.py (R15); seat 1 opens deal 1 (R9).
CHAIN_A = "6h 7h 6c 2c Ad 2s 3d Jd Qs Kd"
CHAIN_B = "3c 4c 5h 4h Ks 7s Js Qh 6d 7d"
CHAIN = [  # (seat, action)
    (1, "turn"), (1, "refuse"),
    (2, "meld 3c 4c 5c"), (2, "throw 5h"),
    (1, "meld 5h 6h 7h"), (1, "throw 6c force 1"),   # A forces 6c onto B's 3c 4c 5c
    (2, "throw 4h force 1"),                          # B, forced, forces 4h back
    (1, "throw 2c force 1"),                          # A, forced, forces 2c again
    (2, "throw Ks"),
]
# The eleven scenario (R16); seat 2 opens deal 2 (R9), so seat 2 is "A" and seat 1 "B".
ELEVEN_A = "2d Qc 6c Jc Qs Kd 3h 5s 6s Jd"
ELEVEN_B = "2c 3c 4d 5d 6d Jh Qh Kh 2h 3d"
ELEVEN = [
    (2, "turn"), (2, "refuse"), (1, "meld 2c 3c 4c"), (1, "throw 2h"),
    (2, "turn"), (2, "refuse"), (1, "meld 4d 5d 6d 7d"), (1, "throw 3d"),
    (2, "turn"), (2, "refuse"), (1, "meld 7h Jh Qh"), (1, "throw Kh"),
    (2, "turn"), (2, "refuse force 1"),               # 5c forced onto seat 1's table: eleven
]


def step(seats: dict, seat: int, action: str) -> dict:
    """Seat ``seat`` sends ``action``; both seats must get the next state frame."""
    before = seats[seat].state["version"]
    seats[seat].act(action)
    f1, f2 = seats[1].recv(), seats[2].recv()
    assert f1["type"] == "state" and f2["type"] == "state", (action, f1, f2)
    assert f1["version"] == f2["version"] == before + 1
    assert f1["view"]["history"][-1] == f2["view"]["history"][-1]
    assert f1["view"]["history"][-1]["action"] == action
    return f1 if seat == 1 else f2


def connect_both(ws_seat, client, m1, m2) -> dict:
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s2 = ws_seat(client, m1["match_id"], 2, m2["token"])
    presence = s1.recv_state()  # seat 1 hears that seat 2 connected (same version)
    assert presence["match"]["opponent"] == {"kind": "person", "joined": True, "connected": True}
    assert presence["version"] == s2.state["version"]
    return {1: s1, 2: s2}


def view_of(client, match_id: str, token: str) -> dict:
    r = client.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()


def test_r15_r16_two_people_play_a_forcing_chain_and_a_forced_win_over_websockets(
    db_url, table_server, ws_seat, friend_match, tmp_path
):
    deal1 = build_deck(CHAIN_A, CHAIN_B, "5c")
    deal2 = build_deck(ELEVEN_A, ELEVEN_B, "4c 7d 7h 5c")
    client = table_server(db_url, decks=[deal1, deal2])
    m1, m2 = friend_match(client, format="first_to", target=3)
    mid = m1["match_id"]
    seats = connect_both(ws_seat, client, m1, m2)
    start = seats[1].state
    assert start["view"]["to_act"] == 1 and start["view"]["legal"] == ["turn"]
    assert seats[2].state["view"]["legal"] == []  # only the seat to act gets legal actions
    assert start["deal"]["reveal"] is None and len(start["deal"]["commitment"]) == 64

    # ---- deal 1: the forcing chain (R15)
    for seat, action in CHAIN:
        step(seats, seat, action)
    v1 = seats[1].state["view"]
    assert v1["melds"] == {"1": [["4h", "5h", "6h", "7h"]], "2": [["2c", "3c", "4c", "5c", "6c"]]}
    assert (v1["to_act"], v1["decision"], v1["live"], v1["live_from"]) == (1, "take_or_turn", "Ks", 2)
    # finish the deal by always choosing the first legal action
    guard = 0
    while seats[1].state["view"]["status"] == "playing":
        guard += 1
        assert guard < 200
        to_act = seats[1].state["view"]["to_act"]
        step(seats, to_act, seats[to_act].state["view"]["legal"][0])
    end1 = seats[1].state
    assert end1["deal"]["reveal"]["deck"] == " ".join(
        __import__("gameweave.engine", fromlist=["CARD_NAMES"]).CARD_NAMES[c] for c in deal1)
    reveal = end1["deal"]["reveal"]
    assert hashlib.sha256((reveal["deck"] + " " + reveal["salt"]).encode()).hexdigest() == end1["deal"]["commitment"]
    assert end1["view"]["opponent_hand"] is not None  # shown once the deal is over (R21)

    # ---- next deal: each seat's own pace (issue 10); seat 2 opens deal 2 (R9)
    v = end1["version"]
    seats[1].send({"type": "next_deal", "version": v})
    f1, f2 = seats[1].recv_state(), seats[2].recv_state()
    assert f1["version"] == f2["version"] == v  # nothing dealt: seat 2 has not moved on
    assert f2["view"]["opponent_hand"] is not None and f2["deal"]["reveal"] is not None  # its end screen stays
    assert f1["match"]["waiting_for"] == f2["match"]["waiting_for"] == [2]
    assert f2["match"]["players"]["1"]["ready"] and not f2["match"]["players"]["2"]["ready"]
    seats[2].send({"type": "next_deal", "version": v})
    f1, f2 = seats[1].recv_state(), seats[2].recv_state()
    assert f1["version"] == f2["version"] == v + 1
    assert f1["deal"]["number"] == 2 and f1["view"]["opener"] == 2 and f1["deal"]["reveal"] is None
    assert f1["match"]["waiting_for"] == [] and f1["match"]["last_deal"] == 1
    seats[2].send({"type": "next_deal", "version": v})  # too late: the deal is dealt
    err = seats[2].recv()
    assert err["type"] == "error" and err["code"] in ("stale", "deal_not_over") and err["version"] == v + 1

    # ---- deal 2: a forced card brings seat 1 to eleven (R15, R16)
    for seat, action in ELEVEN:
        step(seats, seat, action)
    s1 = seats[1].state
    assert s1["view"]["status"] == "won" and s1["view"]["winner"] == 1
    assert s1["view"]["melds"]["1"][0] == ["2c", "3c", "4c", "5c"]
    results = s1["match"]["results"]
    assert s1["match"]["score"] == {"1": results.count(1), "2": results.count(2), "tablas": results.count(None)}
    assert s1["match"]["results"][-1] == 1 and s1["match"]["deal_number"] == 2
    # an action after the end of the deal: deal_over, nothing changes
    seats[2].act("turn")
    err = seats[2].recv()
    assert err["code"] == "deal_over" and err["version"] == s1["version"]

    # ---- the record download, and `gameweave verify` on it
    r = client.get(f"/api/matches/{mid}/deals/2/record", headers={"Authorization": f"Bearer {m2['token']}"})
    assert r.status_code == 200, r.text
    rec = r.json()
    assert rec["record"]["opener"] == 2 and rec["record"]["actions"] == [a for _, a in ELEVEN]
    assert rec["commitment"] == s1["deal"]["commitment"]
    path = tmp_path / "deal2.json"
    path.write_text(json.dumps(rec))
    res = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert res.exit_code == 0, res.output
    assert "commitment OK" in res.output and "seat 1 won" in res.output
    rec["salt"] = ("1" if rec["salt"][0] == "0" else "0") + rec["salt"][1:]  # always another salt
    path.write_text(json.dumps(rec))
    bad = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert bad.exit_code == 1


def test_out_of_turn_stale_illegal_and_forged_token_are_refused_and_change_nothing(
    db_url, table_server, ws_seat, friend_match
):
    client = table_server(db_url)
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    seats = connect_both(ws_seat, client, m1, m2)
    v = seats[1].state["version"]
    before = view_of(client, mid, m1["token"])

    seats[2].act("turn")  # seat 1 opens: not seat 2's decision
    assert seats[2].recv() == {"type": "error", "code": "not_your_turn",
                               "message": "it is seat 1's decision, not seat 2's", "version": v,
                               "params": {"seat": 1}}
    seats[1].act("turn", version=v - 1)
    err = seats[1].recv()
    assert err["code"] == "stale" and err["version"] == v
    seats[1].act("throw Ks")
    assert seats[1].recv()["code"] == "illegal"
    seats[1].act("dance a jig")
    err = seats[1].recv()
    assert err["code"] == "illegal" and "not an action" in err["message"]
    seats[1].send({"type": "action", "action": "turn", "version": "7"})
    assert seats[1].recv()["code"] == "malformed"

    # a forged token: seat 2's token cannot hold seat 1, nor can a made-up one
    from starlette.websockets import WebSocketDisconnect

    for token in (m2["token"], "0" * 64, "", None):
        with client.websocket_connect(f"/ws/{mid}") as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": token})
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4401
    r = client.get(f"/api/matches/{mid}/view", headers={"Authorization": "Bearer " + "f" * 64})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"

    after = view_of(client, mid, m1["token"])
    assert after == before and after["version"] == v and after["view"]["history"] == []
    seats[1].send({"type": "ping"})
    assert seats[1].recv() == {"type": "pong"}


def test_malformed_unknown_and_oversized_frames_get_errors_not_crashes(db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url)
    m1, m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    v = s1.state["version"]
    for raw, code in [
        ("{not json", "malformed"), ("[1, 2]", "malformed"), ('"hello"', "malformed"),
        ('{"type": "dance"}', "malformed"), ('{"no": "type"}', "malformed"),
        (json.dumps({"type": "action", "action": "x" * 70000, "version": v}), "too_large"),
        ('{"type": "action", "version": 1}', "malformed"),
    ]:
        s1.ws.send_text(raw)
        assert s1.recv()["code"] == code, raw
    s1.ws.send_bytes(b"\x00\x01")
    assert s1.recv()["code"] == "malformed"
    s1.send({"type": "ping"})
    assert s1.recv() == {"type": "pong"}  # still alive
    assert view_of(client, m1["match_id"], m1["token"])["version"] == v

    # unknown match, bad hello
    from starlette.websockets import WebSocketDisconnect

    for address in ("/ws/0123456789abcdef", "/ws/a/b", f"/ws/{m1['match_id']}/x", "/ws/lobby/x"):
        with client.websocket_connect(address) as ws:  # any address under /ws/ (PROTOCOL §1)
            ws.send_json({"type": "hello", "seat": 1, "token": m1["token"]})
            assert ws.receive_json()["code"] == "unknown_match", address
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4404
    with client.websocket_connect(f"/ws/{m1['match_id']}") as ws:
        ws.send_json({"type": "action", "action": "turn", "version": v})
        assert ws.receive_json()["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4400


def test_flood_is_rate_limited_and_the_match_is_unchanged(db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url, ws_burst=10, ws_rate=1.0)
    m1, _m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    for _ in range(30):
        s1.send({"type": "ping"})
    got = [s1.recv() for _ in range(11)]
    assert got[:10] == [{"type": "pong"}] * 10
    assert got[10]["code"] == "rate_limited"
    assert view_of(client, m1["match_id"], m1["token"])["view"]["history"] == []


def test_http_lobby_errors_are_typed(db_url, table_server, friend_match):
    client = table_server(db_url)
    assert client.get("/api/bots").json()["bots"][0] == "random"
    r = client.post("/api/matches", json={"opponent": "bot", "bot": "no-such-bot"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot"
    r = client.post("/api/matches", content=b"{oops", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    r = client.post("/api/matches", json={"format": "first_to", "target": 0})
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    r = client.post("/api/matches", json={"format": "x" * 70000})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    r = client.post(f"/api/matches/{mid}/join", json={"invite": m1["invite_url"].rsplit("/", 1)[1]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_joined"
    m3 = client.post("/api/matches", json={"opponent": "friend"}).json()
    r = client.post(f"/api/matches/{m3['match_id']}/join", json={"invite": "0" * 32})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_invite"
    r = client.post("/api/matches/ffffffffffffffff/join", json={"invite": "0" * 32})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
    r = client.get(f"/api/matches/{mid}/deals/1/record", headers={"Authorization": f"Bearer {m1['token']}"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "deal_not_over"
    r = client.get(f"/api/matches/{mid}/deals/9/record", headers={"Authorization": f"Bearer {m1['token']}"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_deal"
    r = client.get(f"/api/matches/{mid}/view")
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    # my-matches: only seats with a valid token are listed
    r = client.post("/api/my-matches", json={"seats": [
        {"match_id": mid, "token": m1["token"]}, {"match_id": mid, "token": m2["token"]},
        {"match_id": mid, "token": "bad"}, {"match_id": "nope", "token": "bad"},
        {"match_id": m3["match_id"], "token": m3["token"]},
    ]})
    got = r.json()["matches"]
    assert [(s["match_id"], s["seat"], s["status"]) for s in got] == [
        (mid, 1, "your_turn"), (mid, 2, "their_turn"), (m3["match_id"], 1, "waiting_for_opponent")]
    # seat 1 of an unjoined friend match sees its invite in the state; seat 2 never does
    assert view_of(client, m3["match_id"], m3["token"])["match"]["invite_url"] == m3["invite_url"]
    assert view_of(client, mid, m2["token"])["match"]["invite_url"] is None
    assert client.get("/docs").status_code == 200
    assert client.get("/table/" + mid).status_code == 200
    # an address naming no match or no player is the same page (it says so), answered 404
    for path in ("/table/0123456789abcdef", "/table/" + "x" * 300, "/player/nobody-here", "/player/%00"):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path


def test_a_new_socket_for_a_seat_replaces_the_old_one(db_url, table_server, ws_seat, friend_match):
    from starlette.websockets import WebSocketDisconnect

    client = table_server(db_url)
    m1, _m2 = friend_match(client)
    old = ws_seat(client, m1["match_id"], 1, m1["token"])
    new = ws_seat(client, m1["match_id"], 1, m1["token"])
    with pytest.raises(WebSocketDisconnect) as exc:
        while True:
            old.recv()
    assert exc.value.code == 4000
    new.act("turn")
    assert new.recv_state()["view"]["decision"] == "meld_or_refuse"


def test_bot_match_bot_plays_its_turns_one_frame_each(db_url, table_server, ws_seat):
    client = table_server(db_url, bot_delay=0.0)
    r = client.post("/api/matches", json={"opponent": "bot", "bot": "random", "format": "tally"})
    assert r.status_code == 201
    m = r.json()
    assert m["invite_url"] is None
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    assert s1.state["match"]["opponent"] == {"kind": "bot", "bot": "random"}
    versions = [s1.state["version"]]
    for _ in range(400):
        st = s1.state
        if st["view"]["status"] != "playing":
            break
        if st["view"]["to_act"] == 1:
            s1.act(st["view"]["legal"][0])
        f = s1.recv_state()
        versions.append(f["version"])
    assert s1.state["view"]["status"] != "playing"
    # every change (person's or bot's) arrived as its own frame, versions one by one
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert any(h["seat"] == 2 for h in s1.state["view"]["history"])

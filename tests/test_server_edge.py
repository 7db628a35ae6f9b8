"""The edge, hardened: every malformed input of the black-box probe gets its documented
code, no socket is dropped, no traceback reaches the log, and unknown match ids leave
nothing behind (PROTOCOL §3, §4, §5)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import tracemalloc

import pytest

from gameweave.engine.conformance import build_deck

from nodes import Node

A = "4h 5h Ac 2s 3d Jd Qs Kd 7c 7s"
B = "3c 4c 5c Ks Js Qh 6d 7d Ah Ad"
DECK = build_deck(A, B, "6h")

PROBES = int(os.environ.get("GAMEWEAVE_TEST_PROBE_IDS", "10000"))
"""Random match ids probed by the memory test (the issue's figure is 100,000: set
``GAMEWEAVE_TEST_PROBE_IDS=100000`` to run that)."""


@pytest.fixture
def client(table_server, tmp_path):
    return table_server(f"sqlite:///{tmp_path / 'edge.db'}", decks=[DECK] * 5)


def test_a_force_number_of_5000_digits_is_illegal_and_the_socket_stays(client, friend_match, ws_seat):
    m1, _m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s1.act("throw Ah force " + "9" * 5000)
    err = s1.recv()
    assert err["type"] == "error" and err["code"] == "illegal", err
    assert len(err["message"]) <= 300 and err["version"] == s1.state["version"]
    s1.send({"type": "ping"})
    assert s1.recv() == {"type": "pong"}
    s1.act("turn")
    assert s1.recv_state()["version"] == 2


@pytest.mark.parametrize("body", [
    b"\xff\xfe{}",                                # not UTF-8
    b"[" * 990 + b"]" * 990,                      # nested 990 deep
    b'{"target": ' + b"9" * 5000 + b"}",          # a whole number over 4,300 digits
    b"\x00\x00\x00{",                             # NUL bytes (read as UTF-32 by json)
    b'{"opponent": "bot\x00"}',                   # a NUL inside a string
    b"\x00",
])
def test_bodies_that_are_not_json_text_get_422_malformed(client, body):
    r = client.post("/api/matches", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, (body[:20], r.status_code, r.text)
    assert r.json()["error"]["code"] == "malformed"
    assert "Traceback" not in r.text and "python" not in r.text.lower()


def test_a_chunked_body_over_64_kib_gets_413(client):
    def chunks():
        for _ in range(80):
            yield b" " * 1024

    r = client.post("/api/matches", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    # a chunked body under the limit is read as usual
    r = client.post("/api/matches", content=iter([b'{"opponent": ', b'"friend"}']),
                    headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("bot", ["", " ", "  \t", "nobody"])
def test_an_empty_or_blank_bot_name_is_unknown_bot_like_any_other_wrong_name(client, bot):
    r = client.post("/api/matches", json={"opponent": "bot", "bot": bot})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot", r.text
    assert "random" in r.json()["error"]["message"]


@pytest.mark.parametrize("body", [{"opponent": "bot"}, {"opponent": "bot", "bot": None}, {"bot": " Greedy "}])
def test_no_bot_name_means_random_and_names_ignore_case_and_spaces(client, body):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    want = "greedy" if body.get("bot") else "random"
    view = client.get(f"/api/matches/{r.json()['match_id']}/view",
                      headers={"Authorization": f"Bearer {r.json()['token']}"}).json()
    assert view["match"]["opponent"] == {"kind": "bot", "bot": want}


def test_unknown_fields_in_a_websocket_frame_are_malformed_and_nothing_changes(client, friend_match, ws_seat):
    m1, _ = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s1.send({"type": "action", "action": "turn", "version": 1, "colour": "red"})
    err = s1.recv()
    assert err["code"] == "malformed" and "'colour'" in err["message"]
    s1.send({"type": "ping", "version": 1})
    assert s1.recv()["code"] == "malformed"
    s1.act("turn")
    assert s1.recv_state()["version"] == 2


@pytest.mark.parametrize("hello", [{"type": "hello", "seat": 1, "token": 5}, {"type": "hello", "seat": 1, "token": [1]},
                                   {"type": "hello", "seat": "1", "token": "x"}, {"type": "hello", "token": "x"}])
def test_a_hello_with_a_wrongly_typed_field_is_malformed_4400(client, friend_match, hello):
    """PROTOCOL §4.4: wrongly typed fields are ``malformed`` (4400), the token as the
    seat; ``bad_token`` (4401) is for a token that holds no seat (a string, or none)."""
    from starlette.websockets import WebSocketDisconnect

    m1, _ = friend_match(client)
    with client.websocket_connect(f"/ws/{m1['match_id']}") as ws:
        ws.send_json(hello)
        assert ws.receive_json()["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4400


def test_an_action_before_hello_is_malformed_and_closes_4400(client, friend_match):
    from starlette.websockets import WebSocketDisconnect

    m1, _ = friend_match(client)
    with client.websocket_connect(f"/ws/{m1['match_id']}") as ws:
        ws.send_json({"type": "action", "action": "turn", "version": 1})
        err = ws.receive_json()
        assert err["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4400
    r = client.get(f"/api/matches/{m1['match_id']}/view", headers={"Authorization": f"Bearer {m1['token']}"})
    assert r.json()["version"] == 1  # nothing applied


def test_ids_and_tokens_are_case_sensitive_lowercase_hex(client, friend_match):
    m1, _ = friend_match(client)
    mid, tok = m1["match_id"], m1["token"]
    assert client.get(f"/api/matches/{mid.upper()}", headers={"Authorization": f"Bearer {tok}"}).status_code == 404
    assert client.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {tok.upper()}"}).status_code == 401
    assert client.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {tok}"}).status_code == 200


@pytest.mark.long  # 11-14 s alone on a quiet machine: 11,000 unknown ids through the hub
def test_probing_random_match_ids_leaves_no_state_and_memory_flat(client):
    hub = client.app.state.hub

    async def probe(n: int) -> int:
        for _ in range(n):
            assert await hub.table(secrets.token_hex(8)) is None
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(PROBES):
            assert await hub.table(secrets.token_hex(8)) is None
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return grown

    grown = asyncio.run(probe(1000))  # the first 1,000 warm the caches (SQLAlchemy, allocator)
    assert hub.tables == {} and hub.locks == {} and hub.used == {}
    assert grown < 512 * 1024, f"memory grew by {grown} bytes over {PROBES} unknown ids"
    # through HTTP and the WebSocket too
    for _ in range(50):
        mid = secrets.token_hex(8)
        assert client.get(f"/api/matches/{mid}/view", headers={"Authorization": "Bearer x"}).status_code == 404
        with client.websocket_connect(f"/ws/{mid}") as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": "x"})
            assert ws.receive_json()["code"] == "unknown_match"
    assert hub.tables == {} and hub.locks == {} and hub.used == {}


def test_an_idle_table_is_evicted_and_reloads_on_demand(client, friend_match, ws_seat):
    import time

    hub = client.app.state.hub
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s1.act("turn")
    s1.recv_state()
    assert hub.evict_idle(now=time.monotonic() + 10**6) == 0  # a socket holds it
    s1.close()
    time.sleep(0.2)
    assert hub.evict_idle(now=time.monotonic() + 10**6) == 1
    assert mid not in hub.tables and mid not in hub.locks
    r = client.get(f"/api/matches/{mid}/view", headers={"Authorization": f"Bearer {m2['token']}"})
    assert r.status_code == 200 and r.json()["version"] == 2
    assert mid in hub.tables
    s1 = ws_seat(client, mid, 1, m1["token"])
    assert s1.state["version"] == 2 and s1.state["view"]["decision"] == "meld_or_refuse"


def test_the_real_server_logs_one_plain_line_for_bad_frames_and_keeps_the_socket(tmp_path):
    import httpx
    import websockets

    node = Node(tmp_path / "node.log", "--data-dir", str(tmp_path / "data"), "--bot-delay", "0").wait_ready()
    try:
        m = httpx.post(node.url + "/api/matches", json={"opponent": "friend"}).json()

        async def scenario():
            url = f"{node.ws_url}/ws/{m['match_id']}"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": 1, "token": m["token"]}))
                state = json.loads(await ws.recv())
                await ws.send(json.dumps({"type": "action", "action": "throw Ah force " + "9" * 5000,
                                          "version": state["version"]}))
                assert json.loads(await ws.recv())["code"] == "illegal"
                await ws.send(json.dumps({"type": "ping"}))
                assert json.loads(await ws.recv()) == {"type": "pong"}
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": 1, "token": m["token"]}))
                await ws.recv()
                await ws.send(b"\xff\xfe", text=True)  # a text frame that is not UTF-8
                with pytest.raises(websockets.ConnectionClosed) as exc:
                    await ws.recv()
                assert exc.value.rcvd.code == 1007
            # the same frame with the client's close in one write: the closing handshake has
            # begun, so the frame is dropped with one plain line and the close answered
            closing = await _raw_frames(node.port, f"/ws/{m['match_id']}", [(1, b"\xff\xfe bad"),
                                                                             (8, (1000).to_bytes(2, "big"))])
            assert closing.startswith(b"\x88\x02\x03\xe8"), closing  # close 1000, the client's own code

        asyncio.run(scenario())
        r = httpx.post(node.url + "/api/matches", content=b"\xff\xfe{}", headers={"content-type": "application/json"})
        assert r.status_code == 422
    finally:
        node.stop()
    log = node.stderr()
    assert "Traceback" not in log and "socket error" not in log and "Fatal error" not in log, log
    assert log.count("not valid UTF-8") == 2, log


async def _raw_frames(port: int, path: str, frames: list[tuple[int, bytes]]) -> bytes:
    """Open a WebSocket on ``path`` by hand, write ``frames`` (opcode, payload; masked, as a
    client must) in one TCP write, and return what the server sends back until it closes."""
    import base64
    import os

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    mask, out = b"gwgw", b""
    for op, payload in frames:
        assert len(payload) < 126
        out += bytes([0x80 | op, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    writer.write(out)
    got = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return got

"""The sockets' close codes under a real ``gameweave serve`` (PROTOCOL §4.4): a client
that does not read is closed with 1008 "client too slow" (seat or spectator) in a
bounded time, and SIGTERM closes every socket with 1001 "server shutting down".

The clients here are raw sockets (tests/rawws.py) with a small receive buffer, so that
a test decides when (and whether) anything is read."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from gameweave.server.connection import SEND_NOW, Connection

from nodes import Node
from rawws import RawWs

FAST = {"GAMEWEAVE_WS_RATE": "5000", "GAMEWEAVE_WS_BURST": "5000"}
"""A node that takes frames fast, so that a test piles up frames in seconds."""

KEEPALIVE = 40.0
"""With the default pings (every 20 s, 20 s to answer) no keepalive closes a socket
before this many seconds: a close before it is the writer's."""


def sockets_open(node: Node) -> float:
    """The node's ``gameweave_sockets`` gauge (open seat and spectator sockets)."""
    for line in httpx.get(node.url + "/metrics", timeout=5).text.splitlines():
        if line.startswith("gameweave_sockets{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError("no gameweave_sockets in /metrics")


def start(tmp_path, *args: str, env: dict | None = None) -> Node:
    return Node(tmp_path / "node.log", "--data-dir", str(tmp_path / "data"), "--bot-delay", "0", *args,
                env=env).wait_ready(timeout=120)


def test_a_seat_that_sends_but_never_reads_is_closed_with_1008_in_bounded_time(tmp_path):
    node = start(tmp_path, env=FAST)
    try:
        m = httpx.post(node.url + "/api/matches", json={"opponent": "friend"}).json()
        seat = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}")
        hello = {"type": "hello", "seat": 1, "token": m["token"]}
        seat.send(hello)
        t0 = time.monotonic()
        while sockets_open(node) > 0:  # every hello again is answered with the whole state
            assert time.monotonic() - t0 < KEEPALIVE - 5, "the seat was not closed"
            for _ in range(50):
                seat.send(hello)
            time.sleep(0.02)
        took = time.monotonic() - t0
        code, texts, _ = seat.close_code(timeout=20)  # the client reads again: frames, then the close
        assert code == 1008 and texts > 0, (code, texts, took)
        assert took < KEEPALIVE - 5
    finally:
        node.stop()
    log = node.stderr()
    assert "seat 1: client too slow" in log and "Traceback" not in log, log


def _play_one_step(seat: RawWs, state: dict) -> None:
    """Seat 1's move in a bot match, whatever the state: its first choice, or moving on."""
    if state["view"]["to_act"] == 1 and state["choices"]:
        seat.send({"type": "action", "action": state["choices"][0]["id"], "version": state["version"]})
    elif state["view"]["status"] != "playing" and 1 in state["match"]["waiting_for"]:
        seat.send({"type": "next_deal", "version": state["version"]})


def test_a_spectator_that_never_reads_is_closed_with_1008_in_bounded_time(tmp_path):
    node = start(tmp_path)
    try:
        m = httpx.post(node.url + "/api/matches", json={"opponent": "bot", "format": "tally"}).json()
        seat = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}", rcvbuf=1 << 20)
        seat.send({"type": "hello", "seat": 1, "token": m["token"]})
        state = seat.json()
        key = state["match"]["watch_url"].rsplit("/", 1)[1]
        spectator = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}")
        spectator.send({"type": "hello", "watch": key})
        t0 = time.monotonic()
        watched = False
        while True:  # seat 1 plays against the bot as fast as it can; the spectator reads nothing
            assert time.monotonic() - t0 < KEEPALIVE - 5, "the spectator was not closed"
            if state["type"] == "state":
                watched = watched or state["match"]["spectators"] == 1
                if watched and state["match"]["spectators"] == 0:
                    break
                _play_one_step(seat, state)
            try:
                state = seat.json(timeout=2)
            except TimeoutError:
                seat.send({"type": "hello", "seat": 1, "token": m["token"]})  # the state again
                state = {"type": "none"}
        took = time.monotonic() - t0
        code, texts, _ = spectator.close_code(timeout=20)
        assert code == 1008 and texts > 0, (code, texts, took)
    finally:
        node.stop()
    log = node.stderr()
    assert "spectator: client too slow" in log and "Traceback" not in log, log


def test_a_client_that_answers_no_ping_is_closed_with_1008(tmp_path):
    """Nothing piles up for a quiet socket; the server's ping finds that it does not
    read (here every 0.5 s, 1 s to answer)."""
    node = start(tmp_path, env={"GAMEWEAVE_WS_PING_INTERVAL_S": "0.5", "GAMEWEAVE_WS_PING_TIMEOUT_S": "1"})
    try:
        m = httpx.post(node.url + "/api/matches", json={"opponent": "friend"}).json()
        seat = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}")
        seat.send({"type": "hello", "seat": 1, "token": m["token"]})
        t0 = time.monotonic()
        while sockets_open(node) > 0:
            assert time.monotonic() - t0 < 20, "the seat was not closed"
            time.sleep(0.2)
        code, texts, _ = seat.close_code(timeout=10)
        assert code == 1008 and texts == 1, (code, texts)  # its first state frame, then the close
    finally:
        node.stop()
    assert "client too slow" in node.stderr()


def test_sigterm_closes_seat_and_spectator_sockets_with_1001_and_1_mib_frames_get_1009(tmp_path):
    node = start(tmp_path)
    m = httpx.post(node.url + "/api/matches", json={"opponent": "friend"}).json()
    seat = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}", rcvbuf=1 << 20)
    seat.send({"type": "hello", "seat": 1, "token": m["token"]})
    key = seat.json()["match"]["watch_url"].rsplit("/", 1)[1]
    spectator = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}", rcvbuf=1 << 20)
    spectator.send({"type": "hello", "watch": key})
    assert spectator.json()["seat"] is None
    big = RawWs("127.0.0.1", node.port, f"/ws/{m['match_id']}", rcvbuf=1 << 20)
    big.send("x" * (1024 * 1024 + 1))  # over 1 MiB: the WebSocket layer closes it
    assert big.close_code(timeout=10)[0] == 1009
    t0 = time.monotonic()
    node.proc.terminate()
    try:
        for client in (seat, spectator):
            op, payload = client.frame(timeout=10)
            while op != 8:  # a state frame (the spectator arriving) may come first
                op, payload = client.frame(timeout=10)
            assert payload[:2] == (1001).to_bytes(2, "big") and payload[2:] == b"server shutting down", payload
        assert time.monotonic() - t0 < 5
        node.proc.wait(10)
    finally:
        node.stop()
    assert "Traceback" not in node.stderr()


# ---------------------------------------------------------------------------- the writer alone
class _StuckSocket:
    """A socket whose sends never complete (a client that stopped reading)."""

    def __init__(self):
        self.sent: list[str] = []
        self.closed_with: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        if len(self.sent) > 1:
            await asyncio.Event().wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)


def test_the_writer_closes_with_1008_when_a_frame_waits_too_long(monkeypatch):
    monkeypatch.setattr("gameweave.server.connection.SEND_TIMEOUT", 0.2)

    async def scenario():
        ws = _StuckSocket()
        conn = Connection(ws, "m", 0, "t")
        writer = asyncio.create_task(conn.writer())
        for i in range(5):
            conn.send({"n": i})
        await asyncio.wait_for(writer, 5)
        assert ws.closed_with == (1008, "client too slow") and conn.closed
        assert len(ws.sent) == 2 and conn.queue.qsize() <= 1  # the rest was dropped
        conn.send({"n": 9})  # nothing more is queued
        assert conn.queue.qsize() <= 1

    asyncio.run(scenario())


@pytest.mark.parametrize("frames, size", [(1001, 10), (3, 600_000)])
def test_the_writer_closes_with_1008_when_frames_or_bytes_pile_up(frames, size):
    async def scenario():
        ws = _StuckSocket()
        conn = Connection(ws, "m", -1, "")
        for _ in range(frames):
            conn.send("x" * size)
        assert conn.closed and conn.close_code == 1008
        await asyncio.wait_for(conn.writer(), 5)
        assert ws.sent == [] and ws.closed_with == (1008, "client too slow")

    asyncio.run(scenario())


def test_a_normal_close_still_sends_what_was_queued_first():
    async def scenario():
        class Quick(_StuckSocket):
            async def send_text(self, text: str) -> None:
                self.sent.append(text)

        ws = Quick()
        conn = Connection(ws, "m", 1, "t")
        conn.send({"a": 1})
        conn.send({"b": 2})
        conn.close(4000, "replaced by a newer connection")
        await asyncio.wait_for(conn.writer(), 5)
        assert ws.sent == ['{"a":1}', '{"b":2}'] and ws.closed_with == (4000, "replaced by a newer connection")

    asyncio.run(scenario())


def test_a_frame_with_nothing_queued_is_written_at_once_and_the_order_always_holds():
    """``gameweave serve``'s protocol writes a frame at once (``send_now``) when nothing
    waits before it; while it cannot (a full buffer: False) or the writer still holds a
    frame, the frames queue behind, and every frame reaches the socket in order."""

    async def scenario():
        wire: list[str] = []
        room = {"open": True}
        held = asyncio.Event()

        class Socket:
            scope = {"extensions": {SEND_NOW: lambda text: room["open"] and not wire.append(text)}}

            async def send_text(self, text: str) -> None:
                await held.wait()  # the buffer drains only when the test says so
                wire.append(text)

            async def close(self, code: int, reason: str) -> None:
                wire.append(f"close {code}")

        conn = Connection(Socket(), "m", 0, "t")
        writer = asyncio.create_task(conn.writer())
        conn.send({"n": 1})
        assert wire == ['{"n":1}'] and conn.queue.empty()  # written at once, no writer turn
        room["open"] = False  # the buffer is full: send_now says False
        conn.send({"n": 2})
        room["open"] = True
        await asyncio.sleep(0)
        assert wire == ['{"n":1}'] and conn._sending and conn.queue.empty()  # the writer holds frame 2
        conn.send({"n": 3})  # the buffer has room again, but frame 2 is not written yet: 3 goes behind it
        conn.send({"n": 4})  # and 4 behind 3
        held.set()
        conn.close(1000, "")
        await asyncio.wait_for(writer, 5)
        assert wire == ['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', "close 1000"]

    asyncio.run(scenario())

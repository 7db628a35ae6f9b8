"""Load benchmark of the table server (a benchmark, not a test).

Starts ``gameweave serve`` as subprocesses on free loopback ports — one node on a
temporary SQLite database (default), one node on PostgreSQL (``--database-url``), or
``--nodes N`` nodes on PostgreSQL and Redis (``--redis-url``) — creates K friend matches,
and plays them with 2K WebSocket clients that choose random legal actions (random bot vs
random bot, over the real protocol).  With N nodes, seat 1 of match i connects to node
i mod N and seat 2 to node i+1 mod N, so every action crosses Redis.  After a warm-up it
measures for a fixed time and prints:

* actions/s: accepted actions per second, all matches together;
* action round trip p50 / p99 (ms): from sending an action to receiving the state frame
  with the next version on the same socket.

``--echo`` runs the same client against a **floor** instead: a bare WebSocket server on
the same stack (uvicorn with ``gameweave serve``'s WebSocket protocol, JSON) with no
rules, no database and no Redis, which answers every action at once to both seats with
the state frames the server itself would send at that point of a deal: real frames of
random deals, built once at its start by the server's own frame code
(:func:`echo_frames`), so the client receives and parses the same bytes from both.
The machine is noisy, so compare each figure with the floor measured in the same run
(``--compare`` runs the floor and then the server, one after the other).

The client runs on one CPU and the servers on the others (:func:`pin`; ``--no-pin`` lets
them share), as a load generator on its own machine would: sharing two CPUs, the client's
bursts of frames to parse take the CPU from the server that just sent them.

Clients pause ``--think`` seconds (mean; default 0.5 s, like the server's bot delay of
0.6 s) before each action, so K matches put the load of K real tables on the server;
``--think 0`` saturates it instead (then the round trip is mostly queueing: with K
always-pending actions, latency = K / throughput).  The client holds its own garbage
collector off while it measures: its pauses are not the server's round trip (and an action
sent before measuring began, during the client's last collection, is not counted).

``--lobby N`` keeps the lobby feed live while the server is measured (issue 20): N
``/ws/lobby`` subscribers (spread over the nodes) and, twice a second, an open table
opened and withdrawn again, so every subscriber gets four events a second; the report adds
how many events arrived and the feed's delay (from opening a table to a subscriber
hearing of it).  The subscribers live in the same client process as the seats, so the
feed's frames weigh on the client's loop as well; the floor therefore carries a bare feed
too (``/ws/lobby`` and ``/api/open-tables``: every event sent to every subscriber at
once).  With ``--compare --lobby N`` four runs follow one another: the floor and the
server without the feed, then the floor and the server with it; each server run prints
its ratios to the floor run just before it.

Needs the test extra (``httpx`` and ``websockets``): ``pip install -e '.[test]'``, which the
README's test command installs.  Usage::

    python benchmarks/server_load.py --matches 200 --seconds 20 --compare
    python benchmarks/server_load.py --matches 200 --seconds 10 --compare --lobby 200
    python benchmarks/server_load.py --matches 1000 --nodes 2 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379/0

With ``--database-url`` a fresh database ``gw_load_<hex>`` is created beside the one named
and dropped afterwards.  Everything is bounded: K <= 1000, N <= 4, at most 300 s of
measuring, loopback (127.0.0.1) only.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

try:
    import httpx
    import websockets
except ImportError as exc:  # the table's own install has no HTTP client
    sys.exit(f"server_load needs {exc.name}, which the test extra brings: "
             ".venv/bin/pip install -e '.[test]' (the README's test command installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self, think: float = 0.0) -> None:
        self.think = think
        self.measuring = False
        self.since = float("inf")  # perf_counter when measuring began: earlier sends are not counted
        self.stop = False
        self.actions = 0
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}
        self.lobby_events = 0
        self.lobby_heard: list[tuple[str, float]] = []
        self.lobby_made: dict[str, float] = {}
        self.frames = 0  # frames received on the seats' sockets while measuring, and their bytes
        self.frame_bytes = 0
        self.server_cpu: float | None = None  # CPU seconds the server processes used while measuring
        self.client_cpu = 0.0  # and this process (the load client)


async def seat_client(url: str, match_id: str, seat: int, token: str, stats: Stats, rng: random.Random) -> None:
    """Play one seat: answer every state frame where it is this seat's decision."""
    async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/{match_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        pending: tuple[int, float] | None = None  # (version sent, time sent)
        last: dict | None = None
        while not stats.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), 5.0)
            except TimeoutError:
                if last is not None and pending is not None:  # lost? resend from the last state
                    pending = None
                    await act(ws, last, seat, rng, stats)
                continue
            frame = json.loads(raw)
            if stats.measuring:
                stats.frames += 1
                stats.frame_bytes += len(raw)
            if frame["type"] == "error":
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
                if frame["code"] == "rate_limited":
                    await asyncio.sleep(0.2)
                pending = None
                if last is not None:
                    pending = await act(ws, last, seat, rng, stats)
                continue
            if frame["type"] != "state":
                continue
            if last is not None and frame["version"] < last["version"]:
                continue
            last = frame
            if pending is not None and (frame["version"] > pending[0] or moved_on(frame, seat)):
                if stats.measuring and pending[1] >= stats.since:  # sent while measuring
                    stats.rtts.append(time.perf_counter() - pending[1])
                    stats.actions += 1
                pending = None
            if pending is None:
                pending = await act(ws, frame, seat, rng, stats)


def moved_on(frame: dict, seat: int) -> bool:
    """True if ``frame`` answers this seat's ``next_deal`` while the other seat has not
    moved on yet (same version, the seat no longer in ``match.waiting_for``)."""
    return frame["view"]["status"] != "playing" and seat not in frame["match"].get("waiting_for", [seat])


async def act(ws, frame: dict, seat: int, rng: random.Random, stats: Stats) -> tuple[int, float] | None:
    """Send a random legal action (or next_deal) if this seat should; returns what is pending."""
    view = frame["view"]
    if stats.stop:
        return None
    if view["status"] == "playing":
        if view["to_act"] != seat or not view["legal"]:
            return None
        msg = {"type": "action", "action": rng.choice(view["legal"]), "version": frame["version"]}
    elif not frame["match"]["over"] and seat in frame["match"].get("waiting_for", [seat]):
        msg = {"type": "next_deal", "version": frame["version"]}  # each seat moves on (PROTOCOL §4.1)
    else:
        return None
    if stats.think > 0:  # a paced player: think (a bot's delay, a person's look) first
        await asyncio.sleep(stats.think * (0.5 + rng.random()))
        if stats.stop:
            return None
    t = time.perf_counter()
    await ws.send(json.dumps(msg))
    return frame["version"], t


async def lobby_client(url: str, stats: Stats) -> None:
    """One lobby-feed subscriber: counts the open-table events it hears while measuring,
    and how long after the table was opened each one came."""
    async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/lobby", max_size=2**22) as ws:
        while not stats.stop:
            frame = json.loads(await ws.recv())
            if not stats.measuring or frame["type"] not in ("open_table", "open_table_gone"):
                continue
            stats.lobby_events += 1
            if frame["type"] == "open_table":  # the POST may answer after the feed: matched up at the end
                stats.lobby_heard.append((frame["table"]["match_id"], time.perf_counter()))


async def lobby_churn(urls: list[str], stats: Stats) -> None:
    """Twice a second open an open table (on the nodes in turn) and withdraw it again."""
    i = 0
    async with httpx.AsyncClient(timeout=30) as http:
        while not stats.stop:
            url = urls[i % len(urls)]
            i += 1
            t = time.perf_counter()
            r = await http.post(f"{url}/api/open-tables", json={})
            if r.status_code == 201:
                m = r.json()
                stats.lobby_made[m["match_id"]] = t
                await asyncio.sleep(0.25)
                await http.post(f"{url}/api/open-tables/{m['match_id']}/cancel",
                                headers={"Authorization": f"Bearer {m['token']}"})
            await asyncio.sleep(0.25)


def cpu_seconds(pids: list[int]) -> float | None:
    """CPU seconds (user + system, every thread) the processes ``pids`` have used, from
    ``/proc/<pid>/stat``; None where that cannot be read (not Linux, a process gone)."""
    total = 0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of proc(5))
    except (OSError, ValueError, IndexError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


async def run(urls: list[str], matches: int, seconds: float, warmup: float, seed: int, think: float = 0.0,
              lobby: int = 0, pids: list[int] | None = None) -> Stats:
    """Create ``matches`` friend matches through the first node(s) and play them; seat 1
    of match i on node i mod N, seat 2 on node i+1 mod N.  ``pids``: the server processes,
    whose CPU time while measuring goes into ``Stats.server_cpu``."""
    stats = Stats(think)
    rng = random.Random(seed)
    seats = []
    n = len(urls)
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(matches):
            a, b = urls[i % n], urls[(i + 1) % n]
            r = await http.post(f"{a}/api/matches", json={"opponent": "friend", "format": "tally"})
            r.raise_for_status()
            m = r.json()
            invite = m["invite_url"].rsplit("/", 1)[1]
            r2 = await http.post(f"{b}/api/matches/{m['match_id']}/join", json={"invite": invite})
            r2.raise_for_status()
            seats.append((a, m["match_id"], 1, m["token"]))
            seats.append((b, m["match_id"], 2, r2.json()["token"]))
    tasks = [
        asyncio.create_task(seat_client(url, mid, seat, tok, stats, random.Random(rng.random())))
        for url, mid, seat, tok in seats
    ]
    if lobby:
        tasks += [asyncio.create_task(lobby_client(urls[i % n], stats)) for i in range(lobby)]
        tasks.append(asyncio.create_task(lobby_churn(urls, stats)))
    await asyncio.sleep(warmup)
    # the client's own garbage-collector pauses are not the server's round trip (they would
    # weigh on the server's larger frames more than on the floor's): held off while measuring
    gc.collect()
    gc.freeze()
    gc.disable()
    stats.measuring = True
    cpu0, mine0 = cpu_seconds(pids or []), time.process_time()
    t0 = stats.since = time.perf_counter()  # an action sent before (during the collection just made) is not counted
    await asyncio.sleep(seconds)
    stats.measuring = False
    cpu1, stats.client_cpu = cpu_seconds(pids or []), time.process_time() - mine0
    if pids and cpu0 is not None and cpu1 is not None:
        stats.server_cpu = cpu1 - cpu0
    gc.enable()
    gc.unfreeze()
    stats.elapsed = time.perf_counter() - t0
    stats.stop = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


# ---------------------------------------------------------------------------- the echo floor
ECHO_DEALS = 40
"""Random deals whose real state frames the floor sends (built once when it starts)."""

ECHO_HEAD = '{"type":"state","version":'
"""How a state frame begins (``frames.state_frame``'s first two keys): the floor cuts it
off the server's frames and writes it again with its own version."""


def echo_frames(deals: int = ECHO_DEALS, seed: int = 7) -> list[list[tuple[str, str]]]:
    """The floor's frames: the state frames ``gameweave serve`` itself would send in
    ``deals`` random-vs-random deals of a joined friend tally match, built by the server's
    own code (:meth:`~gameweave.server.room.MatchRoom.frame`, ``dump_frame``), so that the
    client reads and parses the same bytes from the floor as from the server (their size
    grows through a deal with its history: 1.5 to 8 KB; at 200 matches after the warm-up
    5.3 KB on average from the floor, 5.4 KB from the server).  The pad of filler the floor
    sent before had drifted to two thirds of the server's size (3.5 KB against 5.4 KB:
    the frames grew with issue 20's ratings and players) and cost the client a seventh of
    the parsing (4 µs a frame against 28 µs).

    Returns, per deal, per step while it is played: ``(seat 1's frame, seat 2's frame)``,
    each cut just after :data:`ECHO_HEAD` and its version ``N``, so that the floor writes
    its own version in front."""
    from gameweave.engine import shuffled_deck
    from gameweave.server.connection import dump_frame
    from gameweave.server.room import MatchRoom
    from gameweave.tables import Table, check_new_match, hash_token

    rng = random.Random(seed)
    opts = check_new_match("gameweave", "tally")
    out = []
    for i in range(deals):
        table, _ = Table.create(opponent="friend", bot=None, format="tally", target=opts["target"],
                                deck=shuffled_deck(seed * 1000 + i), salt="ab" * 16, name="Ana")
        table.token_hashes[1], table.names[1] = hash_token("seat-two"), "Bea"  # joined
        room = MatchRoom(table)
        steps = []
        while not table.state.is_over:
            texts = [dump_frame(room.frame(s, wire=True)) for s in (0, 1)]
            assert all(t.startswith(ECHO_HEAD) for t in texts), "a state frame begins with its type and version"
            tails = [t[t.index(",", len(ECHO_HEAD)):] for t in texts]
            steps.append((tails[0], tails[1]))
            table.apply_action(table.state.to_act, rng.choice(table.state.legal_actions()))
        out.append(steps)
    return out


ECHO_TABLE = {"rules": "gameweave", "format": "single", "target": None, "clock": None, "rated": False,
              "name": "Player", "rating": None}
"""The fields of an open table as the lobby feed lists it (the floor's ``open_table`` events)."""


def echo_app():
    """The floor: an ASGI app speaking just enough of the protocol for this client —
    ``hello`` answered with a state frame, every ``action``/``next_deal`` answered at once
    with the next version to both seats (the next step of the deal, :func:`echo_frames`); no
    rules, no storage.
    With ``--lobby`` it is the lobby feed's floor too: ``/ws/lobby`` sockets, and each
    ``POST /api/open-tables`` (or ``…/cancel``) sends one event to all of them at once."""
    matches: dict[str, dict] = {}
    lobby: set = set()  # the lobby sockets' send callables
    deals = echo_frames()

    def frame(m: dict, seat: int) -> str:
        """Seat ``seat``'s (1/2) frame of the match's step now, under the match's version."""
        return ECHO_HEAD + str(m["version"]) + deals[m["deal"]][m["step"]][seat - 1]

    def advance(m: dict) -> None:
        """One action: the next step of the deal, or the first of the next deal."""
        m["version"] += 1
        m["step"] += 1
        if m["step"] >= len(deals[m["deal"]]):
            m["deal"], m["step"] = (m["deal"] + 1) % len(deals), 0

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                msg = await receive()
                if msg["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif msg["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "http":  # POST /api/matches, …/join, /api/open-tables[…/cancel], GET /api/health
            await receive()
            path = scope["path"]
            if path.startswith("/api/open-tables"):  # the bare feed: tell every lobby socket at once
                if path == "/api/open-tables":
                    mid = uuid.uuid4().hex[:16]
                    news = {"type": "open_table", "table": dict(ECHO_TABLE, match_id=mid, created_at=time.time())}
                    body, status = {"match_id": mid, "token": "t1"}, 201
                else:
                    news = {"type": "open_table_gone", "match_id": path.split("/")[3], "reason": "cancelled"}
                    body, status = {"ok": True}, 200
                text = json.dumps(news, separators=(",", ":"))
                for out in list(lobby):
                    try:
                        await out({"type": "websocket.send", "text": text})
                    except Exception:
                        lobby.discard(out)
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": json.dumps(body).encode()})
                return
            if path == "/api/matches":
                mid = uuid.uuid4().hex[:16]
                # a deal of its own from its start, as the server's matches begin theirs
                matches[mid] = {"version": 1, "socks": {}, "deal": random.randrange(len(deals)), "step": 0}
                body = {"match_id": mid, "token": "t1", "invite_url": f"/join/{mid}/inv"}
            else:
                body = {"token": "t2", "ok": True}
            data = json.dumps(body).encode()
            await send({"type": "http.response.start", "status": 201 if path == "/api/matches" else 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": data})
            return
        if scope["path"] == "/ws/lobby":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": '{"type":"open_tables","tables":[]}'})
            lobby.add(send)
            try:
                while (await receive())["type"] != "websocket.disconnect":
                    pass
            finally:
                lobby.discard(send)
            return
        mid = scope["path"].rsplit("/", 1)[1]
        m = matches[mid]
        seat = 0
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        try:
            while True:
                msg = await receive()
                if msg["type"] == "websocket.disconnect":
                    return
                obj = json.loads(msg.get("text") or "{}")
                if obj.get("type") == "hello":
                    seat = obj["seat"]
                    m["socks"][seat] = send
                    await send({"type": "websocket.send", "text": frame(m, seat)})
                elif obj.get("type") in ("action", "next_deal"):
                    advance(m)
                    for s, out in list(m["socks"].items()):
                        try:
                            await out({"type": "websocket.send", "text": frame(m, s)})
                        except Exception:
                            m["socks"].pop(s, None)
        finally:
            if m["socks"].get(seat) is send:
                m["socks"].pop(seat, None)

    return app


def serve_echo(port: int) -> None:
    """Run the floor on 127.0.0.1:``port`` (same uvicorn settings and WebSocket protocol
    as ``gameweave serve``: :func:`gameweave.server.transport.protocol_class`)."""
    import uvicorn

    from gameweave.server.transport import protocol_class

    uvicorn.run(echo_app(), host="127.0.0.1", port=port, log_level="warning", ws=protocol_class() or "auto",
                ws_max_size=1024 * 1024, ws_per_message_deflate=False, access_log=False)


# ---------------------------------------------------------------------------- processes
CPUS: tuple[set[int], set[int]] | None = None
"""``(the load client's CPUs, the servers' CPUs)`` once :func:`pin` has run, else None."""


def pin(enabled: bool = True) -> str:
    """Keep the load client off the servers' CPUs: this process (the client) runs on the
    first CPU it may use and every server started later (the floor, the nodes) on the
    others; PostgreSQL and Redis, started by the machine, stay where the system puts
    them.  Sharing the CPUs, the client (800 frames a second to parse at 200 matches)
    takes the CPU from the server that has just sent it a frame, and the server, which
    does more per action than the floor, loses more to that (figures in
    ``docs/BENCHMARKS.md``).  Returns a line for the report ("" when not pinned: ``enabled`` false, fewer than
    two CPUs, or no ``sched_setaffinity``)."""
    global CPUS
    if not enabled or not hasattr(os, "sched_setaffinity"):
        return ""
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < 2:
        return ""
    CPUS = ({mine[0]}, set(mine[1:]))
    os.sched_setaffinity(0, CPUS[0])
    return f"client on CPU {mine[0]}, servers on CPU {','.join(map(str, mine[1:]))}"


def _server_cpus() -> None:
    """In a server's child process before it runs: its CPUs (:func:`pin`)."""
    if CPUS is not None:
        os.sched_setaffinity(0, CPUS[1])


def start(cmd: list[str], url: str) -> subprocess.Popen:
    """Start one server process (on the servers' CPUs, :func:`pin`) and wait until ``url``
    answers (exits the script if not)."""
    log = tempfile.NamedTemporaryFile("w+b", prefix="gameweave-load-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, preexec_fn=_server_cpus)
    proc.log_path = log.name  # type: ignore[attr-defined]
    deadline = time.time() + 60
    while True:
        try:
            httpx.get(url + "/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            err = Path(log.name).read_text(errors="replace") if proc.poll() is not None else "timeout"
            raise SystemExit(f"the server did not start: {err[-2000:]}")
        time.sleep(0.2)


def stop(procs: list[subprocess.Popen]) -> None:
    """Stop the server processes; print the last lines of any that logged an error."""
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
        path = Path(getattr(p, "log_path", ""))
        if path.is_file():
            text = path.read_text(errors="replace")
            if "ERROR" in text or "Traceback" in text:
                print(f"  server log ({path}):\n    " + "\n    ".join(text.splitlines()[-8:]))
            path.unlink()


def fresh_database(base: str) -> tuple[str, object]:
    """Create ``gw_load_<hex>`` on the server of ``base``; returns (URL, dropper)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"gw_load_{uuid.uuid4().hex[:10]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = :n AND pid <> pg_backend_pid()"), {"n": name})
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()

    return url.set(database=name).render_as_string(hide_password=False), drop


def measure(args, k: int, seconds: float, echo: bool, lobby: int = 0) -> tuple[Stats, str]:
    """Start the floor or the node(s), run the load, stop them; returns (stats, label)."""
    procs: list[subprocess.Popen] = []
    cleanup = []
    try:
        if echo:
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            procs.append(start([sys.executable, __file__, "--serve-echo", str(port)], url))
            urls, label = [url], "echo floor (uvicorn, no rules, no storage)"
        else:
            n = max(1, min(args.nodes, 4))
            base = [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--host", "127.0.0.1",
                    "--bot-delay", "0", "--log-level", "warning"]
            if args.database_url:
                db, drop = fresh_database(args.database_url)
                cleanup.append(drop)
                base += ["--database-url", db]
                label = "PostgreSQL"
            else:
                data = Path(tempfile.mkdtemp(prefix="gameweave-load-"))
                cleanup.append(lambda: shutil.rmtree(data, ignore_errors=True))
                base += ["--data-dir", str(data)]
                label = "SQLite"
            if args.redis_url:
                base += ["--redis-url", args.redis_url, "--redis-prefix", f"gwload-{uuid.uuid4().hex[:8]}"]
                label += " + Redis"
            label = f"{n} node{'s' if n > 1 else ''}, {label}"
            urls = []
            for i in range(n):
                port = free_port()
                url = f"http://127.0.0.1:{port}"
                procs.append(start(base + ["--port", str(port), "--node-id", f"load{i}"], url))
                urls.append(url)
        stats = asyncio.run(run(urls, k, seconds, args.warmup, args.seed, args.think, lobby,
                                pids=[p.pid for p in procs]))
        return stats, label + (f", lobby feed live ({lobby} subscribers)" if lobby else "")
    finally:
        stop(procs)
        for c in cleanup:
            c()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", "-k", type=int, default=200, help="concurrent matches K (1..1000)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measuring time, s (<= 300)")
    ap.add_argument("--warmup", type=float, default=8.0, help="warm-up time, s (connecting K*2 sockets)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean pause before each action, s (uniform 0.5x..1.5x; 0 = saturate the server)")
    ap.add_argument("--nodes", type=int, default=1, help="server nodes N (1..4; N > 1 needs --database-url and --redis-url)")
    ap.add_argument("--database-url", help="PostgreSQL URL whose server gets a fresh database for the run")
    ap.add_argument("--redis-url", help="redis://127.0.0.1:6379/0 (needed for --nodes > 1)")
    ap.add_argument("--echo", action="store_true", help="measure the echo floor only")
    ap.add_argument("--compare", action="store_true", help="measure the echo floor, then the server, in one run")
    ap.add_argument("--url", help="use a running server at this loopback URL instead of starting one")
    ap.add_argument("--lobby", type=int, default=0,
                    help="lobby-feed subscribers kept live while the server is measured (0..1000)")
    ap.add_argument("--no-pin", action="store_true",
                    help="let the client share the servers' CPUs (default: the client on one CPU, the servers on the others)")
    ap.add_argument("--serve-echo", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_echo:
        serve_echo(args.serve_echo)
        return 0
    pinned = pin(not args.no_pin)
    print(f"server_load: {pinned or 'not pinned: the client shares the CPUs of the servers'}")
    k = max(1, min(args.matches, 1000))
    seconds = max(1.0, min(args.seconds, 300.0))
    for u in (args.database_url or "", args.redis_url or ""):
        if u and "127.0.0.1" not in u and "localhost" not in u:
            print("only loopback services (127.0.0.1)")
            return 2
    if args.nodes > 1 and not (args.database_url and args.redis_url):
        print("--nodes > 1 needs --database-url (PostgreSQL) and --redis-url")
        return 2
    if args.url:
        if not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
            print("only loopback servers (http://127.0.0.1:PORT)")
            return 2
        stats = asyncio.run(run([args.url.rstrip("/")], k, seconds, args.warmup, args.seed, args.think,
                                max(0, min(args.lobby, 1000))))
        return report(stats, k, args.url)
    lobby = max(0, min(args.lobby, 1000))
    runs: list[tuple[bool, int]] = []  # (echo, lobby subscribers), in order
    if args.echo:
        runs = [(True, lobby)]
    elif not args.compare:
        runs = [(False, lobby)]
    else:  # each server figure right after its floor, with the same load on the client
        runs = [(True, 0), (False, 0)] + ([(True, lobby), (False, lobby)] if lobby else [])
    rc, floor = 0, None
    for echo, subscribers in runs:
        stats, label = measure(args, k, seconds, echo=echo, lobby=subscribers)
        rc |= report(stats, k, label)
        if echo:
            floor = stats
        elif floor is not None and floor.rtts and stats.rtts:
            print(f"  against the floor just before: p50 {pct(stats.rtts, 0.5) / pct(floor.rtts, 0.5):.1f}x, "
                  f"p99 {pct(stats.rtts, 0.99) / pct(floor.rtts, 0.99):.1f}x")
    return rc


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def report(stats: Stats, k: int, label: str) -> int:
    """Print the figures; 1 if nothing was measured."""
    rtts = sorted(stats.rtts)
    if not rtts:
        print(f"{label}: no actions measured (errors: {stats.errors or 'none'})")
        return 1
    p = lambda q: pct(rtts, q) * 1000  # noqa: E731
    print(f"server_load: {label}: {k} concurrent matches (random vs random over WebSockets), "
          f"think {stats.think:g} s, {stats.elapsed:.1f} s measured, {os.cpu_count()} CPUs")
    print(f"  actions/s: {stats.actions / stats.elapsed:.0f}; frames received {stats.frame_bytes / max(1, stats.frames) / 1000:.1f} KB "
          "on average")
    print(f"  round trip: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, mean {statistics.fmean(rtts) * 1000:.1f} ms")
    if stats.server_cpu is not None and stats.actions:
        per = lambda s: s / stats.actions * 1000  # noqa: E731
        print(f"  CPU per action: server {per(stats.server_cpu):.2f} ms (its processes, every thread; "
              f"{stats.server_cpu / stats.elapsed * 100:.0f}% of a CPU), load client {per(stats.client_cpu):.2f} ms")
    if stats.errors:
        print(f"  errors: {stats.errors}")
    if stats.lobby_events:
        d = sorted(t - stats.lobby_made[m] for m, t in stats.lobby_heard if m in stats.lobby_made) or [0.0]
        q = lambda x: d[min(len(d) - 1, int(x * len(d)))] * 1000  # noqa: E731
        print(f"  lobby feed: {stats.lobby_events / stats.elapsed:.0f} events/s received, "
              f"open-table delay p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

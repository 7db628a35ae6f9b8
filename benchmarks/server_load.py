"""Load benchmark of the table server (a benchmark, not a test).

Starts ``gameweave serve`` as a subprocess on a free loopback port with a temporary
SQLite database, creates K friend matches, and plays them with 2K WebSocket clients that
choose random legal actions (random bot vs random bot, over the real protocol).  After a
warm-up it measures for a fixed time and prints:

* actions/s: accepted actions per second, all matches together;
* action round trip p50 / p99 (ms): from sending an action to receiving the state frame
  with the next version on the same socket.

Clients pause ``--think`` seconds (mean; default 0.5 s, like the server's bot delay of
0.6 s) before each action, so K matches put the load of K real tables on the server;
``--think 0`` saturates it instead (then the round trip is mostly queueing: with K
always-pending actions, latency = K / throughput).

Usage::

    python benchmarks/server_load.py --matches 200 --seconds 20

Everything is bounded: K <= 1000, at most 300 s of measuring, loopback (127.0.0.1) only.
"""

from __future__ import annotations

import argparse
import asyncio
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
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self, think: float = 0.0) -> None:
        self.think = think
        self.measuring = False
        self.stop = False
        self.actions = 0
        self.rtts: list[float] = []
        self.errors: dict[str, int] = {}


async def seat_client(url: str, match_id: str, seat: int, token: str, stats: Stats, rng: random.Random) -> None:
    """Play one seat: answer every state frame where it is this seat's decision."""
    async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/{match_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        pending: tuple[int, float] | None = None  # (version sent, time sent)
        last: dict | None = None
        while not stats.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), 5.0)
            except asyncio.TimeoutError:
                if last is not None and pending is not None:  # lost? resend from the last state
                    pending = None
                    await act(ws, last, seat, rng, stats)
                continue
            frame = json.loads(raw)
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
            if pending is not None and frame["version"] > pending[0]:
                if stats.measuring:
                    stats.rtts.append(time.perf_counter() - pending[1])
                    stats.actions += 1
                pending = None
            if pending is None:
                pending = await act(ws, frame, seat, rng, stats)


async def act(ws, frame: dict, seat: int, rng: random.Random, stats: Stats) -> tuple[int, float] | None:
    """Send a random legal action (or next_deal) if this seat should; returns what is pending."""
    view = frame["view"]
    if stats.stop:
        return None
    if view["status"] == "playing":
        if view["to_act"] != seat or not view["legal"]:
            return None
        msg = {"type": "action", "action": rng.choice(view["legal"]), "version": frame["version"]}
    elif seat == 1 and not frame["match"]["over"]:
        msg = {"type": "next_deal", "version": frame["version"]}
    else:
        return None
    if stats.think > 0:  # a paced player: think (a bot's delay, a person's look) first
        await asyncio.sleep(stats.think * (0.5 + rng.random()))
        if stats.stop:
            return None
    t = time.perf_counter()
    await ws.send(json.dumps(msg))
    return frame["version"], t


async def run(url: str, matches: int, seconds: float, warmup: float, seed: int, think: float = 0.0) -> Stats:
    stats = Stats(think)
    rng = random.Random(seed)
    seats = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(matches):
            r = await http.post("/api/matches", json={"opponent": "friend", "format": "tally"})
            r.raise_for_status()
            m = r.json()
            invite = m["invite_url"].rsplit("/", 1)[1]
            r2 = await http.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite})
            r2.raise_for_status()
            seats.append((m["match_id"], 1, m["token"]))
            seats.append((m["match_id"], 2, r2.json()["token"]))
    tasks = [
        asyncio.create_task(seat_client(url, mid, seat, tok, stats, random.Random(rng.random())))
        for mid, seat, tok in seats
    ]
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    stats.elapsed = time.perf_counter() - t0
    stats.stop = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", "-k", type=int, default=200, help="concurrent matches K (1..1000)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measuring time, s (<= 300)")
    ap.add_argument("--warmup", type=float, default=8.0, help="warm-up time, s (connecting K*2 sockets)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean pause before each action, s (uniform 0.5x..1.5x; 0 = saturate the server)")
    ap.add_argument("--url", help="use a running server at this loopback URL instead of starting one")
    args = ap.parse_args()
    k = max(1, min(args.matches, 1000))
    seconds = max(1.0, min(args.seconds, 300.0))
    if args.url:
        if not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
            print("only loopback servers (http://127.0.0.1:PORT)")
            return 2
        stats = asyncio.run(run(args.url.rstrip("/"), k, seconds, args.warmup, args.seed, args.think))
        return report(stats, k)
    data = Path(tempfile.mkdtemp(prefix="gameweave-load-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--data-dir", str(data), "--bot-delay", "0", "--log-level", "warning"]
    env = dict(os.environ)
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.time() + 30
        while True:
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > deadline or server.poll() is not None:
                print("the server did not start:", server.stdout.read().decode(errors="replace") if server.poll() is not None else "timeout")
                return 2
            time.sleep(0.2)
        stats = asyncio.run(run(url, k, seconds, args.warmup, args.seed, args.think))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)
    return report(stats, k)


def report(stats: Stats, k: int) -> int:
    """Print the figures; 1 if nothing was measured."""
    rtts = sorted(stats.rtts)
    if not rtts:
        print("no actions measured")
        return 1
    p = lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))] * 1000  # noqa: E731
    print(f"server_load: {k} concurrent matches (random vs random over WebSockets), "
          f"think {stats.think:g} s, {stats.elapsed:.1f} s measured, SQLite, {os.cpu_count()} CPUs")
    print(f"  actions/s: {stats.actions / stats.elapsed:.0f}")
    print(f"  round trip: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, mean {statistics.fmean(rtts) * 1000:.1f} ms")
    if stats.errors:
        print(f"  errors: {stats.errors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

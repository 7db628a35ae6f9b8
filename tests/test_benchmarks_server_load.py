"""benchmarks/server_load.py's echo floor sends the server's own state frames (issue 18):
what it replays is what ``gameweave serve`` would send, valid against the frame's model,
and the floor's own version goes in front of each."""

from __future__ import annotations

import contextlib
import io
import json
import os
import time

from scripts import load_script

from gameweave.server.schemas import StateFrame


def test_issue18_the_floor_replays_real_state_frames_under_its_own_version() -> None:
    bench = load_script("benchmarks/server_load.py", "gw_bench_server_load")
    deals = bench.echo_frames(deals=2, seed=3)
    assert len(deals) == 2 and all(len(steps) > 10 for steps in deals)
    sizes = []
    for steps in deals:
        for i, pair in enumerate(steps):
            for seat, tail in enumerate(pair, start=1):
                text = bench.ECHO_HEAD + str(1000 + i) + tail
                frame = json.loads(text)
                StateFrame.model_validate(frame, strict=True)  # a real frame, whole
                assert frame["version"] == 1000 + i and frame["seat"] == seat
                assert frame["view"]["status"] == "playing"
                # R21: a seat's frame holds its own hand, never the other's
                assert frame["view"]["opponent_hand"] is None
                sizes.append(len(text))
    # the history makes them grow through a deal, as the server's do
    assert min(sizes) < 2500 < max(sizes)
    first, last = deals[0][0][0], deals[0][-1][0]
    assert len(last) > len(first)


def test_issue18_the_report_gives_the_servers_cpu_per_action() -> None:
    """Where the time goes is measured in every run: the server processes' CPU seconds
    (every thread, from /proc) while measuring, per action, beside the client's."""
    bench = load_script("benchmarks/server_load.py", "gw_bench_server_load")
    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        assert bench.cpu_seconds([os.getpid()]) is None
        return
    before = bench.cpu_seconds([os.getpid()])
    end = time.process_time() + 0.2
    while time.process_time() < end:  # burn 0.2 s of CPU
        pass
    used = bench.cpu_seconds([os.getpid()]) - before
    assert 0.15 <= used <= 0.5
    assert bench.cpu_seconds([2**22 + 12345]) is None  # no such process
    stats = bench.Stats()
    stats.rtts, stats.actions, stats.elapsed = [0.001] * 100, 100, 1.0
    stats.server_cpu, stats.client_cpu = 0.05, 0.02
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.report(stats, 1, "test") == 0
    assert "CPU per action: server 0.50 ms" in out.getvalue() and "load client 0.20 ms" in out.getvalue()

"""The engine against an earlier commit of itself, in one run: playouts and views per second.

    python benchmarks/engine_compare.py [--base REV] [--deals N] [--rounds R] [--instructions]

Extracts ``src/gameweave/engine`` of ``REV`` (default ``main``) with ``git archive`` and
runs the same measuring code against it and against this tree.  Measures, per profile:

* ``playout``: random playouts, as ``gameweave bench`` (``GameState.new``, then
  ``legal_actions`` + ``apply`` to the end);
* ``apply``: ``apply`` alone, replaying recorded deals;
* ``legal``: ``legal_actions`` alone, on every state of recorded deals;
* ``view_kept``: ``seat_view`` with the history kept, then ``apply_public`` (as
  ``gameweave.research`` does);
* ``view_full``: ``seat_view`` rebuilt from the state (the server's path).

By default it times them in one process: the base engine is imported under another
package name beside this tree's, the two alternate rep by rep (``--rounds`` reps each),
and the best rep of each is kept, so that a busy machine slows both alike; it prints
nanoseconds per step and the ratio base / this tree (above 1: this tree is faster).
With ``--instructions`` it counts the instructions each step takes under valgrind's
cachegrind instead (a fresh process per count, ``PYTHONHASHSEED=0``, the median of three
environment sizes, the set-up subtracted): slow, but the same on a loaded machine as on
a quiet one; the ratio printed is base / this tree (above 1: fewer instructions here).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from types import ModuleType
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
METRICS = ("playout", "apply", "legal", "view_kept", "view_full")
SHARE = {"playout": 1.0, "apply": 1.0, "legal": 1.0, "view_kept": 0.25, "view_full": 0.05}
"""Share of ``--deals`` each measure plays (the views are slower per step)."""


def _recorded(E: Any, rules: str, decks: list[tuple[int, ...]]) -> list[tuple[Any, list[int]]]:
    """Per deck, a fresh state and the actions of a random deal from it."""
    rng = random.Random(5)
    out = []
    for i, deck in enumerate(decks):
        st = E.GameState.new(deck, opener=i & 1, rules=rules)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        out.append((E.GameState.new(deck, opener=i & 1, rules=rules), st.history))
    return out


def prepare(E: Any, rules: str, deals: int, metric: str) -> Any:
    """A callable that runs ``metric`` once on engine module ``E`` and returns
    ``(steps, CPU seconds)``; its set-up (decks, recorded deals) is done here."""
    decks = [E.shuffled_deck(s) for s in range(deals)]
    G = E.GameState
    apply_public = getattr(E, "apply_public", None) or E.view.apply_public  # exported since issue 18
    clock = time.process_time

    def playout() -> tuple[int, float]:
        choice = random.Random(1).choice
        n = 0
        t0 = clock()
        for i, deck in enumerate(decks):
            st = G.new(deck, opener=i & 1, rules=rules)
            legal = st.legal_actions
            apply = st.apply
            while not st.is_over:
                apply(choice(legal()))
                n += 1
        return n, clock() - t0

    def apply_only() -> tuple[int, float]:
        runs = [(st.clone(), h) for st, h in games]
        n = 0
        t0 = clock()
        for st, history in runs:
            apply = st.apply
            for a in history:
                apply(a)
            n += len(history)
        return n, clock() - t0

    def legal_only() -> tuple[int, float]:
        t0 = clock()
        for st in states:
            st.legal_actions()
        return len(states), clock() - t0

    def view_kept() -> tuple[int, float]:
        choice = random.Random(2).choice
        n = 0
        t0 = clock()
        for i, deck in enumerate(decks):
            st = G.new(deck, opener=i & 1, rules=rules)
            events: list[Any] = []
            while not st.is_over:
                legal = st.legal_actions()
                E.seat_view(st, st.to_act, tuple(events), legal)
                events.append(apply_public(st, choice(legal)))
                n += 1
        return n, clock() - t0

    def view_full() -> tuple[int, float]:
        choice = random.Random(3).choice
        n = 0
        t0 = clock()
        for i, deck in enumerate(decks):
            st = G.new(deck, opener=i & 1, rules=rules)
            while not st.is_over:
                E.seat_view(st, st.to_act)
                st.apply(choice(st.legal_actions()))
                n += 1
        return n, clock() - t0

    games = _recorded(E, rules, decks) if metric in ("apply", "legal") else []
    states = []
    for st, history in games if metric == "legal" else []:
        st = st.clone()
        for a in history:
            states.append(st.clone())
            st.apply(a)
    return {"playout": playout, "apply": apply_only, "legal": legal_only, "view_kept": view_kept,
            "view_full": view_full}[metric]


def _extract(rev: str, into: str) -> str:
    blob = subprocess.run(["git", "-C", ROOT, "archive", rev, "src/gameweave/__init__.py", "src/gameweave/engine"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "src")


def _base_module(src: str, into: str) -> ModuleType:
    """The base engine imported as ``gwbase.engine`` (its imports inside are relative)."""
    shutil.copytree(os.path.join(src, "gameweave"), os.path.join(into, "gwbase"))
    sys.path.insert(0, into)
    return importlib.import_module("gwbase.engine")


def _timed(base: ModuleType, here: ModuleType, rules: str, deals: int, metric: str, rounds: int) -> tuple[float, float]:
    """Best ns per step of base and of this tree, reps alternating."""
    runs = {"base": prepare(base, rules, deals, metric), "new": prepare(here, rules, deals, metric)}
    best = {"base": float("inf"), "new": float("inf")}
    for r in range(rounds):
        for name in ("base", "new") if r % 2 == 0 else ("new", "base"):
            n, s = runs[name]()
            best[name] = min(best[name], s / n * 1e9)
    return best["base"], best["new"]


def _count(src: str, rules: str, deals: int, metric: str, dry: bool, valgrind: str, pad: str) -> tuple[int, int]:
    env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0", PAD=pad)
    cmd = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable,
           os.path.abspath(__file__), "--child", rules, str(deals), metric, "dry" if dry else "run"]
    got = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir())
    refs = re.search(r"I\s+refs:\s+([\d,]+)", got.stderr)
    assert refs, got.stderr[-2000:]
    return json.loads(got.stdout.splitlines()[-1])["steps"], int(refs.group(1).replace(",", ""))


def _instructions(src: str, rules: str, deals: int, metric: str, valgrind: str) -> float:
    """Instructions per step: the median over three environment sizes of (run - dry) / steps."""
    per_step = []
    for pad in ("a", "b" * 27, "c" * 61):
        steps, run = _count(src, rules, deals, metric, False, valgrind, pad)
        _, dry = _count(src, rules, deals, metric, True, valgrind, pad)
        per_step.append((run - dry) / steps)
    return statistics.median(per_step)


def _child(rules: str, deals: str, metric: str, mode: str) -> None:
    """One measure in this process, the engine from PYTHONPATH (``--instructions``)."""
    engine = importlib.import_module("gameweave.engine")
    run = prepare(engine, rules, int(deals), metric)
    steps = run()[0] if mode == "run" else 1
    print(json.dumps({"steps": steps}))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        _child(*sys.argv[2:6])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--rules", nargs="*", default=["gameweave", "anglo-american", "classic"])
    ap.add_argument("--metrics", nargs="*", default=list(METRICS), choices=METRICS)
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    args = ap.parse_args()
    valgrind = (shutil.which("valgrind") or "") if args.instructions else ""
    if args.instructions and not valgrind:
        sys.exit("--instructions needs valgrind on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        base_src = _extract(args.base, os.path.join(tmp, "tree"))
        here_src = os.path.join(ROOT, "src")
        if not valgrind:
            sys.path.insert(0, here_src)
            here = importlib.import_module("gameweave.engine")
            base = _base_module(base_src, os.path.join(tmp, "pkg"))
        unit = "instructions/step" if valgrind else f"ns/step, best of {args.rounds} alternating reps"
        print(f"base {args.base} vs this tree; {args.deals} deals, Python {sys.version.split()[0]}, {unit}")
        for rules in args.rules:
            for metric in args.metrics:
                deals = max(2, int(args.deals * SHARE[metric]))
                if valgrind:
                    b = _instructions(base_src, rules, deals, metric, valgrind)
                    n = _instructions(here_src, rules, deals, metric, valgrind)
                else:
                    b, n = _timed(base, here, rules, deals, metric, args.rounds)
                print(f"{rules:15s} {metric:10s} base {b:>10,.1f}  new {n:>10,.1f}  base/new {b / n:.3f}")


if __name__ == "__main__":
    main()

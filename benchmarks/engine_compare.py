"""The engine against an earlier commit of itself, in one run: playouts and views per second.

    python benchmarks/engine_compare.py [--base REV] [--deals N] [--rounds R] [--instructions]

Extracts ``src/gameweave/engine`` of ``REV`` (default ``main``) with ``git archive`` and
runs the same measuring code against it and against this tree, each measurement in a
fresh process.  Measures, per profile:

* ``playout``: random playouts, as ``gameweave bench`` (``GameState.new``, then
  ``legal_actions`` + ``apply`` to the end);
* ``apply``: ``apply`` alone, replaying recorded deals;
* ``view_kept``: ``seat_view`` with the history kept, then ``apply_public`` (as
  ``gameweave.research`` does);
* ``view_full``: ``seat_view`` rebuilt from the state (the server's path).

By default it times them (CPU time of the process; the rounds alternate which side goes
first, so that a busy machine slows both alike) and prints the best rate of each side
and the ratios this tree / base of the best and of the medians (above 1: this tree is
faster).  With ``--instructions`` it counts the instructions each step takes under
valgrind's cachegrind instead (``PYTHONHASHSEED=0``, the median of three environment
sizes, the set-up subtracted): slow, but the same on a loaded machine as on a quiet one;
the ratio printed is base / this tree (above 1: this tree runs fewer instructions).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
METRICS = ("playout", "apply", "view_kept", "view_full")

_CHILD = r"""
import json, random, sys, time
from gameweave.engine import GameState, shuffled_deck, apply_public, seat_view

rules, deals, metric, dry = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "dry"
decks = [shuffled_deck(s) for s in range(deals)]
games = []
if metric == "apply":  # the deals to replay, recorded before the clock starts
    rng = random.Random(5)
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        games.append((GameState.new(deck, opener=i & 1, rules=rules), st.history))
n = 0
t0 = time.process_time()
if dry:
    pass
elif metric == "playout":
    choice = random.Random(1).choice
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        legal = st.legal_actions
        apply = st.apply
        while not st.is_over:
            apply(choice(legal()))
            n += 1
elif metric == "apply":
    for st, history in games:
        apply = st.apply
        for a in history:
            apply(a)
        n += len(history)
elif metric == "view_kept":
    choice = random.Random(2).choice
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        events = []
        while not st.is_over:
            legal = st.legal_actions()
            seat_view(st, st.to_act, tuple(events), legal)
            events.append(apply_public(st, choice(legal)))
            n += 1
elif metric == "view_full":
    choice = random.Random(3).choice
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        while not st.is_over:
            seat_view(st, st.to_act)
            st.apply(choice(st.legal_actions()))
            n += 1
seconds = time.process_time() - t0
print(json.dumps({"steps": n, "rate": n / seconds if n else 0.0}))
"""

_DEALS = {"playout": 1.0, "apply": 1.0, "view_kept": 0.25, "view_full": 0.05}
"""Share of ``--deals`` each measure plays (the views are slower per step)."""


def _extract(rev: str, into: str) -> str:
    blob = subprocess.run(["git", "-C", ROOT, "archive", rev, "src/gameweave/__init__.py", "src/gameweave/engine"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "src")


def _child(src: str, rules: str, deals: int, metric: str, dry: bool = False, valgrind: str = "",
           pad: str = "") -> tuple[dict[str, float], int]:
    """Run one measure; returns its JSON line and, under valgrind, the instructions."""
    env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0", PAD=pad)
    cmd = [sys.executable, "-c", _CHILD, rules, str(deals), metric, "dry" if dry else "run"]
    if valgrind:
        cmd = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd]
    got = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir())
    refs = re.search(r"I\s+refs:\s+([\d,]+)", got.stderr) if valgrind else None
    return json.loads(got.stdout.splitlines()[-1]), int(refs.group(1).replace(",", "")) if refs else 0


def _instructions(src: str, rules: str, deals: int, metric: str, valgrind: str) -> float:
    """Instructions per step of ``metric``: the median over three environment sizes of
    (run - dry run) / steps."""
    per_step = []
    for pad in ("a", "b" * 27, "c" * 61):
        out, run = _child(src, rules, deals, metric, False, valgrind, pad)
        _, dry = _child(src, rules, deals, metric, True, valgrind, pad)
        per_step.append((run - dry) / out["steps"])
    return statistics.median(per_step)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", nargs="*", default=["gameweave", "anglo-american", "classic"])
    ap.add_argument("--metrics", nargs="*", default=list(METRICS), choices=METRICS)
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    args = ap.parse_args()
    valgrind = (shutil.which("valgrind") or "") if args.instructions else ""
    if args.instructions and not valgrind:
        sys.exit("--instructions needs valgrind on the PATH")
    with tempfile.TemporaryDirectory() as tmp:
        base = _extract(args.base, tmp)
        here = os.path.join(ROOT, "src")
        unit = "instructions/step" if valgrind else "steps/s (CPU)"
        print(f"base {args.base} vs this tree; {args.deals} deals, Python {sys.version.split()[0]}, {unit}")
        for rules in args.rules:
            for metric in args.metrics:
                deals = max(2, int(args.deals * _DEALS[metric]))
                if valgrind:
                    b = _instructions(base, rules, deals, metric, valgrind)
                    n = _instructions(here, rules, deals, metric, valgrind)
                    print(f"{rules:15s} {metric:10s} base {b:>10,.0f}  new {n:>10,.0f}  base/new {b / n:.3f}")
                    continue
                runs: dict[str, list[float]] = {"base": [], "new": []}
                for r in range(args.rounds):
                    order = [("base", base), ("new", here)]
                    for name, src in order if r % 2 == 0 else order[::-1]:
                        runs[name].append(_child(src, rules, deals, metric)[0]["rate"])
                b_, n_ = runs["base"], runs["new"]
                print(f"{rules:15s} {metric:10s} base {max(b_):>10,.0f}/s  new {max(n_):>10,.0f}/s  "
                      f"best/best {max(n_) / max(b_):.3f}  median/median {statistics.median(n_) / statistics.median(b_):.3f}")


if __name__ == "__main__":
    main()

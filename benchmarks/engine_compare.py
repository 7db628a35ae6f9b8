"""The engine against an earlier commit of itself, in one run: playouts and views per second.

    python benchmarks/engine_compare.py [--base REV] [--deals N] [--rounds R]

Extracts ``src/gameweave/engine`` of ``REV`` (default ``main``) with ``git archive`` and
times the same code against it and against this tree (CPU time of the process), each
measurement in a fresh process, alternating which goes first in every round so that a busy machine slows both
alike.  Measures, per profile: random playouts (transitions/s, as ``gameweave bench``:
``legal_actions`` + ``apply``); the public-event path (``apply_public``, then
``seat_view`` with the history kept, as ``gameweave.research`` does); and ``seat_view``
rebuilt from the state (the server's path).  Prints the best rate of each side and the
ratios this tree / base of the best and of the medians (above 1: this tree is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CHILD = r"""
import json, random, sys, time
from gameweave.engine import GameState, shuffled_deck, apply_public, seat_view

def main(rules, deals):
    decks = [shuffled_deck(s) for s in range(deals)]
    out = {}
    # 1. random playouts
    rng = random.Random(1)
    n = 0
    t0 = time.process_time()
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        legal = st.legal_actions
        apply = st.apply
        while not st.is_over:
            apply(rng.choice(legal()))
            n += 1
    out["playout"] = n / (time.process_time() - t0)
    # 2. apply_public + seat_view with the history kept
    rng = random.Random(2)
    n = 0
    t0 = time.process_time()
    for i, deck in enumerate(decks[: deals // 4]):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        events = []
        while not st.is_over:
            legal = st.legal_actions()
            seat_view(st, st.to_act, tuple(events), legal)
            events.append(apply_public(st, rng.choice(legal)))
            n += 1
    out["view_kept"] = n / (time.process_time() - t0)
    # 3. seat_view from the state (replays the public history)
    rng = random.Random(3)
    n = 0
    t0 = time.process_time()
    for i, deck in enumerate(decks[: deals // 20]):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        while not st.is_over:
            seat_view(st, st.to_act)
            st.apply(rng.choice(st.legal_actions()))
            n += 1
    out["view_full"] = n / (time.process_time() - t0)
    print(json.dumps(out))

main(sys.argv[1], int(sys.argv[2]))
"""


def _extract(rev: str, into: str) -> str:
    blob = subprocess.run(["git", "-C", ROOT, "archive", rev, "src/gameweave/__init__.py", "src/gameweave/engine"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "src")


def _measure(src: str, rules: str, deals: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    got = subprocess.run([sys.executable, "-c", _CHILD, rules, str(deals)], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout
    return json.loads(got)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", nargs="*", default=["gameweave", "anglo-american", "classic"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = _extract(args.base, tmp)
        here = os.path.join(ROOT, "src")
        print(f"base {args.base} vs this tree; {args.deals} deals, {args.rounds} rounds, Python {sys.version.split()[0]}")
        for rules in args.rules:
            runs: dict[str, list[dict[str, float]]] = {"base": [], "new": []}
            for r in range(args.rounds):
                order = [("base", base), ("new", here)]
                for name, src in order if r % 2 == 0 else order[::-1]:
                    runs[name].append(_measure(src, rules, args.deals))
            for metric in ("playout", "view_kept", "view_full"):
                b = [x[metric] for x in runs["base"]]
                n = [x[metric] for x in runs["new"]]
                print(f"{rules:15s} {metric:10s} base {max(b):>10,.0f}/s  new {max(n):>10,.0f}/s  "
                      f"best/best {max(n) / max(b):.3f}  median/median {statistics.median(n) / statistics.median(b):.3f}")


if __name__ == "__main__":
    main()

"""The worst case of R18b: time to list the legal actions of the 128-choice position.

    python benchmarks/r18_worst.py [--reps N]

Turned 6d, an empty table, hand Ac Ad Ah As 2d 3d 4d 5d 7d Jd (RULES R18b): 128 ``meld``
choices plus ``refuse``.  Prints the median, min and max of ``legal_actions()`` over the
repetitions, in milliseconds, for both profiles that rearrange.  Target: under 2 ms.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from gameweave.engine import GameState  # noqa: E402
from gameweave.engine.conformance import build_deck  # noqa: E402

HAND = "Ac Ad Ah As 2d 3d 4d 5d 7d Jd"
OTHER = "Kc Kd Kh Ks Qc Qd Qh Qs Jc Jh"


def position(rules: str) -> GameState:
    """The R18b position: the opener holds HAND and has just turned 6d."""
    st = GameState.new(build_deck(HAND, OTHER, "6d"), rules=rules)
    st.play("turn")
    return st


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    for rules in ("anglo-american", "classic"):
        st = position(rules)
        times = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            legal = st.legal_actions()
            times.append((time.perf_counter() - t0) * 1000)
        melds = sum(1 for t in st.legal_texts() if t.startswith("meld"))
        print(f"{rules}: {len(legal)} legal actions ({melds} meld choices); legal_actions() "
              f"median {statistics.median(times):.3f} ms (min {min(times):.3f}, max {max(times):.3f})")

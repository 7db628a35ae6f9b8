"""Random-playout benchmark: deals/s and transitions/s, median and min/max of 7 reps.

    python benchmarks/playout.py [--deals N] [--reps R] [--rules NAME] [--engine python|native]

Same as ``gameweave bench``.  To compare with OpenSpiel and RLCard in the same run:

    bash ../shared/anchors/setup.sh
    OURS_CMD="$PWD/.venv/bin/python $PWD/benchmarks/playout.py" bash ../shared/anchors/run_all.sh
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from gameweave.bench import report, run  # noqa: E402

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--rules", default="gameweave", help="rule profile (gameweave, anglo-american, classic)")
    ap.add_argument("--engine", default="python", choices=("python", "native"),
                    help="the pure-Python reference or the native core (same deals, same choices)")
    args = ap.parse_args()
    try:
        result = run(deals=args.deals, reps=max(5, args.reps), rules=args.rules, engine=args.engine)
    except RuntimeError as exc:  # --engine native without the native core
        sys.exit(f"playout.py: {exc}")
    print(report(result))

"""Random-playout benchmark: deals/s and transitions/s, median and min/max of 7 reps.

    python benchmarks/playout.py [--deals N] [--reps R] [--rules NAME] [--engine python|native] [--cpu] [--anchor]

Same as ``gameweave bench``.  ``--engine native`` plays the same deals with the same
choices in the native core (issue 21; exit status 1 with one line when it is not built).
``--cpu`` times by this process's CPU time (a shared machine).  ``--anchor`` also measures
OpenSpiel's C++ gin_rummy (``pyspiel.evaluate_bots`` with uniform random bots, the shared
anchors' ``cpp_evaluate_bots`` loop) before and after, on the same clock, and prints the
ratio to the better of its two medians (needs the research extra: OpenSpiel).  To compare
with the shared anchors' whole set instead:

    bash ../shared/anchors/setup.sh
    OURS_CMD="$PWD/.venv/bin/python $PWD/benchmarks/playout.py" bash ../shared/anchors/run_all.sh
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

from gameweave.bench import report, run  # noqa: E402

GIN = "openspiel.gin_rummy.random_playout.cpp_evaluate_bots"


def gin_anchor(games: int, reps: int, cpu: bool) -> dict:
    """OpenSpiel gin_rummy in C++, uniform random bots (the shared anchors' loop)."""
    import pyspiel
    from timing import measure

    game = pyspiel.load_game("gin_rummy")
    clock = time.process_time if cpu else time.perf_counter

    def work(rep: int) -> dict:
        seed = 5000 + 97 * rep if rep >= 0 else 99
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(2)]
        t0 = clock()
        tr = 0
        for i in range(games):
            state = game.new_initial_state()
            pyspiel.evaluate_bots(state, bots, (seed * 100_003 + i) % 2_147_483_647)
            tr += len(state.history())
        return {"games": games, "transitions": tr, "_t": clock() - t0}

    return measure(GIN, work, reps, 1, primary="transitions", meta={"games_per_rep": games})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--rules", default="gameweave", help="rule profile (gameweave, anglo-american, classic)")
    ap.add_argument("--engine", default="python", choices=("python", "native"),
                    help="the pure-Python reference or the native core (same deals, same choices)")
    ap.add_argument("--cpu", action="store_true", help="time by CPU time instead of the wall clock")
    ap.add_argument("--anchor", action="store_true", help="measure OpenSpiel's C++ gin_rummy before and after")
    ap.add_argument("--anchor-games", type=int, default=200)
    args = ap.parse_args()
    before = gin_anchor(args.anchor_games, 5, args.cpu) if args.anchor else None
    try:
        result = run(deals=args.deals, reps=max(5, args.reps), rules=args.rules, engine=args.engine, cpu=args.cpu)
    except RuntimeError as exc:  # --engine native without the native core
        sys.exit(f"playout.py: {exc}")
    print(report(result))
    if before is not None:
        after = gin_anchor(args.anchor_games, 5, args.cpu)
        gin = max(before["rates"]["transitions_per_s"]["median"], after["rates"]["transitions_per_s"]["median"])
        ours = result["rates"]["transitions_per_s"]["median"]
        print(f"RATIO {result['anchor']} / {GIN} = {ours:,.0f} / {gin:,.0f} = {ours / gin:.1f}x "
              f"(better of the anchor's two medians; {'CPU time' if args.cpu else 'wall clock'})")

"""Decision-time benchmark of the bots (issue 3: the search bot's p95 must stay <= 1 s).

Collects the non-trivial decisions (more than one legal action) of ``--deals`` greedy
self-play deals, then times each bot's ``choose`` on every one of those views, on one
core.  Prints median / p95 / max in milliseconds per bot and one ``BOTS {json}`` line.
``--rules`` picks the profile (§V: gameweave, anglo-american, classic; ``all`` = each);
``--cpu`` times CPU time (``time.thread_time``) instead of wall time, for a loaded machine.

    .venv/bin/python benchmarks/bots.py --deals 20 [--bots random,greedy,search,search-v1,master] [--rules all]
        [--cpu] [--estimate]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from gameweave.bots import make_bot
from gameweave.engine import PROFILE_NAMES, GameState, find_profile, seat_view


def collect_views(deals: int, seed: int = 0, rules: str = "gameweave"):
    """The non-trivial seat views of ``deals`` greedy self-play deals of profile ``rules``
    (R21 views)."""
    views = []
    g = make_bot("greedy", seed=seed)
    for d in range(deals):
        st = GameState.new(seed=f"bench:{seed}:{d}", opener=d & 1, rules=rules)
        while not st.is_over:
            v = seat_view(st, st.to_act)
            if len(v.legal) > 1:
                views.append(v)
            st.apply(g.choose(v))
    return views


def time_bot(name: str, views, clock=time.perf_counter, estimate: bool = False, **options) -> dict:
    """Decision times of bot ``name`` over ``views``: median, p95 and max in ms, measured
    with ``clock`` (wall clock by default; ``time.thread_time`` counts CPU time only, for
    a loaded machine).  With ``estimate`` it times ``bot.estimate(view)`` (what a hint
    costs, issue 11) instead of ``bot.choose(view)``."""
    bot = make_bot(name, seed=1, **options)
    call = bot.estimate if estimate else bot.choose
    ts = []
    for v in views:
        t0 = clock()
        call(v)
        ts.append((clock() - t0) * 1000)
    ts.sort()
    return {
        "bot": name,
        "decisions": len(ts),
        "median_ms": round(statistics.median(ts), 3),
        "p95_ms": round(ts[min(len(ts) - 1, int(0.95 * len(ts)))], 3),
        "max_ms": round(ts[-1], 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--bots", default="random,greedy,search")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="gameweave", help="profile name, or 'all'")
    ap.add_argument("--cpu", action="store_true", help="time CPU (thread) time instead of wall time")
    ap.add_argument("--estimate", action="store_true", help="time bot.estimate (a hint) instead of bot.choose")
    args = ap.parse_args()
    clock = time.thread_time if args.cpu else time.perf_counter
    profiles = PROFILE_NAMES if args.rules == "all" else (find_profile(args.rules).name,)
    results = []
    for rules in profiles:
        views = collect_views(args.deals, args.seed, rules)
        for b in args.bots.split(","):
            r = time_bot(b.strip(), views, clock, estimate=args.estimate)
            r["clock"] = "cpu" if args.cpu else "wall"
            r["call"] = "estimate" if args.estimate else "choose"
            r["rules"] = rules
            results.append(r)
            print(f"{rules:<15} {r['bot']:<12} {r['decisions']:>5} decisions  median {r['median_ms']:8.2f} ms  "
                  f"p95 {r['p95_ms']:8.2f} ms  max {r['max_ms']:8.2f} ms", flush=True)
    print("BOTS " + json.dumps(results))


if __name__ == "__main__":
    main()

"""OpenSpiel's IS-MCTS (through the ``conquian`` game) against our ``search`` bot.

Both play from their seat's view only (R21).  Each deal is played twice with seats
swapped (the arena's protocol, :func:`gameweave.arena.run_arena`); the result is printed
with 95 % Wilson intervals.

    .venv/bin/python examples/ismcts_vs_search.py --deals 10 --simulations 200 --rules classic
"""

from __future__ import annotations

import argparse
import json

from gameweave.arena import run_arena, summarize
from gameweave.research.bots import register_research_bots


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="gameweave")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=200, help="IS-MCTS simulations per id")
    ap.add_argument("--iterations", type=int, default=None, help="search bot playouts (default: its own)")
    ap.add_argument("--opponent", default="search")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    register_research_bots()
    opp = {} if args.iterations is None else {"iterations": args.iterations}
    games = run_arena("ismcts", args.opponent, args.deals, seed=args.seed, rules=args.rules,
                      options=({"simulations": args.simulations}, opp))
    summary = summarize("ismcts", args.opponent, games, args.deals, rules=args.rules)
    print(json.dumps(summary, indent=1))  # noqa: T201 - a script reports on stdout
    return {"games": games, "summary": summary}


if __name__ == "__main__":
    main()

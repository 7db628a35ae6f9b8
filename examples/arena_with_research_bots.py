"""``ismcts`` in the arena: register the research bots, then run ``gameweave arena``'s engine.

The core never imports ``gameweave.research`` (docs/RESEARCH.md, "Bots in the arena"); a
program registers the research bots itself, as here, and the CLI can do the same once the
lead adds the hook described there.

    .venv/bin/python examples/arena_with_research_bots.py ismcts greedy --deals 5
"""

from __future__ import annotations

import argparse
import json

from gameweave.arena import run_arena, summarize
from gameweave.research.bots import register_research_bots


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bot1")
    ap.add_argument("bot2")
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--rules", default="gameweave")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--simulations", type=int, default=100)
    args = ap.parse_args(argv)
    register_research_bots()
    opts = tuple({"simulations": args.simulations} if b == "ismcts" else {} for b in (args.bot1, args.bot2))
    games = run_arena(args.bot1, args.bot2, args.deals, seed=args.seed, rules=args.rules, options=opts)
    summary = summarize(args.bot1, args.bot2, games, args.deals, rules=args.rules)
    print(json.dumps(summary, indent=1))  # noqa: T201 - a script reports on stdout
    return {"games": games, "summary": summary}


if __name__ == "__main__":
    main()

"""The baseline table of docs/RESEARCH.md (issue 21): every row against one reference bot.

Each row is one command; each plays ``--deals`` arena deals against ``--reference``
(default ``greedy``) with ``gameweave.arena.run_arena`` — each deal twice with seats
swapped, seed ``--seed`` — and prints the arena's summary (wins / tablas / losses, the win
share of decided games with its 95 % Wilson interval, the Elo differences); ``--json``
prints it as one JSON object.  Rows:

* ``random``, ``greedy``, ``search-v1``, ``search``: the bot itself (the same games as
  ``gameweave arena BOT greedy --deals N --seed S``);
* ``ismcts-25``, ``ismcts-100``: OpenSpiel's IS-MCTS (``ismcts``) at 25 and 100
  simulations per decided id (``--opt1 simulations=K``);
* ``reinforce``: ``examples/train_selfplay.py`` trained with its defaults (6,000
  self-play deals, seed 0), then its greedy policy (argmax) as a
  :class:`gameweave.research.policy.PolicyBot`;
* ``ppo``: ``examples/ppo_vector.py`` trained with its defaults (PPO on the batched
  environment against ``greedy``, seed 0), then its greedy policy the same way.

``--train "ARGS"`` adds arguments to a learned row's training (for a quick check:
``--train "--updates 1"``); the table's rows use none.  The table's commands (gameweave
profile, the 2-core shared machine; sizes as the table says)::

    .venv/bin/python benchmarks/baselines.py random --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py greedy --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py search-v1 --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py search --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py ismcts-25 --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py ismcts-100 --deals 100 --seed 21
    .venv/bin/python benchmarks/baselines.py reinforce --deals 300 --seed 21
    .venv/bin/python benchmarks/baselines.py ppo --deals 300 --seed 21
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gameweave.arena import report_lines, run_arena, summarize  # noqa: E402
from gameweave.bots import load_plugins, register  # noqa: E402

BOT_ROWS: dict[str, tuple[str, dict[str, Any]]] = {
    "random": ("random", {}), "greedy": ("greedy", {}), "search-v1": ("search-v1", {}), "search": ("search", {}),
    "ismcts-25": ("ismcts", {"simulations": 25}), "ismcts-100": ("ismcts", {"simulations": 100}),
}
"""Bot rows: row name -> (bot name, bot options)."""
LEARNED_ROWS = {"reinforce": "train_selfplay", "ppo": "ppo_vector"}
"""Learned rows: row name -> the example under examples/ that trains the policy."""
ROWS = [*BOT_ROWS, *LEARNED_ROWS]


def example(name: str) -> Any:
    """The module ``examples/NAME.py``, loaded by path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def trained_policy(row: str, rules: str, extra: list[str]) -> tuple[Any, float]:
    """Train a learned row's policy with its example's defaults (plus ``extra``);
    returns ``(policy with best(x, legal) -> id, training seconds)``."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(sys.stderr):  # stdout: the summary only
        if row == "reinforce":
            got = example("train_selfplay").main(["--rules", rules, "--out", str(Path(tmp) / "curve.png"), *extra])
        else:
            got = example("ppo_vector").main(["--rules", rules, "--eval-deals", "0", *extra])
    return got["policy"], time.perf_counter() - t0


def run_row(row: str, deals: int, seed: int, rules: str = "gameweave", reference: str = "greedy",
            train: str = "") -> dict[str, Any]:
    """Play one row against ``reference``; returns the arena's summary plus ``row``,
    ``reference`` and, for a learned row, ``train_seconds``.  Raises :class:`ValueError`
    for an unknown row."""
    if row not in ROWS:
        raise ValueError(f"unknown row {row!r} (rows: {', '.join(ROWS)})")
    load_plugins()  # ismcts, with the research extra
    extra: dict[str, Any] = {}
    if row in BOT_ROWS:
        name, opts = BOT_ROWS[row]
    else:
        from gameweave.research.policy import PolicyBot

        policy, extra["train_seconds"] = trained_policy(row, rules, shlex.split(train))
        name, opts = row, {}
        register(row, lambda seed=None: PolicyBot(policy.best, seed=seed))
    games = run_arena(name, reference, deals, seed=seed, options=(opts, {}), rules=rules)
    summary = summarize(name, reference, games, deals, rules=rules)
    summary.update(row=row, reference=reference, seed=seed, options=opts, **extra)
    return summary


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("row", choices=ROWS)
    ap.add_argument("--deals", type=int, default=300, help="arena deals; each is played twice, seats swapped")
    ap.add_argument("--seed", type=int, default=21, help="the arena seed (decks, openers, bot seeds)")
    ap.add_argument("--rules", default="gameweave")
    ap.add_argument("--reference", default="greedy", help="the fixed opponent of every row")
    ap.add_argument("--train", default="", help="extra arguments for a learned row's training example")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    summary = run_row(args.row, args.deals, args.seed, args.rules, args.reference, args.train)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(summary))  # noqa: T201
    else:
        print("\n".join(report_lines(summary)))  # noqa: T201
        print(f"{summary['seconds']} s" + (f" (training {summary['train_seconds']:.0f} s)"  # noqa: T201
                                           if "train_seconds" in summary else ""))
    return summary


if __name__ == "__main__":
    main()

"""Random play through each research interface, beside OpenSpiel gin_rummy and RLCard gin-rummy.

Measures, in one run, with the repository's own harness (``benchmarks/timing.py``: warm-up,
then ``reps`` repetitions of a fixed amount of work; median, min and max of the rates):

- ``gameweave.research.openspiel.<profile>.py_loop`` — our OpenSpiel game driven from
  Python exactly as the anchor drives gin_rummy (chance sampled by probability, uniform
  legal actions; ``transitions`` counts every ``apply_action``, chance included);
- ``gameweave.research.pettingzoo.<profile>.step`` — ``env.last()`` + a masked uniform
  action + ``env.step`` (observation encoding included; ``steps`` = agent steps; the
  legal ids are read from the int8 mask as in :data:`MASK_READ`);
- ``gameweave.research.gymnasium.<profile>.step`` — ``env.step`` of a masked uniform
  action against the ``uniform`` opponent (uniform over its legal ids; ``steps`` = agent
  steps, the opponent's moves are extra work inside each step); ``...step.vs_random``
  the same against the gameweave ``random`` bot, which decides from a full view;
- the same rows ending in ``.native`` — PettingZoo's and Gymnasium's environment with
  ``native=True`` (issue 21: the deal in the native core, the same arrays; their default
  where the core is built), when the native core is built; the rows without it are the
  Python path (``native=False``);
- ``gameweave.research.vector.<profile>.step256.vs_random`` — the batched environment
  (issue 21) on the native core, 256 games against the ``random`` bot, masked uniform
  ids drawn per game in Python by the caller; ``steps`` = agent steps summed over the
  games; ``...vs_random.python`` the same on the pure-Python path (``native=False``, the
  reference), in the same run; ``...vs_random.batch_pick`` the native path with the
  caller drawing the whole batch's ids in a few numpy calls (:func:`pick_batch`) instead
  of row by row in Python;
- ``openspiel.gin_rummy.random_playout.py_loop`` — the anchor, OpenSpiel's C++ gin_rummy
  driven from Python (OpenSpiel comes with the research extra);
- ``rlcard.gin-rummy.random_playout.env_step`` — RLCard's gin-rummy ``env.step`` loop
  (the loop of the shared anchors' ``bench_rlcard.py``), in this process, when RLCard is
  installed (the optional extra: ``pip install -e '.[research,anchors]'``); without it
  the benchmark says so and leaves the RLCard column empty.

The two anchors run before and after ours and the ratios use the better pass of each.
Every repetition is timed by the process's CPU time (``--wall`` for the wall clock), so
that other work on a shared machine barely moves the figures.

Prints ``ANCHOR {json}`` lines and a ratio table.  Run (a minute or two)::

    taskset -c 0 .venv/bin/python benchmarks/research.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyspiel  # noqa: E402
from timing import header, measure, pkg_version  # noqa: E402

from gameweave.engine import PROFILE_NAMES, native  # noqa: E402
from gameweave.research import gym as ggym  # noqa: E402
from gameweave.research import openspiel as gos  # noqa: E402
from gameweave.research import pettingzoo as gpz  # noqa: E402


CPU = True
"""Time each repetition by this process's CPU time (``time.process_time``) rather than the
wall clock: on a shared machine other people's work then barely moves the figures."""


def cpu_timed(work):
    """Wrap a harness work function so that it reports its CPU time as ``_t``."""
    def timed(rep: int) -> dict:
        t0 = time.process_time()
        out = work(rep)
        if CPU:
            out["_t"] = time.process_time() - t0
        return out
    return timed


def py_loop(game, rng: random.Random) -> tuple[int, int]:
    """One random game through pyspiel's Python API (the anchor's loop, verbatim)."""
    state = game.new_initial_state()
    transitions = decisions = 0
    randrange = rng.randrange
    rand = rng.random
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rand()
            acc = 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
        else:
            legal = state.legal_actions()
            action = legal[randrange(len(legal))]
            decisions += 1
        state.apply_action(action)
        transitions += 1
    return transitions, decisions


def bench_openspiel(name: str, game, games: int, reps: int) -> dict:
    def work(rep: int) -> dict:
        rng = random.Random(1000 + rep)
        tr = de = 0
        for _ in range(games):
            t, d = py_loop(game, rng)
            tr += t
            de += d
        return {"games": games, "transitions": tr, "decisions": de}

    return measure(name, cpu_timed(work), reps, 1, primary="transitions", meta={"games_per_rep": games})


MASK_READ = "bool_view"
"""How the benchmark's caller turns an int8 action mask into legal ids: ``bool_view``
(``mask.view(bool).nonzero()[0]``, zero-copy: numpy's ``nonzero`` on a bool array is
about 10x faster than on int8) or ``nonzero`` (``mask.nonzero()[0]`` on the int8 array,
about 1.5 us more a step).  The caller's choice, not the interface's: ``--mask-read``."""


def legal_of(mask):
    """The legal ids of an int8 0/1 mask (see :data:`MASK_READ`)."""
    if MASK_READ == "bool_view":
        return mask.view(bool).nonzero()[0]
    return mask.nonzero()[0]


def bench_pettingzoo(rules: str, games: int, reps: int, native: bool = False) -> dict:
    env = gpz.env(rules=rules, native=native)

    def work(rep: int) -> dict:
        rng = random.Random(2000 + rep)
        steps = 0
        for g in range(games):
            env.reset(seed=(rep + 10) * 100_000 + g)
            while True:
                obs, _r, term, trunc, _info = env.last()
                if term or trunc:
                    break
                legal = legal_of(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return {"games": games, "steps": steps}

    return measure(f"gameweave.research.pettingzoo.{rules}.step" + (".native" if native else ""), cpu_timed(work),
                   reps, 1, primary="steps", meta={"games_per_rep": games, "mask_read": MASK_READ, "native": native})


def bench_gym(rules: str, games: int, reps: int, opponent: str = "uniform", native: bool = False) -> dict:
    env = ggym.ConquianEnv(rules=rules, opponent=opponent, native=native)

    def work(rep: int) -> dict:
        rng = random.Random(3000 + rep)
        steps = 0
        for g in range(games):
            _obs, info = env.reset(seed=(rep + 10) * 100_000 + g)
            done = False
            while not done:
                legal = legal_of(info["action_mask"])
                _obs, _r, done, _t, info = env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return {"games": games, "steps": steps}

    suffix = ("" if opponent == "uniform" else f".vs_{opponent}") + (".native" if native else "")
    return measure(f"gameweave.research.gymnasium.{rules}.step{suffix}", cpu_timed(work), reps, 1, primary="steps",
                   meta={"games_per_rep": games, "opponent": opponent, "mask_read": MASK_READ, "native": native})


RLCARD_MISSING = "# RLCard: not installed (pip install -e '.[research,anchors]'); its column is left empty"


def pick_batch(mask, u):
    """One uniform legal id per row of an ``(N, actions)`` int8 mask, for the whole batch
    in a few numpy calls (0 for a row with none, a game that just ended): row ``i`` takes
    its ``floor(u[i] * count)``-th legal id, ``u`` being N uniform floats in [0, 1)."""
    import numpy as np

    flat = mask.view(bool).reshape(-1).nonzero()[0]  # one flat pass: far cheaper than a 2-D nonzero
    rows = flat // mask.shape[1]
    cols = flat - rows * mask.shape[1]
    counts = np.bincount(rows, minlength=len(mask))
    starts = np.cumsum(counts) - counts
    acts = np.zeros(len(mask), np.int64)
    live = counts > 0
    acts[live] = cols[(starts + (u * counts).astype(np.int64))[live]]
    return acts


def bench_vector(rules: str, num_envs: int, steps: int, reps: int, opponent: str = "random",
                 native: bool | None = None, caller: str = "rows") -> dict:
    """``ConquianVectorEnv(num_envs, rules, opponent, native=native).step`` of masked
    uniform ids drawn by the caller (part of the figure): ``caller="rows"`` per game in
    Python (``legal_of`` of each row and ``random.randrange``, as the single environments'
    rows do), ``"batch"`` for the whole batch with numpy (:func:`pick_batch`; its row ends
    in ``.batch_pick``); ``steps`` counts agent steps summed over the games (per batch
    call: ``num_envs``).  ``native`` None: the native core where built (the default
    path), False: the pure-Python path (the reference; its row ends in ``.python``)."""
    import numpy as np

    from gameweave.research.vector import ConquianVectorEnv

    env = ConquianVectorEnv(num_envs=num_envs, rules=rules, opponent=opponent, native=native)

    def work(rep: int) -> dict:
        rng = random.Random(5000 + rep)
        gen = np.random.default_rng(5000 + rep)
        _obs, info = env.reset(seed=(rep + 10) * 100_000)
        for _ in range(steps):
            if caller == "batch":
                acts = pick_batch(info["action_mask"], gen.random(num_envs))
            else:
                acts = [int(row[rng.randrange(len(row))]) if len(row) else 0
                        for row in (legal_of(m) for m in info["action_mask"])]
            _obs, _r, _d, _t, info = env.step(acts)
        return {"batches": steps, "steps": steps * num_envs}

    suffix = ("" if env.native else ".python") + (".batch_pick" if caller == "batch" else "")
    return measure(f"gameweave.research.vector.{rules}.step{num_envs}.vs_{opponent}{suffix}", cpu_timed(work), reps, 1,
                   primary="steps", meta={"num_envs": num_envs, "batches_per_rep": steps, "opponent": opponent,
                                          "native": env.native, "caller": caller})


def rlcard_anchor(games: int, reps: int) -> list[dict]:
    """RLCard gin-rummy ``env.step`` with uniform legal actions (the shared anchors' loop),
    in this process; ``[]`` after printing :data:`RLCARD_MISSING` when RLCard is absent."""
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import rlcard
    except ImportError:
        print(RLCARD_MISSING)
        return []
    env = rlcard.make("gin-rummy", config={"seed": 1})

    def work(rep: int) -> dict:
        env.seed(2000 + rep if rep >= 0 else 1)
        rng = random.Random(4000 + rep)
        steps = 0
        for _ in range(games):
            state, _pid = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                state, _pid = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return {"games": games, "steps": steps}

    return [measure("rlcard.gin-rummy.random_playout.env_step", cpu_timed(work), reps, 1, primary="games",
                    meta={"games_per_rep": games})]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="1/5 of the work, 3 reps")
    ap.add_argument("--profiles", default=",".join(PROFILE_NAMES))
    ap.add_argument("--wall", action="store_true", help="time by the wall clock instead of CPU time")
    ap.add_argument("--mask-read", choices=("bool_view", "nonzero"), default="bool_view",
                    help="how the caller reads legal ids from the int8 mask (see MASK_READ)")
    args = ap.parse_args()
    global CPU, MASK_READ
    CPU = not args.wall
    MASK_READ = args.mask_read
    reps = 3 if args.quick else args.reps
    k = 0.2 if args.quick else 1.0
    header("benchmarks/research.py", {
        "open_spiel": pkg_version("open_spiel"), "pettingzoo": pkg_version("pettingzoo"),
        "gymnasium": pkg_version("gymnasium"), "numpy": pkg_version("numpy"), "rlcard": pkg_version("rlcard"),
    })
    results = []
    gin_game = pyspiel.load_game("gin_rummy")
    # the anchors run before and after ours, so that drift during the run shows
    rl_games = max(4, int(60 * k))
    anchors = rlcard_anchor(rl_games, reps)
    anchors.append(bench_openspiel("openspiel.gin_rummy.random_playout.py_loop", gin_game, max(4, int(60 * k)), reps))
    for rules in args.profiles.split(","):
        results.append(bench_openspiel(f"gameweave.research.openspiel.{rules}.py_loop",
                                       gos.load(rules), max(4, int(100 * k)), reps))
        results.append(bench_pettingzoo(rules, max(4, int(100 * k)), reps))
        if native.AVAILABLE:
            results.append(bench_pettingzoo(rules, max(4, int(100 * k)), reps, native=True))
        results.append(bench_gym(rules, max(4, int(100 * k)), reps))
        if native.AVAILABLE:
            results.append(bench_gym(rules, max(4, int(100 * k)), reps, native=True))
        if rules == "gameweave":
            results.append(bench_gym(rules, max(4, int(100 * k)), reps, opponent="random"))
            if native.AVAILABLE:
                results.append(bench_gym(rules, max(4, int(100 * k)), reps, opponent="random", native=True))
        results.append(bench_vector(rules, 256, max(4, int(20 * k)), reps, native=False))
        if native.AVAILABLE:
            results.append(bench_vector(rules, 256, max(20, int(200 * k)), reps))
            results.append(bench_vector(rules, 256, max(20, int(200 * k)), reps, caller="batch"))
        else:
            print(f"# native core: not available ({native.DISABLE_ENV} set, or not built); "
                  "the batched environment runs in Python only")
    anchors.append(bench_openspiel("openspiel.gin_rummy.random_playout.py_loop", gin_game, max(4, int(60 * k)), reps))
    anchors += rlcard_anchor(rl_games, reps)

    def rate(r: dict) -> tuple[float, float, float]:
        key = "transitions_per_s" if "transitions_per_s" in r["rates"] else "steps_per_s"
        st = r["rates"][key]
        return st["median"], st["min"], st["max"]

    def ref(name: str) -> float | None:
        """The anchor's best median of its two passes (the conservative reference)."""
        got = [rate(r)[0] for r in anchors if r["anchor"] == name]
        return max(got) if got else None

    gin = ref("openspiel.gin_rummy.random_playout.py_loop")
    rl = ref("rlcard.gin-rummy.random_playout.env_step")
    print()
    print("| interface | per step/s, median [min..max] | x OpenSpiel gin_rummy py loop | x RLCard gin-rummy env.step |")
    print("|---|---|---|---|")
    for r in results:
        med, lo, hi = rate(r)
        g = f"{med / gin:.2f}" if gin else "-"
        c = f"{med / rl:.2f}" if rl else "-"
        print(f"| {r['anchor']} | {med:,.0f} [{lo:,.0f}..{hi:,.0f}] | {g} | {c} |")
    for r in anchors:
        if r["anchor"] in ("openspiel.gin_rummy.random_playout.py_loop", "rlcard.gin-rummy.random_playout.env_step"):
            med, lo, hi = rate(r)
            print(f"| {r['anchor']} | {med:,.0f} [{lo:,.0f}..{hi:,.0f}] | | |")
    if rl is None:
        print(RLCARD_MISSING)
    print("(ratios against the better of each anchor's two passes, before and after ours; "
          + ("CPU time" if CPU else "wall clock") + f"; mask read: {MASK_READ})")


if __name__ == "__main__":
    main()

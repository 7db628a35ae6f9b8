"""Decision-time benchmark of the bots (issue 3: the search bot's p95 must stay <= 1 s).

Collects the non-trivial decisions (more than one legal action) of ``--deals`` greedy
self-play deals, then times each bot's ``choose`` on every one of those views, on one
core.  Prints median / p95 / max in milliseconds per bot and one ``BOTS {json}`` line.
``--rules`` picks the profile (§V: gameweave, anglo-american, classic; ``all`` = each);
``--cpu`` times CPU time (``time.thread_time``) instead of wall time, for a loaded machine.

    .venv/bin/python benchmarks/bots.py --deals 20 [--bots random,greedy,search,search-v1,master] [--rules all]
        [--cpu] [--estimate]

``--duel A,B`` (issue 11, round 2) instead plays A against B on ``--deals`` mirrored
arena deals (``arena.deal_deck``; each deal twice, seats swapped) and prints the win share
of decided games with its 95 % Wilson interval.  A player is a bot name (it sees its
seat's view only) or one of the *measuring* players below, which act on the simulation
state and are never bots (two of them see hidden cards on purpose, to bound what
inference could give; they exist only in this benchmark):

* ``rollout``: the searches' playout policy (``playout.rollout_action``; it reads only
  its own hand and the public tables).
* ``pimc:W``: flat determinized search, ``W`` sampled worlds per decision, every candidate
  played out on each (the searches' candidates and greedy head start);
  ``pimc:W:fitted``: with ``inference="fitted"``'s evidence.
* ``pimc:W:truehand`` (cheats): the same, but every world deals the opponent its *true*
  hand (only the stock order is sampled) — the ceiling of perfect hand inference.
* ``oracle`` (cheats): one playout per candidate on the true state — perfect information.

    .venv/bin/python benchmarks/bots.py --duel pimc:30:truehand,greedy --deals 300 --seed 7
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import random

from gameweave.arena import deal_deck, deal_opener, wilson
from gameweave.bots import make_bot
from gameweave.bots.determinize import (
    biggest_meld_cards, clue_weights, impossible_cards, sample_informed, world_state,
)
from gameweave.bots.greedy import choose_greedy
from gameweave.bots.pimc import candidates
from gameweave.bots.playout import playout, rollout_action
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


def _pimc(worlds: int, mode: str):
    """A measuring player: flat PIMC with ``worlds`` worlds (see the module docstring)."""
    def play(st, rng):
        v = seat_view(st, st.to_act)
        legal = candidates(v, 6)
        if len(legal) == 1:
            return legal[0]
        g = choose_greedy(v)
        tot = [0.0] * len(legal)
        tot[legal.index(g)] += 1.0
        if mode == "fitted":
            ex, wts = impossible_cards(v) | biggest_meld_cards(v), clue_weights(v, fitted=True)
        else:
            ex, wts = impossible_cards(v), clue_weights(v)
        for _ in range(worlds):
            if mode == "truehand":  # cheats: the true opponent hand, a shuffled stock
                base = st.clone()
                rest = list(st.deck[st.stock_pos:])
                rng.shuffle(rest)
                base.deck = st.deck[:st.stock_pos] + tuple(rest)
            else:
                base = world_state(v, *sample_informed(v, rng, ex, wts, 40 if mode == "fitted" else 12))
            for i, a in enumerate(legal):
                s = base.clone()
                s.apply(a)
                tot[i] += playout(s, rng, st.to_act)
        return legal[max(range(len(legal)), key=lambda i: tot[i])]
    return play


def _oracle(st, rng):
    """A measuring player that cheats: one playout per candidate on the true state."""
    v = seat_view(st, st.to_act)
    legal = candidates(v, 6)
    if len(legal) == 1:
        return legal[0]
    g = choose_greedy(v)
    best, bv = g, -1.0
    for a in legal:
        s = st.clone()
        s.apply(a)
        r = playout(s, rng, st.to_act) + (0.25 if a == g else 0.0)
        if r > bv:
            best, bv = a, r
    return best


def duel_player(name: str, seed: int):
    """``player(state, rng) -> action`` for a ``--duel`` name (bot name or measuring player)."""
    if name == "rollout":
        return rollout_action
    if name == "oracle":
        return _oracle
    if name.startswith("pimc:"):
        parts = name.split(":")
        return _pimc(int(parts[1]), parts[2] if len(parts) > 2 else "r12")
    bot = make_bot(name, seed=seed)
    return lambda st, rng: bot.choose(seat_view(st, st.to_act))


def duel(a: str, b: str, deals: int, seed: int = 5, rules: str = "gameweave") -> dict:
    """Play ``a`` against ``b`` on ``deals`` mirrored arena deals; returns counts, the win
    share of decided games and its 95 % Wilson interval, and the wall time."""
    pa, pb = duel_player(a, seed), duel_player(b, seed + 1)
    w = t = lost = 0
    t0 = time.perf_counter()
    for d in range(deals):
        deck, op = deal_deck(seed, d), deal_opener(seed, d, rules)
        for swap in (False, True):
            st = GameState.new(deck, opener=op, rules=rules)
            pols = (pb, pa) if swap else (pa, pb)
            rng = random.Random(d * 2 + swap)
            while not st.is_over:
                st.apply(pols[st.to_act](st, rng))
            if st.winner < 0:
                t += 1
            elif (st.winner == 0) != swap:
                w += 1
            else:
                lost += 1
    lo, hi = wilson(w, w + lost)
    return {"a": a, "b": b, "rules": rules, "deals": deals, "seed": seed, "wins": w, "tablas": t, "losses": lost,
            "win_share": round(w / max(1, w + lost), 4), "ci95": [round(lo, 4), round(hi, 4)],
            "seconds": round(time.perf_counter() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--bots", default="random,greedy,search")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="gameweave", help="profile name, or 'all'")
    ap.add_argument("--cpu", action="store_true", help="time CPU (thread) time instead of wall time")
    ap.add_argument("--estimate", action="store_true", help="time bot.estimate (a hint) instead of bot.choose")
    ap.add_argument("--duel", default="", help="A,B: play A against B on mirrored deals (see the docstring)")
    args = ap.parse_args()
    if args.duel:
        a, b = args.duel.split(",")
        for rules in (PROFILE_NAMES if args.rules == "all" else (find_profile(args.rules).name,)):
            r = duel(a.strip(), b.strip(), args.deals, args.seed, rules)
            print(f"{rules:<15} {a} vs {b}: w/t/l {r['wins']}/{r['tablas']}/{r['losses']}  win share "
                  f"{r['win_share']:.1%} ({r['ci95'][0]:.1%}-{r['ci95'][1]:.1%})  {r['seconds']} s", flush=True)
            print("DUEL " + json.dumps(r))
        return
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

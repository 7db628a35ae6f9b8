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

``--playouts`` prints playouts per second of the searches' playout (``playout.playout``,
CPU time) on sampled worlds of greedy self-play views, per profile, with the default
policy and with every ``make_policy`` switch on.

``--fingerprint`` (``--quick``: fewer deals) prints a hash of the bots' behaviour: every
action of seeded games of each bot configuration (every level, every ``search`` and
``search-v1`` lever) against the greedy in each profile, and the figures of seeded
positions (samplers, the greedy's rankings, playouts, estimates, hints, the endgame
solver, the opponent model, an analysis).  Equal hashes mean the same decisions and
numbers; a refactoring of the bots or the engine must keep them (one line per section,
to find what moved, then ``TOTAL``).  At ``7a32395`` (before issue 18's bots refactoring)
the TOTAL was :data:`FINGERPRINT` (``--quick``: :data:`FINGERPRINT_QUICK`).

    .venv/bin/python benchmarks/bots.py --fingerprint [--quick]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from typing import Any

from gameweave.arena import deal_deck, deal_opener, wilson
from gameweave.bots import determinize as det
from gameweave.bots import greedy as gr
from gameweave.bots import make_bot
from gameweave.bots.advice import analyze_record, hint
from gameweave.bots.determinize import (
    biggest_meld_cards, clue_weights, impossible_cards, sample_informed, world_state,
)
from gameweave.bots.endgame import moves, solve
from gameweave.bots.estimate import action_groups, estimate_actions
from gameweave.bots.greedy import choose_greedy
from gameweave.bots.opponent import HandPool, throw_loglik
from gameweave.bots.pimc import candidates
from gameweave.bots.playout import make_policy, playout, rollout_action, throw_score
from gameweave.bots.search import SearchBot
from gameweave.engine import PROFILE_NAMES, GameRecord, GameState, find_profile, seat_view

FINGERPRINT = "61175438e5ebaee7554e6d1dec01f6ec7b9dedfd22e38215e7cbbf89ae04b8f1"
"""``--fingerprint``'s TOTAL at ``7a32395``."""
FINGERPRINT_QUICK = "742b05d74baa8be4d4dede185d3baba427795364a6155db64493887a018f939f"
"""``--fingerprint --quick``'s TOTAL at ``7a32395``."""


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


def playouts_per_second(deals: int = 3, reps: int = 20, seed: int = 0) -> dict[str, float]:
    """Playouts per CPU second (``time.thread_time``) per profile and policy: each world
    is a sampled world (``sample_informed``) of a non-trivial view of ``deals`` greedy
    self-play deals, played out ``reps`` times from a clone."""
    out = {}
    for rules in PROFILE_NAMES:
        rng = random.Random(5)
        worlds = [world_state(v, *sample_informed(v, rng)) for v in collect_views(deals, seed, rules)]
        for pname, pol in (("rollout", rollout_action), ("all-switches", make_policy(True, True, 4, 3))):
            t0 = time.thread_time()
            for _ in range(reps):
                for w in worlds:
                    playout(w.clone(), rng, w.to_act, policy=pol)
            out[f"{rules}:{pname}"] = round(reps * len(worlds) / (time.thread_time() - t0), 1)
    return out


# ----------------------------------------------------------------------------- fingerprint
FP_BOTS: list[tuple[str, dict[str, Any]]] = [
    ("random", {}), ("greedy", {}), ("greedy", {"meld_choice": "fewest", "danger_weight": 3.0, "force_min_hand": 3}),
    ("beginner", {}), ("casual", {}), ("intermediate", {}),
    ("search", {"iterations": 40}), ("search", {"iterations": 40, "force": True, "peek": True}),
    ("search", {"iterations": 40, "decline": 3, "force": True}), ("search", {"iterations": 40, "informed": False}),
    ("search", {"iterations": 30, "stock_scaled": True, "width": 0}),
    ("search", {"iterations": 40, "inference": "fitted", "tries": 5}),
    ("search", {"iterations": 30, "model": 0.3, "pool": 8}), ("search", {"iterations": 30, "joint": 2}),
    ("search", {"iterations": 30, "endgame": 8, "eg_worlds": 3, "eg_nodes": 200}),
    ("search", {"iterations": 30, "endgame": 8, "eg_worlds": 3, "eg_nodes": 200, "eg_opp": "policy", "eg_width": 0}),
    ("search", {"iterations": 60, "tree": 0.7}), ("search", {"iterations": 60, "tree": 0.5, "depth": 2, "reuse": 3}),
    ("search-v1", {"iterations": 40}), ("search-v1", {"iterations": 40, "mode": "ucb", "width": 0}),
    ("search-v1", {"iterations": 40, "policy": make_policy(force=True, peek=True)}),
]
"""The bot configurations of ``--fingerprint``'s games (each against the greedy)."""


class _Print:
    """Sections of repr'd items, hashed at the end."""

    def __init__(self) -> None:
        self.sections: dict[str, list[str]] = {}

    def put(self, section: str, item: object) -> None:
        self.sections.setdefault(section, []).append(repr(item))

    def lines(self) -> tuple[list[str], str]:
        total = hashlib.sha256()
        out = []
        for name in sorted(self.sections):
            h = hashlib.sha256("\n".join(self.sections[name]).encode()).hexdigest()
            total.update(f"{name}:{h}".encode())
            out.append(f"{name:<22} {h[:16]} {len(self.sections[name]):>5}")
        return out, total.hexdigest()


def _fp_play(rules: str, deal: int, a: tuple[str, dict[str, Any]], b: tuple[str, dict[str, Any]],
             swap: bool) -> tuple[int, list[int]]:
    st = GameState.new(seed=f"fp:{rules}:{deal}", opener=deal & 1, rules=rules)
    bots = [make_bot(a[0], seed=deal * 7 + 1, **a[1]), make_bot(b[0], seed=deal * 7 + 2, **b[1])]
    if swap:
        bots.reverse()
    acts = []
    while not st.is_over:
        x = bots[st.to_act].choose(seat_view(st, st.to_act))
        acts.append(x)
        st.play(x, st.to_act)
    return st.winner, acts


def _fp_games(fp: _Print, quick: bool) -> None:
    for rules in PROFILE_NAMES:
        for i, cfg in enumerate(FP_BOTS):
            opp = FP_BOTS[1] if i != 1 else FP_BOTS[0]
            for d in range(1 if quick else 2):
                for swap in (False, True):
                    fp.put(f"games:{cfg[0]}", (rules, i, d, swap, _fp_play(rules, d + i, cfg, opp, swap)))
        if not quick:  # the master level and the default search, once per profile
            fp.put("games:master", (rules, _fp_play(rules, 99, ("master", {}), ("greedy", {}), False)))
            fp.put("games:search-default", (rules, _fp_play(rules, 98, ("search", {}), ("search-v1", {}), True)))


def _fp_views(rules: str, n: int) -> list[Any]:
    out = []
    g = make_bot("greedy", seed=0)
    for d in range(n):
        st = GameState.new(seed=f"fpv:{rules}:{d}", opener=d & 1, rules=rules)
        k = 0
        while not st.is_over:
            v = seat_view(st, st.to_act)
            if len(v.legal) > 1:
                if k % 3 == 0:
                    out.append(v)
                k += 1
            st.apply(g.choose(v))
    return out


def _fp_pure(fp: _Print, v: Any) -> None:
    fp.put("determinize", (det.clues(v), det.impossible_cards(v), det.biggest_meld_cards(v), det.clue_weights(v),
                           det.clue_weights(v, fitted=True)))
    for k in range(3):
        fp.put("sample", (det.sample_world(v, random.Random(k)), det.sample_informed(v, random.Random(k)),
                          det.sample_informed(v, random.Random(k), 0, [], 3),
                          det.sample_informed(v, random.Random(k), det.impossible_cards(v) | det.biggest_meld_cards(v),
                                              det.clue_weights(v, fitted=True), 40)))
    fp.put("greedy", (gr.choose_greedy(v), gr.best_melds(v), gr.best_melds(v, meld_choice="fewest"),
                      gr.choose_greedy(v, None, 2.0, 3, "fewest"),
                      gr.throw_scores(v) if v.decision == "throw" else None, candidates(v, 6), candidates(v, 0),
                      candidates(v, 2), action_groups(v)))
    fp.put("greedy-cards", [gr.keep_value(c, v.hand, v.unseen()) for c in range(40)])


def _fp_figures(fp: _Print, v: Any, i: int) -> None:
    fp.put("estimate", estimate_actions(v, seed=i, worlds=6))
    fp.put("estimate-pol", estimate_actions(v, seed=i, worlds=4, policy=make_policy(force=True, decline=3)))
    if i % 3 == 0:
        fp.put("estimate-default", make_bot("greedy", seed=i).estimate(v))
        fp.put("hint", hint(v, "casual", seed=i))
    fp.put("estimate-bots", (SearchBot(seed=i, estimate_worlds=6, model=0.3, pool=6).estimate(v),
                             SearchBot(seed=i, estimate_worlds=6, inference="fitted").estimate(v),
                             SearchBot(seed=i, estimate_worlds=6, informed=False).estimate(v),
                             SearchBot(seed=i, estimate_worlds=6, tries=4).estimate(v),
                             make_bot("search-v1", seed=i).estimate(v) if i % 4 == 0 else None))
    rng = random.Random(i)
    hp = HandPool(v, rng, 6, 0.3)
    fp.put("opponent", (hp.cum, hp.hands, hp.ess, hp.sample(rng), throw_loglik(v, *det.sample_informed(v, rng))))


def _fp_sims(fp: _Print, v: Any, i: int) -> None:
    rng = random.Random(1000 + i)
    w = det.world_state(v, *det.sample_informed(v, rng))
    seat = v.seat
    mine = [c for c in range(40) if w.hands[seat] >> c & 1]
    fp.put("policy", (rollout_action(w, rng), [throw_score(w, seat, c) for c in mine],
                      [throw_score(w, seat, c, True) for c in mine]))
    pols = [rollout_action, make_policy(force=True), make_policy(peek=True), make_policy(decline=3),
            make_policy(force=True, peek=True, decline=6, force_min_hand=3)]
    for p in pols:
        s = w.clone()
        fp.put("playout", (playout(s, rng, seat, policy=p), s.history))
    for first_pol in pols[:2]:
        s = w.clone()
        if not s.is_over:
            fp.put("endgame-moves", moves(s, first_pol(s, rng), 4))
            fp.put("endgame-moves", moves(s, first_pol(s, rng), 0))
    if v.stock_count <= 12:
        for opp in ("max", "policy"):
            fp.put("endgame", solve(w.clone(), seat, pols[0], random.Random(i), 300, 4, opp))


def _fp_advice(fp: _Print) -> None:
    for rules in PROFILE_NAMES:
        st = GameState.new(seed=f"fpa:{rules}", opener=0, rules=rules)
        g = make_bot("casual", seed=3)
        while not st.is_over:
            st.apply(g.choose(seat_view(st, st.to_act)))
        rec = GameRecord.from_state(st)
        for level in ("master", "intermediate"):
            a = analyze_record(rec, level=level, seed=2, worlds=4).to_dict()
            a.pop("seconds")
            fp.put("analyze", json.dumps(a, sort_keys=True))


def fingerprint(quick: bool = False) -> tuple[list[str], str]:
    """The behaviour fingerprint (see the module docstring): ``(section lines, TOTAL hash)``."""
    fp = _Print()
    for rules in PROFILE_NAMES:
        for i, v in enumerate(_fp_views(rules, 2 if quick else 4)):
            _fp_pure(fp, v)
            _fp_sims(fp, v, i)
            if i % 2 == 0:
                _fp_figures(fp, v, i)
    _fp_advice(fp)
    _fp_games(fp, quick)
    return fp.lines()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--bots", default="random,greedy,search")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="gameweave", help="profile name, or 'all'")
    ap.add_argument("--cpu", action="store_true", help="time CPU (thread) time instead of wall time")
    ap.add_argument("--estimate", action="store_true", help="time bot.estimate (a hint) instead of bot.choose")
    ap.add_argument("--duel", default="", help="A,B: play A against B on mirrored deals (see the docstring)")
    ap.add_argument("--playouts", action="store_true", help="playouts per CPU second per profile and policy")
    ap.add_argument("--fingerprint", action="store_true", help="hash of the bots' seeded decisions and figures")
    ap.add_argument("--quick", action="store_true", help="with --fingerprint: fewer deals")
    args = ap.parse_args()
    if args.fingerprint:
        t0 = time.perf_counter()
        lines, total = fingerprint(args.quick)
        print("\n".join(lines))
        want = FINGERPRINT_QUICK if args.quick else FINGERPRINT
        print(f"TOTAL {total} ({'same as' if total == want else 'DIFFERS from'} 7a32395; "
              f"{time.perf_counter() - t0:.0f} s)")
        return
    if args.playouts:
        r = playouts_per_second(seed=args.seed)
        for k, x in r.items():
            print(f"{k:<30} {x:10.1f} playouts/s")
        print("PLAYOUTS " + json.dumps(r))
        return
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

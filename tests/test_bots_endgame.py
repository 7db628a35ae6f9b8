"""Issue 11, round 3: the exact endgame of ``search`` (``bots/endgame.py``, option
``endgame``) — legal in every profile, a pure function of the view (R21), and a solve that
is consistent with its own game tree (R16, R17)."""

from __future__ import annotations

import random

import pytest

from gameweave.bots.endgame import _Ctx, _ab, moves, solve
from gameweave.bots.search import DEFAULT_POLICY, SearchBot
from gameweave.bots.search_v1 import playout
from gameweave.engine import PROFILE_NAMES, GameState, seat_view
from deals import by_seat, greedy, play
from worlds import other_world_state




@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_endgame_search_plays_legally_and_alike_from_the_same_view(rules):
    """With the endgame on for every decision (``endgame=20``) and a tiny budget, both
    variants answer legally over whole deals, and two states with the same view (the second
    built by state_from_view from another sample) get the same choice."""
    rng = random.Random(21)
    checked = 0
    for d in range(3):
        st = GameState.new(seed=2100 + d, opener=d & 1, rules=rules)
        bots = [SearchBot(seed=4, endgame=20, eg_worlds=2, eg_nodes=40, eg_opp=o) for o in ("max", "policy")]
        for step in play(st, by_seat(bots)):
            seat, view, a = step.seat, step.view, step.action
            assert a in view.legal
            if len(view.legal) > 1 and checked < 6 and rng.random() < 0.3:
                other = other_world_state(st, seat, rng)
                if other is not None:
                    v2 = seat_view(other, seat)
                    assert v2 == view
                    assert SearchBot(seed=4, endgame=20, eg_worlds=2, eg_nodes=40,
                                     eg_opp=bots[seat].eg_opp).choose(v2) == a
                    checked += 1
    assert checked >= 2


def _short_stock_states(rules: str, stock: int, n: int):
    """Simulation states of greedy self-play with at most ``stock`` cards left."""
    out: list[GameState] = []
    for d in range(60):
        if len(out) >= n:
            break
        st = GameState.new(seed=3100 + d, opener=d & 1, rules=rules)
        for step in play(st, greedy(seed=d)):
            if st.stock_count <= stock and len(step.legal) > 1:
                out.append(st.clone())
                break
    return out


def _minimax(st: GameState, seat: int, opp_policy: bool, rng) -> float:
    """Plain minimax without pruning over :func:`moves` (the reference for alpha-beta)."""
    while True:
        if st.is_over:
            return 0.5 if st.winner < 0 else float(st.winner == seat)
        first = DEFAULT_POLICY(st, rng)
        if st.to_act != seat and opp_policy:
            st.apply(first)
            continue
        ms = moves(st, first, 4)
        if len(ms) == 1:
            st.apply(ms[0])
            continue
        break
    vals = []
    for a in ms:
        ch = st.clone()
        ch.apply(a)
        vals.append(_minimax(ch, seat, opp_policy, rng))
    return max(vals) if st.to_act == seat else min(vals)


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r16_r17_solve_is_exact_on_short_stocks(rules):
    """Uncapped, alpha-beta gives plain minimax's value; an opponent who plays the policy
    is no better for it than one that minimises; and the seat's best line is no worse than
    the policy's own playout (the policy's move is among those searched)."""
    states = _short_stock_states(rules, 3, 5)
    assert states
    rng = random.Random(0)
    for st in states:
        seat = st.to_act
        vmax = solve(st.clone(), seat, DEFAULT_POLICY, rng, nodes=10**7)
        vpol = solve(st.clone(), seat, DEFAULT_POLICY, rng, nodes=10**7, opponent="policy")
        assert vmax == _minimax(st.clone(), seat, False, rng)
        assert vpol == _minimax(st.clone(), seat, True, rng)
        assert vmax <= vpol
        assert playout(st.clone(), rng, seat, policy=DEFAULT_POLICY) <= vpol
        for m in moves(st, DEFAULT_POLICY(st, rng), 4):
            assert m in st.legal_actions()
        cx = _Ctx(seat, 1, DEFAULT_POLICY, rng, 4, False)  # a cap of one state: then playouts
        assert _ab(st.clone(), 0.0, 1.0, cx) in (0.0, 0.5, 1.0)

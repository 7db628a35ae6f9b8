"""Issue 11, round 3: information-set MCTS over the seat's own decisions (``search``
option ``tree``, :mod:`gameweave.bots.ismcts`) — legal in every profile, a function of
(seed, view) only (R21), and off by default."""

from __future__ import annotations

import random

import pytest

from gameweave.bots import make_bot
from gameweave.bots.search import SearchBot
from gameweave.engine import PROFILE_NAMES, GameState, seat_view
from deals import by_seat, greedy, play
from worlds import other_world_state


@pytest.mark.parametrize("rules", PROFILE_NAMES)
@pytest.mark.parametrize("opts", [dict(tree=0.7), dict(tree=0.7, depth=2, reuse=3)])
def test_tree_search_plays_legal_actions_to_the_end(rules, opts):
    """With a tiny budget the tree search finishes deals in every profile (§V), every
    choice one of the view's legal actions."""
    for d in range(3):
        st = GameState.new(seed=900 + d, opener=d & 1, rules=rules)
        bots = [SearchBot(seed=d, iterations=12, **opts), make_bot("greedy", seed=d)]
        for step in play(st, by_seat([bots[d & 1], bots[(d + 1) & 1]]), limit=400):  # seat s plays bots[(s + d) & 1]
            assert step.action in step.view.legal
        assert st.is_over


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_tree_search_same_view_same_choice(rules):
    """Two states with the same view for the seat (the second built by
    state_from_view with another opponent hand and stock) get the same choice."""
    rng = random.Random(5)
    checked = 0
    for d in range(6):
        st = GameState.new(seed=1300 + d, opener=d & 1, rules=rules)
        bot = SearchBot(seed=7, iterations=24, tree=0.7)
        for step in play(st, greedy(seed=d)):
            seat, view = step.seat, step.view
            if len(view.legal) > 1 and rng.random() < 0.3 and checked < 8:
                other = other_world_state(st, seat, rng)
                if other is not None:
                    assert seat_view(other, seat) == view
                    assert bot.choose(seat_view(other, seat)) == bot.choose(view)
                    checked += 1
    assert checked >= 3


def test_tree_is_off_by_default_and_validated():
    """``search`` without ``tree`` never enters the tree search; bad options are refused."""
    assert SearchBot().tree == 0.0
    st = GameState.new(seed=3)
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    view = seat_view(st, st.to_act)
    import gameweave.bots.search as search_mod
    real = search_mod.ismcts
    search_mod.ismcts = None  # calling it would raise
    try:
        SearchBot(seed=1, iterations=20).choose(view)
    finally:
        search_mod.ismcts = real
    for bad in (dict(tree=-1.0), dict(depth=-1), dict(reuse=0)):
        with pytest.raises(ValueError):
            SearchBot(**bad)

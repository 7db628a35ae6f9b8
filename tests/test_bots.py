"""Bots decide from their seat's view only (R21) and only ever answer legal actions."""

from __future__ import annotations

import random

import pytest

from gameweave.bots import BOTS, make_bot
from gameweave.bots.determinize import clues, sample_world, world_state
from gameweave.engine import GameState, IllegalActionError, seat_view, shuffled_deck
from gameweave.engine.actions import decode

TINY = {"search": {"iterations": 1, "width": 3}}


def _play_deals(bot_name: str, deals: int, seed0: int, options: dict | None = None) -> int:
    """Play ``deals`` deals with the bot in both seats; assert every answer is legal and
    that no force ever hands the opponent eleven (R15, R16).  Returns decisions made."""
    options = options or {}
    bots = [make_bot(bot_name, seed=seed0 + s, **options) for s in (0, 1)]
    decisions = 0
    for d in range(deals):
        st = GameState.new(seed=seed0 * 100_000 + d, opener=d & 1)
        while not st.is_over:
            seat = st.to_act
            view = seat_view(st, seat)
            a = bots[seat].choose(view)
            assert a in view.legal, (bot_name, d, a)
            dec = decode(a)
            if dec.force and bot_name != "random":
                assert st.tcount[1 - seat] + 1 < 11, "forced the opponent to eleven (R16)"
            st.play(a, seat=seat)
            decisions += 1
    return decisions


@pytest.mark.parametrize("name,deals", [("random", 2000), ("greedy", 2000), ("search", 2000)])
def test_r21_bot_only_returns_legal_actions(name, deals):
    n = _play_deals(name, deals, seed0=11, options=TINY.get(name))
    assert n > deals * 20


def _swapped_state(st: GameState, seat: int) -> GameState | None:
    """A state with the same public history as ``st`` but a different hidden deal: two of
    the opponent's held cards swapped with unturned stock cards in the deck (R8), then
    the same actions replayed.  None when there is nothing to swap."""
    opp = 1 - seat
    deck = list(st.deck)
    held = [i for i in range(20) if st.hands[opp] >> deck[i] & 1]
    stock = list(range(st.stock_pos, 40))
    if not held or not stock:
        return None
    for i in held:
        for j in stock:
            swapped = deck[:]
            swapped[i], swapped[j] = swapped[j], swapped[i]
            other = GameState.new(swapped, opener=st.opener)
            try:
                for a in st.history:  # a swap that changes a past choice (R12) is skipped
                    other.play(a)
            except IllegalActionError:
                continue
            return other
    return None


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_r21_same_view_same_action_whatever_the_hidden_cards(name):
    opts = {"search": {"iterations": 60}}.get(name, {})
    checked = 0
    rng = random.Random(5)
    for d in range(12):
        st = GameState.new(seed=900 + d, opener=d & 1)
        driver = make_bot("greedy", seed=d)
        while not st.is_over:
            seat = st.to_act
            view = seat_view(st, seat)
            if len(view.legal) > 1 and rng.random() < 0.35:
                other = _swapped_state(st, seat)
                if other is not None:
                    assert other.hands[1 - seat] != st.hands[1 - seat]
                    v2 = seat_view(other, seat)
                    assert v2 == view  # R21: the hidden cards differ, the view does not
                    a1 = make_bot(name, seed=42, **opts).choose(view)
                    a2 = make_bot(name, seed=42, **opts).choose(v2)
                    assert a1 == a2
                    checked += 1
            st.apply(driver.choose(view) if rng.random() < 0.8 else rng.choice(view.legal))
    assert checked >= 20


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_decision_is_a_pure_function_of_seed_and_view(name):
    st = GameState.new(seed=3)
    g = make_bot("greedy", seed=0)
    views = []
    while not st.is_over:
        v = seat_view(st, st.to_act)
        if len(v.legal) > 1:
            views.append(v)
        st.apply(g.choose(v))
    bot = make_bot(name, seed=7, **({"iterations": 40} if name == "search" else {}))
    first = [bot.choose(v) for v in views]
    again = [bot.choose(v) for v in reversed(views)][::-1]  # order of calls does not matter
    assert first == again


def test_make_bot_names_and_errors():
    assert {"random", "greedy", "search"} <= set(BOTS)
    assert make_bot("  Greedy ").name == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        make_bot("search", iterations=0)
    st = GameState.new(seed=1)
    st.play("turn")
    idle = seat_view(st, 1 - st.to_act)
    for name in ("random", "greedy", "search"):
        with pytest.raises(ValueError, match="not this seat's turn"):
            make_bot(name, seed=1).choose(idle)


def test_search_time_budget_is_respected():
    st = GameState.new(seed=8)
    g = make_bot("greedy", seed=0)
    bot = make_bot("search", seed=1, seconds=0.05)
    import time

    worst = 0.0
    n = 0
    while not st.is_over and n < 8:
        v = seat_view(st, st.to_act)
        if len(v.legal) > 1:
            t0 = time.perf_counter()
            a = bot.choose(v)
            worst = max(worst, time.perf_counter() - t0)
            assert a in v.legal
            n += 1
            st.apply(a)
        else:
            st.apply(g.choose(v))
    assert worst < 0.5


def test_r21_world_state_rebuilds_the_true_state_from_its_hidden_cards():
    """With the true hidden cards, the determinized state plays exactly like the real one."""
    rng = random.Random(2)
    for d in range(30):
        st = GameState.new(seed=d)
        while not st.is_over:
            seat = st.to_act
            view = seat_view(st, seat)
            stock = list(st.deck[st.stock_pos:])
            w = world_state(view, st.hands[1 - seat], stock)
            assert w.legal_actions() == st.legal_actions()
            assert w.hands == st.hands and w.melds == st.melds and w.tcount == st.tcount
            assert w.extall == st.extall and w.phase == st.phase and w.card == st.card
            # sampled worlds have the right sizes and never touch seen cards
            h, s = sample_world(view, rng)
            assert h.bit_count() == view.hand_counts[1 - seat] and len(s) == view.stock_count
            assert h & ~view.unseen() == 0 and all(view.unseen() >> c & 1 for c in s)
            world_state(view, h, s).legal_actions()
            st.apply(rng.choice(view.legal))


def test_r21_clues_come_from_the_public_history_only():
    st = GameState.new(shuffled_deck(4))
    rng = random.Random(0)
    while not st.is_over and len(st.history) < 30:
        st.apply(rng.choice(st.legal_actions()))
    v = seat_view(st, 0)
    cs = clues(v)
    public = {e.card for e in v.history if e.seat == 1}
    prev = {e.card for e in v.history if e.seat == 0}
    assert set(cs) <= public | prev
    assert len(cs) == len(set(cs))

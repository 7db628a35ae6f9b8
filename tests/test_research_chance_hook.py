"""The engine's explicit-chance hook, :meth:`GameState.set_next_stock_card` (R8, R10.2, R21).

Standard library only: these run without the research extra."""

from __future__ import annotations

import random

import pytest

from gameweave.engine import GameState, PROFILE_NAMES, seat_view
from gameweave.engine.record import GameRecord


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r10_set_next_stock_card_chooses_the_turned_card_and_changes_no_view(rules: str) -> None:
    rng = random.Random(rules)
    st = GameState.new(seed=3, rules=rules)
    for _ in range(60):
        if st.is_over:
            break
        if st.stock_pos < 40:
            unturned = st.deck[st.stock_pos:]
            card = rng.choice(unturned)
            before = (seat_view(st, 0), seat_view(st, 1), sorted(unturned))
            st.set_next_stock_card(card)
            # R21: only the hidden order changed: both views and the unturned set are equal
            assert (seat_view(st, 0), seat_view(st, 1), sorted(st.deck[st.stock_pos:])) == before
            assert st.deck[st.stock_pos] == card
        st.apply(rng.choice(st.legal_actions()))
    # the record of the changed deck replays to the same state
    again = GameRecord.from_state(st).replay()
    assert (again.hands, again.melds, again.status, again.history) == (st.hands, st.melds, st.status, st.history)


def test_r10_set_next_stock_card_refuses_a_card_outside_the_unturned_stock() -> None:
    st = GameState.new(seed=1)
    with pytest.raises(ValueError):
        st.set_next_stock_card(st.deck[0])  # a dealt card
    with pytest.raises(ValueError):
        st.set_next_stock_card(40)
    st.set_next_stock_card(st.deck[39])
    st.apply(st.legal_actions()[0])  # turn
    assert st.card == st.deck[20]


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_apply_public_step_by_step_equals_the_replayed_history(rules: str) -> None:
    """``apply_public`` (the engine's one-step public event) kept by a caller gives the same
    views as ``seat_view``'s own replay, with or without the caller's legal actions."""
    from gameweave.engine.view import apply_public

    rng = random.Random(rules)
    for deal in range(5):
        st = GameState.new(seed=deal, rules=rules)
        events = []
        while not st.is_over:
            legal = st.legal_actions()
            for seat in (0, 1):
                kept = seat_view(st, seat, tuple(events), legal if st.to_act == seat else None)
                assert kept == seat_view(st, seat)
            events.append(apply_public(st, rng.choice(legal)))
        assert seat_view(st, 0, tuple(events)) == seat_view(st, 0)


def test_r8_play_chance_turns_each_stock_card_uniformly() -> None:
    """play_chance turns the top of the stock it shuffled at the deal (R8, R10.2): the
    first turned card is uniform over the 20 cards left out of the hands; a clone draws
    its own card with its own generator."""
    import random
    from collections import Counter

    from gameweave.research import core

    firsts: Counter[int] = Counter()
    rng = random.Random(12)
    n = 4000
    for _ in range(n):
        d = core.Deal("gameweave")
        d.play_chance(rng)
        stock = set(range(40)) - set(d.dealt)
        d.apply(core.A_TURN)
        d.play_chance(rng)
        card = d.events[-1].card
        assert card in stock
        firsts[sorted(stock).index(card)] += 1  # rank of the turned card within the stock
    # each of the 20 ranks expected n/20 = 200 times; a chi-square far beyond its 99.9 % point fails
    chi2 = sum((firsts[i] - n / 20) ** 2 / (n / 20) for i in range(20))
    assert chi2 < 43.8  # chi-square, 19 degrees of freedom, p = 0.001
    d = core.Deal("gameweave")
    d.play_chance(random.Random(1))
    d.apply(core.A_TURN)
    seen = set()
    for seed in range(30):
        c = d.clone()
        c.play_chance(random.Random(seed))
        seen.add(c.events[-1].card)
    assert len(seen) > 5

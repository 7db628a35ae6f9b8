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

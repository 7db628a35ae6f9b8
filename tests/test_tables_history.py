"""A table keeps each deal's public history step by step (R21, tables/deal.py): what it
sends equals the engine's replay of the whole deal at every step, in every profile, also
when the deal's state is replaced (a reload) or a step is applied from outside."""

from __future__ import annotations

import random

import pytest

from gameweave.engine import PROFILE_NAMES, public_history
from gameweave.tables import Table, secure_deck


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_the_kept_history_is_the_replayed_one_at_every_step(rules: str) -> None:
    rng = random.Random(f"history-{rules}")
    for _ in range(5):
        deck, salt = secure_deck()
        t, _tok = Table.create(opponent="friend", bot=None, format="tally", target=0, deck=deck, salt=salt,
                               rules=rules)
        while not t.state.is_over:
            kept = t.deal.history()
            assert kept == public_history(t.state)
            assert t.deal.history_dicts() == [e.to_dict() for e in kept]
            st = t.state
            if rng.random() < 0.1:  # a reload: the deal gets a new state object at the same step
                t.deal.state = st.clone()
            t.apply_action(t.state.to_act, rng.choice(t.state.legal_actions()))
        assert t.deal.history() == public_history(t.state)
        assert len(t.deal.history_dicts()) == len(t.state.history)

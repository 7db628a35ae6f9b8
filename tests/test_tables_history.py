"""A table keeps each deal's public history step by step (R21, tables/deal.py): what it
sends equals the engine's replay of the whole deal at every step, in every profile, also
when the deal's state is replaced (a reload) or a step is applied from outside."""

from __future__ import annotations

import json
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
            assert json.loads(t.deal.history_json()) == [e.to_dict() for e in kept]
            st = t.state
            if rng.random() < 0.1:  # a reload: the deal gets a new state object at the same step
                t.deal.state = st.clone()
            t.apply_action(t.state.to_act, rng.choice(t.state.legal_actions()))
        assert t.deal.history() == public_history(t.state)
        assert len(t.deal.history_dicts()) == len(t.state.history)


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_a_wire_frame_is_the_plain_frame_encoded(rules: str) -> None:
    """The frames sent to sockets carry the kept, already-encoded history
    (server/frames.py wire_history); decoded, each is the frame the HTTP view builds."""
    from gameweave.server.connection import dump_frame
    from gameweave.server.room import MatchRoom

    rng = random.Random(f"wire-{rules}")
    deck, salt = secure_deck()
    t, _tok = Table.create(opponent="bot", bot="random", format="tally", target=0, deck=deck, salt=salt,
                           rules=rules)
    room = MatchRoom(t)
    steps = 0
    while not t.state.is_over:
        for seat in (0, 1, -1):
            assert json.loads(dump_frame(room.frame(seat, wire=True))) == json.loads(json.dumps(room.frame(seat)))
        t.apply_action(t.state.to_act, rng.choice(t.state.legal_actions()))
        steps += 1
    assert steps > 0 and len(json.loads(dump_frame(room.frame(0, wire=True)))["view"]["history"]) == steps

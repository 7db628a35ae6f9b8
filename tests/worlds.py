"""Test helper (R21): a second state with the same view for a seat but other hidden cards."""

from __future__ import annotations

import random

from gameweave.bots.determinize import sample_informed, world_state
from gameweave.engine import GameState, seat_view


def other_world_state(st: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A state with the same view for ``seat`` as ``st`` but a different opponent hand,
    built through ``state_from_view`` from another informed sample (``world_state``);
    None when 20 samples all dealt the true hand."""
    view = seat_view(st, seat)
    for _ in range(20):
        h, s = sample_informed(view, rng)
        if h != st.hands[1 - seat]:
            return world_state(view, h, s)
    return None

"""The engine's third-party view (R21 for someone holding no seat, issue 10):
``spectator_view`` holds no hand of either seat and no legal action while a deal is
played, the same public facts as a seat's view, and both hands once the deal is over."""

from __future__ import annotations

import random

import pytest

from gameweave.engine import GameState, seat_view, shuffled_deck
from gameweave.engine.view import spectator_view
from deals import at_random, play


def _random_deal(seed: int, rules: str = "gameweave") -> tuple[GameState, list[GameState]]:
    rng = random.Random(seed)
    st = GameState.new(shuffled_deck(seed), rules=rules)
    seen = [st.clone() for _ in play(st, at_random(rng), checked=True)]  # before each move
    seen.append(st.clone())  # and the end
    return st, seen


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_r21_a_spectator_sees_the_public_facts_and_no_hand_until_the_deal_ends(rules):
    for seed in range(6):
        final, states = _random_deal(seed, rules)
        for st in states:
            sv = spectator_view(st)
            mine = seat_view(st, 0)
            # the same public facts a seat sees
            assert (sv.melds, sv.centre, sv.dead, sv.history, sv.stock_count, sv.hand_counts, sv.to_act) == (
                mine.melds, mine.centre, mine.dead, mine.history, mine.stock_count, mine.hand_counts, mine.to_act)
            d = sv.to_dict()
            assert d["seat"] is None and d["hand"] == [] and d["legal"] == [] and d["opponent_hand"] is None
            if st.is_over:
                assert sv.hands == (st.hands[0], st.hands[1]) and d["hands"] is not None
            else:
                assert sv.hands is None and d["hands"] is None


def test_r21_spectator_views_are_equal_when_only_hidden_cards_differ():
    # two deals that differ only in which seat-1 card and stock card were swapped
    st, _ = _random_deal(3)
    a = GameState.new(st.deck, rules="gameweave")
    deck = list(st.deck)
    hidden_hand = next(c for c in deck[:10] if not any(
        ev_card == c for ev_card in (e.card for e in seat_view(st, 0).history)))
    i, j = deck.index(hidden_hand), 39
    deck[i], deck[j] = deck[j], deck[i]
    b = GameState.new(tuple(deck), rules="gameweave")
    for x in (a, b):  # the opener turns the top of the stock: same card in both deals
        x.play(x.legal_actions()[0], seat=x.to_act)
    assert a.hands != b.hands
    assert spectator_view(a) == spectator_view(b)

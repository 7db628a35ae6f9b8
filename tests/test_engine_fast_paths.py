"""The engine's fast paths give the same answers as the plain definitions (R5, R6, R18, R21).

Speed-neutral checks of the shortcuts taken for speed: bit tests for "some meld lies
within these cards", the memoised R18 meld lookups, table actions built without tuples,
the one-pass R18e force mask, the one-step :class:`PublicEvent` and the one-step views.  Each compares with
a brute-force or reference computation on seeded random cards and positions.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from gameweave.engine import (
    GameState, PublicEvent, PublicView, SeatView, SpectatorView, seat_view, shuffled_deck, spectator_view,
    table_action,
)
from gameweave.engine.flow import _in_some_meld
from gameweave.engine.melds import meld_table
from gameweave.engine.partition import (
    _build_lowest_at, _build_with_card, _lowest_at, _with_card, has_meld, near_pairs, table_actions_with,
    tables_with,
)
from gameweave.engine.view import _event, apply_public
from deals import at_random, play

PROFILES = ("gameweave", "anglo-american", "classic")


def _pools(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randrange(0, 16)
        m = 0
        for c in rng.sample(range(40), k):
            m |= 1 << c
        out.append(m)
    return out


@pytest.mark.parametrize("cap", [None, 8])
def test_r5_r6_has_meld_is_some_meld_within(cap: int | None) -> None:
    tab = meld_table(cap)
    for pool in _pools(3000, 1):
        assert has_meld(pool) == any(m & pool == m for m in tab.melds), hex(pool)


def test_r5_r6_near_pairs_is_the_cards_in_a_meld_of_three_with_two_pool_cards() -> None:
    for pool in _pools(2000, 2):
        got = near_pairs(pool)
        for c in range(40):
            if not pool >> c & 1:
                assert bool(got >> c & 1) == _in_some_meld(c, pool), (hex(pool), c)
        assert not got & pool


@pytest.mark.parametrize("cap", [None, 8])
def test_r18_memoised_meld_lookups_equal_the_built_ones(cap: int | None) -> None:
    tab = meld_table(cap)
    rng = random.Random(3)
    for pool in _pools(1500, 4):
        c = rng.randrange(40)
        rest = pool & ~(1 << c)
        assert _with_card(tab, c, rest) == tuple(_build_with_card(tab, c, rest))
        assert _with_card(tab, c, rest) == tuple(_build_with_card(tab, c, rest))  # from the memo
        assert _lowest_at(tab, c, rest | 1 << c) == tuple(_build_lowest_at(tab, c, rest | 1 << c))


@pytest.mark.parametrize("rules", ["anglo-american", "classic"])
def test_r18_table_actions_and_force_mask_match_the_reference_in_play(rules: str) -> None:
    """Along random deals: every R18 meld choice list equals ``table_action`` of each
    ``tables_with`` table, in order (R18a-c), and the one-pass force mask equals
    ``force_values`` card by card (R18e)."""
    rng = random.Random(5)
    checked = 0
    for s in range(60):
        st = GameState.new(shuffled_deck(s), opener=s & 1, rules=rules)
        for d in play(st, at_random(rng)):
            seat = d.seat
            card = st.forced if st.forced >= 0 else st.card
            if card >= 0:
                required = st.table_cards[seat] | 1 << card
                ref = [table_action(t) for t in tables_with(st.flow.tab, required, st.hands[seat])]
                assert table_actions_with(st.flow.tab, required, st.hands[seat]) == ref
                checked += 1
            opp = 1 - seat
            hand = st.hands[seat]
            mask = st.flow.force_mask(st, opp, hand)
            for c in range(40):
                if hand >> c & 1:
                    assert bool(mask >> c & 1) == (st.flow.force_values(st, opp, c) != [])
    assert checked > 500


def test_r21_one_step_public_event_equals_the_dataclass_and_stays_frozen() -> None:
    for rules in PROFILES:
        rng = random.Random(6)
        st = GameState.new(shuffled_deck(9), rules=rules)
        while not st.is_over:
            ev = apply_public(st, rng.choice(st.legal_actions()))
            ref = PublicEvent(*(getattr(ev, f.name) for f in dataclasses.fields(PublicEvent)))
            assert type(ev) is PublicEvent
            assert ev == ref and hash(ev) == hash(ref) and repr(ev) == repr(ref)
    ev = _event(0, 1, 2, -1, False, 0, (), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.card = 3  # type: ignore[misc]


def test_r21_one_step_views_equal_the_dataclasses_and_stay_frozen() -> None:
    """The one builder of the public part (``seat_view``, ``spectator_view``) gives the
    view the dataclass constructor gives, field for field, and the view stays frozen."""
    for rules in PROFILES:
        rng = random.Random(7)
        st = GameState.new(shuffled_deck(10), rules=rules)
        while True:
            for v in (seat_view(st, 0), seat_view(st, 1), spectator_view(st)):
                cls = type(v)
                ref = cls(**{f.name: getattr(v, f.name) for f in dataclasses.fields(cls)})
                assert v == ref and hash(v) == hash(ref) and repr(v) == repr(ref)
                assert v.to_dict() == ref.to_dict()
                with pytest.raises(dataclasses.FrozenInstanceError):
                    v.status = "won"  # type: ignore[misc]
            if st.is_over:
                break
            st.apply(rng.choice(st.legal_actions()))


def test_r21_each_public_field_is_declared_once_and_the_wire_keeps_its_order() -> None:
    """SeatView and SpectatorView share PublicView's fields and add only their own; the
    JSON keys keep their order (the wire depends on it)."""
    public = [f.name for f in dataclasses.fields(PublicView)]
    assert [f.name for f in dataclasses.fields(SeatView)] == public + ["seat", "hand", "legal", "opponent_hand"]
    assert [f.name for f in dataclasses.fields(SpectatorView)] == public + ["hands"]
    for name in public:
        assert name not in SeatView.__dict__.get("__annotations__", {})
        assert name not in SpectatorView.__dict__.get("__annotations__", {})
    st = GameState.new(shuffled_deck(1))
    shared = ["rules", "opener", "status", "winner", "to_act", "decision"]
    tail = ["table_counts", "forced", "rearranging", "force_back", "max_sequence"]
    middle = ["melds", "live", "live_from", "stock", "hand_counts", "dead", "history"]
    assert list(seat_view(st, 0).to_dict()) == (
        ["seat", *shared, "hand", *middle, "legal", "opponent_hand", *tail])
    assert list(spectator_view(st).to_dict()) == (
        ["seat", *shared, "hand", *middle, "legal", "opponent_hand", "hands", *tail])

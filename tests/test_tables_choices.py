"""The seat's choices and the deal's progress (tables/choices.py), from the view only (R21):
one entry per legal action in ``view.legal`` order, the table a meld makes (R12, R18), the
cards a force lands on (R15, R18e, R19), and ``gives_eleven`` (R16) checked against what
the opponent can really do next."""

from __future__ import annotations

import random

import pytest

from gameweave.engine import GameState, format_action, mask_names, parse_cards, seat_view
from gameweave.engine.cards import mask_of
from gameweave.tables import progress, seat_choices
from deals import at_random, deals, play


def _walk(rules: str, n: int):
    """Every position of ``n`` random deals (deal ``i`` from seed ``i``, played by
    ``random.Random(i)``): ``(state, view of the seat to act)``."""
    for d in deals(rules, n, "random"):
        yield d.state, d.view


def _opponent_wins_next(st: GameState, action: int, opp: int) -> bool:
    after = st.clone()
    after.apply(action)
    if after.is_over:
        return after.winner == opp
    if after.to_act != opp:
        return False
    for a in after.legal_actions():
        nxt = after.clone()
        nxt.apply(a)
        if nxt.is_over and nxt.winner == opp:
            return True
    return False


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_r16_gives_eleven_is_exactly_a_public_handover(rules):
    """gives_eleven => the opponent can win at once after the move; and where the opponent
    holds no hand card (nothing hidden matters), the converse holds too (R16)."""
    flagged = 0
    for st, view in _walk(rules, 80):
        choices = seat_choices(view)
        opp = 1 - view.seat
        for c in choices:
            if c.kind not in ("refuse", "throw", "force"):
                assert not c.gives_eleven
                continue
            if c.gives_eleven:
                flagged += 1
                assert _opponent_wins_next(st, c.action, opp), (rules, c.text)
            elif view.hand_counts[opp] == 0 and view.table_counts[opp] == 10:
                assert not _opponent_wins_next(st, c.action, opp), (rules, c.text)
    assert flagged > 0  # the random deals reach such positions in every profile


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_choices_follow_legal_order_and_describe_the_move(rules):
    """R12/R18: a meld's ``melds`` is the seat's table after the move; ``uses`` the hand
    cards it brings; ``card`` the card moved; a force names the opponent's cards (R15)."""
    seen = set()
    for st, view in _walk(rules, 12):
        choices = seat_choices(view)
        wire = view.to_dict()
        assert [c.text for c in choices] == wire["legal"]
        for c in choices:
            seen.add(c.kind)
            d = c.to_dict()
            if c.is_meld:
                after = st.clone()
                after.apply(c.action)
                assert [mask_names(m) for m in after.melds[view.seat]] == d["melds"]
                assert set(d["uses"]) == set(mask_names(view.hand & ~after.hands[view.seat]))
                assert d["card"] in sum(d["melds"], [])
            else:
                assert d["melds"] is None and d["uses"] == []
            if c.kind == "throw":
                assert d["card"] == c.text.split()[1]
            if "force" in c.text and c.kind != "force" and rules == "gameweave":
                n = int(c.text.split()[-1])
                assert d["force"] == mask_names(view.melds[1 - view.seat][n - 1])
            elif "force" not in c.text:
                assert d["force"] is None
    assert {"turn", "refuse", "throw"} <= seen
    assert ("table" if rules != "gameweave" else "meld") in seen


def test_progress_counts_melded_cards_and_one_from_eleven():
    st = GameState.new(seed=1)
    for d in play(st, at_random(random.Random(1))):
        p = progress(d.view)
        assert p["melded"] == {"1": st.table_counts[0], "2": st.table_counts[1]}
        assert p["one_from_eleven"] == [s + 1 for s in (0, 1) if st.table_counts[s] == 10]


def test_r18b_the_128_choice_position_lists_128_tables():
    """RULES R18b: turned 6d, empty table, hand Ac Ad Ah As 2d 3d 4d 5d 7d Jd."""
    from gameweave.engine import CARD_NAMES

    hand = mask_of(parse_cards("Ac Ad Ah As 2d 3d 4d 5d 7d Jd"))
    # build the position from a deck: seat 1 opens, gets the hand, turns 6d
    mine = parse_cards("Ac Ad Ah As 2d 3d 4d 5d 7d Jd")
    rest = [c for c in range(40) if c not in mine and CARD_NAMES[c] != "6d"]
    deck = []
    for i in range(10):
        deck += [mine[i], rest[i]]
    deck += [CARD_NAMES.index("6d")] + rest[10:]
    st = GameState.new(deck, rules="classic")
    st.play("turn")
    st_view = seat_view(st, 0)
    assert st_view.hand == hand
    choices = seat_choices(st_view)
    tables = [c for c in choices if c.kind == "table"]
    assert len(tables) == 128
    assert [c.text for c in choices] == [format_action(a) for a in st_view.legal]
    # hand cards a table uses identify it among few: no set of uses is shared by many
    by_uses: dict[int, int] = {}
    for c in tables:
        by_uses[c.uses] = by_uses.get(c.uses, 0) + 1
    assert max(by_uses.values()) <= 8

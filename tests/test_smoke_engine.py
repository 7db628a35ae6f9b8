"""First checks of the engine skeleton (R1, R5, R6 meld table)."""

from gameweave.engine import FULL_MASK, GameState, meld_table


def test_r1_pack_has_forty_cards_dealt_ten_each_r8():
    st = GameState.new(seed=1)
    assert st.hands[0].bit_count() == 10 and st.hands[1].bit_count() == 10
    assert st.hands[0] | st.hands[1] | GameState.new(seed=1).hands[0] <= FULL_MASK
    assert st.stock_count == 20


def test_r5_r6_meld_table_counts_194_without_cap_and_fewer_with_cap_8():
    assert len(meld_table(None).melds) == 40 + 10 + 144
    # cap 8 removes the 9- and 10-card sequences: 2 + 1 per suit
    assert len(meld_table(8).melds) == 194 - 4 * 3


def test_every_profile_deals_and_plays_to_the_end():
    import random

    from gameweave.engine import PROFILE_NAMES
    from gameweave.engine.conformance import play_random_deal

    for name in PROFILE_NAMES:
        st = GameState.new(seed=1, rules=name)
        assert st.rules.name == name and st.decision == "turn" and st.legal_texts() == ["turn"]
        end = play_random_deal(random.Random(1), st, eager=0.9)
        assert end.is_over and end.status in ("won", "tablas")


def test_r6_meld_table_of_the_profiles_that_cap_at_8():
    from gameweave.engine import find_profile

    for name in ("classic", "anglo-american"):
        assert len(meld_table(find_profile(name).max_sequence).melds) == 182

"""Rules of the cards, the notation and the melds (RULES §I R1-R4, §II R5-R6, §V, §VII)."""

import pytest

from gameweave.engine import (
    CARD_NAMES, FULL_MASK, GameState, IllegalActionError, UnknownProfileError, UnparsableError,
    card_name, find_profile, format_action, mask_of, meld_table, parse_action, parse_card,
    parse_cards, seat_view,
)
from gameweave.engine.conformance import build_deck
from rules_helpers import m

GW = meld_table(None)


# ---------------------------------------------------------------- R1 pack


def test_r1_pack_is_forty_cards_without_eights_nines_tens():
    assert len(CARD_NAMES) == 40 and len(set(CARD_NAMES)) == 40
    ranks = {name[0] for name in CARD_NAMES}
    assert ranks == set("A234567JQK")
    for bad in ("8h", "9c", "10s", "Th", "Xx", "joker"):
        with pytest.raises(UnparsableError):
            parse_card(bad)
    assert mask_of(range(40)) == FULL_MASK


def test_r1_r8_a_deal_gives_ten_each_and_twenty_in_stock():
    st = GameState.new(seed=11)
    assert st.hand_count(0) == st.hand_count(1) == 10
    assert st.stock_count == 20
    assert st.hands[0] & st.hands[1] == 0


# ---------------------------------------------------------------- R2 order


def test_r2_six_seven_jack_is_a_sequence_and_seven_is_next_to_jack():
    assert GW.is_meld(m("6h 7h Jh"))
    assert GW.is_meld(m("6s 7s Js Qs"))
    assert GW.is_meld(m("5c 6c 7c Jc"))
    assert parse_card("Jh") >> 2 == (parse_card("7h") >> 2) + 1


def test_r2_ace_is_low_only_q_k_a_and_k_a_2_are_not_sequences():
    assert GW.is_meld(m("Ad 2d 3d"))
    assert not GW.is_meld(m("Qd Kd Ad"))
    assert not GW.is_meld(m("Kd Ad 2d"))
    assert not GW.is_meld(m("Jd Qd Kd Ad"))


def test_r2_in_play_6_7_j_is_offered_and_q_k_a_is_not():
    # seat 1 holds 6h 7h Qs Ks; turning Jh offers the sequence, turning As offers nothing
    hand1 = "6h 7h Qs Ks 2c 3d 4c 5d Jc Kd"
    hand2 = "Ac Ad 2h 2s 3c 3s 4d 5c 6c 7c"
    st = GameState.new(build_deck(hand1, hand2, "Jh"))
    st.play("turn")
    assert st.legal_texts() == ["meld 6h 7h Jh", "refuse"]
    st = GameState.new(build_deck(hand1, hand2, "As"))
    st.play("turn")
    assert st.legal_texts() == ["refuse"]
    with pytest.raises(IllegalActionError):
        st.play("meld Qs Ks As")


# ---------------------------------------------------------------- R3 notation


def test_r3_card_notation_is_case_insensitive_and_accepts_suit_symbols():
    ah = parse_card("Ah")
    assert parse_card("ah") == parse_card("AH") == parse_card("aH") == parse_card("A♥") == ah
    assert parse_card("q♠") == parse_card("Qs")
    assert parse_card("7♣") == parse_card("7c")
    assert parse_card("J♦") == parse_card("jd")
    assert card_name(ah) == "Ah"
    assert [card_name(c) for c in parse_cards("ah, 7C jS")] == ["Ah", "7c", "Js"]


def test_r3_suit_order_is_clubs_diamonds_hearts_spades():
    order = [parse_card(x) for x in ("5c", "5d", "5h", "5s")]
    assert order == sorted(order)
    assert parse_card("5s") < parse_card("6c")


def test_r3_actions_parse_case_and_order_insensitive_and_print_canonically():
    a = parse_action("MELD 6♥ 4h 5H")
    assert a == parse_action("meld 4h 5h 6h")
    assert format_action(a) == "meld 4h 5h 6h"
    assert format_action(parse_action("Throw ks FORCE 2")) == "throw Ks force 2"
    assert format_action(parse_action("  refuse   force 1 ")) == "refuse force 1"
    assert format_action(parse_action("TURN")) == "turn"
    for bad in ("", "jump", "meld", "meld 4h 4h 5h", "throw", "throw 8h", "turn now",
                "refuse force", "refuse force x", "meld 3h 4h 5h / 6c 6d 6h"):
        with pytest.raises(UnparsableError):
            parse_action(bad)


# ---------------------------------------------------------------- R4 hand order


def test_r4_hand_is_shown_in_rank_then_suit_order():
    hand1 = "Kc Ah 2s Ac 7d Jh 2c Qs 5h 3d"
    hand2 = "Ad As 2d 2h 3c 3h 3s 4c 4d 4h"
    st = GameState.new(build_deck(hand1, hand2))
    view = seat_view(st, 0).to_dict()
    assert view["hand"] == ["Ac", "Ah", "2c", "2s", "3d", "5h", "7d", "Jh", "Qs", "Kc"]


def test_r4_throw_choices_are_enumerated_in_hand_order():
    # seat 1 melds the turned 5c with 5d 5h and must then throw: choices in hand order
    hand1 = "Kc 5h Ah 5d 2s 7d Jh Qs 3d Ac"
    hand2 = "Ad As 2d 2h 3c 3h 3s 4c 4d 4h"
    st = GameState.new(build_deck(hand1, hand2, "5c"))
    st.play_all(["turn", "meld 5c 5d 5h"])
    throws = [t.split()[1] for t in st.legal_texts()]
    assert throws == ["Ac", "Ah", "2s", "3d", "7d", "Jh", "Qs", "Kc"]


# ---------------------------------------------------------------- R5, R6 melds


def test_r5_sets_are_three_or_four_of_one_rank():
    assert GW.is_meld(m("5c 5d 5h"))
    assert GW.is_meld(m("5c 5d 5s"))
    assert GW.is_meld(m("Kc Kd Kh Ks"))
    assert not GW.is_meld(m("5c 5d"))
    assert not GW.is_meld(m("5c 5d 6h"))
    sets = [x for x in GW.melds if len({c >> 2 for c in range(40) if x >> c & 1}) == 1]
    assert len(sets) == 50  # 10 ranks x (4 sets of three + 1 set of four)


def test_r6_sequences_are_three_or_more_consecutive_of_one_suit():
    assert GW.is_meld(m("Ac 2c 3c"))
    assert GW.is_meld(m("3h 4h 5h 6h 7h Jh Qh Kh"))
    assert not GW.is_meld(m("Ac 2c"))
    assert not GW.is_meld(m("Ac 2c 3d"))
    assert not GW.is_meld(m("Ac 2c 4c"))
    assert not GW.is_meld(m("Ac 3c 5c"))


def test_r6_gameweave_has_no_sequence_cap_but_max_sequence_8_caps_it():
    ten = m("Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh")
    nine = m("Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    eight = m("Ah 2h 3h 4h 5h 6h 7h Jh")
    assert find_profile("gameweave").max_sequence is None
    assert GW.is_meld(ten) and GW.is_meld(nine)
    capped = meld_table(find_profile("classic").max_sequence)
    assert capped.is_meld(eight) and not capped.is_meld(nine) and not capped.is_meld(ten)
    assert len(GW.melds) == 194


# ---------------------------------------------------------------- §V profiles


def test_profiles_lookup_is_case_insensitive_and_pagat_is_an_alias():
    assert find_profile("GameWeave").name == "gameweave"
    assert find_profile(" gameweave ").name == "gameweave"
    assert find_profile("PAGAT").name == "anglo-american"
    assert find_profile("Classic").max_sequence == 8
    assert find_profile("anglo-american").force_back is True
    assert find_profile("gameweave").force_back is False
    assert find_profile("gameweave").rearranging is False


def test_profiles_unknown_name_raises_unknown_profile_error():
    with pytest.raises(UnknownProfileError, match="unknown rule profile"):
        find_profile("canasta")
    with pytest.raises(ValueError):  # a ValueError subclass, for callers that only care about bad input
        GameState.new(seed=1, rules="rummy")


def test_profiles_all_three_play_and_pagat_plays_anglo_american():
    # every profile of §V plays now (issue 8); a random deal of each runs to its end
    import random

    from gameweave.engine import PROFILE_NAMES
    from gameweave.engine.conformance import play_random_deal

    assert PROFILE_NAMES == ("gameweave", "anglo-american", "classic")
    for name in ("gameweave", "anglo-american", "pagat", "classic", "Anglo-American", "CLASSIC"):
        st = GameState.new(seed=1, rules=name)
        assert st.rules == find_profile(name)
        assert st.legal_texts() == ["turn"]
        end = play_random_deal(random.Random(1), st, eager=0.9)
        assert end.is_over and end.status in ("won", "tablas")
        assert end.rules.name == find_profile(name).name


# ---------------------------------------------------------------- §VII notation per profile


def test_section_vii_meld_is_one_meld_in_gameweave_and_a_whole_table_where_tables_rearrange():
    from gameweave.engine import MELD, TABLE, kind_of, table_of

    gw, classic, aa = (find_profile(n) for n in ("gameweave", "classic", "anglo-american"))
    one = parse_action("meld 4h 5h 6h", gw)
    assert kind_of(one) == MELD and table_of(one) == (m("4h 5h 6h"),)
    for rules in (classic, aa):
        whole = parse_action("meld 4h 5h 6h", rules)
        assert kind_of(whole) == TABLE and table_of(whole) == (m("4h 5h 6h"),)
        assert format_action(whole) == "meld 4h 5h 6h"
    assert parse_action("meld 4h 5h 6h") == one  # no profile: gameweave


def test_section_vii_slash_is_unparsable_in_gameweave():
    gw = find_profile("gameweave")
    for text in ("meld 3h 4h 5h / 6c 6d 6h", "meld 3h 4h 5h/6c 6d 6h", "meld 3h 4h 5h /"):
        with pytest.raises(UnparsableError, match="R18"):
            parse_action(text, gw)


def test_section_vii_refuse_force_n_is_unparsable_where_tables_rearrange():
    from gameweave.engine import FORCE_ANY, force_of

    for name in ("classic", "anglo-american"):
        rules = find_profile(name)
        for text in ("refuse force 2", "throw Ks force 1", "refuse force 99"):
            with pytest.raises(UnparsableError, match="R18e"):
                parse_action(text, rules)
        assert force_of(parse_action("refuse force", rules)) == FORCE_ANY
        assert format_action(parse_action("Throw KS  Force", rules)) == "throw Ks force"
        assert format_action(parse_action("refuse FORCE", rules)) == "refuse force"
    gw = find_profile("gameweave")
    for text in ("refuse force", "throw Ks force"):
        with pytest.raises(UnparsableError):
            parse_action(text, gw)
    assert format_action(parse_action("throw Ks force 2", gw)) == "throw Ks force 2"


def test_section_vii_force_is_anglo_american_only():
    from gameweave.engine import FORCE

    assert parse_action("force", find_profile("anglo-american")) == FORCE
    assert format_action(FORCE) == "force"
    for name in ("gameweave", "classic"):
        with pytest.raises(UnparsableError, match="R19"):
            parse_action("force", find_profile(name))
    with pytest.raises(UnparsableError):
        parse_action("force 1", find_profile("anglo-american"))


def test_section_vii_tables_in_any_order_with_or_without_blanks_and_one_canonical_form():
    from gameweave.engine import table_action

    for name in ("classic", "anglo-american"):
        rules = find_profile(name)
        canonical = parse_action("meld 3h 4h 5h / 6c 6d 6h", rules)
        for text in ("meld 6h 6d 6c / 5h 4h 3h", "meld 6c 6d 6h/3h 4h 5h", "MELD 3H 4♥ 5h/ 6c 6d 6♥",
                     "meld   6d 6h 6c   /3h 5h 4h", "meld 4h 3h 5h /6h 6c 6d"):
            assert parse_action(text, rules) == canonical, text
        assert format_action(canonical) == "meld 3h 4h 5h / 6c 6d 6h"
        # melds by their lowest card, each in hand order (R4): 2c.. before 2d..
        t = table_action([m("Kc Kd Ks"), m("2d 3d 4d"), m("2c 2h 2s")])
        assert format_action(t) == "meld 2c 2h 2s / 2d 3d 4d / Kc Kd Ks"
        assert parse_action("meld Ks Kc Kd / 4d 2d 3d / 2s 2h 2c", rules) == t
        # every group a meld, no card twice, no empty group, at most eleven cards (3 melds)
        for bad in ("meld 3h 4h 5h / 6c 6d", "meld 3h 4h 5h / 5h 6h 7h", "meld 3h 4h 5h / / 6c 6d 6h",
                    "meld 3h 4h 5h /", "meld Ac Ad Ah / 2c 2d 2h / 3c 3d 3h / 4c 4d 4h", "meld"):
            with pytest.raises(UnparsableError):
                parse_action(bad, rules)


def test_section_vii_every_profile_records_and_replays_its_own_notation():
    import random

    from gameweave.engine import GameRecord
    from gameweave.engine.conformance import play_random_deal, same_state

    for name in ("gameweave", "classic", "anglo-american"):
        st = play_random_deal(random.Random(3), GameState.new(seed=3, rules=name), eager=0.9)
        rec = GameRecord.from_state(st)
        assert rec.rules == name and rec.to_dict()["rules"] == name
        assert same_state(GameRecord.from_json(rec.to_json()).replay(), st)

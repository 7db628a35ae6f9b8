"""Rules of the profiles that rearrange (RULES §V: R6's cap of 8, R18, R18a-R18f) on
hand-built deck orders.

Decks are written with :func:`build_deck`: the opener's hand, the other hand, then the
top of the stock (card 21 first, R8).  Seat index 0 ("seat 1", A) opens; B is seat 2.
Every choice list below was derived by hand from RULES.md; the engine must match it.
"""

import pytest

from gameweave.engine import (
    FORCE_ANY, GameState, IllegalActionError, UnparsableError, find_profile, format_cards,
    is_meld, meld_cards, meld_table, parse_action, parse_cards, seat_view, table_of,
)
from gameweave.engine.conformance import build_deck
from rules_helpers import m, melds, run

REARRANGING = ("classic", "anglo-american")
rearranging = pytest.mark.parametrize("rules", REARRANGING)


def melds_of(texts: list[str]) -> list[str]:
    return [t for t in texts if t.startswith("meld")]


# The "two runs" deal: B takes A's refused 5c and lays down 3c 4c 5c 6c / 3d 4d 5d 6d
# (the diamonds are a meld of hand cards only, R18a); B keeps 7h Jh and one more card.
TWO_RUNS_A = "Ac 2s 3h 4s 7s Jd Qs Kc 5s 7d"
TWO_RUNS_PREFIX = ["turn", "refuse", "meld 3c 4c 5c 6c / 3d 4d 5d 6d"]


def two_runs(rules: str, b_extra: str = "7h Jh Ah", stock: str = "5c 6h") -> GameState:
    deck = build_deck(TWO_RUNS_A, "3c 4c 6c 3d 4d 5d 6d " + b_extra, stock)
    return run(GameState.new(deck, rules=rules), TWO_RUNS_PREFIX)


# ------------------------------------------------------------------ R6 cap


@rearranging
def test_r6_cap_8_in_both_new_profiles(rules):
    profile = find_profile(rules)
    assert profile.max_sequence == 8 and profile.rearranging
    tab = meld_table(profile.max_sequence)
    assert tab.is_meld(m("Ah 2h 3h 4h 5h 6h 7h Jh"))
    assert not tab.is_meld(m("Ah 2h 3h 4h 5h 6h 7h Jh Qh"))
    assert not tab.is_meld(m("Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh"))
    # in play: A holds Ah 2h 3h 4h 6h 7h Jh Qh and turns 5h; no choice holds a meld of 9
    a = "Ah 2h 3h 4h 6h 7h Jh Qh Kc Ks"
    b = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d"
    st = run(GameState.new(build_deck(a, b, "5h"), rules=rules), ["turn"])
    longest = max(x.bit_count() for act in st.legal_actions() for x in table_of(act))
    assert longest == 8
    assert "meld Ah 2h 3h 4h 5h 6h 7h Jh" in st.legal_texts()
    with pytest.raises(IllegalActionError):
        st.play("meld Ah 2h 3h 4h 5h 6h 7h Jh Qh")
    # the gameweave profile has no cap: there the nine-card run is one choice
    gw = run(GameState.new(build_deck(a, b, "5h")), ["turn"])
    assert "meld Ah 2h 3h 4h 5h 6h 7h Jh Qh" in gw.legal_texts()


# ------------------------------------------------------------------ R18 seed 004's example


@rearranging
def test_r18_seed004_example(rules):
    # A holds 3h 4h 6h and 6c; A turns 5h and melds 3h 4h 5h 6h, throws Kd; B lets Kd
    # die, turns 6d and refuses it; A may take 6d only by splitting its table:
    # 3h 4h 5h 6h + 6c + 6d -> 3h 4h 5h / 6c 6d 6h (seed 004).
    a = "3h 4h 6h 6c Ac 2s 3d Jd Qs Kd"
    b = "Ad As 2c 2d 3c 3s 4c 4d Jc Qc"
    st = GameState.new(build_deck(a, b, "5h 6d"), rules=rules)
    run(st, ["turn"])
    # 5h with 3h 4h 6h: the runs 3-4-5, 3-4-5-6, 4-5-6 (6c cannot join a heart run)
    assert st.legal_texts() == ["meld 3h 4h 5h", "meld 3h 4h 5h 6h", "meld 4h 5h 6h", "refuse"]
    run(st, ["meld 3h 4h 5h 6h", "throw Kd", "turn", "refuse"])
    assert melds(st, 0) == ["3h 4h 5h 6h"] and st.decision == "take_or_turn"
    assert st.legal_texts() == ["meld 3h 4h 5h / 6c 6d 6h", "turn"]
    # melds and cards in any order, with or without blanks around '/' (§VII)
    st2 = st.clone()
    run(st2, ["meld 6h 6D 6c/5h 3h 4H"])
    assert melds(st2, 0) == ["3h 4h 5h", "6c 6d 6h"]
    assert st2.table_counts[0] == 6 and not st2.hands[0] & m("6c 6d")
    assert st2.decision == "throw"
    # the gameweave profile cannot take it (6d extends no meld, one six in hand, R12)
    gw = GameState.new(build_deck(a, b, "5h 6d"))
    run(gw, ["turn", "meld 3h 4h 5h 6h", "throw Kd", "turn", "refuse"])
    assert gw.legal_texts() == ["turn"]


# ------------------------------------------------------------------ R18a


@rearranging
def test_r18a_hand_only_melds_come_with_the_card_in_the_same_action(rules):
    # B takes the refused 5c with 3c 4c 6c and lays down 3d 4d 5d 6d (hand cards only)
    # in the same meld action (R18a)
    st = two_runs(rules)
    assert melds(st, 1) == ["3c 4c 5c 6c", "3d 4d 5d 6d"]
    assert st.table_counts[1] == 8 and format_cards(st.hands[1]) == "Ah 7h Jh"
    ev = seat_view(st, 0).history[-1]
    assert ev.kind == "meld" and ev.from_hand == m("3c 4c 6c 3d 4d 5d 6d")
    assert ev.meld == m("3c 4c 5c 6c") and ev.table == (m("3c 4c 5c 6c"), m("3d 4d 5d 6d"))


@rearranging
def test_r18a_hand_cards_never_reach_the_table_at_another_time(rules):
    # A holds the set Kc Kd Ks but turns Qs, which no table can hold: only 'refuse'
    a = "4h 6h 7h Kc Kd Ks 2c 2d 2s 2h"
    b = "3c 3d 3s 4c 4d 5c 5d 6c 6d Jc"
    st = run(GameState.new(build_deck(a, b, "Qs"), rules=rules), ["turn"])
    assert st.legal_texts() == ["refuse"]
    # the card itself must lie in one of the melds
    with pytest.raises(IllegalActionError, match="R18a") as info:
        st.play("meld Kc Kd Ks")
    assert info.value.reason == "not_a_choice"
    with pytest.raises(UnparsableError):
        st.play("meld Kc Kd Ks / Qs")  # Qs alone is no meld
    assert len(st.history) == 1


def test_r18a_a_group_that_is_no_meld_is_unparsable():
    with pytest.raises(UnparsableError, match="R5, R6"):
        parse_action("meld Kc Kd Ks / Qs", find_profile("classic"))


@rearranging
def test_r18a_the_card_must_lie_in_a_meld_and_hand_only_melds_may_join_it(rules):
    a = "4h 6h 7h Kc Kd Ks 2c 2d 2s 2h"
    b = "3c 3d 3s 4c 4d 5c 5d 6c 6d Jc"
    st = run(GameState.new(build_deck(a, b, "5h"), rules=rules), ["turn"])
    texts = st.legal_texts()
    assert all(meld_cards(x) >> st.card & 1 for x in st.legal_actions() if is_meld(x))
    assert "meld 5h 6h 7h / Kc Kd Ks" in texts and "meld 4h 5h 6h" in texts
    assert "meld Kc Kd Ks" not in texts
    # a set of four of hand cards, a set of three, or none: every choice is there
    assert "meld 2c 2d 2h 2s / 4h 5h 6h 7h" in texts
    assert "meld 2d 2h 2s / 4h 5h 6h 7h" in texts


@rearranging
def test_r18a_all_hand_cards_make_eleven_and_win(rules):
    # A turns 5h holding 2c 2d 2h 2s, 4h 6h 7h and Kc Kd Ks: all ten hand cards and the
    # card make eleven on A's first turn (R16)
    a = "4h 6h 7h Kc Kd Ks 2c 2d 2s 2h"
    b = "3c 3d 3s 4c 4d 5c 5d 6c 6d Jc"
    st = run(GameState.new(build_deck(a, b, "5h"), rules=rules), ["turn"])
    assert "meld 2c 2d 2h 2s / 4h 5h 6h 7h / Kc Kd Ks" in st.legal_texts()
    # ten cards only: play goes on and A throws the last hand card (7h)
    ten = run(st.clone(), ["meld 2c 2d 2h 2s / 4h 5h 6h / Kc Kd Ks"])
    assert ten.status == "playing" and ten.legal_texts() == ["throw 7h"]
    run(st, ["meld Kc Kd Ks / 7h 6h 5h 4h / 2s 2h 2d 2c"])
    assert st.status == "won" and st.winner == 0 and st.is_over
    assert st.table_counts[0] == 11 and st.hands[0] == 0 and st.legal_actions() == []


# ------------------------------------------------------------------ R18b


def test_r18b_every_partition_is_a_choice():
    # RULES R18b's position: turned 6d, empty table, hand Ac Ad Ah As 2d 3d 4d 5d 7d Jd.
    # Counted by hand.  Diamonds A..J are positions 0..7, all in hand but 6d (position 5),
    # which must lie in a run [lo, hi] (hi in 5..7, length 3..8); the positions left of lo
    # may hold more runs of 3+ (right of hi there are at most 2: none).  In a segment of
    # L positions, the run layouts that leave Ad (position 0) free / use it are:
    #   L=0: 1/0 (lo=0: 6d's run uses Ad itself)  L=1: 1/0  L=2: 1/0  L=3: 1/1  L=4: 2/2  L=5: 4/3
    # Summed over (lo, hi): Ad used U = 2 + 4 + 7 = 13 layouts, Ad free G = 3 + 5 + 9 = 17.
    # Aces: with Ad used, Ac Ah As make no set or one (2 ways); with Ad free, none, four
    # sets of three or the set of four (6 ways).  13 * 2 + 17 * 6 = 128 (RULES R18b).
    a = "Ac Ad Ah As 2d 3d 4d 5d 7d Jd"
    b = "2c 2h 2s 3c 3h 3s 4c 4h 4s 5c"
    for rules in REARRANGING:
        st = run(GameState.new(build_deck(a, b, "6d"), rules=rules), ["turn"])
        legal = st.legal_actions()
        tables = [x for x in legal if is_meld(x)]
        assert len(tables) == 128
        assert len({frozenset(table_of(t)) for t in tables}) == 128  # each table once
        assert legal[-1] == parse_action("refuse", st.rules) and len(legal) == 129
        texts = st.legal_texts()
        # two partitions of the same cards are two different actions
        assert "meld Ad 2d 3d 4d 5d 6d 7d Jd" in texts
        assert "meld Ad 2d 3d / 4d 5d 6d 7d Jd" in texts
        assert "meld Ad 2d 3d 4d / 5d 6d 7d Jd" in texts
        # the ace of diamonds in the run or in the set of aces
        assert "meld Ac Ah As / Ad 2d 3d 4d 5d 6d" in texts
        assert "meld Ac Ad Ah / 2d 3d 4d 5d 6d" in texts
        assert "meld Ac Ad Ah As / 2d 3d 4d 5d 6d 7d Jd" in texts
        assert "meld 6d 7d Jd" in texts  # nothing else added (R18a: from none to all)
        assert "meld Ac Ah As" not in texts  # 6d must lie in a meld
        # every card of 6d's run or a hand card: never a card of seat 2
        assert all(meld_cards(t) & ~(st.hands[0] | 1 << st.card) == 0 for t in tables)


@rearranging
def test_r18b_the_r12_button_rules_are_gameweave_only(rules):
    # A holds 5d 5h 5s and turns 5c: R12 offers the set of three with the first two in
    # hand order and the set of four; R18 offers every set of three holding 5c and the four
    a = "5d 5h 5s Ac 2s 3d 7d Jh Qs Kc"
    b = "Ad Ah 2c 2d 3c 3h 4c 4d 6c 6h"
    st = run(GameState.new(build_deck(a, b, "5c"), rules=rules), ["turn"])
    assert st.legal_texts() == ["meld 5c 5d 5h", "meld 5c 5d 5s", "meld 5c 5h 5s",
                                "meld 5c 5d 5h 5s", "refuse"]
    gw = run(GameState.new(build_deck(a, b, "5c")), ["turn"])
    assert gw.legal_texts() == ["meld 5c 5d 5h", "meld 5c 5d 5h 5s", "refuse"]


# ------------------------------------------------------------------ R18c


@rearranging
def test_r18c_a_nine_card_run_must_split(rules):
    # A holds Ah 2h 3h 4h 6h 7h Jh Qh and turns 5h: nine hearts Ah..Qh are one run of 9,
    # longer than the cap; they can all be melded, but only split into legal melds.
    a = "Ah 2h 3h 4h 6h 7h Jh Qh Kc Ks"
    b = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d"
    st = run(GameState.new(build_deck(a, b, "5h"), rules=rules), ["turn"])
    texts = st.legal_texts()
    nine = [t for t in st.legal_actions() if is_meld(t) and meld_cards(t) == m("Ah 2h 3h 4h 5h 6h 7h Jh Qh")]
    # the splits of positions 0..8 into runs of 3..8: 3+6, 4+5, 5+4, 6+3, 3+3+3
    assert sorted(st.format(t) for t in nine) == sorted([
        "meld Ah 2h 3h / 4h 5h 6h 7h Jh Qh", "meld Ah 2h 3h 4h / 5h 6h 7h Jh Qh",
        "meld Ah 2h 3h 4h 5h / 6h 7h Jh Qh", "meld Ah 2h 3h 4h 5h 6h / 7h Jh Qh",
        "meld Ah 2h 3h / 4h 5h 6h / 7h Jh Qh",
    ])
    assert "meld Ah 2h 3h 4h 5h 6h 7h Jh Qh" not in texts
    with pytest.raises(IllegalActionError):
        st.play("meld Ah 2h 3h 4h 5h 6h 7h Jh Qh")  # one run of nine: over the cap
    run(st, ["meld Ah 2h 3h 4h 5h 6h 7h Jh"])
    assert melds(st, 0) == ["Ah 2h 3h 4h 5h 6h 7h Jh"]
    # a table is re-partitioned only by a meld action (R18c): B's turns leave it whole
    run(st, ["throw Kc", "turn", "refuse"])
    assert melds(st, 0) == ["Ah 2h 3h 4h 5h 6h 7h Jh"]


@rearranging
def test_r18c_adding_a_ninth_card_to_a_run_of_eight_splits_it(rules):
    # A's table is Ah..Jh (8); A later turns Qh: it can join only by splitting the run
    a = "Ah 2h 3h 4h 6h 7h Jh 2s Kc Ks"
    b = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d"
    st = GameState.new(build_deck(a, b, "5h Ad Qh"), rules=rules)
    run(st, ["turn", "meld Ah 2h 3h 4h 5h 6h 7h Jh", "throw 2s", "turn", "refuse"])
    # B turned Ad (refused); A lets it die and turns Qh
    run(st, ["turn"])
    assert sorted(st.legal_texts()) == sorted([
        "meld Ah 2h 3h / 4h 5h 6h 7h Jh Qh", "meld Ah 2h 3h 4h / 5h 6h 7h Jh Qh",
        "meld Ah 2h 3h 4h 5h / 6h 7h Jh Qh", "meld Ah 2h 3h 4h 5h 6h / 7h Jh Qh",
        "meld Ah 2h 3h / 4h 5h 6h / 7h Jh Qh", "refuse",
    ])


# ------------------------------------------------------------------ R18d


@rearranging
def test_r18d_a_live_card_is_taken_only_when_some_table_contains_it(rules):
    # A's table 3h 4h 5h 6h, A holds 6c (seed 004's table).  B turns and refuses a card:
    # 6d can be taken only through the split; Qh fits no table of A's (A holds Qs alone).
    a = "3h 4h 6h 6c Ac 2s 3d Jd Qs Kd"
    b = "Ad As 2c 2d 3c 3s 4c 4d Jc Qc"
    for live, expect in (("6d", ["meld 3h 4h 5h / 6c 6d 6h", "turn"]), ("Qh", ["turn"])):
        st = GameState.new(build_deck(a, b, "5h " + live), rules=rules)
        run(st, ["turn", "meld 3h 4h 5h 6h", "throw Kd", "turn", "refuse"])
        assert st.legal_texts() == expect, live
    with pytest.raises(IllegalActionError):
        st.play("meld 3h 4h 5h 6h / Qh Qs Qd")  # Qd is not A's


# ------------------------------------------------------------------ R18e


@rearranging
def test_r18e_forcing_by_some_partition_names_no_meld_number(rules):
    # B's table 3c 4c 5c 6c / 3d 4d 5d 6d; A turns 6h.  6h extends neither run, but the
    # table plus 6h alone splits into 3c 4c 5c / 3d 4d 5d / 6c 6d 6h: A may force it.
    st = two_runs(rules)
    run(st, ["throw Ah", "turn"])
    assert st.legal_texts() == ["refuse", "refuse force"]
    assert st.force_targets(1, st.card) == [FORCE_ANY]
    with pytest.raises(UnparsableError):
        st.play("refuse force 1")  # a force names no meld number here (§VII)
    run(st, ["refuse force"])
    # the forced seat decides 'meld'; nothing is live while the forced card waits
    assert (st.to_act, st.decision, st.card, st.live_from) == (1, "meld", -1, -1)
    assert format_cards(1 << st.forced) == "6h"
    for seat in (0, 1):
        v = seat_view(st, seat)
        assert v.centre == -1 and v.forced == st.forced and v.decision == "meld"
        d = v.to_dict()
        assert d["live"] is None and d["forced"] == "6h" and d["decision"] == "meld"
    ev = seat_view(st, 0).history[-1]
    assert ev.kind == "refuse" and ev.forced and ev.card == st.forced and ev.meld == 0
    # B's choices: every table holding 6h, hand cards allowed (B holds 7h Jh)
    assert st.legal_texts() == ["meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h",
                                "meld 3c 4c 5c 6c / 3d 4d 5d 6d / 6h 7h Jh"]


@rearranging
def test_r18e_a_forced_card_cannot_be_refused(rules):
    st = two_runs(rules)
    run(st, ["throw Ah", "turn", "refuse force"])
    for text in ("refuse", "turn", "throw 7h", "refuse force"):
        with pytest.raises(IllegalActionError) as info:
            st.play(text)
        assert info.value.reason == "wrong_decision", text
    with pytest.raises(IllegalActionError) as info:
        st.play("meld 3c 4c 5c 6c / 3d 4d 5d 6d")  # a table without the forced card
    assert info.value.reason == "not_a_choice"
    assert st.decision == "meld" and len(st.history) == 6


@rearranging
def test_r18e_the_forced_seat_melds_then_throws_and_may_force_that_throw(rules):
    st = two_runs(rules)
    run(st, ["throw Ah", "turn", "refuse force", "meld 6h 6d 6c / 3c 4c 5c / 3d 4d 5d"])
    assert melds(st, 1) == ["3c 4c 5c", "3d 4d 5d", "6c 6d 6h"]
    assert (st.to_act, st.decision) == (1, "throw") and st.table_counts[1] == 9
    ev = seat_view(st, 0).history[-1]
    assert ev.kind == "meld" and ev.forced and ev.from_hand == 0
    # B throws 7h or Jh; A's table is empty: no force
    assert st.legal_texts() == ["throw 7h", "throw Jh"]


@rearranging
def test_r18e_a_forced_card_the_forced_seat_melds_with_all_its_hand_cards_wins(rules):
    st = two_runs(rules)
    run(st, ["throw Ah", "turn", "refuse force"])
    assert format_cards(st.hands[1]) == "7h Jh"
    run(st, ["meld 3c 4c 5c 6c / 3d 4d 5d 6d / 6h 7h Jh"])
    assert st.status == "won" and st.winner == 1 and st.is_over
    assert st.table_counts[1] == 11 and st.hands[1] == 0


@rearranging
def test_r18e_a_card_needing_hand_cards_cannot_be_forced(rules):
    # A turns Qh: B could meld it with 7h Jh from hand, but it cannot be forced (R15)
    st = two_runs(rules, stock="5c Qh")
    run(st, ["throw Ah", "turn"])
    assert st.legal_texts() == ["refuse"]
    assert st.force_targets(1, st.card) == []
    with pytest.raises(IllegalActionError) as info:
        st.play("refuse force")
    assert info.value.reason == "cannot_force" and "R18e" in str(info.value)
    # refused, it is live for B, who takes it: eleven (R18f)
    run(st, ["refuse"])
    assert st.legal_texts()[-1] == "turn"
    assert "meld 3c 4c 5c 6c / 3d 4d 5d 6d / 7h Jh Qh" in st.legal_texts()


@rearranging
def test_r18e_throw_force_names_no_meld_number(rules):
    # B's table 3c 4c 5c 6c / 3d 4d 5d 6d; A holds 4s 5s 7s and 6h, turns 6s, melds the
    # spades and throws 6h: it fits a partition of B's table, so 'throw 6h force'.
    a = "Ac 2s 3h 4s 7s Jd Qs Kc 5s 6h"
    deck = build_deck(a, "3c 4c 6c 3d 4d 5d 6d 7h Jh Ah", "5c 6s")
    st = run(GameState.new(deck, rules=rules), TWO_RUNS_PREFIX + ["throw Ah", "turn"])
    # A turned 6s: meld 4s 5s 6s 7s (or 4s 5s 6s, 5s 6s 7s), then throw 6h with force
    run(st, ["meld 4s 5s 6s 7s"])
    assert "throw 6h force" in st.legal_texts() and "throw 6h" in st.legal_texts()
    assert "throw Qs force" not in st.legal_texts()
    with pytest.raises(UnparsableError):
        st.play("throw 6h force 1")
    run(st, ["throw 6h force"])
    assert (st.to_act, st.decision, st.card) == (1, "meld", -1)


# ------------------------------------------------------------------ R18f


@rearranging
def test_r18f_any_legal_table_of_eleven_wins_wherever_the_last_card_lies(rules):
    # B's table 3c 4c 5c 6c / 3d 4d 5d 6d; B holds 6h 6s and throws Ah; A refuses 2c;
    # B takes 2c: 2c joins the clubs (2c 3c 4c 5c) while 6c leaves them for the set
    # 6c 6h 6s: eleven, and the taken card lies in a run, the hand cards in a set.
    st = two_runs(rules, b_extra="6h 6s Ah", stock="5c 2c")
    run(st, ["throw Ah", "turn", "refuse"])
    texts = st.legal_texts()
    assert "meld 2c 3c 4c 5c / 3d 4d 5d 6d / 6c 6h 6s" in texts
    assert "meld 2c 3c 4c 5c 6c / 3d 4d 5d 6d" in texts  # ten: not a win
    run(st, ["meld 2c 3c 4c 5c / 3d 4d 5d 6d / 6c 6h 6s"])
    assert st.status == "won" and st.winner == 1 and st.table_counts[1] == 11
    # the same with the sixes taken from the diamonds instead
    st = two_runs(rules, b_extra="6h 6s Ah", stock="5c 2c")
    run(st, ["throw Ah", "turn", "refuse", "meld 2c 3c 4c 5c 6c / 3d 4d 5d / 6d 6h 6s"])
    assert st.status == "won" and st.winner == 1


# a classic deal (seed 0, seat 1 opens) up to the moment seat 2, with ten on the table and
# no hand card, is forced Jd (R16: they win with the next card they meld, a forced one too)
TEN_DECK = ("Ac 7s 4c 6d Jd 4s Kh Qh Ad 6c 2s 2d 3h 4d 4h Kd 6h Ks 6s 5d 3c Qs As Qd 3d 2c Kc 2h "
            "Jc 5h 3s Jh 5s 7d Js Qc 5c Ah 7h 7c")
TEN_ACTIONS = [
    "turn", "refuse", "turn", "refuse", "turn", "meld Ac Ad As", "throw 3h", "turn", "refuse", "turn",
    "refuse", "meld 2d 3d 4d", "throw Qh", "turn", "refuse", "turn", "meld 2d 3d 4d 5d 6d / Kc Kd Ks",
    "throw 4s", "meld Ac Ad As / 4c 4h 4s", "throw Kh force", "meld 2d 3d 4d 5d 6d / Kc Kd Kh Ks",
    "throw 7s", "turn", "refuse", "turn", "refuse", "turn", "refuse", "turn", "refuse", "turn", "refuse",
    "turn", "refuse", "turn", "refuse force", "meld 2d 3d 4d 5d 6d 7d / Kc Kd Kh Ks", "throw 6c",
    "meld Ac Ad As / 4c 4h 4s / 6c 6h 6s", "throw Jd force",
]


@rearranging
def test_r16_r18e_ten_on_the_table_and_no_hand_card_wins_with_a_forced_card(rules):
    st = run(GameState.new(TEN_DECK, rules=rules), TEN_ACTIONS)
    assert (st.to_act, st.decision, st.hands[1], st.table_counts[1]) == (1, "meld", 0, 10)
    assert melds(st, 1) == ["2d 3d 4d 5d 6d 7d", "Kc Kd Kh Ks"] and format_cards(1 << st.forced) == "Jd"
    # Jd makes a run of 7 or splits it (R18c): every choice is a table of eleven, and wins
    assert st.legal_texts() == ["meld 2d 3d 4d / 5d 6d 7d Jd / Kc Kd Kh Ks",
                                "meld 2d 3d 4d 5d / 6d 7d Jd / Kc Kd Kh Ks",
                                "meld 2d 3d 4d 5d 6d 7d Jd / Kc Kd Kh Ks"]
    for text in st.legal_texts():
        end = run(st.clone(), [text])
        assert end.status == "won" and end.winner == 1 and end.table_counts[1] == 11


@rearranging
def test_r17_r18d_with_the_stock_empty_a_card_takeable_only_by_a_re_partition_is_not_tablas(rules):
    # B melds A's refused 5c into 3c 4c 5c 6c / 3d 4d 5d 6d and throws Ah (keeping Qd Ks);
    # both then turn and refuse until A turns the last stock card, 6h, and refuses it
    named = set(parse_cards(TWO_RUNS_A + " 3c 4c 6c 3d 4d 5d 6d Qd Ks Ah 5c 6h"))
    stock = parse_cards("5c") + [c for c in range(40) if c not in named] + parse_cards("6h")
    st = GameState.new(build_deck(TWO_RUNS_A, "3c 4c 6c 3d 4d 5d 6d Qd Ks Ah", stock), rules=rules)
    run(st, TWO_RUNS_PREFIX + ["throw Ah"])
    while st.stock_count:
        st.play("refuse" if st.decision == "meld_or_refuse" else "turn")
    assert (st.to_act, st.decision, format_cards(1 << st.card)) == (0, "meld_or_refuse", "6h")
    assert st.legal_texts() == ["refuse", "refuse force"]
    run(st, ["refuse"])
    # B can meld 6h only by splitting its runs (R18d): the deal goes on (R17)
    assert st.status == "playing" and (st.to_act, st.decision) == (1, "take_or_turn")
    assert st.legal_texts() == ["meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h", "turn"]
    assert run(st.clone(), ["turn"]).status == "tablas"
    run(st, ["meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h"])
    # A could take Qd (7d Jd Qd): it would still be playing; Ks A cannot meld: tablas
    assert run(st.clone(), ["throw Qd"]).status == "playing"
    run(st, ["throw Ks"])
    assert st.status == "tablas"

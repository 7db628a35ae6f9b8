"""Rules of play on hand-built deck orders (RULES §II R7, §III R8, §IV R10-R17).

Decks are written with :func:`build_deck`: the opener's hand, the other hand, then the
top of the stock (card 21 first, R8).  In these tests seat index 0 ("seat 1") opens unless
said otherwise; A is the opener and B the other seat.
"""

import pytest

from gameweave.engine import (
    MELD, GameRecord, GameState, IllegalActionError, UnparsableError, card_name, format_cards,
    is_meld, kind_of, mask_of, meld_cards, parse_card, parse_cards, seat_view,
)
from gameweave.engine.actions import REFUSE_KIND, TURN_KIND
from gameweave.engine.conformance import build_deck
from deals import conformance_player, play
from rules_helpers import hand, m, melds, run


# ------------------------------------------------------------------ scenario decks

# The eleven scenario (R16): B melds 2c 3c 4c, then 4d 5d 6d 7d, then 7h with Jh Qh (Kh).
ELEVEN_A = "2d Qc 6c Jc Qs Kd 3h 5s 6s Jd"
ELEVEN_B = "2c 3c 4d 5d 6d Jh Qh Kh 2h 3d"
ELEVEN_STOCK = "4c 7d 7h 5c"
ELEVEN_PREFIX = [
    "turn", "refuse",                        # A turns 4c and refuses it: live for B (R11)
    "meld 2c 3c 4c", "throw 2h",             # B takes it (R12) and throws (R13)
    "turn", "refuse",                        # A lets 2h die, turns 7d, refuses
    "meld 4d 5d 6d 7d", "throw 3d",          # B: table 7, hand Jh Qh Kh
    "turn", "refuse",                        # A lets 3d die, turns 7h, refuses
]

# The forcing chain (R15): B melds 3c 4c 5c; A melds 5h 6h 7h, forces 6c; B forces 4h back;
# A forces 2c.
CHAIN_A = "6h 7h 6c 2c Ad 2s 3d Jd Qs Kd"
CHAIN_B = "3c 4c 5h 4h Ks 7s Js Qh 6d 7d"
CHAIN_STOCK = "5c"


def eleven_deal() -> GameState:
    return run(GameState.new(build_deck(ELEVEN_A, ELEVEN_B, ELEVEN_STOCK)), ELEVEN_PREFIX)


def chain_deal() -> GameState:
    return GameState.new(build_deck(CHAIN_A, CHAIN_B, CHAIN_STOCK))


def stock_run_deck(a: str, b: str, last: str) -> tuple[int, ...]:
    """A deck whose last (20th) stock card is ``last``, the rest of the stock in hand order."""
    named = set(parse_cards(a + " " + b + " " + last))
    rest = [c for c in range(40) if c not in named]
    return build_deck(a, b, rest + [parse_card(last)])


# Both seats turn and refuse twenty times: B turns the last stock card and refuses it.
EMPTY_STOCK = ["turn", "refuse"] * 20


# ------------------------------------------------------------------ R7


def test_r7_melds_belong_to_their_seat_and_never_shrink():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw 5h", "meld 5h 6h 7h"])
    before = [st.table_mask(0), st.table_mask(1)]
    assert melds(st, 0) == ["5h 6h 7h"] and melds(st, 1) == ["3c 4c 5c"]
    run(st, ["throw 6c force 1", "throw 4h force 1", "throw 2c force 1", "throw Ks"])
    # forcing only ever puts a card on the forced player's OWN meld (R7, R15)
    assert melds(st, 0) == ["4h 5h 6h 7h"]
    assert melds(st, 1) == ["2c 3c 4c 5c 6c"]
    for s in (0, 1):
        assert st.table_mask(s) & before[s] == before[s]


def test_r7_nobody_adds_to_the_opponents_melds_by_choice():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw 5h"])
    # A takes 5h; none of A's choices touches B's meld 3c 4c 5c
    for a in st.legal_actions():
        if is_meld(a):
            assert meld_cards(a) & st.table_mask(1) == 0
    assert st.legal_texts() == ["meld 5h 6h 7h", "turn"]
    with pytest.raises(IllegalActionError):
        st.play("meld 3c 4c 5c 5h")


# ------------------------------------------------------------------ R8


@pytest.mark.parametrize("opener", [0, 1])
def test_r8_deck_order_deals_alternately_from_the_opener_and_card_21_tops_the_stock(opener):
    deck = list(range(40))  # Ac Ad Ah As 2c ... in hand order
    st = GameState.new(deck, opener=opener)
    assert st.hands[opener] == mask_of(deck[0:20:2])  # cards 1, 3, ..., 19
    assert st.hands[1 - opener] == mask_of(deck[1:20:2])  # cards 2, 4, ..., 20
    assert card_name(deck[0]) in format_cards(st.hands[opener]).split()
    assert st.to_act == opener and st.decision == "turn"
    st.play("turn")
    assert st.card == deck[20]  # card 21 is the top of the stock
    assert st.stock_count == 19


def test_r8_deck_text_must_be_the_whole_pack():
    with pytest.raises(UnparsableError, match="missing"):
        GameState.new("Ac Ad Ah")
    with pytest.raises(UnparsableError):
        GameState.new(" ".join(["Ac"] * 40))


# ------------------------------------------------------------------ R10


def test_r10_turn_structure_turn_meld_throw_then_opponent_takes_or_turns():
    st = chain_deal()
    assert (st.to_act, st.decision, st.legal_texts()) == (0, "turn", ["turn"])
    run(st, ["turn"])
    assert (st.to_act, st.decision, card_name(st.card)) == (0, "meld_or_refuse", "5c")
    run(st, ["refuse"])
    assert (st.to_act, st.decision, st.live_from) == (1, "take_or_turn", 0)
    assert st.legal_texts() == ["meld 3c 4c 5c", "turn"]
    run(st, ["meld 3c 4c 5c"])
    assert (st.to_act, st.decision, st.card) == (1, "throw", -1)
    run(st, ["throw 5h"])
    assert (st.to_act, st.decision, card_name(st.card), st.live_from) == (0, "take_or_turn", "5h", 1)


def test_r10_a_live_card_is_taken_only_if_it_can_be_melded_at_once_else_it_dies():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw Ks"])
    # A cannot meld Ks: the only choice is to let it die and turn the stock
    assert st.decision == "take_or_turn" and st.legal_texts() == ["turn"]
    with pytest.raises(IllegalActionError):
        st.play("meld Ks Kd")
    run(st, ["turn"])
    assert st.dead == m("Ks") and st.decision == "meld_or_refuse"


def test_r10_hand_cards_reach_the_table_only_with_a_taken_card():
    st = chain_deal()
    run(st, ["turn"])
    # A holds 6h 7h but no meld of hand cards alone is ever a choice
    for text in ("meld 6h 7h", "meld 6c 6h 7h"):
        with pytest.raises(IllegalActionError):
            st.play(text)
    assert st.history == [st.history[0]] and st.decision == "meld_or_refuse"


# ------------------------------------------------------------------ R11


def test_r11_refused_card_goes_live_for_the_opponent_then_dies_when_they_turn():
    st = chain_deal()
    run(st, ["turn", "refuse"])
    five_c = parse_card("5c")
    assert st.card == five_c and st.live_from == 0 and st.to_act == 1
    run(st, ["turn"])  # B lets 5c die and turns the stock
    assert st.dead == 1 << five_c
    assert st.to_act == 1 and st.decision == "meld_or_refuse" and st.live_from == -1
    assert st.card == st.deck[21]


def test_r11_refused_card_melded_by_opponent_then_the_turn_comes_back():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw 7s"])
    assert st.to_act == 0 and st.decision == "take_or_turn" and card_name(st.card) == "7s"


# ------------------------------------------------------------------ R12


def test_r12_set_of_three_uses_the_first_two_in_hand_order_and_the_third_stays():
    a = "5d 5h 5s Ac 2s 3d 7d Jh Qs Kc"
    b = "Ad Ah 2c 2d 3c 3h 4c 4d 6c 6h"
    st = GameState.new(build_deck(a, b, "5c"))
    run(st, ["turn"])
    assert st.legal_texts() == ["meld 5c 5d 5h", "meld 5c 5d 5h 5s", "refuse"]
    run(st, ["meld 5c 5d 5h"])
    assert "5s" in hand(st, 0).split() and melds(st, 0) == ["5c 5d 5h"]
    # with 5c 5h 5s in hand and 5d taken, the set of three is 5c 5d 5h: 5s stays
    a = "5c 5h 5s Ac 2s 3d 7d Jh Qs Kc"
    st = GameState.new(build_deck(a, b.replace("4d", "4s"), "5d"))
    run(st, ["turn"])
    assert st.legal_texts()[:2] == ["meld 5c 5d 5h", "meld 5c 5d 5h 5s"]
    with pytest.raises(IllegalActionError, match="R12"):
        st.play("meld 5d 5h 5s")


def test_r12_one_choice_per_run_containing_the_taken_card():
    a = "3h 4h 6h 7h Ac 2s 3d Qs Kc Kd"
    b = "Ad As 2c 2d 3c 3s 4c 4d 6c 6d"
    st = GameState.new(build_deck(a, b, "5h"))
    run(st, ["turn"])
    assert st.legal_texts() == [
        "meld 3h 4h 5h", "meld 3h 4h 5h 6h", "meld 3h 4h 5h 6h 7h",
        "meld 4h 5h 6h", "meld 4h 5h 6h 7h", "meld 5h 6h 7h", "refuse",
    ]
    run(st, ["meld 4h 5h 6h"])
    assert hand(st, 0).split()[:2] == ["Ac", "2s"] and "3h" in hand(st, 0) and "7h" in hand(st, 0)
    assert st.table_counts[0] == 3 and st.hand_count(0) == 8


def test_r12_addition_to_own_meld_is_a_separate_choice_and_the_taken_card_never_enters_the_hand():
    st2 = chain_deal()
    run(st2, ["turn", "refuse", "meld 3c 4c 5c", "throw 5h", "meld 5h 6h 7h", "throw 6c"])
    # 6c extends B's own meld 3c 4c 5c: that addition is B's one way to take it
    assert st2.legal_texts() == ["meld 3c 4c 5c 6c", "turn"]
    run(st2, ["meld 3c 4c 5c 6c"])
    assert melds(st2, 1) == ["3c 4c 5c 6c"]
    assert not st2.hands[1] & m("6c")
    assert st2.table_counts[1] == 4 and st2.hand_count(1) == 7


def test_r12_worked_example_of_seed_001_section_09():
    # "Your hand includes 4h, 5h and an unwanted Qs; the opponent left 6h.  Accept 6h,
    # immediately expose 4h-5h-6h, then discard Qs."  You are seat 2 (B); A melds the
    # turned 2h with 2c 2d and throws 6h.
    a = "2c 2d 6h 7h Ac 3s 4c Jd Kc Kd"
    b = "4h 5h Qs Ad As 3c 3d 6c 7s Js"
    st = GameState.new(build_deck(a, b, "2h"))
    run(st, ["turn", "meld 2c 2d 2h", "throw 6h"])
    assert st.decision == "take_or_turn" and st.legal_texts() == ["meld 4h 5h 6h", "turn"]
    run(st, ["meld 4h 5h 6h", "throw Qs"])
    assert melds(st, 1) == ["4h 5h 6h"]
    assert "Qs" not in hand(st, 1) and card_name(st.card) == "Qs" and st.live_from == 1
    # "If the centre offered 7h instead, you could not keep it in hand waiting for a six."
    st = GameState.new(build_deck(a, b, "2h"))
    run(st, ["turn", "meld 2c 2d 2h", "throw 7h"])
    assert st.decision == "take_or_turn" and st.legal_texts() == ["turn"]
    for text in ("meld 4h 5h 7h", "meld 7h", "meld 4h 5h"):
        with pytest.raises(IllegalActionError):
            st.play(text)
    # "Without using the centre card, the same 4h-5h cannot be melded independently."
    run(st, ["turn"])
    assert all(not (meld_cards(a) & m("4h 5h")) or meld_cards(a) & (1 << st.card)
               for a in st.legal_actions() if is_meld(a))
    assert st.hands[1] & m("4h 5h") == m("4h 5h")


# ------------------------------------------------------------------ R13


def test_r13_thrown_card_becomes_live_for_the_opponent_even_if_only_turn_is_legal():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw Js"])
    assert st.to_act == 0 and st.decision == "take_or_turn"
    assert card_name(st.card) == "Js" and st.live_from == 1
    assert not st.hands[1] & m("Js")
    assert st.legal_texts() == ["turn"]
    assert seat_view(st, 0).to_dict()["live"] == "Js"


# ------------------------------------------------------------------ R14


def test_r14_refusing_a_usable_card_has_no_later_consequence():
    a = "5d 5h Ac 2s 3d 7d Jh Qs Kc Kd"
    b = "Ad Ah 2c 2d 3c 3h 4c 4d 6c 6h"
    st = GameState.new(build_deck(a, b, "5c Js 5s"))
    run(st, ["turn"])
    assert "meld 5c 5d 5h" in st.legal_texts()
    run(st, ["refuse", "turn", "refuse", "turn"])  # A refuses 5c; B lets it die, turns Js, refuses
    # A turned 5s: the set of fives is still on offer, exactly as if 5c had never been seen
    assert card_name(st.card) == "5s"
    assert st.legal_texts() == ["meld 5d 5h 5s", "refuse"]
    run(st, ["meld 5d 5h 5s"])
    assert melds(st, 0) == ["5d 5h 5s"]


# ------------------------------------------------------------------ R15


def test_r15_forcing_a_refused_card_onto_the_opponents_meld():
    st = eleven_deal()
    run(st, ["meld 7h Jh Qh", "throw Kh", "turn"])
    assert card_name(st.card) == "5c"
    assert st.legal_texts() == ["refuse", "refuse force 1"]
    st2 = st.clone()
    run(st2, ["refuse force 1"])  # B has ten on the table: the forced card wins (R16)
    assert melds(st2, 1)[0] == "2c 3c 4c 5c"


def test_r15_forcing_a_thrown_card_then_the_forced_player_throws():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw 5h", "meld 5h 6h 7h"])
    texts = st.legal_texts()
    assert "throw 6c force 1" in texts and "throw 2c force 1" in texts
    assert "throw Qs force 1" not in texts  # Qs extends nothing of B's
    run(st, ["throw 6c force 1"])
    assert melds(st, 1) == ["3c 4c 5c 6c"]
    assert (st.to_act, st.decision, st.card) == (1, "throw", -1)
    assert st.table_counts[1] == 4 and st.hand_count(1) == 7
    # the forced addition is not written: the record holds only the throw with its force
    assert GameRecord.from_state(st).actions[-1] == "throw 6c force 1"


def test_r15_forcing_chain_each_forced_player_forces_in_turn():
    st = chain_deal()
    run(st, ["turn", "refuse", "meld 3c 4c 5c", "throw 5h", "meld 5h 6h 7h", "throw 6c force 1"])
    # B, forced, throws 4h and forces it back onto A's 5h 6h 7h
    assert "throw 4h force 1" in st.legal_texts()
    run(st, ["throw 4h force 1"])
    assert melds(st, 0) == ["4h 5h 6h 7h"] and (st.to_act, st.decision) == (0, "throw")
    # A, forced, forces again: 2c onto B's 3c 4c 5c 6c
    run(st, ["throw 2c force 1"])
    assert melds(st, 1) == ["2c 3c 4c 5c 6c"] and (st.to_act, st.decision) == (1, "throw")
    run(st, ["throw Ks"])
    assert (st.to_act, st.decision, card_name(st.card)) == (0, "take_or_turn", "Ks")
    assert st.table_counts == [4, 5] and [st.hand_count(0), st.hand_count(1)] == [6, 5]


def test_r15_a_card_needing_the_opponents_hand_cannot_be_forced():
    st = chain_deal()
    run(st, ["turn"])  # A turns 5c; B could meld it with 3c 4c from hand, but has no meld
    assert st.legal_texts() == ["refuse"]
    with pytest.raises(IllegalActionError, match="no meld 1"):
        st.play("refuse force 1")


def test_r15_force_names_the_opponents_meld_number_in_order_of_lowest_card():
    st = eleven_deal()
    run(st, ["meld 7h Jh Qh", "throw Kh", "turn"])
    # B's melds are numbered by their lowest card: 2c.. = 1, 4d.. = 2, 7h.. = 3
    assert melds(st, 1) == ["2c 3c 4c", "4d 5d 6d 7d", "7h Jh Qh"]
    with pytest.raises(IllegalActionError, match="does not extend"):
        st.play("refuse force 2")
    with pytest.raises(IllegalActionError, match="no meld 4"):
        st.play("refuse force 4")


# ------------------------------------------------------------------ R16


def test_r16_winning_meld_takes_the_taken_card_plus_every_hand_card():
    st = eleven_deal()
    assert st.table_counts[1] == 7 and hand(st, 1) == "Jh Qh Kh"
    assert st.legal_texts() == ["meld 7h Jh Qh", "meld 7h Jh Qh Kh", "turn"]
    run(st, ["meld 7h Jh Qh Kh"])
    assert st.status == "won" and st.winner == 1 and st.is_over
    assert st.table_counts[1] == 11 and st.hands[1] == 0
    assert melds(st, 1)[-1] == "7h Jh Qh Kh"
    assert st.legal_actions() == [] and st.decision is None  # no throw after eleven
    with pytest.raises(IllegalActionError, match="over"):
        st.play("throw Kd")


def test_r16_ten_on_the_table_and_empty_hand_wins_with_a_forced_card():
    st = eleven_deal()
    run(st, ["meld 7h Jh Qh"])
    assert st.table_counts[1] == 10 and st.status == "playing"  # ten is not enough: throw
    assert st.legal_texts() == ["throw Kh"]
    run(st, ["throw Kh"])
    assert st.table_counts[1] == 10 and st.hands[1] == 0 and st.status == "playing"
    run(st, ["turn"])  # A lets Kh die and turns 5c
    run(st, ["refuse force 1"])
    assert st.status == "won" and st.winner == 1
    assert st.table_counts[1] == 11 and melds(st, 1)[0] == "2c 3c 4c 5c"


def test_r16_ten_on_the_table_and_empty_hand_keeps_playing_and_wins_with_a_taken_card():
    st = eleven_deal()
    run(st, ["meld 7h Jh Qh", "throw Kh", "turn", "refuse"])  # A refuses 5c without forcing
    assert st.to_act == 1 and st.legal_texts() == ["meld 2c 3c 4c 5c", "turn"]
    run(st, ["meld 2c 3c 4c 5c"])
    assert st.status == "won" and st.winner == 1


# ------------------------------------------------------------------ R17


def test_r17_tablas_with_a_live_card_still_takeable_after_the_last_stock_card():
    st = GameState.new(stock_run_deck("Kc Kd Ac 2s 3d 4h 5c 6d 7h Jc",
                                      "Ad Ah 2c 2d 3c 3h 4c 4d 5d 5h", "Kh"))
    run(st, EMPTY_STOCK)
    assert st.stock_count == 0 and st.status == "playing"
    assert (st.to_act, st.decision, card_name(st.card), st.live_from) == (0, "take_or_turn", "Kh", 1)
    assert st.legal_texts() == ["meld Kc Kd Kh", "turn"]
    tablas = st.clone()
    run(tablas, ["turn"])  # declining the live card with an empty stock: tablas at once
    assert tablas.status == "tablas" and tablas.winner == -1 and tablas.legal_actions() == []
    # taking it is still allowed; then B cannot meld A's throw and cannot turn: tablas
    run(st, ["meld Kc Kd Kh"])
    assert st.status == "playing" and st.decision == "throw"
    run(st, ["throw Jc"])
    assert st.status == "tablas" and st.is_over and st.dead & m("Jc")


def test_r17_stock_empty_and_the_opponent_can_meld_the_throw_so_play_goes_on():
    st = GameState.new(stock_run_deck("Kc Kd Ac 2s 3d 4h 5c 6d 7h Jc",
                                      "Ad Ah 2c 2d 3c 3h 4c 4d 5d 5h", "Kh"))
    run(st, EMPTY_STOCK + ["meld Kc Kd Kh", "throw 5c"])  # B holds 5d 5h
    assert st.status == "playing" and st.to_act == 1
    # the set first, then the sequences by lowest card (B also holds 2c 3c 4c)
    assert st.legal_texts() == ["meld 5c 5d 5h", "meld 2c 3c 4c 5c", "meld 3c 4c 5c", "turn"]
    run(st, ["meld 5c 5d 5h", "throw Ad"])  # A cannot meld Ad: tablas
    assert st.status == "tablas"


def test_r17_last_stock_card_refused_and_unmeldable_ends_in_tablas_at_once():
    st = GameState.new(stock_run_deck("Kc Qd Ac 2s 3d 4h 5c 6d 7h Jc",
                                      "Ad Ah 2c 2d 3c 3h 4c 4d 5d 5h", "Kh"))
    run(st, EMPTY_STOCK[:-1])
    assert st.stock_count == 0 and st.decision == "meld_or_refuse" and card_name(st.card) == "Kh"
    run(st, ["refuse"])  # A cannot meld Kh and there is nothing to turn
    assert st.status == "tablas" and st.to_act == -1 and st.dead & m("Kh")


# ------------------------------------------------------------------ R18, R19 (other profiles)


def test_r18_gameweave_never_rearranges_and_rejects_the_rearranging_notation():
    from gameweave.engine import find_profile, parse_action

    assert find_profile("gameweave").rearranging is False
    with pytest.raises(UnparsableError, match="R18"):
        parse_action("meld 3h 4h 5h / 6c 6d 6h")
    # B's 4d 5d 6d 7d stays whole: taking 7h makes a new meld, it never borrows 7d
    st = eleven_deal()
    assert all(meld_cards(a) & st.table_mask(1) == 0 or meld_cards(a) & st.table_mask(1) in st.melds[1]
               for a in st.legal_actions() if is_meld(a))


def test_r19_gameweave_has_no_forcing_back_a_refused_card():
    import random

    from gameweave.engine import find_profile

    assert find_profile("gameweave").force_back is False
    # when a refused card could go on the refuser's own table, the opponent may only
    # meld it or turn: no action of 'take_or_turn' forces anything
    seen = 0
    rng = random.Random(19)
    for seed in range(40):
        st = GameState.new(seed=seed)
        for d in play(st, conformance_player(rng, 0.9)):
            if st.decision == "take_or_turn":
                assert all(kind_of(a) in (MELD, TURN_KIND) for a in d.legal)
                if kind_of(st.history[-1]) == REFUSE_KIND and st.extensions[st.live_from] >> st.card & 1:
                    seen += 1
    assert seen > 0  # the situation R19 is about did arise

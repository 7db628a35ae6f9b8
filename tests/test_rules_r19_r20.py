"""Forcing back (RULES R19, anglo-american) and matches (R9, R20, §VII match records)
on hand-built deck orders.

Decks are written with :func:`build_deck`: the opener's hand, the other hand, then the
top of the stock (card 21 first, R8).  Seat index 0 ("seat 1", A) opens unless said
otherwise; B is seat 2.
"""

import json

import pytest

from gameweave.engine import (
    FORCE, GameRecord, GameState, IllegalActionError, Match, MatchRecord, OptionError,
    UnparsableError, find_profile, format_cards, load_records, match_options,
    parse_action, parse_card, parse_cards, read_record, seat_view, spectator_view,
)
from gameweave.engine.conformance import build_deck, same_state
from deals import play_out
from rules_helpers import play_to_tablas, run


# B takes A's refused 5c and lays down 3c 4c 5c 6c / 3d 4d 5d 6d (R18a), keeping 7h Jh
# and one more card (thrown next).  A holds nothing that melds any card used below.
A_HAND = "Ac 2s 3h 4s 7s Jd Qs Kc 5s 7d"
B_CORE = "3c 4c 6c 3d 4d 5d 6d 7h Jh"
TABLE_B = "meld 3c 4c 5c 6c / 3d 4d 5d 6d"


def deal(rules: str, stock: str, b_last: str = "Ah") -> GameState:
    return GameState.new(build_deck(A_HAND, B_CORE + " " + b_last, stock), rules=rules)


# ------------------------------------------------------------------ R19


def test_r19_forcing_back_a_refused_turned_card_after_a_re_partition():
    # A turns 5c and refuses it; B melds it into its two runs, throws Ah; A turns Kh and
    # refuses it; B lets it die, turns 6h and refuses it.  6h fits B's own table only by
    # splitting it (3c 4c 5c / 3d 4d 5d / 6c 6d 6h): A may force it back (R19).
    st = run(deal("anglo-american", "5c Kh 6h"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse",
                                                   "turn", "refuse"])
    assert (st.to_act, st.decision, format_cards(1 << st.card), st.live_from) == (0, "take_or_turn", "6h", 1)
    assert st.legal_texts() == ["force", "turn"]  # A cannot meld 6h; 'force' beside 'turn'
    assert st.can_force_back() and st.refused
    assert seat_view(st, 0).force_back and seat_view(st, 0).to_dict()["decision"] == "take_or_turn"
    run(st, ["force"])
    # the turner melds it (decision 'meld', R18e): nothing is live meanwhile
    assert (st.to_act, st.decision, st.card) == (1, "meld", -1) and st.forced == parse_card("6h")
    ev = seat_view(st, 1).history[-1]
    assert ev.kind == "force" and ev.forced and ev.card == parse_card("6h") and ev.seat == 0
    assert st.legal_texts() == ["meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h",
                                "meld 3c 4c 5c 6c / 3d 4d 5d 6d / 6h 7h Jh"]
    with pytest.raises(IllegalActionError):
        st.play("refuse")
    # ... then throws (and may force that throw, R15: A has no table, so no force here)
    run(st, ["meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h"])
    assert st.decision == "throw" and st.legal_texts() == ["throw 7h", "throw Jh"]


def test_r19_a_card_forced_back_that_the_turner_melds_with_all_its_hand_wins():
    st = run(deal("anglo-american", "5c Kh 6h"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse",
                                                   "turn", "refuse", "force"])
    run(st, ["meld 3c 4c 5c 6c / 3d 4d 5d 6d / 6h 7h Jh"])
    assert st.status == "won" and st.winner == 1  # R16: the turner reaches eleven


def test_r19_forcing_back_is_anglo_american_only():
    for rules in ("classic", "gameweave"):
        with pytest.raises(UnparsableError, match="R19"):
            parse_action("force", find_profile(rules))
    assert parse_action("force", find_profile("anglo-american")) == FORCE
    assert parse_action("FORCE", find_profile("pagat")) == FORCE
    st = run(deal("classic", "5c Kh 6h"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse",
                                           "turn", "refuse"])
    assert st.legal_texts() == ["turn"]  # classic: no force back (A cannot meld 6h)
    with pytest.raises(IllegalActionError):
        st.play(FORCE)


def test_r19_forcing_back_refused_when_hand_cards_would_be_needed():
    # B turns Qh and refuses it; Qh fits B's table only with 7h Jh from B's hand
    st = run(deal("anglo-american", "5c Kh Qh"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse",
                                                   "turn"])
    assert "meld 3c 4c 5c 6c / 3d 4d 5d 6d / 7h Jh Qh" in st.legal_texts()  # B could meld it
    run(st, ["refuse"])
    assert st.decision == "take_or_turn" and st.legal_texts() == ["turn"]
    assert not st.can_force_back()
    with pytest.raises(IllegalActionError) as info:
        st.play("force")
    assert info.value.reason == "cannot_force" and "R19" in str(info.value)


def test_r19_never_a_thrown_card():
    # B throws 2c, which extends B's own clubs: it is not a refused turned card
    st = run(deal("anglo-american", "5c", b_last="2c"), ["turn", "refuse", TABLE_B, "throw 2c"])
    assert st.decision == "take_or_turn" and st.legal_texts() == ["turn"]
    with pytest.raises(IllegalActionError) as info:
        st.play("force")
    assert info.value.reason == "wrong_decision"


def test_r19_only_a_refused_turned_card_a_forcing_refusal_leaves_nothing_live():
    # A turns 2c (fits B's clubs) and refuses it with force: nothing is live, no 'force'
    st = run(deal("anglo-american", "5c 2c"), ["turn", "refuse", TABLE_B, "throw Ah", "turn"])
    assert st.legal_texts() == ["refuse", "refuse force"]
    run(st, ["refuse force"])
    assert (st.to_act, st.decision) == (1, "meld") and "force" not in st.legal_texts()
    # refused plainly, it is live for B; B's choices are its melds and 'turn' -- forcing
    # back is onto the refuser (A), whose table is empty
    st = run(deal("anglo-american", "5c 2c"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse"])
    assert st.legal_texts()[-1] == "turn" and "force" not in st.legal_texts()


def empty_stock_deal(rules: str) -> GameState:
    """A refuses Kh; B lets it die, turns 5c and melds its two runs, throws Ah; then both
    turn and refuse until B turns the last stock card, 6h, and refuses it (R17, R19)."""
    named = set(parse_cards(A_HAND + " " + B_CORE + " Ah Kh 5c 6h"))
    rest = [c for c in range(40) if c not in named]
    stock = parse_cards("Kh 5c") + rest + parse_cards("6h")
    st = GameState.new(build_deck(A_HAND, B_CORE + " Ah", stock), rules=rules)
    run(st, ["turn", "refuse", "turn", TABLE_B, "throw Ah"])
    while st.stock_count:
        st.play("refuse" if st.decision == "meld_or_refuse" else "turn")
    assert (st.to_act, st.decision, format_cards(1 << st.card)) == (1, "meld_or_refuse", "6h")
    run(st, ["refuse"])
    return st


def test_r19_with_the_stock_empty_a_seat_that_may_force_back_is_not_at_tablas():
    st = empty_stock_deal("anglo-american")
    assert st.stock_count == 0 and st.status == "playing"
    assert (st.to_act, st.decision) == (0, "take_or_turn") and st.legal_texts() == ["force", "turn"]
    # 'turn' then ends the deal (R17)
    tablas = run(st.clone(), ["turn"])
    assert tablas.status == "tablas" and tablas.is_over and tablas.winner == -1
    # 'force' goes on: B melds 6h and throws
    run(st, ["force", "meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h"])
    assert st.status == "playing" and st.decision == "throw"


def test_r17_classic_has_no_force_back_so_the_same_refusal_is_tablas():
    st = empty_stock_deal("classic")
    assert st.status == "tablas" and st.is_over


# ------------------------------------------------------------------ R20 matches

# A deal the opener wins at once (R18a): the opener turns 5h and melds all ten hand
# cards; dealt to whichever seat opens (R8).
WIN_DECK = build_deck("4h 6h 7h Kc Kd Ks 2c 2d 2s 2h", "3c 3d 3s 4c 4d 5c 5d 6c 6d Jc", "5h")
WIN_ACTIONS = ["turn", "meld 2c 2d 2h 2s / 4h 5h 6h 7h / Kc Kd Ks"]


def finish(st: GameState, result: str) -> GameState:
    """Play the deal to its end: "win" (the opener wins at once) or "tablas" (both seats
    turn and refuse until the stock is gone, R17)."""
    if result == "win":
        st.play_all(WIN_ACTIONS)
        assert st.winner == st.opener
    else:
        play_to_tablas(st)
        assert st.status == "tablas"
    return st


def play_match(match: Match, results: list[str]) -> list[GameState]:
    out = []
    for r in results:
        st = finish(match.new_deal(WIN_DECK), r)
        match.count(st)
        out.append(st)
    return out


def test_r20_stakes_double_compounds():
    match = Match(rules="classic")  # classic default: stakes, tablas_stake double, stake 1
    assert (match.format, match.tablas_stake, match.stake, match.current_stake) == ("stakes", "double", 1, 1)
    stakes = [match.current_stake]
    for r in ("tablas", "tablas"):
        play_match(match, [r])
        stakes.append(match.current_stake)
    assert stakes == [1, 2, 4]
    play_match(match, ["win"])  # deal 3: seat 1 opens (R9) and wins: it is paid 4
    assert match.points == [4, 0] and match.current_stake == 1  # a won deal resets the stake
    play_match(match, ["win"])  # deal 4: seat 2 wins the base stake
    assert match.points == [4, 1] and match.balance(0) == 3
    assert not match.is_over and match.winner == -1  # stakes matches have no end
    # a base stake of 2 doubles as 2, 4, 8
    big = Match(rules="classic", stake=2)
    play_match(big, ["tablas", "tablas"])
    assert big.current_stake == 8


def test_r20_stakes_carry_adds_one_base_stake_per_tablas():
    match = Match(rules="classic", tablas_stake="carry")
    stakes = [match.current_stake]
    for _ in range(2):
        play_match(match, ["tablas"])
        stakes.append(match.current_stake)
    assert stakes == [1, 2, 3]
    play_match(match, ["win"])
    assert match.points == [3, 0] and match.current_stake == 1
    big = Match(rules="classic", tablas_stake="carry", stake=2)
    play_match(big, ["tablas", "tablas"])
    assert big.current_stake == 6
    play_match(big, ["win"])
    assert big.points == [6, 0] and big.current_stake == 2


def test_r20_first_to_3_ends_the_match_at_once():
    match = Match(rules="anglo-american")  # anglo-american default: first to 3
    assert (match.format, match.target) == ("first_to", 3)
    # the opener wins each won deal: deals 1, 3, 5 go to seat 1, deal 4 to seat 2
    play_match(match, ["win", "tablas", "win", "win"])
    assert match.wins == [2, 1] and not match.is_over
    play_match(match, ["win"])
    assert match.wins == [3, 1] and match.tablas == 1
    assert match.is_over and match.winner == 0  # at once: no further deal is dealt
    with pytest.raises(ValueError, match="over"):
        match.new_deal(WIN_DECK)
    with pytest.raises(ValueError, match="over"):
        match.count(finish(GameState.new(WIN_DECK, rules="anglo-american"), "win"))
    assert match.points == [0, 0]  # first to N keeps no stakes


def test_r20_the_first_opener_is_drawn_at_random_where_the_profile_says_so_and_recorded():
    assert find_profile("gameweave").first_opener == "seat1"
    assert find_profile("anglo-american").first_opener == "random"
    assert find_profile("classic").first_opener == "random"
    # the caller draws it; the match and its record keep it, and R9 alternates from it
    match = Match(rules="classic", first_opener=1)
    deals = play_match(match, ["win", "tablas", "win"])
    assert [d.opener for d in deals] == [1, 0, 1]
    rec = MatchRecord(rules="classic", first_opener=1, options=match.options,
                      deals=[GameRecord.from_state(d) for d in deals])
    obj = json.loads(json.dumps(rec.to_dict()))
    assert obj["first_opener"] == 2 and [d["opener"] for d in obj["deals"]] == [2, 1, 2]
    again, _ = MatchRecord.from_dict(obj).replay()
    assert again.first_opener == 1 and again.points == match.points == [0, 3]  # 1, then 2 after tablas


def test_r20_match_record_round_trip():
    match = Match(rules="classic", tablas_stake="carry")
    deals = play_match(match, ["tablas", "win", "tablas"])
    last = match.new_deal(WIN_DECK)
    last.play("turn")  # the last deal may be unfinished (§VII)
    rec = MatchRecord(rules="classic", first_opener=0, options=match.options,
                      deals=[GameRecord.from_state(d) for d in deals + [last]])
    text = json.dumps(rec.to_dict())
    back = read_record(json.loads(text))
    assert isinstance(back, MatchRecord) and back.to_dict() == rec.to_dict()
    replayed, finals = back.replay()
    assert replayed.results == [-1, 1, -1] and replayed.points == match.points == [0, 2]
    assert replayed.current_stake == match.current_stake == 2
    assert all(same_state(a, b) for a, b in zip(finals, deals + [last]))
    # load_records reads it from a file's text too
    [loaded] = load_records(text)
    assert isinstance(loaded, MatchRecord) and loaded.to_dict() == rec.to_dict()


def test_r20_match_record_as_written_by_hand_in_section_vii():
    # deals without 'rules' or 'opener': they follow from the match (R9)
    deck = " ".join(format_cards(1 << c) for c in WIN_DECK)
    obj = {"rules": "classic", "first_opener": 2, "options": {"stake": 1, "tablas_stake": "double"},
           "deals": [{"deck": deck, "actions": WIN_ACTIONS}, {"deck": deck, "actions": WIN_ACTIONS}]}
    rec = read_record(obj)
    assert isinstance(rec, MatchRecord) and [d.opener for d in rec.deals] == [1, 0]
    match, finals = rec.replay()
    assert [f.winner for f in finals] == [1, 0] and match.points == [1, 1]
    assert rec.options == {"match": "stakes", "target": 3, "stake": 1, "tablas_stake": "double"}
    # a deal opened by the wrong seat, an unfinished deal followed by another, a deal
    # after a first-to match is over: each refused
    bad = dict(obj, deals=[{"deck": deck, "opener": 1, "actions": WIN_ACTIONS}])
    with pytest.raises(UnparsableError, match="R9"):
        read_record(bad)
    cut = dict(obj, deals=[{"deck": deck, "actions": ["turn"]}, {"deck": deck, "actions": WIN_ACTIONS}])
    with pytest.raises(UnparsableError, match="not finished"):
        read_record(cut).replay()
    one = dict(obj, rules="anglo-american", options={"target": 1},
               deals=[{"deck": deck, "actions": WIN_ACTIONS}, {"deck": deck, "actions": WIN_ACTIONS}])
    with pytest.raises(UnparsableError, match="over"):
        read_record(one).replay()


def test_r20_bad_options_raise_option_error():
    for opts in ({"tablas_stake": "triple"}, {"target": 0}, {"match": "best_of"}, {"stake": 0},
                 {"target": "3"}, {"colour": "red"}):
        with pytest.raises(OptionError):
            match_options("classic", opts)
    with pytest.raises(OptionError):
        Match(rules="classic", tablas_stake="triple")
    deck = " ".join(format_cards(1 << c) for c in WIN_DECK)
    for opts in ({"tablas_stake": "triple"}, {"target": 0}):
        obj = {"rules": "classic", "first_opener": 1, "options": opts, "deals": [{"deck": deck, "actions": []}]}
        with pytest.raises(OptionError):
            read_record(obj)
        [item] = load_records(json.dumps(obj))
        assert isinstance(item, OptionError)
    assert isinstance(OptionError("x"), ValueError)
    # the defaults of each profile (R20)
    assert match_options("gameweave")["match"] == "tally"
    assert match_options("pagat") == {"match": "first_to", "target": 3, "stake": 1, "tablas_stake": "double"}
    assert match_options("classic")["match"] == "stakes"


def test_section_vii_records_name_their_profile_and_pagat_reads_as_anglo_american():
    from gameweave.engine import snapshot

    st = run(deal("anglo-american", "5c Kh 6h"), ["turn", "refuse", TABLE_B, "throw Ah", "turn", "refuse",
                                                   "turn", "refuse", "force"])
    obj = GameRecord.from_state(st).to_dict()
    assert obj["rules"] == "anglo-american" and obj["actions"][-1] == "force"
    again = GameRecord.from_dict(dict(obj, rules="Pagat"))
    assert again.rules == "anglo-american" and same_state(again.replay(), st)
    # replay --json's shape: decision 'meld' and live null while the forced card waits
    snap = snapshot(st)
    assert snap["decision"] == "meld" and snap["live"] is None and snap["to_act"] == 2
    assert snap["legal"] == st.legal_texts()
    # the same actions are no record of a classic deal ('force' is anglo-american only)
    with pytest.raises(Exception, match="step 9"):
        GameRecord.from_dict(dict(obj, rules="classic")).replay()


def test_r20_a_match_record_holds_deals_of_its_own_profile_only():
    deck = " ".join(format_cards(1 << c) for c in WIN_DECK)
    obj = {"rules": "classic", "first_opener": 1,
           "deals": [{"rules": "anglo-american", "deck": deck, "actions": WIN_ACTIONS}]}
    with pytest.raises(UnparsableError, match="deal 1"):
        read_record(obj)


# ------------------------------------------------------------------ R20: a deal resigned, a match closed
def _mid_deal(rules: str) -> GameState:
    """A deal some steps in, with a live card in the centre (decision take_or_turn)."""
    st = GameState.new(seed=11, rules=rules)
    while st.decision != "take_or_turn" or len(st.history) < 6:
        legal = st.legal_actions()
        st.apply(parse_action("refuse", st.rules) if st.decision == "meld_or_refuse" else legal[-1])
    assert not st.is_over and st.card >= 0
    return st


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_r20_a_resigned_deal_is_over_won_by_the_other_seat_and_its_record_is_its_actions(rules):
    st = _mid_deal(rules)
    record = GameRecord.from_state(st).to_dict()
    centre, hands, history = st.card, st.hands[:], st.history[:]
    st.concede(0)
    assert (st.is_over, st.status, st.winner, st.to_act, st.decision) == (True, "won", 1, -1, None)
    assert st.legal_actions() == []
    assert st.card == centre and st.hands == hands and st.history == history  # the cards lie where they lay
    assert GameRecord.from_state(st).to_dict() == record  # a resignation is no §VII action
    with pytest.raises(IllegalActionError) as err:
        st.play("turn")
    assert err.value.reason == "deal_over"
    # R21: once over, each seat sees the other's hand, a spectator both; nobody decides
    for seat in (0, 1):
        v = seat_view(st, seat)
        assert (v.status, v.winner, v.to_act, v.decision, v.legal) == ("won", 1, -1, None, ())
        assert v.opponent_hand == hands[1 - seat]
    assert spectator_view(st).hands == (hands[0], hands[1])
    assert spectator_view(st).to_dict()["live"] is not None


def test_r20_a_deal_is_resigned_once_by_a_seat_only_while_it_is_played():
    st = _mid_deal("gameweave")
    with pytest.raises(ValueError):
        st.concede(2)
    st.concede(1)
    assert st.winner == 0
    with pytest.raises(IllegalActionError) as err:
        st.concede(0)
    assert err.value.reason == "deal_over"
    done = play_out(GameState.new(seed=3), lambda d: d.legal[0])  # always the first legal action
    with pytest.raises(IllegalActionError):
        done.concede(0)


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_r20_a_deal_closed_with_its_match_is_undecided_and_reveals_nothing(rules):
    st = _mid_deal(rules)
    record = GameRecord.from_state(st).to_dict()
    st.close()
    assert (st.is_over, st.status, st.winner, st.to_act, st.decision) == (False, "playing", -1, -1, None)
    assert st.legal_actions() == []
    assert GameRecord.from_state(st).to_dict() == record
    for seat in (0, 1):
        v = seat_view(st, seat)
        assert (v.status, v.to_act, v.decision, v.legal, v.opponent_hand) == ("playing", -1, None, (), None)
        assert v.to_dict()["legal"] == [] and v.to_dict()["opponent_hand"] is None
    assert spectator_view(st).hands is None  # R21: the deal never ended
    for act in (lambda: st.play("turn"), st.close, lambda: st.concede(0)):
        with pytest.raises(IllegalActionError) as err:
            act()
        assert err.value.reason == "deal_over"
    again = st.clone()
    assert (again.decision, again.to_act, again.legal_actions()) == (None, -1, [])

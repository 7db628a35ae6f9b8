"""Matches and views (RULES R9, R20, R21) and game records (§VII)."""

import json

import pytest

from gameweave.engine import (
    GameRecord, GameState, Match, OptionError, ReplayError, UnparsableError, format_cards, mask_names,
    mask_of, match_options,
    parse_cards, seat_view,
)
from gameweave.engine.conformance import build_deck, same_state
from rules_helpers import play_to_tablas

# a deal the non-opener wins after ten actions (see test_rules_play's eleven scenario)
WIN_A = "2d Qc 6c Jc Qs Kd 3h 5s 6s Jd"
WIN_B = "2c 3c 4d 5d 6d Jh Qh Kh 2h 3d"
WIN_DECK = build_deck(WIN_A, WIN_B, "4c 7d 7h 5c")
WIN_ACTIONS = ["turn", "refuse", "meld 2c 3c 4c", "throw 2h", "turn", "refuse",
               "meld 4d 5d 6d 7d", "throw 3d", "turn", "refuse", "meld 7h Jh Qh Kh"]
# both seats turn and refuse until the stock is gone: tablas (R17)
TABLAS_ACTIONS = None


def finish(st: GameState, actions) -> GameState:
    """Play ``actions``, or with ``TABLAS_ACTIONS`` turn and refuse until tablas."""
    if actions is TABLAS_ACTIONS:
        play_to_tablas(st)
        assert st.status == "tablas"
    else:
        st.play_all(actions)
    assert st.is_over
    return st


# ------------------------------------------------------------------ R9


def test_r9_opener_alternates_every_deal_in_a_match_tablas_included():
    match = Match()
    openers = []
    for i in range(4):
        st = match.new_deal(WIN_DECK)
        openers.append(st.opener)
        assert st.to_act == st.opener
        finish(st, TABLAS_ACTIONS if i % 2 else WIN_ACTIONS)
        match.record(st)
    assert openers == [0, 1, 0, 1]  # seat 1 opens deal 1, seat 2 deal 2, ...
    assert match.results == [1, -1, 1, -1]
    assert Match(first_opener=1).next_opener == 1


def test_r9_the_non_opener_is_dealt_the_second_card():
    st = GameState.new(WIN_DECK, opener=1)
    assert format_cards(st.hands[1]) == format_cards(GameState.new(WIN_DECK, opener=0).hands[0])


# ------------------------------------------------------------------ R20


def test_r20_first_to_n_ends_the_match_and_tablas_score_nothing():
    match = Match(format="first_to", target=2)
    # deal 1: seat 1 opens, seat 2 wins; deal 2 tablas; deal 3: seat 1 opens, seat 2 wins
    for actions in (WIN_ACTIONS, TABLAS_ACTIONS, WIN_ACTIONS):
        assert not match.is_over and match.winner == -1
        match.record(finish(match.new_deal(WIN_DECK), actions))
    assert match.wins == [0, 2] and match.tablas == 1
    assert match.is_over and match.winner == 1
    assert match.score_text() == "Seat 1: 0, Seat 2: 2, tablas: 1 (first to 2)"
    with pytest.raises(ValueError, match="over"):
        match.new_deal(WIN_DECK)


def test_r20_running_tally_counts_wins_and_tablas_and_never_ends():
    match = Match()
    for actions in (WIN_ACTIONS, WIN_ACTIONS, TABLAS_ACTIONS, WIN_ACTIONS, TABLAS_ACTIONS):
        match.record(finish(match.new_deal(WIN_DECK), actions))
    # the non-opener wins each won deal: deal 1 seat 2, deal 2 seat 1, deal 4 seat 1 (R9)
    assert match.wins == [2, 1] and match.tablas == 2 and match.deals_played == 5
    assert not match.is_over and match.winner == -1
    assert match.score_text() == "Seat 1: 2, Seat 2: 1, tablas: 2"


def test_r20_match_rejects_bad_settings_and_unfinished_deals():
    with pytest.raises(OptionError):
        Match(format="best_of")
    with pytest.raises(OptionError):
        Match(format="stakes", tablas_stake="triple")
    with pytest.raises(OptionError):
        Match(format="first_to", target=-1)
    with pytest.raises(OptionError):  # in Match(), target=0 means "the profile's default"
        match_options("gameweave", {"match": "first_to", "target": 0})
    with pytest.raises(OptionError):  # a ValueError too, for callers that only care about bad input
        Match(first_opener=2)
    with pytest.raises(ValueError):
        Match().record(GameState.new(WIN_DECK))


# ------------------------------------------------------------------ R21


def test_r21_view_shows_own_hand_and_counts_never_the_opponents_hand_or_stock():
    st = GameState.new(WIN_DECK)
    st.play_all(WIN_ACTIONS[:4])  # B has melded 2c 3c 4c and thrown 2h
    for seat in (0, 1):
        v = seat_view(st, seat)
        d = v.to_dict()
        assert d["hand"] == mask_names(st.hands[seat])
        assert d["opponent_hand"] is None and v.opponent_hand is None
        assert d["hand_counts"] == {"1": 10, "2": 7}
        assert d["stock"] == 19 and d["melds"] == {"1": [], "2": [["2c", "3c", "4c"]]}
        assert (d["live"], d["live_from"], d["decision"], d["to_act"]) == ("2h", 2, "take_or_turn", 1)
        text = json.dumps(d)
        hidden = mask_names(st.hands[1 - seat]) + mask_names(sum(1 << c for c in st.deck[st.stock_pos:]))
        for name in hidden:
            assert name not in text, f"seat {seat + 1} sees {name}"
    # only the seat to act gets its choices
    assert seat_view(st, 0).legal and seat_view(st, 1).legal == ()
    # the public history: every turned, refused, thrown and melded card, with its seat
    hist = seat_view(st, 1).to_dict()["history"]
    assert [(e["seat"], e["action"], e["card"]) for e in hist] == [
        (1, "turn", "4c"), (1, "refuse", "4c"), (2, "meld 2c 3c 4c", "4c"), (2, "throw 2h", "2h"),
    ]


def test_r21_opponents_hand_is_shown_once_the_deal_is_over():
    st = finish(GameState.new(WIN_DECK), WIN_ACTIONS)
    assert seat_view(st, 1).opponent_hand == st.hands[0]
    assert seat_view(st, 0).to_dict()["opponent_hand"] == []  # the winner holds nothing


def test_r21_views_equal_for_states_differing_only_in_hidden_cards():
    # swap a card of B's hand that B never plays (Kd... B holds Kh) with a deep stock card
    deck = list(WIN_DECK)
    a, b = deck.index(parse_cards("Kh")[0]), deck.index(parse_cards("Ks")[0])
    deck[a], deck[b] = deck[b], deck[a]
    one, two = GameState.new(WIN_DECK), GameState.new(deck)
    one.play_all(WIN_ACTIONS[:8])
    two.play_all(WIN_ACTIONS[:8])
    assert one.hands[1] != two.hands[1]
    assert seat_view(one, 0) == seat_view(two, 0)
    assert seat_view(one, 1) != seat_view(two, 1)


# ------------------------------------------------------------------ §VII records


def test_record_round_trip_and_replay_gives_the_identical_state():
    st = finish(GameState.new(WIN_DECK, opener=1), WIN_ACTIONS)
    rec = GameRecord.from_state(st)
    obj = json.loads(rec.to_json())
    assert obj["opener"] == 2 and obj["rules"] == "gameweave" and len(obj["deck"].split()) == 40
    assert obj["actions"] == WIN_ACTIONS
    assert same_state(GameRecord.from_json(rec.to_json()).replay(), st)


def test_record_with_an_illegal_step_names_the_step():
    rec = GameRecord.from_dict({"deck": " ".join(mask_names((1 << 40) - 1)), "actions": ["turn", "throw Ac"]})
    with pytest.raises(ReplayError) as info:
        rec.replay()
    assert info.value.step == 2 and info.value.action == "throw Ac"


def test_record_malformed_is_unparsable():
    for obj in ({"deck": "Ac", "actions": []}, {"actions": []}, [], {"deck": "x", "actions": [1]}):
        with pytest.raises(UnparsableError):
            GameRecord.from_dict(obj)
    with pytest.raises(UnparsableError):
        GameRecord.from_json("{not json")


def test_r21_public_history_is_structured_events_in_every_profile():
    # gameweave: A turns 5c and refuses it; B lets it die (turn), ... here B takes it
    chain_a = "6h 7h 6c 2c Ad 2s 3d Jd Qs Kd"
    chain_b = "3c 4c 5h 4h Ks 7s Js Qh 6d 7d"
    st = GameState.new(build_deck(chain_a, chain_b, "5c"))
    st.play_all(["turn", "refuse", "meld 3c 4c 5c", "throw 5h", "meld 5h 6h 7h", "throw 6c force 1",
                 "throw Ks", "turn"])
    ev = seat_view(st, 0).history
    assert [e.kind for e in ev] == ["turn", "refuse", "meld", "throw", "meld", "throw", "throw", "turn"]
    names = lambda mask: format_cards(mask)  # noqa: E731
    assert names(ev[2].from_hand) == "3c 4c" and names(ev[2].meld) == "3c 4c 5c" and not ev[2].forced
    # a gameweave force: the target's meld it joined and the target's table after it (R15)
    assert ev[5].forced and names(ev[5].meld) == "3c 4c 5c 6c" and ev[5].seat == 0
    assert [names(x) for x in ev[5].table] == ["3c 4c 5c 6c"]
    # A lets Ks die by turning: 'died' names it, 'card' is the card turned
    assert names(1 << ev[7].died) == "Ks" and ev[7].card == st.card
    d = seat_view(st, 1).to_dict()["history"][5]
    assert d == {"seat": 1, "action": "throw 6c force 1", "kind": "throw", "card": "6c", "died": None,
                 "forced": True, "meld": ["3c", "4c", "5c", "6c"], "table": [["3c", "4c", "5c", "6c"]],
                 "from_hand": []}
    # the same events read the same for both seats (R21: all of it was shown face up)
    assert seat_view(st, 0).history == seat_view(st, 1).history
    # R18: a force names no meld; the forced seat's meld event says it melds a forced card
    a = "Ac 2s 3h 4s 7s Jd Qs Kc 5s 7d"
    b = "3c 4c 6c 3d 4d 5d 6d 7h Jh Ah"
    for rules in ("classic", "anglo-american"):
        st = GameState.new(build_deck(a, b, "5c 6h"), rules=rules)
        st.play_all(["turn", "refuse", "meld 3c 4c 5c 6c / 3d 4d 5d 6d", "throw Ah", "turn", "refuse force",
                     "meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h"])
        ev = seat_view(st, 0).history
        assert ev[5].kind == "refuse" and ev[5].forced and ev[5].meld == 0 and ev[5].table == ()
        assert ev[6].kind == "meld" and ev[6].forced and ev[6].from_hand == 0
        assert names(ev[6].meld) == "6c 6d 6h" and len(ev[6].table) == 3
        assert ev[2].from_hand == mask_of(parse_cards("3c 4c 6c 3d 4d 5d 6d"))
        assert ev[6].text == "meld 3c 4c 5c / 3d 4d 5d / 6c 6d 6h"

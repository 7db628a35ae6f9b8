"""Property tests (Hypothesis) over random deals and random legal play, in every rule
profile of §V (gameweave, anglo-american, classic).

Every property runs on deals drawn from seeds and played by a seeded random player; the
checks come from the shipped conformance suite (gameweave.engine.conformance) plus the
ones below: cards conserved (R1), every meld legal and within the profile's cap (R5, R6),
table cards never leave the table and gameweave melds never shrink (R7, R18), table +
hand = 10 between turns (R16), every deal ends, legal actions non-empty exactly while
playing, every legal action applies through the checked path and the checked path
refuses exactly the others, record -> replay gives the identical state (§VII), notation
round trips (R3, §VII), a seat's view is the same for states that differ only in hidden
cards and ``state_from_view`` rebuilds a world with the same view (R21), and the
legal actions equal those of a reference move generator written from RULES.md (R10-R19,
``tests/rules_reference.py``).
"""

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gameweave.engine import (
    CARD_NAMES, PH_THROW, PROFILE_NAMES, GameRecord, GameState, IllegalActionError, format_action,
    is_meld, parse_action, seat_view, state_from_view,
)
from gameweave.engine.cards import SUIT_SYMBOLS, SUITS
from gameweave.engine.conformance import (
    check_invariants, play_random_deal, random_deal_check, same_state,
)
from deals import conformance_player, moves, play
from rules_reference import cards_in, is_meld_by_definition, reference_legal, reference_outcome
from worlds import hidden_variant

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS_PROFILE = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Per profile (each property runs once per profile of §V)."""
seeds = st.integers(min_value=0, max_value=2**32 - 1)
openers = st.integers(min_value=0, max_value=1)


def eagerness(play_seed: int) -> float:
    """How keen the random player is to meld and force (see conformance.choose_action):
    a third of the deals uniform, the others eager, so that wins and forcing chains
    are common and not only tablas."""
    return (0.0, 0.6, 0.95)[play_seed % 3]


def random_deal(deal_seed: int, opener: int, play_seed: int, rules: str = "gameweave") -> GameState:
    """A finished deal of profile ``rules``: deck from ``deal_seed``, random legal play
    from ``play_seed``, invariants checked at every step (conformance suite)."""
    return play_random_deal(random.Random(play_seed),
                            GameState.new(seed=deal_seed, opener=opener, rules=rules),
                            eager=eagerness(play_seed))


def replayed(deal_seed: int, opener: int, rules: str, actions) -> GameState:
    """The deal from ``deal_seed`` after ``actions`` (applied unchecked)."""
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)
    for a in actions:
        state.apply(a)
    return state


def random_prefix(rules: str, deal_seed: int, opener: int, play_seed: int, data) -> tuple[GameState, int, GameState]:
    """``(end, k, state)``: a finished :func:`random_deal`, a prefix length ``k`` drawn by
    Hypothesis (0 .. len - 1), and the deal after its first ``k`` actions (still playing)."""
    end = random_deal(deal_seed, opener, play_seed, rules)
    k = data.draw(st.integers(min_value=0, max_value=len(end.history) - 1), label="prefix")
    return end, k, replayed(deal_seed, opener, rules, end.history[:k])


profiles = pytest.mark.parametrize("rules", PROFILE_NAMES)
"""Every property runs once per profile of §V."""


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds)
def test_r1_r5_r6_r16_invariants_hold_and_every_deal_ends(rules, deal_seed, opener, play_seed):
    # play_random_deal asserts the invariants before every action and at the end:
    # 40 cards conserved, no card in two places, every meld legal (and within the cap,
    # R6), table + hand = 10 between turns, legal actions non-empty while playing and
    # empty after.
    end = random_deal(deal_seed, opener, play_seed, rules)
    assert end.is_over and end.legal_actions() == []
    assert end.status in ("won", "tablas")
    if end.status == "won":
        assert end.table_counts[end.winner] == 11 and end.hands[end.winner] == 0
    else:
        assert end.stock_count == 0
    cap = end.rules.max_sequence
    for s in (0, 1):
        assert all(is_meld_by_definition(cards_in(m), cap) for m in end.melds[s])
    assert len(end.history) <= 200


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds)
def test_r7_r18_table_cards_never_leave_the_table_and_stay_their_owners(rules, deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)
    for move in moves(state, conformance_player(rng, eagerness(play_seed))):
        was, a = move.before, move.action
        for s in (0, 1):
            now = state.melds[s]
            # every table card stays on its owner's table (R7; R18 "every table card stays")
            assert state.table_mask(s) & was.table_mask(s) == was.table_mask(s)
            assert not state.hands[s] & ~was.hands[s]  # nothing ever goes back into a hand
            if not state.rules.rearranging:
                # gameweave: melds are never rearranged and never shrink (R7)
                assert len(now) >= len(was.melds[s])
                for old in was.melds[s]:
                    assert any(old & new == old for new in now)
            elif now != was.melds[s]:
                # R18c: a table is re-partitioned only by a meld action of its owner
                assert is_meld(a) and state.actors[-1] == s


@settings(max_examples=25, deadline=None)
@profiles
@given(seeds, openers, seeds)
def test_every_legal_action_applies_through_the_checked_path_too(rules, deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)
    for d in play(state, conformance_player(rng, eagerness(play_seed))):
        legal = d.legal
        assert legal, "no legal action while playing"
        for a in legal:
            fast, checked, by_text = state.clone(), state.clone(), state.clone()
            fast.apply(a)
            assert checked.play(a, seat=state.to_act) == a
            by_text.play(format_action(a))
            assert same_state(fast, checked) and same_state(fast, by_text)
        # the wrong seat is refused and the state is left unchanged
        other = state.clone()
        try:
            other.play(legal[0], seat=1 - state.to_act)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("the seat not to act was allowed to play")
        assert same_state(other, state)
    check_invariants(state)


def candidate_actions(state: GameState, rng: random.Random) -> list[int]:
    """Actions of every kind, legal now or not: turn, refuse (and its forces), force back,
    throws (and their forces) of hand cards and of a few other cards, and meld actions of
    other cards and of the other seat."""
    from gameweave.engine import FORCE, FORCE_ANY, REFUSE, TURN, refuse_action, throw_action

    forces = [FORCE_ANY] if state.rules.rearranging else [1, 2, 3]
    out = [TURN, REFUSE, *(refuse_action(f) for f in forces)]
    if state.rules.force_back:
        out.append(FORCE)
    seat, opp = state.to_act, 1 - state.to_act
    for c in cards_in(state.hands[seat]) + rng.sample(range(40), 3):
        out.append(throw_action(c))
        out += [throw_action(c, f) for f in forces]
    # tables the seat to act could make with a card it does not hold (only while it holds
    # ten: a throwing seat holds eleven), and tables of the other seat
    others = [c for c in range(40) if not (state.hands[seat] | state.table_mask(seat)) >> c & 1]
    if state.phase != PH_THROW:
        for card in rng.sample(others, 2):
            out += state.meld_options(seat, card)[:4]
    mine = [c for c in range(40) if not (state.hands[opp] | state.table_mask(opp)) >> c & 1]
    for card in rng.sample(mine, 2):
        out += state.meld_options(opp, card)[:4]
    return out


@settings(max_examples=10, deadline=None)
@profiles
@given(seeds, openers, seeds)
def test_the_checked_path_refuses_exactly_the_illegal_actions_and_leaves_the_state_unchanged(
        rules, deal_seed, opener, play_seed):
    from gameweave.engine import GameweaveError

    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)
    reasons = {"deal_over", "not_your_turn", "wrong_decision", "not_a_choice", "not_in_hand", "cannot_force"}
    for d in play(state, conformance_player(rng, eagerness(play_seed))):
        legal = set(d.legal)
        for a in candidate_actions(state, rng) + list(legal):
            text = format_action(a)
            try:
                parse_action(text, state.rules)
            except GameweaveError:
                continue  # not an action of this profile at all (e.g. 'force N' under R18)
            probe = state.clone()
            try:
                probe.play(text)
            except IllegalActionError as exc:
                assert a not in legal, text
                assert exc.reason in reasons, (text, exc.reason)
                assert not str(exc).startswith(text) and str(exc), text  # names no action first
                assert same_state(probe, state)
            else:
                assert a in legal, text
    with pytest.raises(IllegalActionError) as info:
        state.play("turn")
    assert info.value.reason == "deal_over"


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds)
def test_record_replay_gives_the_identical_state(rules, deal_seed, opener, play_seed):
    end = random_deal(deal_seed, opener, play_seed, rules)
    text = GameRecord.from_state(end).to_json()
    assert GameRecord.from_json(text).rules == end.rules.name
    again = GameRecord.from_json(text).replay()
    assert same_state(end, again)
    # a prefix of the record replays to the state at that point too
    k = random.Random(play_seed).randrange(len(end.history) + 1)
    rec = GameRecord.from_json(text)
    rec.actions = rec.actions[:k]
    part = rec.replay()
    assert same_state(part, replayed(deal_seed, opener, rules, end.history[:k]))


def scramble(text: str, rng: random.Random) -> str:
    """The same action written another way: random case, suit symbols, cards shuffled;
    for an R18 table also the melds shuffled, with or without blanks around ``/``."""
    words = text.split()
    if words[0] == "meld":
        groups = " ".join(words[1:]).split(" / ")
        cut = []
        for g in groups:
            cards = g.split()
            rng.shuffle(cards)
            cut.append(cards)
        rng.shuffle(cut)
        words = ["meld"] + [w for g in cut for w in g + ["/"]][:-1]
    out = []
    for w in words:
        if len(w) == 2 and w[1] in SUITS and w in CARD_NAMES and rng.random() < 0.5:
            w = w[0] + SUIT_SYMBOLS[SUITS.index(w[1])]
        out.append("".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in w))
    text = ""
    for i, w in enumerate(out):
        if i and not (w == "/" and rng.random() < 0.3) and not (out[i - 1] == "/" and rng.random() < 0.3):
            text += " " * rng.randint(1, 3)
        text += w
    return text


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds)
def test_r3_notation_round_trips_both_ways_and_ignores_case_and_order(rules, deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)
    profile = state.rules
    for d in play(state, conformance_player(rng, eagerness(play_seed))):
        for a in d.legal:
            text = format_action(a)
            assert parse_action(text, profile) == a
            assert state.parse(text) == a
            assert format_action(parse_action(text, profile)) == text
            assert parse_action(scramble(text, rng), profile) == a


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds, st.integers(min_value=0, max_value=1), st.data())
def test_r21_view_is_the_same_when_only_hidden_cards_differ(rules, deal_seed, opener, play_seed, viewer, data):
    end, k, state = random_prefix(rules, deal_seed, opener, play_seed, data)
    assert not state.is_over
    other = hidden_variant(state, end.history[:k], viewer, random.Random(play_seed ^ k))
    assume(other is not None)
    assert seat_view(other, viewer) == seat_view(state, viewer)
    assert seat_view(other, viewer).to_dict() == seat_view(state, viewer).to_dict()


@SETTINGS_PROFILE
@profiles
@given(seeds, openers, seeds, st.integers(min_value=0, max_value=1), st.data())
def test_r21_from_view_with_the_true_hidden_cards_gives_the_same_view(rules, deal_seed, opener, play_seed, viewer, data):
    end, k, state = random_prefix(rules, deal_seed, opener, play_seed, data)
    view = seat_view(state, viewer)
    world = state_from_view(view, state.hands[1 - viewer], state.deck[state.stock_pos:])
    assert seat_view(world, viewer) == view
    assert seat_view(world, viewer).to_dict() == view.to_dict()
    assert world.legal_actions() == state.legal_actions()
    assert world.hands[1 - viewer] == state.hands[1 - viewer]
    assert list(world.deck[world.stock_pos:]) == list(state.deck[state.stock_pos:])
    # the world has a real history: its record replays to it (§VII)
    assert same_state(GameRecord.from_state(world).replay(), world)
    # any other split of the unseen cards that the history allows gives the same view too
    rng = random.Random(play_seed ^ k)
    unseen = cards_in(view.unseen())
    rng.shuffle(unseen)
    n = view.hand_counts[1 - viewer]
    hand = sum(1 << c for c in unseen[:n])
    try:
        other = state_from_view(view, hand, unseen[n:])
    except ValueError:
        return  # the opponent's past choices do not fit that hand (e.g. R12 first two)
    assert seat_view(other, viewer) == view


@settings(max_examples=4, deadline=None)
@profiles
@given(seeds)
def test_conformance_random_deal_check_passes(rules, seed):
    counts = random_deal_check(seed, 10, rules)
    assert counts["deals"] == 10 and counts["won"] + counts["tablas"] == 10
    assert counts["actions"] >= 10 * 20  # every deal turns at least... most of the stock


@pytest.mark.long
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_conformance_random_deal_check_is_clean_on_1000_deals(rules):
    counts = random_deal_check(2026, 1000, rules)
    assert counts["deals"] == 1000 and counts["won"] + counts["tablas"] == 1000
    assert counts["won"] > 0 and counts["tablas"] > 0 and counts["forces"] > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@profiles
@given(seeds, openers, seeds)
def test_r10_r19_legal_actions_match_a_reference_written_from_the_rules(rules, deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener, rules=rules)

    def same_as_the_reference(pos: GameState) -> None:
        texts = pos.legal_texts()
        assert len(texts) == len(set(texts))
        assert set(texts) == reference_legal(pos), pos

    for move in moves(state, conformance_player(rng, eagerness(play_seed))):
        same_as_the_reference(move.before)
        want = reference_outcome(move.before, format_action(move.action))
        assert (state.status, state.winner) == want, (format_action(move.action), state)
    same_as_the_reference(state)  # the end: no legal action


# ------------------------------------------------------------------ the checker itself


def test_conformance_checker_catches_broken_states():
    base = play_random_deal(random.Random(5), GameState.new(seed=5), eager=0.9)
    prefix = GameState.new(seed=5)
    for a in base.history[:12]:
        prefix.apply(a)
    check_invariants(prefix)

    def broken(change):
        st = prefix.clone()
        change(st)
        with pytest.raises(AssertionError) as info:
            check_invariants(st)
        return str(info.value)

    low0 = prefix.hands[0] & -prefix.hands[0]
    assert "two places" in broken(lambda s: s.hands.__setitem__(1, s.hands[1] | low0))
    assert "lost" in broken(lambda s: s.hands.__setitem__(0, s.hands[0] ^ low0))
    assert "table count" in broken(lambda s: s.table_counts.__setitem__(0, s.table_counts[0] + 1))
    # a meld that lost its lowest card is two cards: no meld
    assert "R5/R6" in broken(lambda s: s.melds[s.to_act].__setitem__(0, s.melds[s.to_act][0] & (s.melds[s.to_act][0] - 1)))


def test_conformance_checker_catches_a_leaking_view(monkeypatch):
    from gameweave.engine import conformance

    st = GameState.new(seed=8)
    st.apply(st.legal_actions()[0])
    real = conformance.seat_view

    def leaky(state, seat):  # a view that shows the opponent's hand: R21 broken
        v = real(state, seat)
        return dataclasses.replace(v, hand=v.hand | state.hands[1 - seat])

    monkeypatch.setattr(conformance, "seat_view", leaky)
    with pytest.raises(AssertionError, match="R21"):
        check_invariants(st)


def test_r10_r19_reference_agrees_at_every_position_of_the_perft_deals():
    # every position within five actions (four for the 128-choice deal) of the pinned
    # perft deals of every profile: R18 rearranging, forced melds, R19 force back
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
    checked = 0
    for deal in data["deals"]:
        st0 = GameState.new(deal["deck"], opener=deal["opener"] - 1, rules=deal["rules"])
        for a in deal.get("prefix", []):
            st0.play(a)
        frontier = [st0]
        for _ in range(4 if "128" in deal["name"] else 5):
            nxt = []
            for pos in frontier:
                assert set(pos.legal_texts()) == reference_legal(pos), (deal["name"], pos.history)
                checked += 1
                for a in pos.legal_actions():
                    want = reference_outcome(pos, format_action(a))
                    child = pos.clone()
                    child.apply(a)
                    assert (child.status, child.winner) == want, (deal["name"], format_action(a))
                    if not child.is_over:
                        nxt.append(child)
            frontier = nxt
    assert checked > 1000

"""Property tests (Hypothesis) over random deals and random legal play.

Every property runs on deals drawn from seeds and played by a seeded random player; the
checks come from the shipped conformance suite (gameweave.engine.conformance) plus the
ones below: cards conserved (R1), every meld legal (R5, R6), melds never shrink (R7),
table + hand = 10 between turns (R16), every deal ends, legal actions non-empty exactly
while playing, every legal action applies through the checked path, record -> replay
gives the identical state (§VII), notation round trips (R3, §VII), and a seat's view is
the same for states that differ only in hidden cards (R21).
"""

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gameweave.engine import (
    CARD_NAMES, GameRecord, GameState, IllegalActionError, format_action, parse_action,
    seat_view,
)
from gameweave.engine.cards import SUIT_SYMBOLS, SUITS
from gameweave.engine.conformance import (
    check_invariants, choose_action, play_random_deal, random_deal_check, same_state,
)

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
openers = st.integers(min_value=0, max_value=1)


def eagerness(play_seed: int) -> float:
    """How keen the random player is to meld and force (see conformance.choose_action):
    a third of the deals uniform, the others eager, so that wins and forcing chains
    are common and not only tablas."""
    return (0.0, 0.6, 0.95)[play_seed % 3]


def random_deal(deal_seed: int, opener: int, play_seed: int) -> GameState:
    """A finished deal: deck from ``deal_seed``, random legal play from ``play_seed``,
    invariants checked at every step (conformance suite)."""
    return play_random_deal(random.Random(play_seed), GameState.new(seed=deal_seed, opener=opener),
                            eager=eagerness(play_seed))


@SETTINGS
@given(seeds, openers, seeds)
def test_r1_r5_r6_r16_invariants_hold_and_every_deal_ends(deal_seed, opener, play_seed):
    # play_random_deal asserts the invariants before every action and at the end:
    # 40 cards conserved, no card in two places, every meld legal, table + hand = 10
    # between turns, legal actions non-empty while playing and empty after.
    end = random_deal(deal_seed, opener, play_seed)
    assert end.is_over and end.legal_actions() == []
    assert end.status in ("won", "tablas")
    if end.status == "won":
        assert end.table_counts[end.winner] == 11 and end.hands[end.winner] == 0
    else:
        assert end.stock_count == 0
    assert len(end.history) <= 200


@SETTINGS
@given(seeds, openers, seeds)
def test_r7_melds_never_shrink_and_stay_their_owners(deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener)
    while not state.is_over:
        before = [list(state.melds[0]), list(state.melds[1])]
        state.apply(choose_action(rng, state.legal_actions(), eagerness(play_seed)))
        for s in (0, 1):
            now = state.melds[s]
            assert len(now) >= len(before[s])
            for old in before[s]:  # every old meld lives on, whole, in one meld of its owner
                assert any(old & new == old for new in now)


@settings(max_examples=60, deadline=None)
@given(seeds, openers, seeds)
def test_every_legal_action_applies_through_the_checked_path_too(deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener)
    while not state.is_over:
        legal = state.legal_actions()
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
        state.apply(choose_action(rng, legal, eagerness(play_seed)))
    check_invariants(state)


@SETTINGS
@given(seeds, openers, seeds)
def test_record_replay_gives_the_identical_state(deal_seed, opener, play_seed):
    end = random_deal(deal_seed, opener, play_seed)
    text = GameRecord.from_state(end).to_json()
    again = GameRecord.from_json(text).replay()
    assert same_state(end, again)
    # a prefix of the record replays to the state at that point too
    k = random.Random(play_seed).randrange(len(end.history) + 1)
    rec = GameRecord.from_json(text)
    rec.actions = rec.actions[:k]
    part = rec.replay()
    step = GameState.new(seed=deal_seed, opener=opener)
    for a in end.history[:k]:
        step.apply(a)
    assert same_state(part, step)


def scramble(text: str, rng: random.Random) -> str:
    """The same action written another way: random case, suit symbols, cards shuffled."""
    words = text.split()
    if words[0] == "meld":
        cards = words[1:]
        rng.shuffle(cards)
        words = ["meld"] + cards
    out = []
    for w in words:
        if len(w) == 2 and w[1] in SUITS and w in CARD_NAMES and rng.random() < 0.5:
            w = w[0] + SUIT_SYMBOLS[SUITS.index(w[1])]
        out.append("".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in w))
    return (" " * rng.randint(1, 3)).join(out)


@SETTINGS
@given(seeds, openers, seeds)
def test_r3_notation_round_trips_both_ways_and_ignores_case_and_order(deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener)
    while not state.is_over:
        legal = state.legal_actions()
        for a in legal:
            text = format_action(a)
            assert parse_action(text) == a
            assert format_action(parse_action(text)) == text
            assert parse_action(scramble(text, rng)) == a
        state.apply(choose_action(rng, legal, eagerness(play_seed)))


@SETTINGS
@given(seeds, openers, seeds, st.integers(min_value=0, max_value=1), st.data())
def test_r21_view_is_the_same_when_only_hidden_cards_differ(deal_seed, opener, play_seed, viewer, data):
    end = random_deal(deal_seed, opener, play_seed)
    k = data.draw(st.integers(min_value=0, max_value=len(end.history) - 1), label="prefix")
    state = GameState.new(seed=deal_seed, opener=opener)
    for a in end.history[:k]:
        state.apply(a)
    assert not state.is_over
    opp = 1 - viewer
    deck = list(state.deck)
    rng = random.Random(play_seed ^ k)
    # swap some of the opponent's current hand cards with unturned stock cards ...
    unturned = list(range(state.stock_pos, 40))
    hand_pos = [i for i in range(20) if state.hands[opp] >> deck[i] & 1]
    for i in rng.sample(hand_pos, rng.randint(0, len(hand_pos)) if unturned else 0):
        j = rng.choice(unturned)
        deck[i], deck[j] = deck[j], deck[i]
    # ... and shuffle the unturned stock
    rest = deck[state.stock_pos:]
    rng.shuffle(rest)
    deck[state.stock_pos:] = rest
    other = GameState.new(deck, opener=opener)
    try:
        for a in end.history[:k]:
            other.play(a)
    except IllegalActionError:
        ok = False  # the opponent's own choices depended on their hand (e.g. R12 first two)
    else:
        ok = not other.is_over
    assume(ok)
    assert seat_view(other, viewer) == seat_view(state, viewer)
    assert seat_view(other, viewer).to_dict() == seat_view(state, viewer).to_dict()


@settings(max_examples=10, deadline=None)
@given(seeds)
def test_conformance_random_deal_check_passes(seed):
    counts = random_deal_check(seed, 10)
    assert counts["deals"] == 10 and counts["won"] + counts["tablas"] == 10
    assert counts["actions"] >= 10 * 20  # every deal turns at least... most of the stock


# ------------------------------------------------------------------ a reference from the rules


def is_meld_by_definition(cards: list[int]) -> bool:
    """R5/R6 written out directly (no tables): 3-4 of one rank, or 3+ consecutive
    positions of one suit (gameweave: no cap)."""
    ranks = sorted(c >> 2 for c in cards)
    suits = {c & 3 for c in cards}
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def reference_legal(state: GameState) -> set[str]:
    """The legal actions of ``state`` as RULES R10-R17 describe them, written
    independently of the engine's move generator."""
    if state.decision is None:
        return set()
    seat, opp = state.to_act, 1 - state.to_act
    hand = [c for c in range(40) if state.hands[seat] >> c & 1]
    own = [[c for c in range(40) if m >> c & 1] for m in state.melds[seat]]
    theirs = [[c for c in range(40) if m >> c & 1] for m in state.melds[opp]]

    def meld_choices(card: int) -> set[str]:
        out = set()
        for m in own:  # additions to one's own melds (R12)
            if is_meld_by_definition(m + [card]):
                out.add(" ".join(CARD_NAMES[c] for c in sorted(m + [card])))
        same = [c for c in hand if c >> 2 == card >> 2]  # sets: the first two in hand order
        if len(same) >= 2:
            out.add(" ".join(CARD_NAMES[c] for c in sorted([card] + same[:2])))
        if len(same) == 3:
            out.add(" ".join(CARD_NAMES[c] for c in sorted([card] + same)))
        r, s = card >> 2, card & 3
        for lo in range(0, r + 1):  # every run containing the card, the rest from the hand
            for hi in range(r, 10):
                run = [k * 4 + s for k in range(lo, hi + 1)]
                if len(run) >= 3 and all(c == card or c in hand for c in run):
                    out.add(" ".join(CARD_NAMES[c] for c in run))
        return {"meld " + x for x in out}

    def forces(card: int) -> list[int]:
        return [n for n, m in enumerate(theirs, 1) if is_meld_by_definition(m + [card])]

    d = state.decision
    if d == "turn":
        return {"turn"}
    if d == "take_or_turn":
        return meld_choices(state.card) | {"turn"}
    if d == "meld_or_refuse":
        return meld_choices(state.card) | {"refuse"} | {f"refuse force {n}" for n in forces(state.card)}
    return {f"throw {CARD_NAMES[c]}" for c in hand} | {
        f"throw {CARD_NAMES[c]} force {n}" for c in hand for n in forces(c)}


@SETTINGS
@given(seeds, openers, seeds)
def test_r10_r17_legal_actions_match_a_reference_written_from_the_rules(deal_seed, opener, play_seed):
    rng = random.Random(play_seed)
    state = GameState.new(seed=deal_seed, opener=opener)
    while True:
        texts = state.legal_texts()
        assert len(texts) == len(set(texts))
        assert set(texts) == reference_legal(state)
        if state.is_over:
            break
        state.apply(choose_action(rng, state.legal_actions(), eagerness(play_seed)))


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

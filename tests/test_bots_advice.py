"""Issue 11: the search that explains itself (estimates), its R12 inference, the levels,
and the advice API (hints, analysis) — every number from a seat's view only (R21)."""

from __future__ import annotations

import random

import pytest

from gameweave.bots import BOTS, LEVELS, level_names, make_bot, make_level
from gameweave.bots.advice import MISTAKE_DROP, analyze_record, analyze_views, hint, record_views
from gameweave.bots.base import ActionEstimate
from gameweave.bots.determinize import (
    FITTED_DECLINE_KEEP, FITTED_THROW_KEEP, biggest_meld_cards, clue_weights, impossible_cards, sample_informed,
    sample_world, world_state,
)
from gameweave.bots.search import SearchBot, action_groups, estimate_actions, make_policy
from gameweave.bots.greedy import choose_greedy
from gameweave.bots.search_v1 import SearchV1Bot, candidates
from gameweave.engine import (
    PROFILE_NAMES, GameRecord, GameState, find_profile, format_action, seat_view,
)
from gameweave.engine.actions import is_meld, meld_cards
from gameweave.engine.cards import CARD_NAMES, mask_of, parse_cards
from gameweave.engine.conformance import build_deck
from deals import by_seat, deals, greedy, mixed, play, play_out
from rules_helpers import m as M
from worlds import other_world_state


def _set_of_three_view(hand2: str, rules: str = "gameweave"):
    """Seat 1 turns 5h and refuses it; seat 2 melds a set of three 5h with two hand
    fives (R12) and throws its last card; returns seat 1's view."""
    deck = build_deck("Ac 2d 3c Jd Qc Kd Ah 2h 3s 7s", hand2, "5h")
    st = GameState.new(deck, rules=rules)
    st.play("turn")
    st.play("refuse")
    melds = [a for a in st.legal_actions() if is_meld(a) and meld_cards(a).bit_count() == 3]
    assert melds, st.legal_texts()
    st.play(melds[0])
    st.play(st.legal_actions()[-1])  # throw a card
    return st, seat_view(st, 0)


def test_r12_set_of_three_proves_the_lower_fourth_card_is_not_held():
    """Seat 2 holds 5d 5s (not 5c) and melds 5d 5h 5s: had it held 5c, R12 would have
    used the first two in hand order, 5c 5d.  So 5c (unseen, in the stock) is provably
    not in its hand, and the informed sampler never deals it there."""
    st, view = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c")
    c5 = parse_cards("5c")[0]
    assert view.unseen() >> c5 & 1
    assert impossible_cards(view) == 1 << c5
    rng = random.Random(1)
    for _ in range(300):
        hand, stock = sample_informed(view, rng)
        assert not hand >> c5 & 1
        assert hand.bit_count() == view.hand_counts[1] and hand | mask_of(stock) == view.unseen()
        w = world_state(view, hand, stock)
        assert seat_view(w, 0) == view
    # the uninformed sampler (search-v1's) does deal the impossible card: the test can fail
    assert any(sample_world(view, rng)[0] >> c5 & 1 for _ in range(300))


def test_r12_no_proof_when_the_fourth_card_is_higher_or_melds_are_rearranged():
    """Holding 5c 5d and melding 5c 5d 5h proves nothing about 5s (it may be held: the
    set of three uses the first two anyway); under R18 any two may be used."""
    _, view = _set_of_three_view("5c 5d 4c 6d Jc Qh Kh Ks As 7c")
    assert impossible_cards(view) == 0
    for rules in ("classic", "anglo-american"):
        _, view = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c", rules)
        assert impossible_cards(view) == 0


def test_r12_proof_only_reads_the_opponents_melds():
    """Seat 2's view of its own set of three proves nothing about seat 1."""
    st, _ = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c")
    assert impossible_cards(seat_view(st, 1)) == 0


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r12_r21_informed_sampler_never_deals_an_impossible_card_in_play(rules):
    """Over random deals, every world the informed sampler deals is consistent with the
    view (state_from_view replays it to the same view) and never gives the opponent
    a card it provably lacks; and the proof is true of the real deal."""
    rng = random.Random(3)
    proofs = 0
    for d in deals(rules, 25, mixed(0.85, rng), seed=4000, opener="alternate"):
        seat, view = d.seat, d.view
        imp = impossible_cards(view)
        assert imp & d.state.hands[1 - seat] == 0  # the proof holds in the real deal
        proofs += imp != 0
        if imp or rng.random() < 0.1:
            h, s = sample_informed(view, rng)
            assert h & imp == 0
            assert seat_view(world_state(view, h, s), seat) == view
    if not find_profile(rules).rearranging:
        assert proofs > 0


def test_clue_weights_read_the_structured_history():
    _, view = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c")
    w = dict(clue_weights(view))
    thrown = [e.card for e in view.history if e.seat == 1 and e.kind == "throw"]
    assert thrown and all(w[c] == 0.2 for c in thrown)


def test_r12_biggest_meld_evidence_on_a_hand_built_history():
    """Seat 2 melds 5d 5h 5s from two hand fives: a seat that always melds the biggest
    option (R12) would have used 5c as well, so 5c (unseen) is excluded by the biggest-meld
    evidence, whatever its order; under R18 the evidence is not read."""
    for hand2 in ("5d 5s 4c 6d Jc Qh Kh Ks As 7c", "5c 5d 4c 6d Jc Qh Kh Ks As 7c"):
        _, view = _set_of_three_view(hand2)
        fourth = M("5c 5d 5s") & ~M(hand2)
        assert view.unseen() & fourth
        assert biggest_meld_cards(view) == fourth
    _, view = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c", "classic")
    assert biggest_meld_cards(view) == 0


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r12_biggest_meld_evidence_holds_against_the_greedy(rules):
    """Over greedy self-play deals the greedy (which melds the biggest option, R12) never
    holds a card the biggest-meld evidence excludes, and the evidence is found in
    gameweave; the search with ``inference="fitted"`` samples only consistent worlds."""
    rng = random.Random(5)
    found = 0
    bot = SearchBot(seed=1, inference="fitted", iterations=1)
    for d in deals(rules, 25, "greedy", seed=5000, opener="alternate"):
        seat, view = d.seat, d.view
        ex = biggest_meld_cards(view)
        assert ex & d.state.hands[1 - seat] == 0
        assert ex & ~view.unseen() == 0
        found += ex != 0
        if ex and rng.random() < 0.2:
            h, s = bot._sample(view, rng)
            assert h & (ex | impossible_cards(view)) == 0
            assert seat_view(world_state(view, h, s), seat) == view
    if find_profile(rules).rearranging:
        assert found == 0
    else:
        assert found > 0


def test_fitted_clue_weights():
    """``clue_weights(view, fitted=True)``: the weights fitted on self-play (throws per
    profile, declines nearly impossible)."""
    _, view = _set_of_three_view("5d 5s 4c 6d Jc Qh Kh Ks As 7c")
    w = dict(clue_weights(view, fitted=True))
    thrown = [e.card for e in view.history if e.seat == 1 and e.kind == "throw"]
    assert thrown and all(w[c] == FITTED_THROW_KEEP[False] for c in thrown)
    refused = [e.card for e in view.history if e.seat == 1 and e.kind == "refuse"]
    assert all(w[c] == FITTED_DECLINE_KEEP for c in refused)
    with pytest.raises(ValueError):
        SearchBot(inference="exact")




@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_same_view_same_estimates_and_hints(rules):
    """Two states with the same view (the second built by state_from_view with a
    different opponent hand and stock) give the same estimates, hints and analysis for a
    seed."""
    rng = random.Random(8)
    checked = 0
    for d in deals(rules, 6, "greedy", seed=700, opener="alternate"):
        st, seat, view = d.state, d.seat, d.view
        if len(view.legal) > 1 and rng.random() < 0.25 and checked < 10:
            other = other_world_state(st, seat, rng)
            if other is not None:
                assert other.hands[1 - seat] != st.hands[1 - seat]
                v2 = seat_view(other, seat)
                assert v2 == view
                bot = SearchBot(seed=5, estimate_worlds=12)
                e1, e2 = bot.estimate(view), SearchBot(seed=5, estimate_worlds=12).estimate(v2)
                assert e1 == e2
                assert [e.action for e in e1] == list(view.legal)
                assert hint(view, bot) == hint(v2, SearchBot(seed=5, estimate_worlds=12))
                a1 = analyze_views([(1, view, view.legal[0])], bot)
                a2 = analyze_views([(1, v2, v2.legal[0])], bot)
                assert a1 == a2
                checked += 1
    assert checked >= 4


def test_estimates_are_probabilities_over_every_legal_action():
    st = GameState.new(seed=12)
    seen = 0
    for d in play(st, greedy(seed=0)):
        if seen >= 6:
            break
        view = d.view
        if len(view.legal) > 1:
            est = estimate_actions(view, seed=1, worlds=20)
            assert [e.action for e in est] == list(view.legal)
            for e in est:
                assert e.samples == 20
                assert abs(e.win + e.tablas + e.loss - 1) < 1e-9
                assert 0 <= e.score <= 1
            seen += 1
    with pytest.raises(ValueError, match="not this seat's turn"):
        estimate_actions(seat_view(st, 1 - st.to_act), seed=1) if not st.is_over else estimate_actions(
            seat_view(st, 0), seed=1)


def test_estimate_of_a_winning_meld_is_a_certain_win():
    """R16: a meld that reaches eleven wins at once: its estimate is win 1.0."""
    hand1 = "Ac Ad Ah As 2d 3d 4d 5d 7d Jd"
    deck = build_deck(hand1, "2c 2h 2s 3c 3h 3s 4c 4h 4s 5c", "6d")
    st = GameState.new(deck, rules="classic")
    st.play("turn")
    view = seat_view(st, 0)
    est = {e.action: e for e in estimate_actions(view, seed=0, worlds=8)}
    wins = [a for a in view.legal if is_meld(a) and meld_cards(a).bit_count() == 11]
    assert wins and all(est[a].win == 1.0 for a in wins)
    assert hint(view, SearchBot(seed=0, estimate_worlds=8))[0].win == 1.0
    # R18: tables of the same cards are one group (they play alike)
    groups = action_groups(view)
    assert len(groups) < len(view.legal)
    for grp in groups:
        assert len({meld_cards(a) if is_meld(a) else a for a in grp}) == 1


def test_r15_force_policy_forces_and_peek_policy_is_legal():
    rng = random.Random(0)
    forced = 0
    for d in range(30):
        pol = make_policy(force=True, peek=True, decline=3 if d & 1 else 0)
        for step in play(GameState.new(seed=d, rules=PROFILE_NAMES[d % 3])):
            a = pol(step.state, rng)
            assert a in step.state.legal_actions()
            forced += format_action(a).endswith(tuple("0123456789")) or "force" in format_action(a)
            step.play(a)
    assert forced > 0


def test_search_options_play_legally():
    bot = SearchBot(seed=1, iterations=20, stock_scaled=True, force=True, decline=6, width=0)
    play_out(GameState.new(seed=5, rules="classic"), by_seat([bot, bot]), checked=True)
    with pytest.raises(ValueError):
        SearchBot(estimate_worlds=0)


def test_search_v1_is_kept_and_the_new_search_is_the_default():
    assert isinstance(make_bot("search"), SearchBot)
    assert isinstance(make_bot("search-v1"), SearchV1Bot)
    assert make_bot("search-v1").name == "search-v1"
    # search-v1's algorithm is the new search with the new levers switched off
    n = 0
    for d in play(GameState.new(seed=21), greedy(seed=0)):
        if n >= 12:
            break
        v = d.view
        if len(v.legal) > 1:
            assert SearchV1Bot(seed=3, iterations=40).choose(v) == SearchBot(
                seed=3, iterations=40, informed=False).choose(v)
            n += 1


def test_levels_registry():
    names = level_names()
    assert 4 <= len(names) <= 6
    assert names[0] == "beginner" and names[-1] == "master"
    assert [lv.name for lv in LEVELS] == names
    for name in names:
        assert name in BOTS
        bot = make_level(name, seed=1)
        assert bot.name == name
        assert make_bot(name.upper(), seed=1).name == name
    with pytest.raises(ValueError, match="unknown level"):
        make_level("grandmaster")
    with pytest.raises(ValueError, match="fixed configuration"):
        make_bot("master", iterations=5)


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_levels_play_legally_in_every_profile(rules):
    bots = {n: make_level(n, seed=2) for n in level_names() if n != "master"}
    bots["master"] = SearchBot(seed=2, iterations=8)  # the master's code path, a tiny budget
    names = list(bots)
    for d in range(4):
        st = GameState.new(seed=50 + d, opener=d & 1, rules=rules)
        pair = (bots[names[d % len(names)]], bots[names[(d + 1) % len(names)]])
        for step in play(st, by_seat(pair), checked=True):
            assert step.action in step.view.legal


def test_analysis_of_a_recorded_deal_flags_drops_as_mistakes():
    st = play_out(GameState.new(seed=31), by_seat([make_level("beginner", seed=1), make_bot("greedy", seed=2)]))
    rec = GameRecord.from_state(st)
    a = analyze_record(rec, seed=4, worlds=24)
    assert a.status == st.status and a.winner == st.winner
    steps = [s for s in record_views(rec) if len(s[1].legal) > 1]
    assert [d.step for d in a.decisions] == [s[0] for s in steps]
    for d, (_step, view, played) in zip(a.decisions, steps):
        assert d.played.action == played and d.seat == view.seat
        assert d.best.score >= d.played.score
        assert d.mistake == (d.drop >= MISTAKE_DROP - 1e-9)
        assert d.best.action in view.legal
    # the noisy beginner makes more mistakes than the greedy
    assert len(a.mistakes(0)) >= 1
    j = a.to_dict()
    assert j["decisions"][0]["played"] == format_action(a.decisions[0].played.action)
    assert set(j["mistakes"]) == {"1", "2"}
    # same seed, same analysis; one seat only
    assert analyze_record(rec, seed=4, worlds=24).decisions == a.decisions
    only2 = analyze_record(rec, seed=4, worlds=24, seats=(1,))
    assert only2.decisions and all(d.seat == 1 for d in only2.decisions)


def test_r21_analysis_of_an_unfinished_deal_sees_only_the_views():
    """Two unfinished records whose decks differ only in cards hidden from the deciding
    seats give the same analysis (R21)."""
    st = GameState.new(seed=77)
    g = make_bot("greedy", seed=0)
    for _ in range(14):
        st.apply(g.choose(seat_view(st, st.to_act)))
    rng = random.Random(2)
    seat = st.to_act
    other = other_world_state(st, seat, rng)
    assert other is not None
    r1, r2 = GameRecord.from_state(st), GameRecord.from_state(other)
    assert r1.deck != r2.deck
    # analyse only the last decision of the seat to act: its views agree
    v1 = record_views(r1, (seat,))[-1]
    v2 = record_views(r2, (seat,))[-1]
    assert v1[1] == v2[1]
    bot = SearchBot(seed=0, estimate_worlds=16)
    assert analyze_views([v1], bot) == analyze_views([v2], bot)


def test_action_estimate_score_counts_tablas_half():
    e = ActionEstimate(0, 0.5, 0.2, 0.3, 10)
    assert e.score == pytest.approx(0.6)
    assert CARD_NAMES  # the card names are importable for the edge


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r13_r21_opponent_model_pool_reads_the_view_only(rules):
    """The opponent model (issue 11 round 2): the true hand of a greedy opponent explains
    its throws (R13) better than most hands the sampler draws; a HandPool's worlds give
    the seat exactly its view and never an excluded card; a search with the model picks
    legal actions and the same estimates and choice from two states with the same view."""
    from gameweave.bots.opponent import HandPool, throw_loglik

    rng = random.Random(11)
    better = total = checked = 0
    for d in deals(rules, 8, "greedy", seed=900, opener="alternate"):
        st, seat, view = d.state, d.seat, d.view
        throws = sum(1 for e in view.history if e.seat != seat and e.kind == "throw")
        if len(view.legal) > 1 and throws >= 2 and rng.random() < 0.3:
            opp = 1 - seat
            true_hand = st.hands[opp]
            rest = view.unseen() & ~true_hand
            true_ll = throw_loglik(view, true_hand, [c for c in range(40) if rest >> c & 1])
            others = [throw_loglik(view, *sample_informed(view, rng)) for _ in range(6)]
            better += sum(true_ll >= x for x in others)
            total += len(others)
            pool = HandPool(view, random.Random(d.index), 8, 0.3, impossible_cards(view))
            assert 1.0 <= pool.ess <= 8.0 + 1e-9
            for _ in range(5):
                h, s = pool.sample(rng)
                assert h & impossible_cards(view) == 0
                assert seat_view(world_state(view, h, s), seat) == view
            if checked < 3:
                other = other_world_state(st, seat, rng)
                if other is not None:
                    b1 = SearchBot(seed=3, model=0.3, pool=8, iterations=24, estimate_worlds=4)
                    b2 = SearchBot(seed=3, model=0.3, pool=8, iterations=24, estimate_worlds=4)
                    v2 = seat_view(other, seat)
                    assert b1.choose(view) == b2.choose(v2) and b1.choose(view) in view.legal
                    assert b1.estimate(view) == b2.estimate(v2)
                    checked += 1
    assert total > 20 and better / total > 0.75
    assert checked >= 1


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r12_r13_r21_joint_meld_and_throw_plans(rules):
    """``joint``: a meld and the throw after it are one plan (R12, R13).  The plans of a
    take decision pair every meld that leaves the seat to throw with throws that are legal
    after it, the greedy's plan is among them, and the search with ``joint`` answers
    legally and alike from two states with the same view (R21)."""
    rng = random.Random(13)
    paired = checked = 0
    for d in deals(rules, 10, "greedy", seed=1300, opener="alternate"):
        st, seat, view = d.state, d.seat, d.view
        if len(view.legal) > 1 and any(is_meld(a) for a in view.legal):
            bot = SearchBot(seed=2, joint=3, iterations=16)
            best = choose_greedy(view)
            plans, head = bot._joint_plans(view, candidates(view, 6), best, sample_informed(view, rng))
            assert plans[head][0] == best
            for p in plans:
                if len(p) == 2:
                    paired += 1
                    s2 = st.clone()
                    s2.apply(p[0])
                    assert p[1] in s2.legal_actions()
            a = bot.choose(view)
            assert a in view.legal
            if checked < 4:
                other = other_world_state(st, seat, rng)
                if other is not None:
                    assert SearchBot(seed=2, joint=3, iterations=16).choose(seat_view(other, seat)) == a
                    checked += 1
    assert paired > 0 and checked >= 2

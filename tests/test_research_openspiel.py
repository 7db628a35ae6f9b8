"""The OpenSpiel game ``conquian`` (issue 12): OpenSpiel's own checks in every profile,
dense ascending action ids with stable meanings, chance, resampling (R12, R21), IS-MCTS
and outcome-sampling MCCFR running on it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")
np = pytest.importorskip("numpy")

from gameweave.engine import PROFILE_NAMES  # noqa: E402
from gameweave.research import core  # noqa: E402
from gameweave.research import openspiel as gos  # noqa: E402


def _random_state(game, rng: random.Random, steps: int):
    st = game.new_initial_state()
    for _ in range(steps):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_openspiel_random_sim_test_passes_in_every_profile(rules: str) -> None:
    game = gos.load(rules)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert game.num_distinct_actions() == core.NUM_ACTIONS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_legal_ids_are_ascending_and_mean_the_engine_action(rules: str) -> None:
    """Ids ascend; a ``meld M`` id keeps meaning "M is on my table afterwards" (R12, R18) and
    an ``onto M`` id names the target meld by its cards (R15)."""
    rng = random.Random(rules)
    game = gos.load(rules)
    seen = set()
    for _ in range(30):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                st.apply_action(rng.choice(outs)[0])
                continue
            legal = st.legal_actions()
            assert legal == sorted(set(legal)) and all(0 <= a < core.NUM_ACTIONS for a in legal)
            a = rng.choice(legal)
            seat = st.current_player()
            deal = st.deal
            opp_melds = list(deal.state.melds[1 - seat])
            st.apply_action(a)
            seen.add(core.action_name(a).split()[0])
            if core.A_MELD <= a < core.A_ONTO and not deal.rules.rearranging:
                assert core.MELDS[a - core.A_MELD] in deal.state.melds[seat]
            if a >= core.A_ONTO:
                target = core.MELDS[a - core.A_ONTO]
                assert target in opp_melds
                grown = [m for m in deal.state.melds[1 - seat] if m & target == target and m != target]
                assert grown or deal.is_terminal()
    assert {"turn", "meld", "throw", "refuse"} <= seen


def test_r8_chance_deals_twenty_then_each_stock_card() -> None:
    game = gos.load("gameweave")
    st = game.new_initial_state()
    for k in range(20):
        assert st.is_chance_node() and len(st.chance_outcomes()) == 40 - k
        st.apply_action(st.chance_outcomes()[0][0])
    assert st.current_player() == 0 and st.legal_actions() == [core.A_TURN]
    st.apply_action(core.A_TURN)
    assert st.is_chance_node() and [c for c, _ in st.chance_outcomes()] == list(range(20, 40))
    st.apply_action(33)
    assert st.deal.state.card == 33


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_resample_keeps_the_information_state(rules: str) -> None:
    rng = random.Random(7)
    game = gos.load(rules)
    for k in range(8):
        st = _random_state(game, rng, 25 + 7 * k)
        if st.is_terminal() or st.is_chance_node():
            continue
        p = st.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(3):
            other = st.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == st.information_state_string(p)
            assert other.information_state_tensor(p) == st.information_state_tensor(p)
            assert other.legal_actions() == st.legal_actions()


def test_r12_resample_respects_the_set_of_three_proof() -> None:
    """Gameweave: a set of three built from hand cards Ad Ah proves Ac was not in that hand."""
    from gameweave.engine import GameState, seat_view

    # find a deal where seat 2 makes a set of three from two hand cards, by random play
    from deals import at_random, play_until

    def proof_found(st: GameState) -> bool:  # seat 2's last step proves a card is not in its hand
        v = seat_view(st, 0)
        return bool(v.history and v.history[-1].seat == 1 and core.excluded_from_hand(v))

    rng = random.Random(1)
    for seed in range(400):
        st = GameState.new(seed=seed)
        if play_until(st, at_random(rng), proof_found):
            break
    view = seat_view(st, 0)
    banned = core.excluded_from_hand(view)
    assert banned, "no set of three proof found"
    ev = [e for e in view.history if e.seat == 1 and e.from_hand and e.meld.bit_count() == 3][-1]
    assert all(b >> 2 == ev.card >> 2 and b < ev.from_hand.bit_length() - 1 for b in range(40) if banned >> b & 1)
    for i in range(30):
        w = core.Deal.from_view(view, random.Random(i))
        assert w.state.hands[1] & banned == 0 and seat_view(w.state, 0) == view


def test_ismcts_plays_a_deal_and_mccfr_runs() -> None:
    from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

    game = gos.load("classic")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10,
                           random_state=np.random.RandomState(1))
    rng = random.Random(2)
    st = game.new_initial_state()
    decisions = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        elif st.current_player() == 0:
            a = bot.step(st)
            assert a in st.legal_actions()
            st.apply_action(a)
            decisions += 1
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert decisions > 0 and sum(st.returns()) == 0
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(gos.load("gameweave"))
    for _ in range(10):
        solver.iteration()
    assert len(solver._infostates) > 10  # noqa: SLF001 - the solver's table of visited information states


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_history_and_move_number_survive_clone_deepcopy_and_resample(rules: str) -> None:
    """Issue 21: after ``clone()``, ``copy.deepcopy()`` or ``resample_from_infostate()`` the
    state keeps ``history()`` and ``move_number()`` (as Kuhn poker does); a copy played on
    grows its own history."""
    import copy

    rng = random.Random(f"hist-{rules}")
    game = gos.load(rules)
    for steps in (5, 20, 45, 70):
        st = _random_state(game, rng, steps)
        hist = list(st.history())
        assert len(hist) == st.move_number() > 0
        assert hist == st.deal.history
        assert st.history_str() == ", ".join(map(str, hist))
        for other in (st.clone(), copy.deepcopy(st)):
            assert other.history() == hist and other.move_number() == len(hist)
            if not other.is_terminal():
                outs = other.chance_outcomes()
                a = outs[0][0] if other.is_chance_node() else other.legal_actions()[0]
                other.apply_action(a)
                assert other.history() == hist + [a] and other.move_number() == len(hist) + 1
                assert st.history() == hist  # the original is untouched
        if st.is_terminal() or st.is_chance_node():
            continue
        seat = st.current_player()
        world = st.resample_from_infostate(seat, rng.random)
        assert world.move_number() == st.move_number()
        assert len(world.history()) == len(hist)
        assert world.history()[20:] == hist[20:]  # the public rest is the same


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_r21_a_resampled_world_keeps_no_true_opponent_hand_in_its_history(rules: str) -> None:
    """Issue 21, R21: a resampled world's first 20 chance outcomes are its own deal
    (``deal.dealt``), so the opponent's true dealt cards are not in its history."""
    rng = random.Random(f"resample-{rules}")
    game = gos.load(rules)
    changed = 0
    for steps in (8, 30, 40, 55, 60):
        for _ in range(4):
            st = _random_state(game, rng, steps)
            if st.is_terminal() or st.is_chance_node():
                continue
            seat = st.current_player()
            world = st.resample_from_infostate(seat, rng.random)
            wd, d = world.deal, st.deal
            n = len(wd.dealt)
            assert world.history()[:n] == wd.dealt
            opp = 1 - seat
            if d.state is not None:
                # the opponent's dealt cards in the world's history are the world's, and the
                # cards of its hand now (hidden) are the sampled hand, not the true one
                hidden = wd.state.hands[opp]
                assert set(wd.dealt_to(opp)) >= {c for c in range(40) if hidden >> c & 1}
                changed += wd.dealt_to(opp) != d.dealt_to(opp)
            else:
                assert wd.dealt_to(seat) == d.dealt_to(seat)
                changed += wd.dealt_to(opp) != d.dealt_to(opp)
    assert changed > 0  # the sampled hands did differ from the true ones

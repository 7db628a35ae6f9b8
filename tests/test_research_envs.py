"""PettingZoo and Gymnasium environments (issue 12): their libraries' own checks in every
profile, seeding, rendering, and hidden information kept out of every interface (R21)."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install -e '.[research]'")
pytest.importorskip("pyspiel", reason="the research extra is not installed")
pytest.importorskip("pettingzoo", reason="the research extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the research extra is not installed")

from gameweave.engine import PROFILE_NAMES, GameState  # noqa: E402
from gameweave.research import core  # noqa: E402
from gameweave.research import gym as ggym  # noqa: E402
from gameweave.research import openspiel as gos  # noqa: E402
from gameweave.research import pettingzoo as gpz  # noqa: E402
from worlds import research_twins  # noqa: E402


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_pettingzoo_api_test_and_seed_test_pass(rules: str) -> None:
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(gpz.env(rules=rules, native=False), num_cycles=200)  # native=True: test_research_vector
        seed_test(lambda: gpz.env(rules=rules, native=False), num_cycles=200)


def test_pettingzoo_renders_ansi_and_human_without_hands(capsys: pytest.CaptureFixture[str]) -> None:
    e = gpz.env(rules="classic", render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    hand = core.observation_string(e.deal, 0).split("; ")[1]
    assert "stock 20" in text and hand not in text  # R21: a spectator sees no hand
    h = gpz.env(rules="gameweave", render_mode="human")
    h.reset(seed=5)
    h.step(core.A_TURN)
    assert "stock 19" in capsys.readouterr().out


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_gymnasium_check_env_passes_and_make_takes_the_options(rules: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(ggym.ENV_ID, rules=rules, opponent="greedy")
    assert env.unwrapped.rules == rules and env.unwrapped.opponent_name == "greedy"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    steps = 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) > 0 and obs.shape == (core.INFO_SIZE,)
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
    assert reward in (-1.0, 0.0, 1.0) and steps > 3


@pytest.mark.parametrize("native", [False, None])
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_gymnasium_illegal_id_ends_the_episode_as_a_loss(rules: str, native: bool | None) -> None:
    """An illegal id ends the episode as a loss, and the episode stays ended: a further
    step is refused until ``reset`` (it went on playing the same deal), on either path."""
    env = ggym.ConquianEnv(rules=rules, opponent="random", native=native)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = len(env.deal.history)
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]
    legal = int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0
    with pytest.raises(RuntimeError):
        env.step(legal)
    assert len(env.deal.history) == before
    _, info = env.reset(seed=3)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "illegal_action" not in info


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_states_differing_only_in_hidden_cards_look_the_same_in_every_interface(rules: str) -> None:
    game = gos.load(rules)
    checked = 0
    for seed in range(40):
        twins = research_twins(rules, seed, 30 + seed)
        if twins is None:
            continue
        a, b, seat = twins
        assert a.state.hands[1 - seat] != b.state.hands[1 - seat]
        # OpenSpiel
        sa, sb = gos.ConquianState(game, a), gos.ConquianState(game, b)
        for p in (0, 1):
            if p != seat:
                continue
            assert sa.information_state_string(p) == sb.information_state_string(p)
            assert sa.information_state_tensor(p) == sb.information_state_tensor(p)
            assert sa.observation_string(p) == sb.observation_string(p)
            assert sa.observation_tensor(p) == sb.observation_tensor(p)
        # PettingZoo
        oa, ob = gpz.observation_of(a, seat), gpz.observation_of(b, seat)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        # Gymnasium (the agent in the seat to act)
        envs = []
        for d in (a, b):
            env = ggym.ConquianEnv(rules=rules, opponent="random", seat=seat)
            env.deal = d
            envs.append(env)
        assert np.array_equal(envs[0]._obs(), envs[1]._obs())
        assert np.array_equal(envs[0]._info()["action_mask"], envs[1]._info()["action_mask"])
        checked += 1
    assert checked >= 5


def test_r21_the_encoding_changes_with_the_seats_own_hand() -> None:
    """The invariance above is not vacuous: the seat's own cards do show."""
    d = core.Deal("gameweave")
    rng = random.Random(0)
    while d.is_chance():
        d.apply(rng.choice(d.chance_outcomes())[0])
    e = core.Deal("gameweave")
    e.dealt = d.dealt[1:] + d.dealt[:1]
    e.state = GameState.new(e.dealt + [c for c in range(40) if c not in e.dealt])
    assert gpz.observation_of(d, 0)["observation"].tolist() != gpz.observation_of(e, 0)["observation"].tolist()


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_kept_history_equals_the_engines_replayed_view(rules: str) -> None:
    """The deal's step-by-step public events (``apply_public``) are the engine's replayed
    public history, and the history planes are exactly what those events show."""
    from gameweave.engine import seat_view

    rng = random.Random(rules)
    for _ in range(6):
        d = core.Deal(rules)
        while not d.is_terminal():
            if d.is_chance():
                d.apply(rng.choice(d.chance_outcomes())[0])
                continue
            seat = d.current_player()
            full = seat_view(d.state, seat)  # replays the deal (engine's public_history)
            assert d.view(seat) == full
            arr = core.encode_array(d, seat, True)
            planes = arr[core.OBS_SIZE:].reshape(12, 40)
            want = np.zeros((12, 40), np.float32)
            for e in full.history:
                base = 0 if e.seat == seat else 6
                if e.kind == "turn":
                    if e.card >= 0:
                        want[base, e.card] = 1
                    if e.died >= 0:
                        want[base + 3, e.died] = 1
                elif e.kind == "refuse":
                    want[base + 1, e.card] = 1
                elif e.kind == "throw":
                    want[base + 2, e.card] = 1
                elif e.kind == "meld":
                    for c in range(40):
                        if e.from_hand >> c & 1:
                            want[base + 4, c] = 1
                if e.forced and e.kind != "meld":
                    want[base + 5, e.card] = 1
            assert np.array_equal(planes, want)
            hand = arr[:40]
            assert [c for c in range(40) if hand[c]] == [c for c in range(40) if full.hand >> c & 1]
            d.apply(rng.choice(d.legal_actions()))


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r21_the_kept_encoders_equal_the_view_encoding_at_every_step(rules: str) -> None:
    """The fast path (``core.SeatEncoder`` over ``core._bits``, used across steps and
    deals, and its kept mask) gives exactly the tensor that ``encode_array`` builds
    from the seat's ``SeatView``, and the mask of its legal ids, for both seats at every
    step — so it shows nothing the view does not (R21)."""
    rng = random.Random(f"kept-{rules}")
    encoders = (core.SeatEncoder(0), core.SeatEncoder(1))
    obs_encoders = (core.SeatEncoder(0, info=False), core.SeatEncoder(1, info=False))
    steps = 0
    for _ in range(8):
        d = core.Deal(rules)
        while not d.is_terminal():
            for seat in (0, 1):
                assert np.array_equal(encoders[seat].encode(d), core.encode_array(d, seat, True))
                assert np.array_equal(obs_encoders[seat].encode(d), core.encode_array(d, seat, False))
                mask = core.legal_mask(d, seat)
                want = np.zeros(core.NUM_ACTIONS, np.int8)
                if d.current_player() == seat:
                    want[d.legal_actions()] = 1
                assert np.array_equal(mask, want)
                assert np.array_equal(encoders[seat].mask(d), want)
            if d.is_chance():
                d.apply(rng.choice(d.chance_outcomes())[0])
            else:
                d.apply(rng.choice(d.legal_actions()))
                steps += 1
        for seat in (0, 1):
            assert np.array_equal(encoders[seat].encode(d), core.encode_array(d, seat, True))
    assert steps > 100


def test_pettingzoo_observe_is_kept_for_the_step_and_returns_fresh_arrays() -> None:
    """A second ``last()`` in the same step returns the same observation; the next step's
    observation is a new array, so a kept one is never rewritten."""
    env = gpz.env(rules="gameweave")
    env.reset(seed=3)
    first = env.last()[0]
    assert env.last()[0] is first
    kept = first["observation"].copy()
    env.step(int(first["action_mask"].nonzero()[0][0]))
    nxt = env.last()[0]
    assert nxt is not first
    assert np.array_equal(first["observation"], kept)


def test_gymnasium_seeded_reset_gives_gymnasiums_own_np_random() -> None:
    """``reset(seed=s)`` builds ``np_random`` only when read, and it is the generator
    gymnasium's own ``Env.reset(seed=s)`` makes; bad seeds raise gymnasium's error."""
    import gymnasium

    env = ggym.ConquianEnv(rules="classic", opponent="uniform")
    ref = gymnasium.Env()
    for seed in (0, 7, 2**40):
        env.reset(seed=seed)
        ref.reset(seed=seed)
        assert env.np_random_seed == ref.np_random_seed == seed
        assert env.np_random.integers(10**9, size=4).tolist() == ref.np_random.integers(10**9, size=4).tolist()
    with pytest.raises(gymnasium.error.Error):
        env.reset(seed=-1)


def test_r18_the_spectator_render_leaves_out_a_table_being_built() -> None:
    """R21: an R18 table being put down step by step is the acting seat's own until it is
    played; the spectator render (``render(deal)``) must not show it."""
    from gameweave.research import strings
    from gameweave.research.deal import Deal

    seen = 0
    for seed in range(300):
        rng = random.Random(seed)
        deal = Deal("classic")
        while not deal.is_terminal() and seen < 3:
            if deal.is_chance():
                deal.play_chance(rng)
                continue
            if deal.pending_table and not deal.turning:
                seat = deal.current_player()
                assert "building" in strings.observation_string(deal, seat)
                assert "building" not in strings.render(deal)
                seen += 1
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if seen >= 3:
            break
    assert seen >= 3, "no pending R18 table reached in 300 random deals"


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_gymnasium_action_masks_are_the_info_mask_at_every_step(rules: str) -> None:
    """Issue 21: ``action_masks()`` (the maskable learners' method) gives, as booleans, the
    ids of ``info["action_mask"]`` at every step, and none once the deal is over."""
    env = gymnasium.make(ggym.ENV_ID, rules=rules, opponent="uniform")
    rng = np.random.default_rng(3)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            m = env.unwrapped.action_masks()
            assert m.dtype == bool and m.shape == (core.NUM_ACTIONS,)
            assert np.array_equal(m, info["action_mask"].astype(bool)) and m.any()
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(m))))
        assert not env.unwrapped.action_masks().any()


def test_issue21_gymnasium_illegal_id_can_raise_instead() -> None:
    env = ggym.ConquianEnv(rules="gameweave", opponent="uniform", illegal_action="raise")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.deal.history[:]
    with pytest.raises(ValueError):
        env.step(illegal)
    assert env.deal.history == before
    with pytest.raises(ValueError):
        ggym.ConquianEnv(illegal_action="ignore")


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_pettingzoo_illegal_id_can_end_the_episode(rules: str) -> None:
    """Issue 21: with ``illegal_action="terminate"`` an illegal id ends the deal as
    PettingZoo's classic environments do (-stake to the offender, 0 to the other, every
    agent terminated); the default still raises."""
    aec = gpz.env(rules=rules, stake=2, illegal_action="terminate")
    aec.reset(seed=4)
    for _ in range(7):  # a few legal steps first
        obs = aec.observe(aec.agent_selection)
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    offender = aec.agent_selection
    other = [a for a in aec.possible_agents if a != offender][0]
    obs, _, _, _, _ = aec.last()
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(aec.terminations.values())
    assert aec._cumulative_rewards[offender] == -2.0 and aec._cumulative_rewards[other] == 0.0
    assert aec.infos[offender]["illegal_action"] and not aec.infos[other]["illegal_action"]
    seen = []
    for agent in aec.agent_iter():
        _, reward, term, _, _ = aec.last()
        assert term
        seen.append((agent, reward))
        aec.step(None)
    assert dict(seen) == {offender: -2.0, other: 0.0}
    strict = gpz.env(rules=rules)
    strict.reset(seed=4)
    obs = strict.observe(strict.agent_selection)
    with pytest.raises(ValueError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))

"""The batched environments (issue 21): ``ConquianVectorEnv`` steps exactly as
Gymnasium's ``SyncVectorEnv`` of the single environment (seeds, next-step auto-reset,
arrays), ``ConquianSelfPlayVectorEnv`` plays both seats of N games, and both keep R21:
games that differ only in hidden cards give identical rows."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install -e '.[research]'")
gymnasium = pytest.importorskip("gymnasium", reason="the research extra is not installed")
pytest.importorskip("pyspiel", reason="the research extra is not installed")

from gameweave.engine import PROFILE_NAMES  # noqa: E402
from gameweave.research import core  # noqa: E402
from gameweave.research import gym as ggym  # noqa: E402
from gameweave.research.vector import ConquianSelfPlayVectorEnv, ConquianVectorEnv  # noqa: E402


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal id per row (0 for a row with none: a game that just ended)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_vector_env_steps_as_gymnasiums_sync_vector_env(rules: str) -> None:
    """Same seeds, same actions: the same observations, rewards, terminations,
    truncations, masks and statuses as ``SyncVectorEnv`` of ``ConquianEnv``, across
    several auto-resets (Gymnasium's next-step mode)."""
    n = 3
    ours = ConquianVectorEnv(num_envs=n, rules=rules, opponent="random")
    ref = gymnasium.vector.SyncVectorEnv([lambda: ggym.ConquianEnv(rules=rules, opponent="random")] * n)
    assert ours.metadata["autoreset_mode"] == ref.metadata["autoreset_mode"]
    o1, i1 = ours.reset(seed=11)
    o2, i2 = ref.reset(seed=11)
    assert o1.shape == (n, core.INFO_SIZE) and o1.dtype == np.float32 and ours.observation_space.contains(o1)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(120):
        acts = _pick(i1["action_mask"], rng)
        got = ours.step(acts)
        want = ref.step(acts)
        for a, b in zip(got[:4], want[:4]):
            assert a.shape == b.shape and np.array_equal(a, b)
        i1, i2 = got[4], want[4]
        assert np.array_equal(i1["action_mask"], i2["action_mask"]) and i1["action_mask"].shape == (n, core.NUM_ACTIONS)
        assert np.array_equal(ours.action_masks(), i1["action_mask"].astype(bool))
        if "status" in i2:
            assert list(i1["status"][i1["_status"]]) == list(i2["status"][i2["_status"]])
        ended += int(got[2].sum())
    assert ended >= 2


def _twins(rules: str, seed: int, steps: int, seat: int | None):
    """Two deals after the same public history that differ only in the hidden cards of
    the seat to act (``seat``, or any seat if None), or None."""
    rng = random.Random(seed)
    d = core.Deal(rules)
    for _ in range(steps):
        if d.is_terminal():
            return None
        if d.is_chance():
            d.apply(rng.choice(d.chance_outcomes())[0])
        else:
            d.apply(rng.choice(d.legal_actions()))
    if d.is_chance() or d.is_terminal() or (seat is not None and d.current_player() != seat):
        return None
    me = d.current_player()
    other = d.resample(me, random.Random(seed + 1))
    if other.state.hands[1 - me] == d.state.hands[1 - me]:
        return None
    return d, other


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_r21_vector_rows_of_hidden_card_twins_are_identical(rules: str) -> None:
    """R21 in both batched forms: games whose deals differ only in the opponent's hand
    and the stock give identical observation and mask rows; a different own hand does not."""
    vec = ConquianVectorEnv(num_envs=2, rules=rules, opponent="uniform")
    sp = ConquianSelfPlayVectorEnv(num_envs=2, rules=rules)
    vec.reset(seed=0)
    sp.reset(seed=0)
    checked = 0
    for seed in range(60):
        pair = _twins(rules, seed, 25 + seed % 40, seat=None)
        if pair is None:
            continue
        sp.deals[0], sp.deals[1] = pair
        obs, mask = sp.observe()
        assert np.array_equal(obs[0], obs[1]) and np.array_equal(mask[0], mask[1]) and mask[0].any()
        if pair[0].current_player() == 0:  # the vector env's agent plays seat 0
            vec.envs[0].deal, vec.envs[1].deal = pair
            obs, mask = vec.observe()
            assert np.array_equal(obs[0], obs[1]) and np.array_equal(mask[0], mask[1])
        checked += 1
    assert checked >= 10
    d = core.Deal(rules)
    d.play_chance(random.Random(1))
    e = core.Deal(rules)
    e.play_chance(random.Random(2))
    sp.deals[0], sp.deals[1] = d, e
    obs, _ = sp.observe()
    assert not np.array_equal(obs[0], obs[1])


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_self_play_vector_env_plays_both_seats_with_auto_reset(rules: str) -> None:
    n = 8
    env = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2)
    twin = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2)
    obs, info = env.reset(seed=3)
    obs2, _ = twin.reset(seed=3)
    assert obs.shape == (n, core.INFO_SIZE) and np.array_equal(obs, obs2)
    rng = np.random.default_rng(0)
    ended = 0
    just_ended = np.zeros(n, bool)
    for _ in range(200):
        to_act = info["to_act"]
        for i, deal in enumerate(env.deals):
            if deal.is_terminal():
                assert not info["action_mask"][i].any()
                continue
            assert deal.current_player() == to_act[i]
            assert list(np.flatnonzero(info["action_mask"][i])) == deal.legal_actions()
        acts = _pick(info["action_mask"], rng)
        before = [d for d in env.deals]
        obs, rewards, terms, truncs, info = env.step(acts)
        got2 = twin.step(acts)
        assert np.array_equal(obs, got2[0]) and np.array_equal(rewards, got2[1])  # a seed per game
        assert rewards.shape == (n, 2) and not truncs.any()
        for i in range(n):
            if just_ended[i]:  # next-step auto-reset: a fresh deal, its action ignored
                assert env.deals[i] is not before[i] and len(env.deals[i].events) <= 1
            if terms[i]:
                assert rewards[i].sum() == 0 and set(rewards[i]) <= {-2.0, 0.0, 2.0}
                assert not info["action_mask"][i].any()
            else:
                assert not rewards[i].any()
        just_ended = terms
        ended += int(terms.sum())
    assert ended >= 3
    with pytest.raises(ValueError):
        ConquianSelfPlayVectorEnv(num_envs=0)
    with pytest.raises(ValueError):
        env.reset(seed=[1, 2])

"""The batched environments (issue 21): ``ConquianVectorEnv`` steps exactly as
Gymnasium's ``SyncVectorEnv`` of the single environment (seeds, next-step auto-reset,
arrays), ``ConquianSelfPlayVectorEnv`` plays both seats of N games, and both keep R21:
games that differ only in hidden cards give identical rows.  Each runs on two paths —
the native core (C: dense ids, R18 sub-steps, encodings, opponents) and pure Python, the
reference — and the tests prove them equal array by array from the same seeds."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install -e '.[research]'")
gymnasium = pytest.importorskip("gymnasium", reason="the research extra is not installed")
pytest.importorskip("pyspiel", reason="the research extra is not installed")

from gameweave.engine import PROFILE_NAMES, native  # noqa: E402
from gameweave.research import core  # noqa: E402
from gameweave.research import gym as ggym  # noqa: E402
from gameweave.research.vector import ConquianSelfPlayVectorEnv, ConquianVectorEnv  # noqa: E402
from worlds import research_twins  # noqa: E402


PATHS = [False, pytest.param(True, marks=pytest.mark.skipif(
    not native.AVAILABLE, reason="the native core is not available (not built: no C compiler; or GAMEWEAVE_NO_NATIVE is set)"))]
"""``native=`` of the environments: the pure-Python path, and the native core where built."""


def _pick(mask: np.ndarray, rng: np.random.Generator, illegal: float = 0.0) -> np.ndarray:
    """A uniform legal id per row (0 for a row with none: a game that just ended); with
    probability ``illegal`` a row gets an id that is not legal there instead."""
    out = []
    for row in mask:
        if row.any() and rng.random() < illegal:
            out.append(int(rng.choice(np.flatnonzero(row == 0))))
        else:
            out.append(int(rng.choice(np.flatnonzero(row))) if row.any() else 0)
    return np.array(out)


@pytest.mark.parametrize("native_path", PATHS)
@pytest.mark.parametrize("opponent", ["random", "uniform"])
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_vector_env_steps_as_gymnasiums_sync_vector_env(rules: str, opponent: str, native_path: bool) -> None:
    """Same seeds, same actions: the same observations, rewards, terminations,
    truncations, masks and statuses as ``SyncVectorEnv`` of the pure-Python
    ``ConquianEnv``, across several auto-resets (Gymnasium's next-step mode), on both
    paths and against both opponents the native core plays (the gameweave ``random``
    bot, drawn exactly as the Python bot draws, and ``uniform``, against which the agent
    plays the other seat, which also opens, for a stake of 2)."""
    n = 3
    # against "uniform" the agent plays seat 2, seat 2 opens and a deal is worth 2 (R9, R20)
    kw = {"seat": 1, "opener": 1, "stake": 2} if opponent == "uniform" else {}
    ours = ConquianVectorEnv(num_envs=n, rules=rules, opponent=opponent, native=native_path, **kw)
    assert ours.native is native_path and (len(ours.envs) == 0) is native_path
    ref = gymnasium.vector.SyncVectorEnv([lambda: ggym.ConquianEnv(rules=rules, opponent=opponent, native=False, **kw)] * n)
    assert ours.metadata["autoreset_mode"] == ref.metadata["autoreset_mode"]
    o1, i1 = ours.reset(seed=11)
    o2, i2 = ref.reset(seed=11)
    assert o1.shape == (n, core.INFO_SIZE) and o1.dtype == np.float32 and ours.observation_space.contains(o1)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    rng = np.random.default_rng(5)
    ended = illegal = 0
    for _ in range(120):
        acts = _pick(i1["action_mask"], rng, illegal=0.01)
        got = ours.step(acts)
        want = ref.step(acts)
        for a, b in zip(got[:4], want[:4]):
            assert a.shape == b.shape and np.array_equal(a, b)
        i1, i2 = got[4], want[4]
        assert np.array_equal(i1["action_mask"], i2["action_mask"]) and i1["action_mask"].shape == (n, core.NUM_ACTIONS)
        assert np.array_equal(ours.action_masks(), i1["action_mask"].astype(bool))
        assert set(i1) == set(i2)  # the same keys, each the same array (statuses, illegal ids)
        for key in i2:
            assert i1[key].dtype == i2[key].dtype and i1[key].tolist() == i2[key].tolist(), key
        illegal += int(i2.get("_illegal_action", np.zeros(1)).sum())
        ended += int(got[2].sum())
    assert ended >= 2 and illegal >= 1


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_vector_env_equals_the_python_one_at_many_games(rules: str) -> None:
    """The native path against the pure-Python path (itself checked against
    ``SyncVectorEnv`` above), 16 games stepped to several auto-resets each, with a seed
    list, then unseeded resets that go on with each game's own generator."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    n = 16
    fast = ConquianVectorEnv(num_envs=n, rules=rules, opponent="random", stake=3)
    slow = ConquianVectorEnv(num_envs=n, rules=rules, opponent="random", stake=3, native=False)
    rng = np.random.default_rng(len(rules))
    for seed in (list(range(40, 40 + n)), None):
        o1, i1 = fast.reset(seed=seed)
        o2, i2 = slow.reset(seed=seed)
        assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
        ended = 0
        for _ in range(150):
            acts = _pick(i1["action_mask"], rng)
            got, want = fast.step(acts), slow.step(acts)
            for a, b in zip(got[:4], want[:4]):
                assert a.dtype == b.dtype and np.array_equal(a, b)
            i1, i2 = got[4], want[4]
            assert np.array_equal(i1["action_mask"], i2["action_mask"])
            ended += int(got[2].sum())
        assert ended >= n


def test_issue21_native_vector_env_arguments() -> None:
    """Only ``uniform`` and ``random`` (no options) run natively; ``illegal_action="raise"``
    raises there as the Python environment does."""
    with pytest.raises(ValueError):
        ConquianVectorEnv(num_envs=2, opponent="greedy", native=True)
    assert not ConquianVectorEnv(num_envs=2, opponent="greedy").native
    if not native.AVAILABLE:
        return
    env = ConquianVectorEnv(num_envs=2, opponent="uniform", illegal_action="raise")
    _obs, info = env.reset(seed=1)
    bad = np.array([int(np.flatnonzero(row == 0)[0]) for row in info["action_mask"]])
    with pytest.raises(ValueError):
        env.step(bad)
    with pytest.raises(ValueError):
        env.reset(seed=[1, -2])


def test_issue21_vector_envs_fall_back_to_python_without_the_native_core() -> None:
    """``GAMEWEAVE_NO_NATIVE=1``: both batched environments run (in Python) and say so."""
    code = ("import numpy as np\n"
            "from gameweave.research.vector import ConquianVectorEnv, ConquianSelfPlayVectorEnv\n"
            "for env in (ConquianVectorEnv(num_envs=2, opponent='random'), ConquianSelfPlayVectorEnv(num_envs=2)):\n"
            "    assert env.native is False\n"
            "    obs, info = env.reset(seed=1)\n"
            "    for _ in range(30):\n"
            "        acts = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info['action_mask']]\n"
            "        obs, r, term, trunc, info = env.step(acts)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, native.DISABLE_ENV: "1"},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr


@pytest.mark.parametrize("native_path", PATHS)
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_r21_vector_rows_of_hidden_card_twins_are_identical(rules: str, native_path: bool) -> None:
    """R21 in both batched forms, on both paths: games whose deals differ only in the
    opponent's hand and the stock give identical observation and mask rows; a different
    own hand does not."""
    vec = ConquianVectorEnv(num_envs=2, rules=rules, opponent="uniform", native=native_path)
    sp = ConquianSelfPlayVectorEnv(num_envs=2, rules=rules, native=native_path)
    vec.reset(seed=0)
    sp.reset(seed=0)
    checked = 0
    for seed in range(60):
        pair = research_twins(rules, seed, 25 + seed % 40)
        if pair is None:
            continue
        sp.set_deal(0, pair[0])
        sp.set_deal(1, pair[1])
        obs, mask = sp.observe()
        assert np.array_equal(obs[0], obs[1]) and np.array_equal(mask[0], mask[1]) and mask[0].any()
        if pair[0].current_player() == 0:  # the vector env's agent plays seat 0
            vec.set_deal(0, pair[0])
            vec.set_deal(1, pair[1])
            obs, mask = vec.observe()
            assert np.array_equal(obs[0], obs[1]) and np.array_equal(mask[0], mask[1])
        checked += 1
    assert checked >= 10
    d = core.Deal(rules)
    d.play_chance(random.Random(1))
    e = core.Deal(rules)
    e.play_chance(random.Random(2))
    sp.set_deal(0, d)
    sp.set_deal(1, e)
    obs, _ = sp.observe()
    assert not np.array_equal(obs[0], obs[1])


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_self_play_vector_env_plays_both_seats_with_auto_reset(rules: str) -> None:
    n = 8
    env = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2, native=False)
    twin = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2, native=False)
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


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_self_play_equals_the_python_one(rules: str) -> None:
    """Self-play on the native core against the pure-Python path (checked above): the
    same observations, masks, seats to act, rewards (both columns) and terminations,
    step by step across auto-resets; an illegal id raises on both."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    n = 6
    fast = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2)
    slow = ConquianSelfPlayVectorEnv(num_envs=n, rules=rules, stake=2, native=False)
    assert fast.native and not fast.deals
    o1, i1 = fast.reset(seed=7)
    o2, i2 = slow.reset(seed=7)
    assert np.array_equal(o1, o2)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        for key in ("action_mask", "to_act"):
            assert i1[key].dtype == i2[key].dtype and np.array_equal(i1[key], i2[key])
        acts = _pick(i1["action_mask"], rng)
        got, want = fast.step(acts), slow.step(acts)
        for a, b in zip(got[:4], want[:4]):
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
        i1, i2 = got[4], want[4]
        ended += int(got[2].sum())
    assert ended >= n
    live = [i for i in range(n) if i1["action_mask"][i].any()]
    bad = np.zeros(n, np.int64)
    bad[live[0]] = int(np.flatnonzero(i1["action_mask"][live[0]] == 0)[0])
    for env in (fast, slow):
        with pytest.raises(ValueError):
            env.step(bad)


@pytest.mark.parametrize("opponent", ["random", "uniform"])
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_single_gymnasium_env_equals_the_python_one(rules: str, opponent: str) -> None:
    """``ConquianEnv(native=True)`` (one game on the native core, the default where it
    runs) against the Python path (``native=False``): the same observations, rewards,
    terminations, infos and ``action_masks()`` from the same seeds, over seeded and
    unseeded resets, with a few illegal ids (``illegal_action="lose"``); ``deal``, replayed
    in Python when read, is the Python path's deal at every step; Gymnasium's
    ``check_env`` passes on it."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    from gymnasium.utils.env_checker import check_env

    fast = ggym.ConquianEnv(rules=rules, opponent=opponent, native=True)
    slow = ggym.ConquianEnv(rules=rules, opponent=opponent, native=False)
    assert fast.native and not slow.native and ggym.ConquianEnv(rules=rules, opponent=opponent).native
    assert fast.deal.state is None and fast.deal.history == slow.deal.history == []
    rng = np.random.default_rng(3)
    illegal = 0
    for ep in range(8):
        seed = None if ep % 3 == 2 else 60 + ep
        (o1, i1), (o2, i2) = fast.reset(seed=seed), slow.reset(seed=seed)
        assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
        done = False
        while not done:
            act = _pick(i1["action_mask"][None], rng, illegal=0.02)[0]
            got, want = fast.step(act), slow.step(act)
            assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4] and type(got[1]) is type(want[1])
            assert set(got[4]) == set(want[4]) and all(np.array_equal(got[4][k], want[4][k]) for k in want[4])
            assert np.array_equal(fast.action_masks(), slow.action_masks())
            assert fast.deal.history == slow.deal.history and native.snapshot(fast.deal.state) == native.snapshot(slow.deal.state)
            i1, done = got[4], got[2]
            illegal += "illegal_action" in got[4]
    if "status" in i1:  # the deal itself ended (not an illegal id): stepping on is an error, as in Python
        with pytest.raises(RuntimeError):
            fast.step(0)
    check_env(ggym.ConquianEnv(rules=rules, opponent=opponent, native=True), skip_render_check=True)
    with pytest.raises(ValueError):
        ggym.ConquianEnv(rules=rules, opponent="greedy", native=True)
    raising = ggym.ConquianEnv(rules=rules, opponent=opponent, native=True, illegal_action="raise")
    _obs, info = raising.reset(seed=1)
    with pytest.raises(ValueError):
        raising.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_assigning_a_deal_moves_the_native_gymnasium_env_to_the_python_path(rules: str) -> None:
    """``env.deal = d`` on the native path: from then on the environment is a Python one
    whose generator is where the native one was, so it steps exactly as a Python
    environment that played the same ids (against ``uniform``, which draws from it)."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    fast = ggym.ConquianEnv(rules=rules, opponent="uniform")
    slow = ggym.ConquianEnv(rules=rules, opponent="uniform", native=False)
    rng = np.random.default_rng(8)
    (_, info), _ = fast.reset(seed=31), slow.reset(seed=31)
    for _ in range(4):
        act = _pick(info["action_mask"][None], rng)[0]
        (_, _, done, _, info), _ = fast.step(act), slow.step(act)
        assert not done
    fast.deal = fast.deal
    assert not fast.native
    for _ in range(200):
        act = _pick(info["action_mask"][None], rng)[0]
        got, want = fast.step(act), slow.step(act)
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
        info = got[4]
        if got[2]:
            (_, info), _ = fast.reset(), slow.reset()
            assert np.array_equal(info["action_mask"], slow._info()["action_mask"])


def _aec_same(fast, slow) -> None:
    """Two AEC environments agree on everything an agent can read now."""
    from gameweave.research.pettingzoo import AGENTS

    assert fast.agent_selection == slow.agent_selection and fast.agents == slow.agents
    for attr in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        assert getattr(fast, attr) == getattr(slow, attr), attr
    for agent in AGENTS:
        a, b = fast.observe(agent), slow.observe(agent)
        assert all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in b)


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_pettingzoo_env_equals_the_python_one(rules: str) -> None:
    """``pettingzoo.env(native=True)`` (the default where the native core runs) against
    the Python path (``native=False``): the same observations and masks of both agents,
    rewards, terminations, infos and agent to act after every step of seeded and unseeded
    deals, an illegal id ending the deal (``illegal_action="terminate"``) or raising;
    ``deal``, replayed in Python when read, is the Python path's deal after every step;
    PettingZoo's ``api_test`` and ``seed_test`` pass on it."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    from pettingzoo.test import api_test, seed_test

    from gameweave.research import pettingzoo as gpz

    for mode in ("terminate", "raise"):
        fast = gpz.env(rules=rules, native=True, illegal_action=mode)
        slow = gpz.env(rules=rules, illegal_action=mode, native=False)
        assert fast.native and not slow.native and gpz.env(rules=rules).native
        assert fast.deal.state is None and fast.deal.history == []
        rng = np.random.default_rng(4)
        for ep in range(5):
            seed = None if ep == 3 else 80 + ep
            fast.reset(seed=seed)
            slow.reset(seed=seed)
            _aec_same(fast, slow)
            while not any(slow.terminations.values()):
                act = int(_pick(slow.observe(slow.agent_selection)["action_mask"][None], rng,
                                illegal=0.02 if mode == "terminate" else 0.0)[0])
                fast.step(act)
                slow.step(act)
                _aec_same(fast, slow)
                assert fast.deal.history == slow.deal.history
                assert native.snapshot(fast.deal.state) == native.snapshot(slow.deal.state)
            for _ in range(2):  # the dead steps
                fast.step(None)
                slow.step(None)
        fast.reset(seed=1)
        mask = fast.observe(fast.agent_selection)["action_mask"]
        if mode == "raise":
            with pytest.raises(ValueError):
                fast.step(int(np.flatnonzero(mask == 0)[0]))
    api_test(gpz.env(rules=rules, native=True), num_cycles=200)
    seed_test(lambda: gpz.env(rules=rules, native=True), num_cycles=50)
    with pytest.raises(ValueError):
        gpz.env(rules=rules, native=True, render_mode="ansi")


def test_issue21_native_batch_checks_the_arrays_it_is_given() -> None:
    """The C step writes only into C-contiguous buffers of the right size and item size
    (numpy arrays or any buffer): anything else is a :class:`ValueError`, never a write
    out of bounds."""
    if not native.AVAILABLE:
        pytest.skip("the native core is not available")
    from gameweave.research.vector_native import NativeGames

    games = NativeGames(3, "classic", False, opponent="random")
    obs, mask, to_act = games.reset()
    good = [np.zeros(3, np.int64), obs, mask, np.zeros(3), np.zeros(3, np.bool_), np.zeros(3, np.int8), to_act]
    for k, bad in [(1, obs[:2]), (1, obs.astype(np.float64)), (2, mask[:, ::2]), (3, np.zeros(3, np.int32)),
                   (4, np.zeros(2)), (5, bytes(3))]:
        args = list(good)
        args[k] = bad
        with pytest.raises((ValueError, TypeError, BufferError)):
            games.core.step(*args)
    games.core.step(*good)  # the right ones still step
    with pytest.raises(ValueError):
        NativeGames(0, "classic", False)

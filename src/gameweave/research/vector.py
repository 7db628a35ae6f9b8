"""Many Conquian deals stepped in one call (issue 21): Gymnasium's vector API, numpy arrays.

Two forms, both with ``num_envs`` games, one seed per game and auto-reset:

* :class:`ConquianVectorEnv` — a :class:`gymnasium.vector.VectorEnv` of the single-agent
  game of :mod:`gameweave.research.gym` (the agent at ``seat`` against a built-in
  ``opponent``: a gameweave bot name or ``"uniform"``)::

      from gameweave.research.vector import ConquianVectorEnv
      env = ConquianVectorEnv(num_envs=256, rules="classic", opponent="random")
      obs, info = env.reset(seed=1)                # obs (256, 783) float32
      legal = info["action_mask"]                  # (256, 473) int8, 1 = legal id
      obs, reward, terminated, truncated, info = env.step(actions)   # actions (256,) ints

  It steps exactly as ``gymnasium.vector.SyncVectorEnv`` of 256
  :class:`~gameweave.research.gym.ConquianEnv` would (the same seeds ``seed + i``, the
  same ``next-step`` auto-reset: the step after a game ends resets it, ignores its
  action and returns reward 0) — tested array by array — without a wrapper per game
  and with the arrays written in place.  ``action_masks()`` gives the masks as bools.
* :class:`ConquianSelfPlayVectorEnv` — both seats are played by the caller: each step
  takes one id per game for the seat to act there (``info["to_act"]``, shape ``(N,)``);
  the observation and mask are that seat's; rewards are ``(N, 2)``, one column per seat.

Observations are the information-state tensors of
:mod:`gameweave.research.observer` (:data:`~gameweave.research.observer.INFO_SIZE`
floats, docs/RESEARCH.md), built from the observing seat's view fields only (R21), by
the same :class:`~gameweave.research.observer.SeatEncoder` as the single environments
(tests/test_research_vector.py repeats the hidden-card twin test here).  Rewards: ``+stake``
won, ``-stake`` lost, 0 tablas (R16, R17, R20).

Two paths, the same arrays: when the native core is built (:data:`gameweave.engine.native.AVAILABLE`,
not turned off by ``GAMEWEAVE_NO_NATIVE=1``) the games run in C
(:class:`~gameweave.research.vector_native.NativeGames`: one call steps all N games —
dense ids with the R18 sub-steps, masks, encodings, the ``uniform`` and ``random``
opponents, auto-reset — writing into numpy arrays); otherwise, or with another opponent,
or with ``native=False``, on the pure-Python research
:class:`~gameweave.research.deal.Deal`, the reference.  tests/test_research_vector.py
checks the two equal array by array from the same seeds in every profile.  Speed:
docs/RESEARCH.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import ids, observer
from .deal import Deal
from .gym import UNIFORM, ConquianEnv
from .vector_native import CODE_ILLEGAL, CODE_STATUS, NativeGames, native_ok


def _choose_native(native: bool | None, opponent: str | None, opponent_options: dict[str, Any] | None) -> bool:
    """Whether to run on the native core: ``None`` = when it is available and plays this
    opponent (:func:`~gameweave.research.vector_native.native_ok`); True requires it
    (:class:`ValueError` if it cannot), False = the pure-Python path."""
    ok = native_ok(opponent, opponent_options)
    if native and not ok:
        raise ValueError("native=True needs the native core (built, GAMEWEAVE_NO_NATIVE unset) and, against an "
                         "opponent, 'uniform' or 'random' without options")
    return ok if native is None else bool(native)


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """Per-game seeds as ``SyncVectorEnv.reset`` makes them: None for all, ``seed + i``, or a list of n."""
    if seed is None:
        return [None] * n
    if isinstance(seed, int):
        return [seed + i for i in range(n)]
    got = list(seed)
    if len(got) != n:
        raise ValueError(f"seed must be an int, None or a list of num_envs={n} seeds, not {len(got)}")
    return got


class ConquianVectorEnv(VectorEnv):
    """``num_envs`` single-agent games (see the module docstring).

    Args:
        num_envs: how many games (>= 1).
        rules, opponent, seat, opener, stake, opponent_options, illegal_action: as for
            :class:`~gameweave.research.gym.ConquianEnv`, the same for every game.
        native: None (default) = on the native core when it is available and plays the
            opponent (``"uniform"``, or ``"random"`` without options), else in Python;
            True requires the native core (:class:`ValueError` if it cannot), False =
            pure Python (then :attr:`envs` holds one ``ConquianEnv`` per game; it is
            empty on the native path).

    Spaces: ``single_observation_space`` Box(0, 1, (783,), float32),
    ``single_action_space`` Discrete(473); ``observation_space`` and ``action_space`` are
    their batches ((N, 783) and MultiDiscrete of N).  ``info["action_mask"]`` is (N, 473)
    int8 (with ``info["_action_mask"]`` all True, Gymnasium's vector-info convention);
    ``info["status"]`` names how each finished game ended (``won``/``tablas``), with
    ``info["_status"]`` True where given (``info["illegal_action"]`` where an illegal id
    ended a game).  Raises :class:`ValueError` for ``num_envs < 1``, an unknown profile or
    opponent, a seed list of the wrong length, and ``native=True`` where it cannot run.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, rules: str = "gameweave", opponent: str = "random", seat: int = 0,
                 opener: int = 0, stake: int = 1, opponent_options: dict[str, Any] | None = None,
                 illegal_action: str = "lose", native: bool | None = None):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        first = ConquianEnv(rules=rules, opponent=opponent, seat=seat, opener=opener, stake=stake,
                            opponent_options=opponent_options, illegal_action=illegal_action,
                            native=False)  # checks the arguments
        self.native = _choose_native(native, opponent, opponent_options)
        self._games: NativeGames | None = None
        if self.native:
            self.envs: list[ConquianEnv] = []
            self._games = NativeGames(num_envs, first.rules, False, seat, opener, stake, opponent,
                                      raise_illegal=illegal_action == "raise")
        else:
            self.envs = [first] + [ConquianEnv(rules=rules, opponent=opponent, seat=seat, opener=opener, stake=stake,
                                               opponent_options=opponent_options, illegal_action=illegal_action,
                                               native=False)
                                   for _ in range(num_envs - 1)]
        self.num_envs = num_envs
        self.rules = first.rules
        self.opponent = opponent
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, observer.INFO_SIZE), np.float32)
        self._mask = np.zeros((num_envs, ids.NUM_ACTIONS), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)

    def _infos(self, extra: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": self._mask.copy(), "_action_mask": np.ones(self.num_envs, np.bool_)}
        for i, info in extra:
            infos = self._add_info(infos, info, i)
        return infos

    def _native_infos(self, codes: np.ndarray) -> dict[str, Any]:
        """The infos :meth:`_infos` makes from the games' ``status`` / ``illegal_action``
        entries, built from the native step's codes (:data:`~gameweave.research.vector_native.CODE_STATUS`)
        at once: ``status`` an object array (None where not given) with its bool ``_status``,
        ``illegal_action`` a bool array with ``_illegal_action``, as ``_add_info`` makes them."""
        infos = self._infos([])
        ended = codes.nonzero()[0]
        if not len(ended):
            return infos
        got = codes[ended]
        done = ended[got != CODE_ILLEGAL]
        if len(done):
            status = np.full(self.num_envs, None, dtype=object)
            status[done] = [CODE_STATUS[c] for c in codes[done].tolist()]
            infos["status"] = status
            infos["_status"] = np.zeros(self.num_envs, np.bool_)
            infos["_status"][done] = True
        bad = ended[got == CODE_ILLEGAL]
        if len(bad):
            infos["illegal_action"] = np.zeros(self.num_envs, np.bool_)
            infos["illegal_action"][bad] = True
            infos["_illegal_action"] = infos["illegal_action"].copy()
        return infos

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Reset every game (game ``i`` with seed ``seed + i``, or the list's ``i``-th);
        returns ``(obs (N, 783), info)``."""
        seeds = _seeds(seed, self.num_envs)
        if self._games is not None:
            self._games.seed(seeds)
            obs, self._mask, _ = self._games.reset()
            return obs, self._infos([])
        for i, s in enumerate(seeds):
            obs, info = self.envs[i].reset(seed=s)
            self._obs[i] = obs
            self._mask[i] = info["action_mask"]
        self._autoreset[:] = False
        return self._obs.copy(), self._infos([])

    def step(self, actions: Any):
        """One id per game (array-like of N ints).  A game that ended at the previous step
        is reset instead (its action ignored, reward 0: ``next-step`` auto-reset).
        Returns ``(obs (N, 783) float32, rewards (N,) float64, terminations (N,) bool,
        truncations (N,) bool, info)``.  Raises :class:`ValueError` for an illegal id with
        ``illegal_action="raise"`` (the games before it in the batch have then stepped)."""
        if self._games is not None:
            obs, self._mask, rewards, terms, codes, _ = self._games.step(actions)
            return obs, rewards, terms, np.zeros(self.num_envs, np.bool_), self._native_infos(codes)
        acts = np.asarray(actions).reshape(self.num_envs)
        extra = []
        for i, env in enumerate(self.envs):
            if self._autoreset[i]:
                obs, info = env.reset()
                reward, term = 0.0, False
            else:
                obs, reward, term, _trunc, info = env.step(int(acts[i]))
            self._obs[i] = obs
            self._mask[i] = info["action_mask"]
            self._rewards[i] = reward
            self._terminations[i] = term
            if len(info) > 1:
                extra.append((i, {k: v for k, v in info.items() if k != "action_mask"}))
        self._autoreset[:] = self._terminations
        return (self._obs.copy(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(),
                self._infos(extra))

    def action_masks(self) -> np.ndarray:
        """The legal ids of every game now, bool (N, 473) (maskable learners' method)."""
        return self._mask.astype(np.bool_)

    def set_deal(self, i: int, deal: Deal) -> None:
        """Make game ``i``'s deal ``deal`` (a dealt research :class:`Deal`; for tests that
        build a position by hand), on either path."""
        if self._games is not None:
            self._games.load(i, deal)
        else:
            self.envs[i].deal = deal

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """Re-encode every game's current deal for the agent: ``(obs (N, 783), mask (N, 473))``
        (what :meth:`step` returns; for tests that set a game's deal by hand)."""
        if self._games is not None:
            obs, self._mask, _ = self._games.observe()
            return obs, self._mask.copy()
        for i, env in enumerate(self.envs):
            self._obs[i] = env._obs()
            self._mask[i] = env._info()["action_mask"]
        return self._obs.copy(), self._mask.copy()


class ConquianSelfPlayVectorEnv:
    """``num_envs`` two-player games stepped together; the caller plays both seats.

    Each game is a :class:`~gameweave.research.deal.Deal` with its own generator (chance,
    R8, drawn as the PettingZoo environment draws it) — in :attr:`deals` on the Python
    path; on the native core (``native``: as for :class:`ConquianVectorEnv`) the same
    games run in C and :attr:`deals` is empty.  :meth:`reset` and :meth:`step`
    return the observation and mask of the seat to act in each game; ``info["to_act"]``
    (N,) int says which seat that is (0/1).  Rewards are (N, 2) float64: ``±stake`` to the
    two seats when a game ends (0 for tablas).  Auto-reset as :class:`ConquianVectorEnv`
    (``next-step``).  Raises :class:`ValueError` for ``num_envs < 1``, an unknown profile,
    a seed list of the wrong length, or (``step``) an id that is not legal for the seat
    to act in its game (the games before it in the batch have then already stepped).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 8, rules: str = "gameweave", opener: int = 0, stake: int = 1,
                 native: bool | None = None):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = num_envs
        self.rules = Deal(rules, opener).rules.name  # checks the profile and the opener
        self.opener = opener
        self.stake = stake
        self.single_observation_space = spaces.Box(0.0, 1.0, (observer.INFO_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(ids.NUM_ACTIONS)
        self.native = _choose_native(native, None, None)
        self._games = NativeGames(num_envs, self.rules, True, 0, opener, stake) if self.native else None
        self.deals = [] if self.native else [Deal(self.rules, opener, stake) for _ in range(num_envs)]
        self._rngs = [random.Random() for _ in range(num_envs)]
        self._encoders = (observer.SeatEncoder(0), observer.SeatEncoder(1))
        self._obs = np.zeros((num_envs, observer.INFO_SIZE), np.float32)
        self._mask = np.zeros((num_envs, ids.NUM_ACTIONS), np.int8)
        self._to_act = np.zeros(num_envs, np.int64)
        self._autoreset = np.zeros(num_envs, np.bool_)

    def _new_deal(self, i: int) -> None:
        deal = self.deals[i] = Deal(self.rules, self.opener, self.stake)
        deal.play_chance(self._rngs[i])

    def _encode(self, i: int) -> None:
        deal = self.deals[i]
        seat = deal.current_player()
        if seat not in (0, 1):  # over: the seat that would act next has nothing to do
            seat = int(self._to_act[i])
        enc = self._encoders[seat]
        self._obs[i] = enc.encode(deal)
        self._mask[i] = enc.mask(deal) if not deal.is_terminal() else 0
        self._to_act[i] = seat

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        """Deal every game anew (game ``i`` seeded ``seed + i``); returns ``(obs, info)``."""
        seeds = _seeds(seed, self.num_envs)
        if self._games is not None:
            self._games.seed(seeds)
            obs, self._mask, self._to_act = self._games.reset()
            return obs, {"action_mask": self._mask.copy(), "to_act": self._to_act.copy()}
        for i, s in enumerate(seeds):
            self._rngs[i] = random.Random(s)
            self._new_deal(i)
            self._encode(i)
        self._autoreset[:] = False
        return self._obs.copy(), {"action_mask": self._mask.copy(), "to_act": self._to_act.copy()}

    def step(self, actions: Any):
        """One id per game for its seat to act.  Returns ``(obs (N, 783), rewards (N, 2),
        terminations (N,), truncations (N,), info)`` with ``info["action_mask"]`` and
        ``info["to_act"]`` for the next step."""
        if self._games is not None:
            obs, self._mask, rewards, terms, _codes, self._to_act = self._games.step(actions)
            info = {"action_mask": self._mask.copy(), "to_act": self._to_act.copy()}
            return obs, rewards, terms, np.zeros(self.num_envs, np.bool_), info
        acts = np.asarray(actions).reshape(self.num_envs)
        rewards = np.zeros((self.num_envs, 2), np.float64)
        terms = np.zeros(self.num_envs, np.bool_)
        for i, deal in enumerate(self.deals):
            if self._autoreset[i]:
                self._new_deal(i)
            else:
                deal.apply(int(acts[i]))  # ValueError for an illegal id
                deal.play_chance(self._rngs[i])
                if deal.is_terminal():
                    rewards[i] = deal.returns()
                    terms[i] = True
            self._encode(i)
        self._autoreset[:] = terms
        info = {"action_mask": self._mask.copy(), "to_act": self._to_act.copy()}
        return self._obs.copy(), rewards, terms, np.zeros(self.num_envs, np.bool_), info

    def action_masks(self) -> np.ndarray:
        """The legal ids of the seat to act in every game, bool (N, 473)."""
        return self._mask.astype(np.bool_)

    def set_deal(self, i: int, deal: Deal) -> None:
        """Make game ``i``'s deal ``deal`` (a dealt research :class:`Deal`; for tests), on either path."""
        if self._games is not None:
            self._games.load(i, deal)
        else:
            self.deals[i] = deal

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """Re-encode every game for its seat to act: ``(obs (N, 783), mask (N, 473))``."""
        if self._games is not None:
            obs, self._mask, self._to_act = self._games.observe()
            return obs, self._mask.copy()
        for i in range(self.num_envs):
            self._encode(i)
        return self._obs.copy(), self._mask.copy()


__all__ = ["UNIFORM", "ConquianSelfPlayVectorEnv", "ConquianVectorEnv"]

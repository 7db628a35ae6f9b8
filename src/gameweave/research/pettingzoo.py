"""Conquian as a PettingZoo AEC environment: ``env(rules="classic", render_mode="ansi")``.

Agents ``seat_1`` and ``seat_2``.  Each observation is a dict: ``observation`` (the
seat's information-state tensor, float32 of :data:`~gameweave.research.observer.INFO_SIZE`,
docs/RESEARCH.md) and ``action_mask`` (int8 of
:data:`~gameweave.research.ids.NUM_ACTIONS`, 1 for the legal ids of the seat to act).
The action space is a fixed ``Discrete(NUM_ACTIONS)``.  Chance (the deal, each card
turned from the stock) is drawn by the environment from its own generator, seeded by
``reset(seed=...)``.  Rewards: ``±stake`` to the winner/loser at the end, 0 for tablas.
An observation is built from the seat's view only (R21).  An illegal id raises
:class:`ValueError` (``illegal_action="raise"``, the default) or, with
``illegal_action="terminate"``, ends the deal as PettingZoo's classic environments do
(their ``TerminateIllegalWrapper``): the offender gets ``-stake``, the other seat 0,
every agent is terminated and the offender's info says ``illegal_action: True``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import find_profile
from . import ids, observer, strings
from .deal import Deal
from .vector_native import NativeGames, NativeReplay, native_ok

AGENTS = ("seat_1", "seat_2")
_SEAT = {a: i for i, a in enumerate(AGENTS)}


def play_chance(deal: Deal, rng: random.Random) -> None:
    """Let chance act (uniformly, R8) until a seat is to act or the deal is over."""
    deal.play_chance(rng)


def observation_of(deal: Deal, seat: int, encoder: observer.SeatEncoder | None = None) -> dict[str, np.ndarray]:
    """The dict observation of ``seat`` (its view fields only, R21), through ``encoder``
    (the seat's :class:`~gameweave.research.observer.SeatEncoder`, kept between steps) or a
    fresh one."""
    enc = encoder if encoder is not None else observer.SeatEncoder(seat)
    return {"observation": enc.encode(deal), "action_mask": enc.mask(deal)}


class ConquianAEC(NativeReplay, AECEnv):
    """The AEC environment (see the module docstring).

    Args:
        rules: a profile name (§V). ``opener``: seat index that opens (R9).
        stake: what a won deal is worth (R20). ``render_mode``: ``"ansi"``, ``"human"`` or None.
        illegal_action: ``"raise"`` (:class:`ValueError`, the deal unchanged) or
            ``"terminate"`` (the deal ends: ``-stake`` to the offender, 0 to the other).
        native: True, the deal runs in the native core (issue 21: the same observations,
            masks, rewards, terminations and infos from the same seeds, tested against the
            Python path; no ``render_mode``); False, in the pure-Python engine; None (the
            default), native where it can run, else Python.  On either path :attr:`deal`
            is the research :class:`~gameweave.research.deal.Deal` now (on the native path
            replayed in Python when read, from the generator as the last ``reset`` found it
            and the ids played since).
    Raises:
        ValueError: an unknown ``render_mode`` or ``illegal_action``; ``native=True``
            where the native core is not available, or with a ``render_mode``.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "conquian_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "gameweave", render_mode: str | None = None, opener: int = 0, stake: int = 1,
                 illegal_action: str = "raise", native: bool | None = None):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action must be 'raise' or 'terminate', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.rules = find_profile(rules).name
        self.opener = opener
        self.stake = stake
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (observer.INFO_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (ids.NUM_ACTIONS,), np.int8),
        })
        self._act_space = spaces.Discrete(ids.NUM_ACTIONS)
        self._rng = random.Random()
        self._deal = Deal(self.rules, opener, stake)
        self._encoders = (observer.SeatEncoder(0), observer.SeatEncoder(1))
        self._seen: list[tuple[Deal | None, int, dict[str, np.ndarray] | None]] = [(None, -1, None)] * 2
        self._games: Any = None
        can = render_mode is None and native_ok(None, None)
        if native and not can:
            raise ValueError("native=True needs the native core (built, GAMEWEAVE_NO_NATIVE unset) "
                             "and no render_mode")
        if can and native is not False:
            self._native_start(NativeGames(1, self.rules, True, 0, opener, stake))
            self._native_seen: list[dict[str, np.ndarray] | None] = [None, None]

    def _replay(self, state: tuple[int, ...] | None, played: list[int]) -> Deal:
        """The ids ``played`` from the generator ``state``, on a Python twin."""
        twin = ConquianAEC(self.rules, None, self.opener, self.stake, native=False)
        if state is not None:
            twin._rng.setstate((3, state, None))
            twin.reset()
            for a in played:
                twin.step(a)
        return twin._deal

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if self._games is not None:
            if seed is not None:
                self._games.seed([seed])
            to_act = self._games.core.new1(0)
            self._native_seen = [None, None]
            self._native_dealt()
        else:
            if seed is not None:
                self._rng = random.Random(seed)
            self._deal = Deal(self.rules, self.opener, self.stake)
            play_chance(self._deal, self._rng)
            to_act = self._deal.current_player()
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's dict observation, built when asked and kept for the rest of the step
        (a second ``observe``/``last`` in the same step returns the same dict)."""
        seat = _SEAT[agent]
        if self._games is not None:
            return self._native_observe(seat)
        deal = self._deal
        stamp = len(deal.history)
        got = self._seen[seat]
        if got[0] is deal and got[1] == stamp and got[2] is not None:
            return got[2]
        enc = self._encoders[seat]
        obs = {"observation": enc.encode(deal), "action_mask": enc.mask(deal)}
        self._seen[seat] = (deal, stamp, obs)
        return obs

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._games is not None:
            self._native_step(agent, int(action))
            return
        deal = self._deal
        if self.illegal_action == "terminate" and int(action) not in deal.legal_actions():
            self._end_illegal(agent)
            return
        deal.apply(int(action))  # ValueError for an illegal id
        deal.play_chance(self._rng)
        if deal.is_terminal():
            self._clear_rewards()
            r = deal.returns()
            for i, a in enumerate(AGENTS):
                self.rewards[a] = r[i]
                self.terminations[a] = True
            self.infos = {a: {"status": deal.state.status} for a in AGENTS}
            self._accumulate_rewards()
        else:
            # rewards are all 0 until the deal ends: clearing and accumulating them is a no-op
            self.agent_selection = AGENTS[deal.current_player()]
        if self.render_mode == "human":
            self.render()

    def _native_observe(self, seat: int) -> dict[str, np.ndarray]:
        """:meth:`observe` on the native core (kept for the rest of the step, as there)."""
        got = self._native_seen[seat]
        if got is None:
            got = {"observation": np.empty(observer.INFO_SIZE, np.float32), "action_mask": np.empty(ids.NUM_ACTIONS, np.int8)}
            self._games.core.observe1(0, seat, got["observation"], got["action_mask"])
            self._native_seen[seat] = got
        return got

    def _native_step(self, agent: str, action: int) -> None:
        """:meth:`step`'s rules on the native core: the same rewards, terminations and infos."""
        code, to_act, winner = self._games.core.play1(0, action)
        if code == 3:  # not legal now: the deal is unchanged
            if self.illegal_action == "terminate":
                self._end_illegal(agent)
                return
            raise ValueError(f"action id {action!r} is not legal now")
        self._native_played(action)
        self._native_seen = [None, None]
        if code:
            self._clear_rewards()
            for i, a in enumerate(AGENTS):
                self.rewards[a] = 0.0 if winner < 0 else float(self.stake) if i == winner else -float(self.stake)
                self.terminations[a] = True
            self.infos = {a: {"status": "won" if code == 1 else "tablas"} for a in AGENTS}
            self._accumulate_rewards()
        else:
            self.agent_selection = AGENTS[to_act]

    def _end_illegal(self, agent: str) -> None:
        """End the deal on ``agent``'s illegal id (``illegal_action="terminate"``):
        ``-stake`` to it, 0 to the other, every agent terminated."""
        self._clear_rewards()
        self.rewards[agent] = -float(self.stake)
        for a in AGENTS:
            self.terminations[a] = True
        self.infos = {a: {"illegal_action": a == agent} for a in AGENTS}
        self._accumulate_rewards()

    def render(self) -> str | None:
        text = strings.render(self._deal)
        if self.render_mode == "human":
            print(text)  # noqa: T201 - "human" rendering prints, by PettingZoo's convention
            return None
        return text

    def close(self) -> None:
        pass


def env(rules: str = "gameweave", render_mode: str | None = None, **kwargs: Any) -> ConquianAEC:
    """A new :class:`ConquianAEC` (PettingZoo's ``env()`` convention)."""
    return ConquianAEC(rules=rules, render_mode=render_mode, **kwargs)


raw_env = env

__all__ = ["AGENTS", "ConquianAEC", "env", "observation_of", "play_chance", "raw_env"]

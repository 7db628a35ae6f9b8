"""Conquian as a single-agent Gymnasium environment against a built-in bot.

``gymnasium.make("gameweave/Conquian-v0", rules="classic", opponent="greedy")`` after
``import gameweave.research.gym`` (or ``gymnasium.make("gameweave.research.gym:gameweave/Conquian-v0")``,
which imports it).  The agent plays seat ``seat`` (index 0 or 1) against
``make_bot(opponent)``, which sees only its own seat's view (R21).  Observation: the
agent's information-state tensor (float32, :data:`~gameweave.research.observer.INFO_SIZE`);
action space ``Discrete(NUM_ACTIONS)``; ``info["action_mask"]`` (int8) marks the legal ids.
Reward at the end: ``+stake`` won, ``-stake`` lost, 0 tablas.  An illegal id ends the
episode as a loss (``info["illegal_action"]``; ``illegal_action="lose"``, the default;
a further ``step`` raises :class:`RuntimeError` until ``reset``),
so that unmasked samplers still get a well-defined episode, or raises
:class:`ValueError` (``illegal_action="raise"``).  :meth:`ConquianEnv.action_masks` gives
the legal ids as booleans (the method that maskable learners such as sb3-contrib's
``MaskablePPO`` call).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..bots import make_bot
from ..engine import find_profile
from . import ids, observer, strings
from .deal import Deal
from .pettingzoo import play_chance
from .vector_native import CODE_ILLEGAL, CODE_STATUS, NativeGames, NativeReplay, native_ok

ENV_ID = "gameweave/Conquian-v0"
UNIFORM = "uniform"
"""Opponent name for a uniform choice among the legal action *ids* (not a gameweave bot:
it needs no view, only its legal ids; the cheapest opponent, for benchmarks)."""


class ConquianEnv(NativeReplay, gymnasium.Env):
    """The environment (see the module docstring).

    Args:
        rules: a profile name (§V); ``opponent`` a bot name (``random``, ``greedy``,
            ``search``, ...) or ``"uniform"`` (:data:`UNIFORM`); ``seat`` the agent's seat index; ``opener`` who opens (R9);
            ``stake`` (R20); ``render_mode`` ``"ansi"``, ``"human"`` or None;
            ``opponent_options`` keyword options for the bot; ``illegal_action`` ``"lose"``
            (an illegal id ends the episode, reward ``-stake``) or ``"raise"``;
            ``native``: True, the deal runs in the native core (issue 21: the same
            observations, masks, rewards and infos from the same seeds, tested against this
            environment's Python path; opponent ``"uniform"`` or ``"random"`` without
            options, no ``render_mode``); False, in the pure-Python engine; None (the
            default), native where it can run, else Python.  On either path :attr:`deal`
            is the research :class:`~gameweave.research.deal.Deal` now (on the native
            path replayed in Python from the generator as the last ``reset`` found it and
            the agent's ids since, when read); assigning it moves the environment to the
            Python path for good.
    Raises:
        ValueError: an unknown ``render_mode``, ``seat``, ``opponent`` or ``illegal_action``;
            ``native=True`` where the native core is not available or cannot run this
            opponent or render mode.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, rules: str = "gameweave", opponent: str = "greedy", seat: int = 0,
                 opener: int = 0, stake: int = 1, render_mode: str | None = None,
                 opponent_options: dict[str, Any] | None = None, illegal_action: str = "lose", native: bool | None = None):
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        self.rules = find_profile(rules).name
        self.opponent_name = opponent
        self.opponent_options = dict(opponent_options or {})
        if opponent != UNIFORM:
            make_bot(opponent, seed=0, **self.opponent_options)  # unknown name -> ValueError now
        self.seat = seat
        self.opener = opener
        self.stake = stake
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (observer.INFO_SIZE,), np.float32)
        self.action_space = spaces.Discrete(ids.NUM_ACTIONS)
        self._rng = random.Random()
        self._deal = Deal(self.rules, opener, stake)
        self._bot = None if opponent == UNIFORM else make_bot(opponent, seed=0, **self.opponent_options)
        self._encoder = observer.SeatEncoder(seat)
        self._games: Any = None
        can = render_mode is None and native_ok(opponent, opponent_options)
        if native and not can:
            raise ValueError("native=True needs the native core (built, GAMEWEAVE_NO_NATIVE unset), opponent "
                             "'uniform' or 'random' without options, and no render_mode")
        if can and native is not False:
            self._native_start(NativeGames(1, self.rules, False, seat, opener, stake, opponent,
                                           raise_illegal=illegal_action == "raise"))
            self._bot = None
            self._mask_now = np.zeros(ids.NUM_ACTIONS, np.int8)
            self._over = True

    def _left_native(self) -> None:
        """The opponent's bot on the Python path, seeded from the generator."""
        if self.opponent_name != UNIFORM:
            self._bot = make_bot(self.opponent_name, seed=self._rng.getrandbits(62), **self.opponent_options)

    def _replay(self, state: tuple[int, ...] | None, played: list[int]) -> Deal:
        """The agent's ids ``played`` from the generator ``state``, on a Python twin."""
        twin = ConquianEnv(self.rules, self.opponent_name, self.seat, self.opener, self.stake,
                           illegal_action="lose", native=False)
        if state is not None:
            twin._rng.setstate((3, state, None))
            twin._deal_anew()
            for a in played:
                twin.step(a)
        return twin._deal

    # ------------------------------------------------------------ internals
    def _obs(self) -> np.ndarray:
        """The agent's information-state tensor (its view fields only, R21), through its
        kept :class:`~gameweave.research.observer.SeatEncoder`."""
        return self._encoder.encode(self._deal)

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {"action_mask": self._encoder.mask(self._deal)}
        if extra:
            info.update(extra)
        return info

    def _opponent_plays(self) -> None:
        """Chance and the opponent act until the agent is to act or the deal is over."""
        deal = self._deal
        opp = 1 - self.seat
        rand = self._rng.random
        while True:
            deal.play_chance(self._rng)
            if deal.current_player() != opp:
                return
            if self._bot is None:  # "uniform": one legal id, uniformly, from the env's generator
                legal = deal.legal_actions()
                deal.apply(legal[int(rand() * len(legal))])
                continue
            view = deal.view(opp)
            assert view is not None
            for aid in deal.ids_of(self._bot.choose(view)):
                play_chance(deal, self._rng)
                deal.apply(aid)

    # ------------------------------------------------------------ numpy generator, made when read
    _np_pending: int | None = None
    _np_generator: np.random.Generator | None = None

    @property  # type: ignore[override]
    def _np_random(self) -> np.random.Generator | None:
        """Gymnasium's ``_np_random``, built from the last ``reset(seed=...)`` only when
        something reads it (this environment draws from its own ``random.Random``; building
        a numpy generator at every seeded reset cost about 9 us)."""
        if self._np_pending is not None:
            self._np_generator, _ = seeding.np_random(self._np_pending)
            self._np_pending = None
        return self._np_generator

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._np_pending = None
        self._np_generator = value

    # ------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None and isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0:
            self._np_pending = seed  # what super().reset(seed=seed) sets, made lazily
            self._np_random_seed = seed
        else:
            super().reset(seed=seed)  # None, or a bad seed (gymnasium's own error)
        if self._games is not None:
            return self._native_reset(seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._deal_anew()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    _forfeited = False
    """An illegal id ended this episode (``illegal_action="lose"``): no step until reset."""

    def _deal_anew(self) -> None:
        """A new deal from this environment's generator: the opponent's seed, the cards,
        and the opponent's moves until the agent is to act."""
        self._forfeited = False
        bot_seed = self._rng.getrandbits(62)
        if self._bot is not None:
            self._bot = make_bot(self.opponent_name, seed=bot_seed, **self.opponent_options)
        self._deal = Deal(self.rules, self.opener, self.stake)
        self._opponent_plays()

    def _native_reset(self, seed: int | None) -> tuple[np.ndarray, dict[str, Any]]:
        """``reset`` on the native core: the game's generator seeded as ``random.Random(seed)``."""
        if seed is not None:
            self._games.seed([seed])
        obs = np.empty(observer.INFO_SIZE, np.float32)
        mask = np.empty(ids.NUM_ACTIONS, np.int8)
        self._games.core.reset1(0, obs, mask)
        self._mask_now = mask
        self._over = False
        self._native_dealt()
        return obs, {"action_mask": mask.copy()}

    def _native_step(self, action: int):
        """``step`` on the native core (the same results as the Python path, tested)."""
        if self._over:
            raise RuntimeError("the deal is over: call reset()")
        obs = np.empty(observer.INFO_SIZE, np.float32)
        mask = np.empty(ids.NUM_ACTIONS, np.int8)
        reward, code = self._games.core.step1(0, int(action), obs, mask)  # ValueError with illegal_action="raise"
        self._native_played(int(action))
        self._mask_now = mask
        info: dict[str, Any] = {"action_mask": mask.copy()}
        if code == CODE_ILLEGAL:
            self._over = True  # the episode ended (as a loss): reset() starts the next
            info["illegal_action"] = True
            return obs, reward, True, False, info
        self._over = code != 0
        if self._over:
            info["status"] = CODE_STATUS[code]
        return obs, reward, self._over, False, info

    def step(self, action: int):
        if self._games is not None:
            return self._native_step(action)
        deal = self._deal
        if deal.is_terminal() or self._forfeited:
            raise RuntimeError("the deal is over: call reset()")
        a = int(action)
        if a not in deal.legal_actions() or deal.current_player() != self.seat:
            if self.illegal_action == "raise":
                raise ValueError(f"action id {a} is not legal now")
            self._forfeited = True  # the episode ended (as a loss): reset() starts the next
            return self._obs(), -float(self.stake), True, False, self._info(illegal_action=True)
        deal.apply(a)
        self._opponent_plays()
        done = deal.is_terminal()
        reward = deal.returns()[self.seat] if done else 0.0
        if self.render_mode == "human":
            self.render()
        extra = {"status": deal.state.status} if done and deal.state is not None else {}
        return self._obs(), reward, done, False, self._info(**extra)

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as a bool array of shape ``(NUM_ACTIONS,)`` (473): the same
        ids as ``info["action_mask"]``; all False once the deal is over."""
        if self._games is not None:
            return self._mask_now.astype(bool)
        mask = np.zeros(ids.NUM_ACTIONS, dtype=bool)
        if self._deal.current_player() == self.seat:
            mask[self._deal.legal_actions()] = True
        return mask

    def render(self) -> str | None:
        text = strings.render(self.deal, self.seat)
        if self.render_mode == "human":
            print(text)  # noqa: T201 - "human" rendering prints, by Gymnasium's convention
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="gameweave.research.gym:ConquianEnv")

__all__ = ["ENV_ID", "UNIFORM", "ConquianEnv"]

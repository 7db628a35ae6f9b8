"""The batched environments' native path (issue 21): N research deals stepped in C.

:class:`NativeGames` wraps the extension's ``VecGames`` (``engine/_native_vec.h``): the
dense ids with the R18 sub-steps (:mod:`gameweave.research.ids`, :class:`~gameweave.research.deal.Deal`),
the information-state encoding (:mod:`gameweave.research.observer`, 783 floats), the
built-in opponents (``"uniform"`` and the gameweave ``random`` bot, drawn exactly as the
Python ones draw) and next-step auto-reset — one C call per batch, writing into numpy
arrays through the buffer protocol (the engine itself never imports numpy).  The pure-Python
environments stay the reference: tests/test_research_vector.py checks that the same seeds
give identical arrays.  Used by :mod:`gameweave.research.vector` when
:data:`gameweave.engine.native.AVAILABLE` (``GAMEWEAVE_NO_NATIVE=1`` turns it off), and
by :class:`gameweave.research.gym.ConquianEnv` with ``native=True`` (one game: the
extension's ``reset1`` / ``step1``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import find_profile, kind_of, native
from ..engine.actions import REFUSE_KIND
from . import ids, observer
from .deal import Deal

NATIVE_OPPONENTS = {"uniform": 0, "random": 1}
"""Opponents the native path plays itself: the ``uniform`` dense-id draw and the gameweave
``random`` bot (any other bot runs on the Python path)."""

CODE_STATUS = {1: "won", 2: "tablas"}
"""``codes`` of a step: 0 the game goes on, 1 won, 2 tablas (the engine's ``status``),
3 an illegal id ended it (``illegal_action="lose"``)."""
CODE_ILLEGAL = 3


def native_ok(opponent: str | None, opponent_options: dict[str, Any] | None) -> bool:
    """True if the native core is available and plays this opponent (None: self-play)."""
    return native.AVAILABLE and (opponent is None or (opponent in NATIVE_OPPONENTS and not opponent_options))


class NativeReplay:
    """What the single environments (Gymnasium's :class:`~gameweave.research.gym.ConquianEnv`,
    PettingZoo's :class:`~gameweave.research.pettingzoo.ConquianAEC`) share about running
    their one deal in the native core (issue 21): :attr:`native`, and :attr:`deal`, the
    research :class:`~gameweave.research.deal.Deal` on either path — on the native one played
    again in Python when read (:meth:`_replay`: a twin on the Python path from the generator
    as the last reset found it, stepped with the ids played since; the same deal, tested);
    assigning it moves the environment to the Python path for good, its generator
    (``_rng``) where the native one was (:meth:`_left_native` does the rest).

    The environment keeps ``_games`` (a one-game :class:`NativeGames`, or None on the
    Python path), ``_deal`` (the Python path's deal) and ``_rng`` (its generator), and
    calls :meth:`_native_dealt` at each native reset and :meth:`_native_played` after each
    id the native game took.
    """

    _games: Any
    _deal: Deal
    _rng: random.Random

    def _native_start(self, games: NativeGames) -> None:
        self._games = games
        self._played: list[int] = []  # the ids played since the last reset (what `deal` replays)
        self._replayed: tuple[int, Deal] | None = None
        self._dealt = False

    def _native_dealt(self) -> None:
        self._played, self._replayed, self._dealt = [], None, True

    def _native_played(self, action: int) -> None:
        self._played.append(action)

    @property
    def native(self) -> bool:
        """True while the deal runs in the native core."""
        return self._games is not None

    @property
    def deal(self) -> Deal:
        """The research deal now (on the native path replayed in Python when read: the same
        deal, at the cost of one Python deal)."""
        if self._games is None:
            return self._deal
        if self._replayed is None or self._replayed[0] != len(self._played):
            state = self._games.core.rng_state(0, True) if self._dealt else None
            self._replayed = (len(self._played), self._replay(state, self._played))
        return self._replayed[1]

    @deal.setter
    def deal(self, deal: Deal) -> None:
        if self._games is not None:
            self._rng.setstate((3, self._games.core.rng_state(0, False), None))
            self._games = None
            self._left_native()
        self._deal = deal

    def _replay(self, state: tuple[int, ...] | None, played: list[int]) -> Deal:
        """The deal a Python twin of this environment plays from the generator ``state``
        (``random.Random.getstate()[1]``; None: never reset, an undealt deal) with the ids
        ``played``."""
        raise NotImplementedError

    def _left_native(self) -> None:
        """What else the environment moves to the Python path (the opponent's bot)."""


class NativeGames:
    """``n`` deals in the native core; arrays in, arrays out.

    Args:
        n: games; rules: a profile name (§V); self_play: both seats are the caller's
            (else the agent plays ``seat`` against ``opponent``, :data:`NATIVE_OPPONENTS`);
        opener (R9), stake (R20); raise_illegal: an illegal agent id raises
            :class:`ValueError` instead of ending its game as a loss.
    Raises:
        RuntimeError: the native core is not available.  ValueError: a bad argument.
    """

    def __init__(self, n: int, rules: str, self_play: bool, seat: int = 0, opener: int = 0, stake: int = 1,
                 opponent: str = "uniform", raise_illegal: bool = False):
        if not native.AVAILABLE:
            raise RuntimeError("the native core is not available (not built, or GAMEWEAVE_NO_NATIVE is set)")
        r = find_profile(rules)
        cap = 10 if r.max_sequence is None else r.max_sequence
        self.n = n
        self.self_play = self_play
        self.core = native._native.VecGames(
            n, r.rearranging, r.force_back, cap, r.max_sequence is not None, int(self_play), seat, opener,
            float(stake), NATIVE_OPPONENTS[opponent], raise_illegal)
        sysrand = random.SystemRandom()
        for i in range(n):  # random.Random() draws its own seed: so does every game here
            self.core.seed(i, native.seed_key(sysrand.getrandbits(128)))

    def _rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.empty((self.n, observer.INFO_SIZE), np.float32), np.empty((self.n, ids.NUM_ACTIONS), np.int8),
                np.empty(self.n, np.int64))

    def seed(self, seeds: Sequence[int | None]) -> None:
        """Game ``i``'s generator becomes ``random.Random(seeds[i])``; None: against an
        opponent it is left as it is (as ``ConquianEnv.reset(seed=None)`` leaves its own),
        in self-play drawn afresh (as ``random.Random(None)``).  Raises :class:`ValueError`
        for a seed that is not a non-negative int."""
        sysrand = random.SystemRandom()
        for i, s in enumerate(seeds):
            if s is None:
                if self.self_play:
                    self.core.seed(i, native.seed_key(sysrand.getrandbits(128)))
                continue
            if not isinstance(s, (int, np.integer)) or isinstance(s, bool) or s < 0:
                raise ValueError(f"a seed must be a non-negative int or None, not {s!r}")
            self.core.seed(i, native.seed_key(int(s)))

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game anew: ``(obs (n, 783) float32, mask (n, 473) int8, to_act (n,) int64)``."""
        obs, mask, to_act = self._rows()
        self.core.reset(obs, mask, to_act)
        return obs, mask, to_act

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        """One id per game: ``(obs, mask, rewards, terms, codes, to_act)``; rewards (n,)
        float64, or (n, 2) in self-play; terms (n,) bool; codes (n,) int8
        (:data:`CODE_STATUS`, :data:`CODE_ILLEGAL`).  Raises :class:`ValueError` for an
        illegal id in self-play or with ``raise_illegal`` (the games before it stepped)."""
        acts = np.ascontiguousarray(np.asarray(actions).reshape(self.n), dtype=np.int64)
        obs, mask, to_act = self._rows()
        rewards = np.empty((self.n, 2) if self.self_play else self.n, np.float64)
        terms = np.empty(self.n, np.bool_)
        codes = np.empty(self.n, np.int8)
        self.core.step(acts, obs, mask, rewards, terms, codes, to_act)
        return obs, mask, rewards, terms, codes, to_act

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game's rows now, without stepping: ``(obs, mask, to_act)``."""
        obs, mask, to_act = self._rows()
        self.core.observe(obs, mask, to_act)
        return obs, mask, to_act

    def load(self, i: int, deal: Deal) -> None:
        """Lay the research ``deal`` (dealt, any later point; its stock order as it is) on
        game ``i``: the engine state, the pending sub-step, the history planes.  Raises
        :class:`ValueError` while the deal is still being dealt or a card is being turned."""
        st = deal.state
        if st is None or deal.turning:
            raise ValueError("a deal can be laid on a native game once dealt and not while chance turns a card")
        keys: list[int] = []
        acts: list[int] = []
        pf_card = -1
        if deal.pending_force is not None:
            pf_card = deal.pending_force[0]
            keys, acts = list(deal.pending_force[1]), list(deal.pending_force[1].values())
        last = deal.events[-1] if deal.events else None
        last_refuse = last is not None and kind_of(last.action) == REFUSE_KIND and not last.forced
        hist = ";".join(f"{e.seat}{e.action}" for e in deal.events)
        self.core.load(i, native.from_state(st), list(deal.pending_table), pf_card, keys, acts, list(deal.public),
                       int(last_refuse), hist)


__all__ = ["CODE_ILLEGAL", "CODE_STATUS", "NATIVE_OPPONENTS", "NativeGames", "NativeReplay", "native_ok"]

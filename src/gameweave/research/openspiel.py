"""Conquian as an OpenSpiel game: ``pyspiel.load_game("conquian", {"rules": "classic"})``.

Importing this module registers the game (:func:`pyspiel.register_game`).  Parameters:
``rules`` (``gameweave``, ``anglo-american``, ``classic``; §V), ``opener`` (seat index 0/1
that opens, R9) and ``stake`` (what a won deal is worth, R20: returns are ``±stake``,
tablas 0).  Sequential, imperfect information, explicit chance (the deal and each card
turned from the stock), zero-sum, terminal rewards.  Action ids, tensors and the chance
model: :mod:`gameweave.research.ids`, :mod:`~gameweave.research.deal`,
:mod:`~gameweave.research.observer` and docs/RESEARCH.md.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from ..engine import CARD_NAMES, find_profile
from . import history, ids, observer, strings
from .deal import Deal

GAME_NAME = "conquian"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Conquian (Gameweave)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification={"rules": "gameweave", "opener": 0, "stake": 1},
)


class ConquianGame(pyspiel.Game):
    """The OpenSpiel game object (one deal under a profile)."""

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        stake = int(params.get("stake", 1))
        info = pyspiel.GameInfo(
            num_distinct_actions=ids.NUM_ACTIONS,
            max_chance_outcomes=ids.NUM_CHANCE_OUTCOMES,
            num_players=2,
            min_utility=-float(stake),
            max_utility=float(stake),
            utility_sum=0.0,
            max_game_length=ids.MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)
        p = self.get_parameters()
        self.rules = find_profile(str(p.get("rules", "gameweave")))
        self.opener = int(p.get("opener", 0))
        self.stake = int(p.get("stake", stake))

    def new_initial_state(self) -> ConquianState:
        """A state before the deal (chance deals the first card)."""
        return ConquianState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: the information state if ``perfect_recall``, else the observation."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ConquianObserver(perfect)


class ConquianState(pyspiel.State):
    """A state of the game: a :class:`~gameweave.research.deal.Deal` behind OpenSpiel's API."""

    def __init__(self, game: ConquianGame, deal: Deal | None = None):
        super().__init__(game)
        self.deal = deal if deal is not None else Deal(game.rules, game.opener, game.stake)

    # pyspiel.State hooks
    def current_player(self) -> int:
        p = self.deal.current_player()
        if p == ids.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == ids.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return self.deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.deal.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {CARD_NAMES[action]}"
        return ids.action_name(action)

    def is_terminal(self) -> bool:
        return self.deal.is_terminal()

    def returns(self) -> list[float]:
        return self.deal.returns()

    def information_state_string(self, player: int | None = None) -> str:
        return strings.information_state_string(self.deal, self._player(player))

    def observation_string(self, player: int | None = None) -> str:
        return strings.observation_string(self.deal, self._player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return observer.encode_array(self.deal, self._player(player), True).tolist()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return observer.encode_array(self.deal, self._player(player), False).tolist()

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if player not in (0, 1):
            raise pyspiel.SpielError(f"player must be 0 or 1, not {player}")
        return player

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> ConquianState:
        """A state with the same information state for ``player_id`` (R21, R12 proof):
        the opponent's hand is drawn uniformly from what the public history allows."""
        if callable(probability_sampler):
            rng = random.Random(int(probability_sampler() * (1 << 30)))
        else:
            rng = random.Random()
        return ConquianState(self.get_game(), self.deal.resample(player_id, rng))

    def clone(self) -> ConquianState:
        return ConquianState(self.get_game(), self.deal.clone())

    # The history as the deal keeps it (issue 21).  pyspiel's own list lives in C++ and
    # starts empty in every new Python state, so a clone, a deep copy or a resampled
    # world would report ``history() == []`` and ``move_number() == 0``; the deal holds
    # every applied id (chance outcomes included, the same list for a state played
    # from the start), and copies it with itself.
    def history(self) -> list[int]:
        """Every applied id, chance outcomes included (card ints 0..39), in order."""
        return list(self.deal.history)

    def move_number(self) -> int:
        """How many ids have been applied (chance included): ``len(history())``."""
        return len(self.deal.history)

    def history_str(self) -> str:
        """``history()`` as OpenSpiel writes it (``"8, 37, 4"``)."""
        return ", ".join(map(str, self.deal.history))

    def __deepcopy__(self, memo) -> ConquianState:
        return self.clone()

    def __str__(self) -> str:
        return strings.render(self.deal)


class ConquianObserver:
    """OpenSpiel observer (``make_py_observer``): ``tensor`` and ``dict`` of named views."""

    def __init__(self, perfect_recall: bool):
        self.info = perfect_recall
        size = observer.INFO_SIZE if perfect_recall else observer.OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        off = 0
        for name in observer.CARD_PLANES:
            self.dict[name] = self.tensor[off:off + 40]
            off += 40
        self.dict["scalars"] = self.tensor[off:off + len(observer.SCALARS)]
        off += len(observer.SCALARS)
        if perfect_recall:
            for name in history.HISTORY_PLANES:
                self.dict[name] = self.tensor[off:off + 40]
                off += 40

    def set_from(self, state: ConquianState, player: int) -> None:
        """Fill ``tensor`` with the player's encoding of ``state``."""
        self.tensor[:] = observer.encode_array(state.deal, player, self.info)

    def string_from(self, state: ConquianState, player: int) -> str:
        """The player's information state or observation string."""
        if self.info:
            return strings.information_state_string(state.deal, player)
        return strings.observation_string(state.deal, player)


pyspiel.register_game(_GAME_TYPE, ConquianGame)


def load(rules: str = "gameweave", **params: object) -> pyspiel.Game:
    """``pyspiel.load_game("conquian", {"rules": rules, ...})``."""
    return pyspiel.load_game(GAME_NAME, {"rules": rules, **params})


__all__ = ["ConquianGame", "ConquianObserver", "ConquianState", "GAME_NAME", "load"]

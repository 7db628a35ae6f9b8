"""The research core in one import: the names of the four modules that make it.

The OpenSpiel game, the PettingZoo and the Gymnasium environments share:

- :mod:`gameweave.research.ids` — the dense action ids (:data:`NUM_ACTIONS`), the meld
  ids (:data:`MELDS`) and the names of the ids (:func:`action_name`);
- :mod:`gameweave.research.deal` — :class:`Deal`, the state machine with explicit chance
  and the R18 sub-steps (``meld M`` ... ``done``, a force then ``onto M``);
- :mod:`gameweave.research.observer` — a seat's tensors and action mask
  (:func:`encode_array`, :class:`SeatEncoder`, :func:`legal_mask`; the layout
  :data:`CARD_PLANES`, :data:`SCALARS`, :data:`HISTORY_PLANES` of
  :mod:`gameweave.research.history`);
- :mod:`gameweave.research.strings` — the seat's and the spectator's strings.

This module only gathers their names (docs/RESEARCH.md; scripts and the tests use
``from gameweave.research import core``).  :func:`excluded_from_hand` is the old name of
the one inference the deal resamples with, the bots'
:func:`~gameweave.bots.determinize.impossible_cards` (R12).
"""

from __future__ import annotations

from ..bots.determinize import impossible_cards as excluded_from_hand
from ..engine import refuse_action
from .deal import Deal, RolloutPolicy, random_playout
from .history import HISTORY_PLANES
from .ids import (
    A_DONE, A_FORCE_BACK, A_MELD, A_ONTO, A_REFUSE, A_REFUSE_FORCE, A_THROW, A_THROW_FORCE, A_TURN, CHANCE,
    MAX_GAME_LENGTH, MELD_ID, MELDS, NUM_ACTIONS, NUM_CHANCE_OUTCOMES, NUM_MELDS, TERMINAL, action_name,
)
from .observer import CARD_PLANES, INFO_SIZE, OBS_SIZE, SCALARS, SeatEncoder, encode, encode_array, legal_mask
from .strings import information_state_string, observation_string, render

__all__ = [
    "A_DONE", "A_FORCE_BACK", "A_MELD", "A_ONTO", "A_REFUSE", "A_REFUSE_FORCE", "A_THROW",
    "A_THROW_FORCE", "A_TURN", "CARD_PLANES", "CHANCE", "Deal", "HISTORY_PLANES", "INFO_SIZE",
    "MAX_GAME_LENGTH", "MELDS", "MELD_ID", "NUM_ACTIONS", "NUM_CHANCE_OUTCOMES", "NUM_MELDS", "OBS_SIZE",
    "RolloutPolicy", "SCALARS", "SeatEncoder", "TERMINAL", "action_name", "encode", "encode_array",
    "excluded_from_hand", "information_state_string", "legal_mask", "observation_string", "random_playout",
    "refuse_action", "render",
]

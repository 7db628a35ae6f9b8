"""OpenSpiel's IS-MCTS as a gameweave bot (``ismcts``), for ``gameweave arena`` and the table.

:class:`ISMCTSBot` sees what every bot sees, its seat's :class:`~gameweave.engine.SeatView`
(R21).  It builds one world consistent with the view (:meth:`Deal.from_view`: the
opponent's hand drawn from what the public history allows), wraps it as a ``conquian``
OpenSpiel state, and runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on it; IS-MCTS
resamples the hidden cards itself on every simulation
(:meth:`ConquianState.resample_from_infostate`).  Where one engine action takes several
ids (an R18 table, a force and its target) it searches once per id.

Registration lives here, not in the core: :func:`register_research_bots` adds ``ismcts``
to :data:`gameweave.bots.BOTS`.
"""

from __future__ import annotations

import random

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..bots import BOTS, Bot, register
from ..bots.base import view_rng
from ..engine import TURN, SeatView
from . import openspiel as gos
from .deal import Deal


class ISMCTSBot(Bot):
    """``ismcts``: OpenSpiel's information-set MCTS with random-rollout leaf values.

    Args:
        seed: reproducibility: a decision is a function of seed and view, every
            simulation included (the worlds IS-MCTS resamples are drawn from a generator
            seeded by them; issue 21).
        simulations: IS-MCTS simulations per id decided (default 100).
        uct_c: the UCT exploration constant (default 2.0).
        rollouts: random rollouts per leaf (default 1).
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
        super().__init__(seed)
        if simulations < 1:
            raise ValueError("simulations must be at least 1")
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts

    def decide(self, view: SeatView) -> int:
        rng = view_rng(self.seed, view)
        game = gos.load(view.rules)
        deal = Deal.from_view(view, rng)
        state = gos.ConquianState(game, deal)
        np_rng = np.random.RandomState(rng.getrandbits(31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=np_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=self.uct_c, max_simulations=self.simulations,
                               random_state=np_rng)
        # OpenSpiel's default resampler draws from an unseeded pyspiel sampler; resample
        # from this decision's generator instead, so that a seed reproduces every
        # simulation (issue 21: same seed and view, same decision).
        world_rng = random.Random(rng.getrandbits(64))
        bot.set_resampler(lambda st, player: st.resample_from_infostate(player, world_rng.random))
        before = len(deal.state.history)
        while True:
            state.apply_action(bot.step(state))
            if deal.turning:
                return TURN
            if len(deal.state.history) > before:
                return deal.last_engine_action()


def register_research_bots() -> list[str]:
    """Add the research bots (``ismcts``) to the bot registry; returns their names.
    Safe to call more than once."""
    if "ismcts" not in BOTS:
        register("ismcts", ISMCTSBot)
    return ["ismcts"]


__all__ = ["ISMCTSBot", "register_research_bots"]

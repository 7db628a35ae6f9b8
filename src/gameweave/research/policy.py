"""A policy over the research encoding as a gameweave bot (issue 21): trained policies in the arena.

:class:`PolicyBot` plays any function ``policy(observation, legal_ids) -> id`` of the
research layer's tensors (:class:`~gameweave.research.observer.SeatEncoder`: the
783-float information state, docs/RESEARCH.md) and dense ids
(:mod:`gameweave.research.ids`) from a seat's :class:`~gameweave.engine.SeatView`, like
every bot (R21): it builds one world consistent with the view
(:meth:`~gameweave.research.deal.Deal.from_view`; the encoding depends on the view only,
which the hidden-card twin tests check, so any such world gives the same tensors), asks
the policy for ids until one engine action is complete (an R18 table is its ``meld M``
steps then ``done``; a force with several targets the force then ``onto M``) and
returns that engine action.  So a policy trained on the Gymnasium, PettingZoo or batched
environments plays ``gameweave.arena.run_arena`` against any bot::

    from gameweave.bots import register
    from gameweave.research.policy import PolicyBot
    register("mine", lambda seed=None: PolicyBot(lambda x, legal: int(legal[0]), seed=seed))
    # then: gameweave.arena.run_arena("mine", "greedy", 100, seed=21)

Needs numpy (the ``[research]`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bots import Bot
from ..bots.base import view_rng
from ..engine import TURN, SeatView
from .deal import Deal

Policy = Callable[[Any, Any], int]
"""``policy(observation, legal_ids) -> id``: ``observation`` a (783,) float32 array,
``legal_ids`` an ascending int array of the legal dense ids; returns one of them."""


class PolicyBot(Bot):
    """A bot that plays ``policy`` (see the module docstring).

    Args:
        policy: :data:`Policy`; called once per dense id decided (several times for an
            R18 table).  A deterministic policy gives a deterministic bot; a stochastic
            one should draw from its own seeded generator.
        seed: the seed of the sampled world (which does not change the tensors) and the
            bot's ``rng``.
        info: the information-state tensor (True, 783 floats) or the observation (303).

    :meth:`decide` raises :class:`ValueError` if the policy answers an id that is not
    legal, and :class:`RuntimeError` if no world consistent with the view is found.
    """

    name = "policy"

    def __init__(self, policy: Policy, seed: int | None = None, info: bool = True):
        super().__init__(seed)
        self.policy = policy
        self.info = info

    def decide(self, view: SeatView) -> int:
        import numpy as np

        from .observer import SeatEncoder

        deal = Deal.from_view(view, view_rng(self.seed, view))
        enc = SeatEncoder(view.seat, self.info)
        st = deal.state
        assert st is not None
        before = len(st.history)
        while True:
            legal = np.asarray(deal.legal_actions(), np.int64)
            aid = int(self.policy(enc.encode(deal), legal))
            deal.apply(aid)  # ValueError for an id that is not legal
            if deal.turning:
                return TURN
            if len(st.history) > before:
                return deal.last_engine_action()


__all__ = ["Policy", "PolicyBot"]

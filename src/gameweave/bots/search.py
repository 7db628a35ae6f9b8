"""``search``: the default search bot — determinized Monte Carlo search over a seat's view
(R21), in every profile (§V), that can also explain itself (:meth:`SearchBot.estimate`).

It is issue 8's design (``search-v1``, :mod:`gameweave.bots.search_v1`: PIMC with
sequential halving over shared worlds, see docs/BOTS.md) with the levers of issue 11
that were measured to help or at least not to hurt (docs/BOTS.md, "What was tried"):

* **Exact inference** (:func:`~gameweave.bots.determinize.sample_informed`): a world
  never deals the opponent a card that the public history proves it does not hold (the
  R12 set-of-three proof, :func:`~gameweave.bots.determinize.impossible_cards`), and its
  declines are weighted per kind (a throw weighs more than a let-die or a refusal).
* **A playout policy in which forcing matters**
  (:func:`~gameweave.bots.playout.make_policy`): optionally the
  playout forces (R15) a card the opponent could take anyway when it holds at least four
  cards (never into eleven, R16), and looks at the simulated opponent's hand to avoid
  throwing it a card it can meld.

A decision is a pure function of (seed, view) (with ``iterations``; a ``seconds`` budget
makes it depend on the clock): the bot keeps no mutable state between calls and may serve
many threads.  The root candidates and the sequential halving are the ones ``search-v1``
uses (:mod:`gameweave.bots.pimc`), the playouts are :mod:`gameweave.bots.playout`'s, and
:meth:`SearchBot.estimate` is :func:`~gameweave.bots.estimate.estimate_actions` with the
bot's sampler and policy (the evaluator behind hints and analysis,
:mod:`gameweave.bots.advice`).
"""

from __future__ import annotations

import random

from ..engine import PH_THROW, SeatView, seat_view
from ..engine.actions import is_meld
from .base import ActionEstimate, Bot, view_rng
from .determinize import (
    World, biggest_meld_cards, clue_weights, clues, impossible_cards, sample_informed, sample_world, world_state,
)
from .endgame import solve
from .estimate import Sampler, action_groups, estimate_actions
from .greedy import choose_greedy
from .ismcts import ismcts
from .opponent import HandPool
from .pimc import WorldSampler, candidates, halving, root_candidates
from .playout import DEFAULT_POLICY, Policy, make_policy, rollout_action

DEFAULT_ITERATIONS = 400
"""Default playouts per non-trivial decision (p95 decision time well under 1 s)."""

_STOCK_C = 4
"""``stock_scaled``: the budget is ``iterations * min(4, (20 + C) / (stock + C))``."""


class SearchBot(Bot):
    """``search``: PIMC determinized search with sequential halving, informed sampling and
    a configurable playout policy (see the module docstring); it can explain itself
    (:meth:`estimate`).

    Options: ``iterations`` (playouts per decision, default 400), ``seconds`` (wall-clock
    budget per decision instead; not reproducible), ``prior`` (head start of the greedy
    choice in playout wins x 2, default 2), ``width`` (only the greedy's ``width`` best
    throws and R18 card sets are searched, default 6; 0 = all), ``force``, ``peek`` and
    ``decline`` (playout switches of :func:`make_policy`), ``informed`` (True: the R12 proof and
    weighted declines, :func:`~gameweave.bots.determinize.sample_informed`; False:
    search-v1's sampler), ``policy`` (a playout policy replacing :func:`make_policy`'s),
    ``estimate_worlds`` (worlds per action of :meth:`estimate`, default 64),
    ``stock_scaled`` (the playout budget grows as the stock shrinks, up to 4x: a
    playout from a short stock is short, so the endgame gets more samples for about
    the same time), ``inference`` (``"r12"``, the default, or ``"fitted"``: see
    :meth:`evidence`), ``tries`` (rejection tries of the sampler, default 12), ``model``
    (0 = off; else the temperature of the opponent model: worlds are drawn from a
    :class:`~gameweave.bots.opponent.HandPool` of ``pool`` hands, default 64, weighted by
    the likelihood of the opponent's throws), ``joint`` (0 = off; else a meld and the
    seat's throw after it are searched as one plan, with the greedy's ``joint`` best
    throws: see :meth:`_joint_plans`), ``endgame`` (0 = off; else when the stock holds at
    most ``endgame`` cards each candidate is valued on ``eg_worlds`` worlds by an exact
    solve of each world, :mod:`~gameweave.bots.endgame`, with ``eg_nodes``, ``eg_width``
    and ``eg_opp`` = ``"max"`` or ``"policy"``: see :meth:`_endgame`), ``tree`` (0 = off;
    else information-set MCTS over the seat's own decisions with this UCB1 exploration
    constant, ``iterations`` playouts: :mod:`~gameweave.bots.ismcts`) and ``depth`` (with ``tree``: only the seat's next
    ``depth`` non-trivial decisions are in the tree; 0 = all) and ``reuse`` (with ``tree``:
    iterations per sampled world, default 1).
    """

    name = "search"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = None, prior: float = 2.0, width: int = 6,
                 force: bool = False, peek: bool = False, decline: int = 0, informed: bool = True,
                 policy: Policy | None = None, estimate_worlds: int = 64, stock_scaled: bool = False,
                 inference: str = "r12", tries: int = 12, model: float = 0.0, pool: int = 64,
                 joint: int = 0, endgame: int = 0, eg_nodes: int = 2000, eg_worlds: int = 16,
                 eg_width: int = 4, eg_opp: str = "max", tree: float = 0.0, depth: int = 0, reuse: int = 1):
        super().__init__(seed)
        if endgame < 0 or eg_nodes < 1 or eg_worlds < 1 or eg_width < 0 or eg_opp not in ("max", "policy"):
            raise ValueError("endgame >= 0, eg_nodes >= 1, eg_worlds >= 1, eg_width >= 0, eg_opp 'max' or 'policy'")
        self.endgame = endgame
        self.eg_nodes = eg_nodes
        self.eg_worlds = eg_worlds
        self.eg_width = eg_width
        self.eg_opp = eg_opp
        if tree < 0 or depth < 0 or reuse < 1:
            raise ValueError("tree and depth must be >= 0, reuse >= 1")
        self.reuse = reuse
        self.tree = tree
        self.depth = depth
        if model < 0 or pool < 1:
            raise ValueError("model must be >= 0 and pool >= 1")
        if inference not in ("r12", "fitted"):
            raise ValueError("inference must be 'r12' or 'fitted'")
        if tries < 1:
            raise ValueError("tries must be at least 1")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if estimate_worlds < 1:
            raise ValueError("estimate_worlds must be at least 1")
        self.iterations = iterations
        self.seconds = seconds
        self.prior = prior
        self.width = width
        self.informed = informed
        self.policy = policy or make_policy(force=force, peek=peek, decline=decline)
        self.estimate_worlds = estimate_worlds
        self.stock_scaled = stock_scaled
        self.inference = inference
        self.tries = tries
        self.model = model
        self.pool = pool
        if joint < 0:
            raise ValueError("joint must be >= 0")
        self.joint = joint

    def evidence(self, view: SeatView) -> tuple[int, list[tuple[int, float]]]:
        """What this bot's sampler reads from the public history (R21), once per decision:
        ``(excluded cards, weighted clues)``.  ``inference="r12"``: the R12 set-of-three
        proof and the default decline weights; ``"fitted"``: also the biggest-meld
        evidence (:func:`~gameweave.bots.determinize.biggest_meld_cards`) and the decline
        weights fitted on self-play (``clue_weights(view, fitted=True)``)."""
        if self.inference == "fitted":
            return impossible_cards(view) | biggest_meld_cards(view), clue_weights(view, fitted=True)
        return impossible_cards(view), clue_weights(view)

    def _sampler(self, view: SeatView) -> Sampler:
        """This bot's sampler for one view (a decision or an estimate), its inputs read from
        the view once: without ``informed`` search-v1's (the view's clues,
        :func:`~gameweave.bots.determinize.sample_world`); else the evidence of
        :meth:`evidence` (:func:`~gameweave.bots.determinize.sample_informed`), and with
        ``model`` worlds drawn from a :class:`~gameweave.bots.opponent.HandPool` built on
        the first call (from that call's rng).  Only ``view`` is sampled from (R21)."""
        if not self.informed:
            cl = clues(view)

            def uninformed(v: SeatView, rng: random.Random) -> World:
                return sample_world(view, rng, cl)
            return uninformed
        excl, wts = self.evidence(view)
        tries = self.tries
        if not self.model:
            def informed(v: SeatView, rng: random.Random) -> World:
                return sample_informed(view, rng, excl, wts, tries)
            return informed
        pools: list[HandPool] = []

        def modelled(v: SeatView, rng: random.Random) -> World:
            if not pools:
                pools.append(HandPool(view, rng, self.pool, self.model, excl, wts, tries))
            return pools[0].sample(rng)
        return modelled

    def _sample(self, view: SeatView, rng: random.Random) -> World:
        """One world of ``view`` from this bot's evidence, without the opponent model
        (``model``): what :meth:`_sampler` draws when ``model`` is off."""
        if not self.informed:
            return sample_world(view, rng)
        excl, wts = self.evidence(view)
        return sample_informed(view, rng, excl, wts, self.tries)

    def decide(self, view: SeatView) -> int:
        rng = view_rng(self.seed, view)
        legal, greedy = root_candidates(view, self.width)
        if len(legal) == 1:
            return legal[0]
        sampler = self._sampler(view)

        def sample() -> World:
            return sampler(view, rng)
        if self.tree:  # information-set MCTS over the seat's own decisions (bots/ismcts.py)
            return ismcts(view, legal, greedy, sample, rng, self.policy, self.iterations, self.tree,
                          self.prior, self.width, self.depth, self.seconds, self.reuse)
        # plans: one action, or with ``joint`` a meld and the seat's throw after it (R12, R13):
        # nothing new is seen between the two, so they are one decision of the seat's
        plans: list[tuple[int, ...]] = [(a,) for a in legal]
        head = legal.index(greedy)
        if self.joint:
            plans, head = self._joint_plans(view, legal, greedy, sample())
        if self.endgame and view.stock_count <= self.endgame:
            return self._endgame(view, plans, head, sample, rng)
        budget = self.iterations
        if self.stock_scaled:  # a short stock means short playouts: the same time buys more of them
            budget = int(budget * min(4.0, (20 + _STOCK_C) / (view.stock_count + _STOCK_C)))
        return plans[halving(view, plans, head, sample, rng, self.policy, budget, self.prior, self.seconds)][0]

    def _endgame(self, view: SeatView, plans: list[tuple[int, ...]], head: int,
                 sample: WorldSampler, rng: random.Random) -> int:
        """``endgame``: every plan valued on ``eg_worlds`` shared sampled worlds by an exact
        solve of the rest of each world (:func:`~gameweave.bots.endgame.solve`, R16, R17,
        at most ``eg_nodes`` states each, then playouts); exact ties go to the greedy's plan."""
        seat = view.seat
        total = [0.0] * len(plans)
        total[head] += 1e-9
        pol = self.policy
        for _ in range(self.eg_worlds):
            hand, stock = sample()
            base = world_state(view, hand, stock)
            for i, p in enumerate(plans):
                st = base.clone()
                for a in p:
                    st.apply(a)
                total[i] += solve(st, seat, pol, rng, self.eg_nodes, self.eg_width, self.eg_opp)
        return plans[max(range(len(plans)), key=lambda j: total[j])][0]

    def _joint_plans(self, view: SeatView, legal: tuple[int, ...], greedy: int,
                     world: World) -> tuple[list[tuple[int, ...]], int]:
        """``joint`` plans: each meld of ``legal`` that leaves the seat to throw (R12, R13) is
        paired with the greedy's ``joint`` best throws after it; other actions stay alone.
        The seat's view after its own meld is the same in every world (R21: its hand and
        the public tables), so one sampled ``world`` gives the throws.  Returns the plans
        and the index of the greedy's plan (its meld with the greedy's throw)."""
        seat = view.seat
        base = world_state(view, *world)
        plans: list[tuple[int, ...]] = []
        head = 0
        for a in legal:
            if not is_meld(a):
                if a == greedy:
                    head = len(plans)
                plans.append((a,))
                continue
            st = base.clone()
            st.apply(a)
            if st.phase != PH_THROW or st.to_act != seat:
                if a == greedy:
                    head = len(plans)
                plans.append((a,))
                continue
            after = seat_view(st, seat)
            g2 = choose_greedy(after)
            throws = candidates(after, self.joint)
            if g2 not in throws:
                throws = (g2,) + throws
            for t in throws:
                if a == greedy and t == g2:
                    head = len(plans)
                plans.append((a, t))
        return plans, head

    def estimate(self, view: SeatView) -> list[ActionEstimate]:
        """Every legal action's estimate from the view only (R21), with this bot's sampler
        and playout policy, ``estimate_worlds`` worlds each (see :func:`estimate_actions`).
        A pure function of (seed, view)."""
        return estimate_actions(view, self.seed, self.estimate_worlds, self.policy, self._sampler(view))


__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_POLICY", "SearchBot", "action_groups", "candidates", "estimate_actions",
           "make_policy", "rollout_action"]

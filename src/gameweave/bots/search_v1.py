"""``search-v1``: issue 8's determinized Monte Carlo search over a seat's view (R21), in
every profile (§V) — kept as the yardstick of the newer ``search``
(:mod:`gameweave.bots.search`): its decisions stay what they were (the same seed and view
give the same action; ``benchmarks/bots.py --fingerprint`` checks it), while its parts
live where ``search`` shares them (:mod:`~gameweave.bots.pimc`,
:mod:`~gameweave.bots.playout`).  In ``src/`` only the package imports this module.

Design (PIMC with sequential halving over shared worlds; docs/BOTS.md):

1. Trivial decisions (one legal action) are answered at once.  The candidates are
   :func:`~gameweave.bots.pimc.candidates`: the greedy's best throws, one table per card set for a meld
   decision (R18), and every action that is no meld.
2. A *world* is sampled consistently with the view
   (:func:`~gameweave.bots.determinize.sample_world`: the opponent's hand and the stock
   order drawn from the unseen cards, weighted by what the opponent refused, let die or
   threw) and the engine builds the simulation state from it
   (:func:`~gameweave.engine.state_from_view`).
3. Every candidate action still in the race is applied in that same world and the deal
   is played out to its end with a fast rule-of-thumb policy for both seats
   (:func:`~gameweave.bots.playout.rollout_action`: meld whenever possible, the option holding most cards first;
   throw the card that is least connected to the hand and does not extend the
   opponent's melds; never force), scored 1 for a win, 0.5 for tablas (R17), 0 for a loss.  Comparing actions
   on the same worlds (common random numbers) removes most of the card luck from the
   comparison.
4. *Sequential halving* (:func:`~gameweave.bots.pimc.halving`): the budget is split into ``ceil(log2(actions))`` rounds; after
   each round the worse half of the actions is dropped.  The greedy bot's choice gets a
   small head start, so near-ties go to it.
5. The last action standing is played.  (``mode="ucb"`` instead picks root actions by
   UCB1, one fresh world per playout.)

Strength is set by ``iterations`` (default :data:`DEFAULT_ITERATIONS` playouts per
decision) or by ``seconds`` (a wall-clock budget per decision; then decisions are no
longer reproducible).  A decision is a pure function of (seed, view): the bot keeps no
mutable state between calls and may serve many threads.
"""

from __future__ import annotations

import math
import random
import time

from ..engine import SeatView
from .base import Bot, view_rng
from .determinize import clues, sample_world, world_state
from .pimc import candidates, halving, root_candidates
from .playout import Policy, playout, rollout_action

DEFAULT_ITERATIONS = 400
"""Default playouts per non-trivial decision (keeps the p95 decision time well under 1 s)."""


class SearchV1Bot(Bot):
    """``search-v1``: PIMC determinized search with sequential halving (see the module docstring).

    Options: ``iterations`` (playouts per decision, default 400), ``seconds`` (wall-clock
    budget per decision instead; not reproducible), ``c`` (UCB exploration in ``mode="ucb"``, default 0.7),
    ``prior`` (head start of the greedy choice, in playout wins x 2, default 2),
    ``mode`` (``"halving"``, the default, or ``"ucb"``), ``width`` (throw and R18 meld decisions: only
    the greedy's ``width`` best throws are searched, default 6; 0 = all), ``policy`` (a
    playout policy ``policy(state, rng) -> action`` replacing
    :func:`~gameweave.bots.playout.rollout_action`).
    """

    name = "search-v1"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = None, c: float = 0.7, prior: float = 2.0, mode: str = "halving",
                 width: int = 6, policy: Policy | None = None):
        super().__init__(seed)
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.prior = prior
        if mode not in ("halving", "ucb"):
            raise ValueError("mode must be 'halving' or 'ucb'")
        self.mode = mode
        self.width = width
        self.policy = policy

    def decide(self, view: SeatView) -> int:
        rng = view_rng(self.seed, view)
        legal, greedy = root_candidates(view, self.width)
        if len(legal) == 1:
            return legal[0]
        if self.mode == "ucb":
            return legal[self._ucb(view, legal, greedy, rng)]
        cl = clues(view)

        def sample() -> tuple[int, list[int]]:
            return sample_world(view, rng, cl)

        best = halving(view, [(a,) for a in legal], legal.index(greedy), sample, rng,
                       self.policy or rollout_action, self.iterations, self.prior, self.seconds)
        return legal[best]

    def _ucb(self, view: SeatView, legal: tuple[int, ...], greedy: int, rng: random.Random) -> int:
        """UCB1 over the root actions, one fresh world per playout (``mode="ucb"``)."""
        seat = view.seat
        n_act = len(legal)
        visits = [0.0] * n_act
        total = [0.0] * n_act
        if self.prior > 0:
            g = legal.index(greedy)
            visits[g] += self.prior
            total[g] += self.prior * 0.75
        cl = clues(view)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        cexp = self.c
        it = 0
        while True:
            if deadline is None:
                if it >= self.iterations:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            if it <= n_act:
                i = it - 1
            else:
                logn = math.log(sum(visits))
                best = -1.0
                i = 0
                for j in range(n_act):
                    v = visits[j]
                    u = total[j] / v + cexp * math.sqrt(logn / v)
                    if u > best:
                        best, i = u, j
            hand, stock = sample_world(view, rng, cl)
            st = world_state(view, hand, stock)
            st.apply(legal[i])
            total[i] += playout(st, rng, seat, policy=self.policy)
            visits[i] += 1
        return max(range(n_act), key=lambda j: (visits[j], total[j] / visits[j] if visits[j] else 0))


__all__ = ["DEFAULT_ITERATIONS", "SearchV1Bot", "candidates", "playout", "rollout_action"]

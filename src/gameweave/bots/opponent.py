"""An opponent model for the sampler: the opponent's past throws as evidence about its
hand (issue 11, round 2; docs/BOTS.md, "What was tried, round 2").

The declines and the R12 proofs of :mod:`gameweave.bots.determinize` say little about
the opponent's hand (measured: their worlds' per-card log-loss against the true hand is
about that of a uniform draw).  What does say something is *which card it threw*: a
player who keeps pairs and near-sequences throws the card least useful to its hand.  So a
candidate hand is weighted by the likelihood of the opponent's throws under the greedy's
throw costs (:func:`~gameweave.bots.greedy.throw_scores`, R13), as a softmax with a
temperature: ``P(thrown | hand) = exp(-cost(thrown)/T) / sum_c exp(-cost(c)/T)``.

Each throw is judged from the opponent's view *at that time*, rebuilt by replaying the
public history on the candidate world (:func:`~gameweave.engine.state_from_view`'s deck, then
:meth:`GameState.new` and the public actions): nothing but the view and the candidate
hidden cards is read (R21).  The stock order does not enter the likelihood (a seat's view
holds the stock count only), so a pool of candidate hands is weighted once per decision
and worlds are drawn from it with a fresh stock order each (sampling-importance
resampling).
"""

from __future__ import annotations

import math
import random

from ..engine import GameState, SeatView, seat_view
from ..engine.actions import thrown_card
from .determinize import sample_informed, world_state
from .greedy import throw_scores

_MISS = 50.0
"""Cost gap charged to a thrown card the model cannot price (cannot happen in play)."""


def throw_loglik(view: SeatView, opp_hand: int, stock: list[int], temperature: float = 0.3) -> float:
    """Log-likelihood of the opponent's throws in ``view.history`` if its hand now is
    ``opp_hand`` (with ``stock`` the rest of the unseen cards, any order), under the
    greedy's throw costs as a softmax of ``temperature`` (R13; see the module docstring).
    Raises :class:`ValueError` if the cards do not fit the view."""
    w = world_state(view, opp_hand, stock)
    st = GameState.new(w.deck, opener=w.opener, rules=w.rules)
    opp = 1 - view.seat
    t = temperature
    ll = 0.0
    for ev in view.history:
        if ev.seat == opp and ev.kind == "throw" and ev.card >= 0:
            cost: dict[int, float] = {}
            for c_, _, a in throw_scores(seat_view(st, opp)):
                c = thrown_card(a)
                if c_ < cost.get(c, math.inf):
                    cost[c] = c_
            finite = [x for x in cost.values() if x != math.inf]
            if finite:
                m = min(finite)
                z = sum(math.exp(-(x - m) / t) for x in finite)
                got = cost.get(ev.card, math.inf)
                ll += -(min(got, m + _MISS) - m) / t - math.log(z)
        st.apply(ev.action)
    return ll


class HandPool:
    """Candidate opponent hands for one decision, weighted by :func:`throw_loglik`.

    ``HandPool(view, rng, size, temperature, excluded, weighted, tries)`` draws ``size``
    hands with :func:`~gameweave.bots.determinize.sample_informed` (the given evidence)
    and weighs them; :meth:`sample` then draws ``(opp_hand, stock)`` like the samplers of
    :mod:`gameweave.bots.determinize`: a hand by weight, the stock freshly shuffled.  From
    the view only (R21); a pure function of the rng's state."""

    def __init__(self, view: SeatView, rng: random.Random, size: int = 64, temperature: float = 0.3,
                 excluded: int | None = None, weighted: list[tuple[int, float]] | None = None, tries: int = 12):
        if size < 1:
            raise ValueError("size must be at least 1")
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        self.unseen = view.unseen()
        hands: list[int] = []
        lls: list[float] = []
        for _ in range(size):
            h, s = sample_informed(view, rng, excluded, weighted, tries)
            hands.append(h)
            lls.append(throw_loglik(view, h, s, temperature))
        mx = max(lls)
        ws = [math.exp(x - mx) for x in lls]
        tot = sum(ws)
        acc = 0.0
        self.cum: list[float] = []
        for x in ws:
            acc += x / tot
            self.cum.append(acc)
        self.hands = hands
        self.ess = tot * tot / sum(x * x for x in ws)
        """Effective sample size of the weights (1 .. size)."""

    def sample(self, rng: random.Random) -> tuple[int, list[int]]:
        """One world's ``(opp_hand, stock)``: a pooled hand by weight, the stock shuffled."""
        x = rng.random()
        cum = self.cum
        lo, hi = 0, len(cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        h = self.hands[lo]
        rest = self.unseen & ~h
        stock = [c for c in range(40) if rest >> c & 1]
        rng.shuffle(stock)
        return h, stock


__all__ = ["HandPool", "throw_loglik"]

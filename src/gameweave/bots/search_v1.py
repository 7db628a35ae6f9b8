"""``search-v1``: issue 8's determinized Monte Carlo search over a seat's view (R21), in
every profile (§V) — kept unchanged as the yardstick of the newer ``search``
(:mod:`gameweave.bots.search`).

Design (PIMC with sequential halving over shared worlds; docs/BOTS.md):

1. Trivial decisions (one legal action) are answered at once.  The candidates are
   :func:`candidates`: the greedy's best throws, one table per card set for a meld
   decision (R18), and every action that is no meld.
2. A *world* is sampled consistently with the view
   (:func:`~gameweave.bots.determinize.sample_world`: the opponent's hand and the stock
   order drawn from the unseen cards, weighted by what the opponent refused, let die or
   threw) and the engine builds the simulation state from it
   (:meth:`~gameweave.engine.GameState.from_view`).
3. Every candidate action still in the race is applied in that same world and the deal
   is played out to its end with a fast rule-of-thumb policy for both seats
   (:func:`rollout_action`: meld whenever possible, the option holding most cards first;
   throw the card that is least connected to the hand and does not extend the
   opponent's melds; never force), scored 1 for a win, 0.5 for tablas (R17), 0 for a loss.  Comparing actions
   on the same worlds (common random numbers) removes most of the card luck from the
   comparison.
4. *Sequential halving*: the budget is split into ``ceil(log2(actions))`` rounds; after
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
import time

from ..engine import PH_FORCED, PH_TAKE, PH_THROW, PH_TURNED, SeatView
from ..engine.actions import REFUSE, THROW_KIND, TURN, is_meld, kind_of, meld_cards, throw_action
from .base import Bot, view_rng
from .determinize import RANK_OTHERS as _SAME
from .determinize import clues, sample_world, world_state
from .greedy import best_melds, choose_greedy, throw_scores

DEFAULT_ITERATIONS = 400
"""Default playouts per non-trivial decision (keeps the p95 decision time well under 1 s)."""

_ADJ = tuple(((1 << (c - 4)) if c >= 4 else 0) | ((1 << (c + 4)) if c + 4 < 40 else 0) for c in range(40))
_GAP = tuple(((1 << (c - 8)) if c >= 8 else 0) | ((1 << (c + 8)) if c + 8 < 40 else 0) for c in range(40))


def throw_score(st, seat: int, c: int, peek: bool = False) -> int:
    """The playout's cost of throwing card ``c`` from ``seat``'s hand (R13), as
    :func:`rollout_action` computes it inline: 3 if the hand holds a card of its rank, 2
    if a neighbour of its suit, 1 if one two ranks away, +6 if it extends the opponent's
    table (``extensions``) or, with ``peek``, the simulated opponent can meld it
    (``flow.can_meld``; a sampled world, never the real deal, R21).  Lower is thrown."""
    hand = st.hands[seat]
    s = 0
    if hand & _SAME[c]:
        s += 3
    if hand & _ADJ[c]:
        s += 2
    if hand & _GAP[c]:
        s += 1
    if st.extensions[1 - seat] >> c & 1 or (peek and st.flow.can_meld(st, 1 - seat, c)):
        s += 6
    return s


def _biggest(opts: list[int]) -> int:
    best = opts[0]
    bn = meld_cards(best).bit_count()
    for a in opts:
        n = meld_cards(a).bit_count()
        if n > bn:
            best, bn = a, n
    return best


_BIGGEST: dict[tuple[int | None, int, int], int] = {}
"""Memo of the playout policy's table in profiles that rearrange (R18): the options
depend only on the cap, the cards that must lie on the table (table plus card) and the
hand, so the biggest table for ``(max_sequence, table | card, hand)`` (or -1: none) is
computed once per process (bounded; cleared when full)."""
_BIGGEST_MAX = 1 << 18


def _rollout_meld(st, seat: int, card: int) -> int:
    """The playout's ``meld`` action for ``card`` (the biggest option), or -1 if none."""
    flow = st.flow
    if not flow.rearranging:
        if not flow.can_meld(st, seat, card):
            return -1
        opts = st.meld_options(seat, card)
        return opts[0] if len(opts) == 1 else _biggest(opts)
    key = (st.rules.max_sequence, st.table_mask(seat) | 1 << card, st.hands[seat])
    a = _BIGGEST.get(key)
    if a is None:
        if len(_BIGGEST) >= _BIGGEST_MAX:
            _BIGGEST.clear()
        a = _BIGGEST[key] = _biggest(st.meld_options(seat, card)) if flow.can_meld(st, seat, card) else -1
    return a


def rollout_action(st, rng) -> int:
    """The fast playout policy's action in a simulation state ``st`` (both seats, every
    profile).

    Meld when possible (R12, R18, and a forced card's ``meld``, R18e): the option whose
    result holds most cards (``meld_cards(a).bit_count()``: in gameweave the biggest
    meld, where tables are rearranged the table with most hand cards added, which
    includes any option reaching eleven); otherwise ``turn``/``refuse`` (never force, never
    force back).  Throw (R13) the hand card with the lowest score ``3*pair + 2*adjacent +
    1*gap + 6*extends-opponent``; ties go to the higher card.
    """
    ph = st.phase
    seat = st.to_act
    if ph == PH_THROW:
        hand = st.hands[seat]
        oext = st.extensions[1 - seat]
        best = -1
        bs = 99
        h = hand
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            s = 0
            if hand & _SAME[c]:
                s += 3
            if hand & _ADJ[c]:
                s += 2
            if hand & _GAP[c]:
                s += 1
            if oext & low:
                s += 6
            if s <= bs:
                bs = s
                best = c
        return throw_action(best)
    if ph == PH_FORCED:
        return _rollout_meld(st, seat, st.forced)
    if ph == PH_TAKE or ph == PH_TURNED:
        a = _rollout_meld(st, seat, st.card)
        if a >= 0:
            return a
        return TURN if ph == PH_TAKE else REFUSE
    return TURN


def playout(st, rng, seat: int, max_steps: int = 400, policy=None) -> float:
    """Play simulation state ``st`` to its end with :func:`rollout_action`; returns the
    result for ``seat``: 1 win, 0.5 tablas (R17), 0 loss.  ``policy(st, rng) -> action``
    replaces :func:`rollout_action` when given."""
    pol = policy or rollout_action
    apply = st.apply
    n = 0
    while not st.is_over and n < max_steps:
        apply(pol(st, rng))
        n += 1
    if st.winner < 0:
        return 0.5
    return 1.0 if st.winner == seat else 0.0


def candidates(view: SeatView, width: int) -> tuple[int, ...]:
    """The actions the search compares (a subset of ``view.legal``, in legal order).

    Throws: the greedy's ``width`` best (0 = all).  Meld decisions: one table per distinct
    card set (R18: tables of the same cards play alike), at most ``width`` of them ranked
    by the greedy (an option reaching eleven first), plus every action that is no meld
    (``turn``, ``refuse``, forces, ``force`` back)."""
    legal = view.legal
    if not width:
        width = len(legal)
    if kind_of(legal[0]) == THROW_KIND:
        if len(legal) <= width:
            return legal
        ranked = sorted(throw_scores(view, legal))
        keep = sorted(i for _, i, _ in ranked[:width])
        return tuple(legal[i] for i in keep)
    melds = best_melds(view, legal)
    if len(melds) <= width and len(melds) == sum(1 for a in legal if is_meld(a)):
        return legal
    keep_set = set(melds[:width])
    return tuple(a for a in legal if a in keep_set or not is_meld(a))


class SearchV1Bot(Bot):
    """``search-v1``: PIMC determinized search with sequential halving (see the module docstring).

    Options: ``iterations`` (playouts per decision, default 400), ``seconds`` (wall-clock
    budget per decision instead; not reproducible), ``c`` (UCB exploration in ``mode="ucb"``, default 0.7),
    ``prior`` (head start of the greedy choice, in playout wins x 2, default 2),
    ``mode`` (``"halving"``, the default, or ``"ucb"``), ``width`` (throw and R18 meld decisions: only
    the greedy's ``width`` best throws are searched, default 6; 0 = all), ``policy`` (a
    playout policy ``policy(state, rng) -> action`` replacing :func:`rollout_action`).
    """

    name = "search-v1"

    def __init__(self, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
                 seconds: float | None = None, c: float = 0.7, prior: float = 2.0, mode: str = "halving",
                 width: int = 6, policy=None):
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
        seat = view.seat
        greedy = choose_greedy(view)
        legal = candidates(view, self.width)
        if len(legal) == 1:
            return legal[0]
        if greedy not in legal:  # cannot happen (the greedy's choice ranks first); be safe
            legal = legal + (greedy,)
        n_act = len(legal)
        if self.mode == "ucb":
            return legal[self._ucb(view, legal, greedy, rng)]
        # sequential halving over shared worlds (paired comparisons, PIMC style)
        cl = clues(view)
        alive = list(range(n_act))
        total = [0.0] * n_act
        budget = self.iterations
        rounds = max(1, math.ceil(math.log2(n_act)))
        gi = legal.index(greedy)
        total[gi] += self.prior * 0.5  # a head start: ties and near-ties go to the greedy choice
        spent = 0
        t0 = time.perf_counter()
        for r in range(rounds):
            per = max(1, (budget - spent) // (len(alive) * (rounds - r)))
            slice_end = None if self.seconds is None else t0 + self.seconds * (r + 1) / rounds
            if slice_end is not None and r > 0 and time.perf_counter() >= t0 + self.seconds:
                alive.sort(key=lambda j: -total[j])  # out of time: the best so far (same worlds)
                break
            k = 0
            while (k < per) if slice_end is None else (k == 0 or time.perf_counter() < slice_end):
                hand, stock = sample_world(view, rng, cl)
                base = world_state(view, hand, stock)
                for i in alive:
                    st = base.clone()
                    st.apply(legal[i])
                    total[i] += playout(st, rng, seat, policy=self.policy)
                spent += len(alive)
                k += 1
            if len(alive) <= 1:
                break
            alive.sort(key=lambda j: -total[j])
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return legal[alive[0]]

    def _ucb(self, view, legal, greedy, rng) -> int:
        seat = view.seat
        n_act = len(legal)
        visits = [0] * n_act
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

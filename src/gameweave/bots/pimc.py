"""What the searches share: the root candidates and determinized search with sequential
halving over shared worlds (PIMC; docs/BOTS.md), for ``search`` and ``search-v1``
(:mod:`~gameweave.bots.search`, :mod:`~gameweave.bots.search_v1`) and the tree search
(:mod:`~gameweave.bots.ismcts`).

A search is given its sampler (``sample() -> (opponent hand, stock)``, from the seat's
view only, R21) and its playout policy (:data:`~gameweave.bots.playout.Policy`); it
builds each world with :func:`~gameweave.bots.determinize.world_state` and plays it out
with :func:`~gameweave.bots.playout.playout`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..engine import SeatView
from ..engine.actions import THROW_KIND, is_meld, kind_of
from .determinize import World, world_state
from .greedy import best_melds, choose_greedy, throw_scores
from .playout import Policy, playout

WorldSampler = Callable[[], World]
"""``sample() -> World``: one world consistent with the deciding seat's view (R21)."""


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


def root_candidates(view: SeatView, width: int) -> tuple[tuple[int, ...], int]:
    """``(candidates, greedy)``: the root actions a search compares (:func:`candidates`,
    with the greedy's choice added should it be missing) and the greedy's choice, which
    gets the searches' head start.  One candidate only: the decision is made."""
    greedy = choose_greedy(view)
    legal = candidates(view, width)
    if len(legal) > 1 and greedy not in legal:  # cannot happen (the greedy's choice ranks first); be safe
        legal = legal + (greedy,)
    return legal, greedy


def halving(view: SeatView, plans: Sequence[tuple[int, ...]], head: int, sample: WorldSampler,
            rng: random.Random, policy: Policy, budget: int, prior: float, seconds: float | None = None) -> int:
    """Sequential halving over shared worlds: the index of the best of ``plans`` (each a
    run of the seat's own actions, played in a row).

    The budget of ``budget`` playouts is split into ``ceil(log2(len(plans)))`` rounds; in
    each round every plan still in the race is played out (``policy``) on the same
    sampled worlds (common random numbers) and the worse half is dropped.  Plan ``head``
    (the greedy's) starts with ``prior / 2`` wins, so near-ties go to it.  With
    ``seconds`` each round gets its share of that wall-clock budget instead (then the
    result depends on the clock)."""
    seat = view.seat
    n_act = len(plans)
    alive = list(range(n_act))
    total = [0.0] * n_act
    rounds = max(1, math.ceil(math.log2(n_act)))
    total[head] += prior * 0.5  # a head start: ties and near-ties go to the greedy choice
    spent = 0
    t0 = time.perf_counter()
    for r in range(rounds):
        per = max(1, (budget - spent) // (len(alive) * (rounds - r)))
        slice_end = None if seconds is None else t0 + seconds * (r + 1) / rounds
        if seconds is not None and r > 0 and time.perf_counter() >= t0 + seconds:
            alive.sort(key=lambda j: -total[j])  # out of time: the best so far (same worlds)
            break
        k = 0
        while (k < per) if slice_end is None else (k == 0 or time.perf_counter() < slice_end):
            base = world_state(view, *sample())
            for i in alive:
                st = base.clone()
                for a in plans[i]:
                    st.apply(a)
                total[i] += playout(st, rng, seat, policy=policy)
            spent += len(alive)
            k += 1
        if len(alive) <= 1:
            break
        alive.sort(key=lambda j: -total[j])
        alive = alive[: max(1, (len(alive) + 1) // 2)]
    return alive[0]


__all__ = ["WorldSampler", "candidates", "halving", "root_candidates"]

"""The bots' estimate of every legal action (issue 11): each action's chances to win, to
end in tablas or to lose, from the seat's view only (R21).

:func:`estimate_actions` is the shared evaluator behind
:meth:`Bot.estimate <gameweave.bots.base.Bot.estimate>` (the package registers it as the
default estimator, :func:`~gameweave.bots.base.set_default_estimator`),
:meth:`SearchBot.estimate <gameweave.bots.search.SearchBot.estimate>`, hints and
analysis (:mod:`gameweave.bots.advice`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..engine import SeatView
from ..engine.actions import is_meld, meld_cards
from .base import ActionEstimate, view_key
from .determinize import World, sample_informed, world_state
from .playout import DEFAULT_POLICY, Policy, playout

Sampler = Callable[[SeatView, random.Random], World]
"""``sampler(view, rng) -> (opponent hand, stock)``: one world consistent with ``view``
(R21), e.g. :func:`~gameweave.bots.determinize.sample_informed`."""


def action_groups(view: SeatView) -> list[list[int]]:
    """``view.legal`` grouped into actions that play alike: where tables are rearranged
    (R18) every ``meld`` table of the same card set is one group (taking, forcing and
    winning look only at the cards, R18d-f); every other action is a group of its own.
    Groups keep legal order; the first member represents the group."""
    groups: list[list[int]] = []
    by_cards: dict[int, list[int]] = {}
    for a in view.legal:
        if view.rearranging and is_meld(a):
            key = meld_cards(a)
            g = by_cards.get(key)
            if g is not None:
                g.append(a)
                continue
            g = by_cards[key] = [a]
            groups.append(g)
        else:
            groups.append([a])
    return groups


def estimate_actions(view: SeatView, seed: int | None, worlds: int = 64, policy: Policy | None = None,
                     sampler: Sampler | None = None, seconds: float | None = None) -> list[ActionEstimate]:
    """Estimate every legal action of ``view`` from the view only (R21).

    Each of ``worlds`` sampled worlds (``sampler(view, rng)``, default
    :func:`~gameweave.bots.determinize.sample_informed`; built by
    :func:`~gameweave.engine.state_from_view`) is played out once after *every* action group
    (:func:`action_groups`; common random numbers), with ``policy`` (default: the
    ``search`` bot's, :data:`~gameweave.bots.playout.DEFAULT_POLICY`).  ``seconds`` stops
    early (after at least 4 worlds).  Returns one
    :class:`~gameweave.bots.base.ActionEstimate` per action of ``view.legal``, in legal
    order; members of a group share its numbers.  A pure function of (seed, view) when
    ``seconds`` is None.  Raises :class:`ValueError` if the view has no legal actions."""
    legal = view.legal
    if not legal:
        raise ValueError("no legal actions: it is not this seat's turn")
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    rng = random.Random(f"{seed}#estimate#{view_key(view)}")
    pol = policy or DEFAULT_POLICY
    samp = sampler or sample_informed
    groups = action_groups(view)
    seat = view.seat
    wins = [0] * len(groups)
    ties = [0] * len(groups)
    deadline = None if seconds is None else time.perf_counter() + seconds
    n = 0
    for _ in range(worlds):
        if deadline is not None and n >= 4 and time.perf_counter() >= deadline:
            break
        base = world_state(view, *samp(view, rng))
        for gi, g in enumerate(groups):
            st = base.clone()
            st.apply(g[0])
            r = playout(st, rng, seat, policy=pol)
            if r == 1.0:
                wins[gi] += 1
            elif r == 0.5:
                ties[gi] += 1
        n += 1
    est: dict[int, ActionEstimate] = {}
    for gi, g in enumerate(groups):
        w, t = wins[gi] / n, ties[gi] / n
        e = ActionEstimate(g[0], w, t, max(0.0, 1.0 - w - t), n)
        for a in g:
            est[a] = e if a == g[0] else ActionEstimate(a, e.win, e.tablas, e.loss, n)
    return [est[a] for a in legal]


__all__ = ["Sampler", "action_groups", "estimate_actions"]

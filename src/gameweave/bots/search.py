"""``search``: the default search bot — determinized Monte Carlo search over a seat's view
(R21), in every profile (§V), that can also explain itself (:meth:`SearchBot.estimate`).

It is issue 8's design (``search-v1``, :mod:`gameweave.bots.search_v1`: PIMC with
sequential halving over shared worlds, see docs/BOTS.md) with the levers of issue 11
that were measured to help or at least not to hurt (docs/BOTS.md, "What was tried"):

* **Exact inference** (:func:`~gameweave.bots.determinize.sample_informed`): a world
  never deals the opponent a card that the public history proves it does not hold (the
  R12 set-of-three proof, :func:`~gameweave.bots.determinize.impossible_cards`), and its
  declines are weighted per kind (a throw weighs more than a let-die or a refusal).
* **A playout policy in which forcing matters** (:func:`make_policy`): optionally the
  playout forces (R15) a card the opponent could take anyway when it holds at least four
  cards (never into eleven, R16), and looks at the simulated opponent's hand to avoid
  throwing it a card it can meld.

A decision is a pure function of (seed, view) (with ``iterations``; a ``seconds`` budget
makes it depend on the clock): the bot keeps no mutable state between calls and may serve
many threads.  :func:`estimate_actions` is the shared evaluator behind
:meth:`Bot.estimate <gameweave.bots.base.Bot.estimate>`, hints and analysis
(:mod:`gameweave.bots.advice`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..engine import PH_FORCED, PH_TAKE, PH_THROW, PH_TURNED, GameState, SeatView, seat_view
from ..engine.actions import REFUSE, TURN, is_meld, meld_cards, refuse_action, throw_action
from .base import ActionEstimate, Bot, view_key, view_rng
from .determinize import (
    biggest_meld_cards, clue_weights, clues, impossible_cards, sample_informed, sample_world, world_state,
)
from .endgame import solve
from .greedy import choose_greedy
from .ismcts import ismcts
from .opponent import HandPool
from .search_v1 import _rollout_meld, candidates, playout, rollout_action, throw_score

DEFAULT_ITERATIONS = 400
"""Default playouts per non-trivial decision (p95 decision time well under 1 s)."""

_STOCK_C = 4
"""``stock_scaled``: the budget is ``iterations * min(4, (20 + C) / (stock + C))``."""

Policy = Callable[[GameState, random.Random], int]
Sampler = Callable[[SeatView, random.Random], tuple[int, list[int]]]


def make_policy(force: bool = False, peek: bool = False, force_min_hand: int = 4, decline: int = 0) -> Policy:
    """A playout policy for both seats of a simulation state (every profile).

    It is :func:`~gameweave.bots.search_v1.rollout_action` (meld when possible, the
    option holding most cards; throw the least connected card) plus three switches:

    * ``force``: a throw or a refusal is forced onto the opponent (R15, R18e) when it
      can be and the opponent holds at least ``force_min_hand`` cards and would not
      reach eleven (R16) — so forcing and letting a card go differ in the playouts.
    * ``peek``: the thrower avoids a card the *simulated* opponent can meld with its
      hand (``flow.can_meld``), not only a card that extends its table.  The playout
      state is a sampled world, never the real deal (R21).
    * ``decline`` (a throw score, 0 = off): a card that would be melded with no hand
      card is declined (``turn``; a turned card is refused only if the opponent cannot
      meld it) when every throw left afterwards scores at least ``decline`` (3 = each
      breaks a pair, 6 = each feeds the opponent): the seat weighs what taking the
      card makes it throw, so forcing such a card (R15) differs from letting it go.

    With all off it is exactly ``rollout_action``.
    """
    if not force and not peek and not decline:
        return rollout_action

    def declines(st: GameState, seat: int, a: int, turned: bool) -> bool:
        hand = st.hands[seat]
        if meld_cards(a) & hand:
            return False  # the meld uses hand cards: always take
        if turned and st.flow.can_meld(st, 1 - seat, st.card):
            return False  # refusing would hand it to the opponent
        h = hand
        while h:
            low = h & -h
            h ^= low
            if throw_score(st, seat, low.bit_length() - 1, peek) < decline:
                return False
        return True

    def policy(st: GameState, rng: random.Random) -> int:
        ph = st.phase
        seat = st.to_act
        opp = 1 - seat
        if ph == PH_THROW:
            best = -1
            bs = 99
            h = st.hands[seat]
            while h:
                low = h & -h
                h ^= low
                c = low.bit_length() - 1
                s = throw_score(st, seat, c, peek)
                if s <= bs:  # the highest of the cheapest, as rollout_action
                    bs = s
                    best = c
            if force and _may_force(st, opp, force_min_hand):
                targets = st.force_targets(opp, best)
                if targets:
                    return throw_action(best, targets[0])
            return throw_action(best)
        if ph == PH_FORCED:
            return _rollout_meld(st, seat, st.forced)
        if ph == PH_TAKE or ph == PH_TURNED:
            a = _rollout_meld(st, seat, st.card)
            if a >= 0 and not (decline and declines(st, seat, a, ph == PH_TURNED)):
                return a
            if ph == PH_TAKE:
                return TURN
            if force and _may_force(st, opp, force_min_hand):
                targets = st.force_targets(opp, st.card)
                if targets:
                    return refuse_action(targets[0])
            return REFUSE
        return TURN

    return policy


def _may_force(st: GameState, target: int, min_hand: int) -> bool:
    return st.hands[target].bit_count() >= min_hand and st.table_counts[target] + 1 < 11


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
    :meth:`GameState.from_view`) is played out once after *every* action group
    (:func:`action_groups`; common random numbers), with ``policy`` (default: the
    ``search`` bot's).  ``seconds`` stops early (after at least 4 worlds).  Returns one
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
        hand, stock = samp(view, rng)
        base = world_state(view, hand, stock)
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


DEFAULT_POLICY: Policy = make_policy(force=False, peek=False)
"""The playout policy of ``search`` at its default settings (see docs/BOTS.md for what
was measured)."""


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
        """The sampler of one view: with ``model`` a :class:`~gameweave.bots.opponent.HandPool`
        built on the first call (from that call's rng), else :meth:`_sample`."""
        if not self.model or not self.informed:
            return self._sample
        pools: list[HandPool] = []

        def sample(v: SeatView, rng: random.Random) -> tuple[int, list[int]]:
            if not pools:
                excl, wts = self.evidence(view)
                pools.append(HandPool(view, rng, self.pool, self.model, excl, wts, self.tries))
            return pools[0].sample(rng)
        return sample

    def _sample(self, view: SeatView, rng: random.Random) -> tuple[int, list[int]]:
        if not self.informed:
            return sample_world(view, rng)
        excl, wts = self.evidence(view)
        return sample_informed(view, rng, excl, wts, self.tries)

    def decide(self, view: SeatView) -> int:
        rng = view_rng(self.seed, view)
        seat = view.seat
        greedy = choose_greedy(view)
        legal = candidates(view, self.width)
        if len(legal) == 1:
            return legal[0]
        if greedy not in legal:  # cannot happen (the greedy's choice ranks first); be safe
            legal = legal + (greedy,)
        # the sampler's inputs are read once per decision
        if self.informed and self.model:
            excl, wts = self.evidence(view)
            hp = HandPool(view, rng, self.pool, self.model, excl, wts, self.tries)

            def sample() -> tuple[int, list[int]]:
                return hp.sample(rng)
        elif self.informed:
            excl, wts = self.evidence(view)
            tries = self.tries

            def sample() -> tuple[int, list[int]]:
                return sample_informed(view, rng, excl, wts, tries)
        else:
            cl = clues(view)

            def sample() -> tuple[int, list[int]]:
                return sample_world(view, rng, cl)
        if self.tree:  # information-set MCTS over the seat's own decisions (bots/ismcts.py)
            return ismcts(view, legal, greedy, sample, rng, self.policy, self.iterations, self.tree,
                          self.prior, self.width, self.depth, self.seconds, self.reuse)
        # plans: one action, or with ``joint`` a meld and the seat's throw after it (R12, R13):
        # nothing new is seen between the two, so they are one decision of the seat's
        plans: list[tuple[int, ...]] = [(a,) for a in legal]
        head = legal.index(greedy)
        if self.joint:
            plans, head = self._joint_plans(view, legal, greedy, sample())
        n_act = len(plans)
        if self.endgame and view.stock_count <= self.endgame:
            return self._endgame(view, plans, head, sample, rng)
        alive = list(range(n_act))
        total = [0.0] * n_act
        budget = self.iterations
        if self.stock_scaled:  # a short stock means short playouts: the same time buys more of them
            budget = int(budget * min(4.0, (20 + _STOCK_C) / (view.stock_count + _STOCK_C)))
        rounds = max(1, math.ceil(math.log2(n_act)))
        total[head] += self.prior * 0.5  # near-ties go to the greedy choice
        spent = 0
        t0 = time.perf_counter()
        pol = self.policy
        for r in range(rounds):
            per = max(1, (budget - spent) // (len(alive) * (rounds - r)))
            slice_end = None if self.seconds is None else t0 + self.seconds * (r + 1) / rounds
            if slice_end is not None and r > 0 and time.perf_counter() >= t0 + self.seconds:
                alive.sort(key=lambda j: -total[j])
                break
            k = 0
            while (k < per) if slice_end is None else (k == 0 or time.perf_counter() < slice_end):
                hand, stock = sample()
                base = world_state(view, hand, stock)
                for i in alive:
                    st = base.clone()
                    for a in plans[i]:
                        st.apply(a)
                    total[i] += playout(st, rng, seat, policy=pol)
                spent += len(alive)
                k += 1
            if len(alive) <= 1:
                break
            alive.sort(key=lambda j: -total[j])
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return plans[alive[0]][0]

    def _endgame(self, view: SeatView, plans: list[tuple[int, ...]], head: int,
                 sample: Callable[[], tuple[int, list[int]]], rng: random.Random) -> int:
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
                     world: tuple[int, list[int]]) -> tuple[list[tuple[int, ...]], int]:
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
        samp: Sampler = self._sampler(view) if self.model or self.inference != "r12" or self.tries != 12 else (
            sample_informed if self.informed else sample_world)
        return estimate_actions(view, self.seed, self.estimate_worlds, self.policy, samp)


__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_POLICY", "SearchBot", "action_groups", "estimate_actions",
           "make_policy"]

"""An exact endgame for ``search`` (issue 11, round 3): when the stock is short, each
candidate in each sampled world is valued by solving the rest of that (fully determined)
world instead of by one rule-of-thumb playout.

A sampled world (:func:`~gameweave.bots.determinize.world_state`, built from the seat's
view and the sampled cards only, R21) fixes the opponent's hand and the stock order, so
the rest of the deal is a finite two-player game of perfect information: it ends when a
player reaches eleven melded cards (R16) or the stock is empty when a card must be turned
(R17, tablas).  :func:`solve` searches it by alpha-beta over the seats' choices, valued
from ``seat``'s side: 1 win, 0.5 tablas, 0 loss.

Branching is cut with the searches' own candidates:

* meld decisions (R10, R12, R18d; a forced card, R18e): one action per distinct card set
  (:func:`~gameweave.engine.actions.meld_cards`: tables of the same cards play alike,
  R18), plus every action that is no meld (``turn``, ``refuse``, the forces R15 and
  ``force`` back R19);
* throws (R13, R15): the ``throw_width`` best cards by the playout's throw score
  (pair / adjacent / gap / feeds-the-opponent), each plain and with its forces.

The playout policy's own choice is searched first (move ordering).  After ``nodes``
expanded states (a cap per solve) every state not yet searched is valued by one playout
of the policy instead.  With ``opponent="policy"`` the opponent's replies are the playout
policy's (only the seat's own choices are maximised): less clairvoyant, and much cheaper.
"""

from __future__ import annotations

import random

from ..engine import PH_THROW, GameState
from ..engine.actions import is_meld, meld_cards, thrown_card
from .playout import Policy, playout, throw_score


def moves(st: GameState, first: int, throw_width: int) -> list[int]:
    """The actions :func:`solve` searches in ``st`` (a subset of its legal actions), the
    policy's choice ``first`` first (see the module docstring)."""
    legal = st.legal_actions()
    if len(legal) <= 1:
        return legal
    out = [first]
    if st.phase == PH_THROW:
        seat = st.to_act
        cards = sorted({thrown_card(a) for a in legal},
                       key=lambda c: (throw_score(st, seat, c), -c))
        keep = set(cards[:throw_width]) if throw_width else set(cards)
        for a in legal:
            if a != first and thrown_card(a) in keep:
                out.append(a)
        return out
    seen = {meld_cards(first)} if is_meld(first) else set()
    for a in legal:
        if a == first:
            continue
        if is_meld(a):
            k = meld_cards(a)
            if k in seen:
                continue
            seen.add(k)
        out.append(a)
    return out


class _Ctx:
    __slots__ = ("seat", "cap", "nodes", "policy", "rng", "width", "opp_policy")

    def __init__(self, seat: int, cap: int, policy: Policy, rng: random.Random, width: int, opp_policy: bool):
        self.seat = seat
        self.cap = cap
        self.nodes = 0
        self.policy = policy
        self.rng = rng
        self.width = width
        self.opp_policy = opp_policy


def _value(st: GameState, seat: int) -> float:
    if st.winner < 0:
        return 0.5
    return 1.0 if st.winner == seat else 0.0


def _ab(st: GameState, alpha: float, beta: float, cx: _Ctx) -> float:
    seat = cx.seat
    pol = cx.policy
    rng = cx.rng
    while True:
        if st.is_over:
            return _value(st, seat)
        if cx.nodes >= cx.cap:
            return playout(st, rng, seat, policy=pol)
        cx.nodes += 1
        me = st.to_act == seat
        first = pol(st, rng)
        if not me and cx.opp_policy:
            st.apply(first)
            continue
        ms = moves(st, first, cx.width)
        if len(ms) == 1:
            st.apply(ms[0])
            continue
        break
    if me:
        best = 0.0
        for a in ms:
            ch = st.clone()
            ch.apply(a)
            v = _ab(ch, alpha, beta, cx)
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
                if alpha >= beta or best >= 1.0:
                    break
        return best
    best = 1.0
    for a in ms:
        ch = st.clone()
        ch.apply(a)
        v = _ab(ch, alpha, beta, cx)
        if v < best:
            best = v
            if best < beta:
                beta = best
            if alpha >= beta or best <= 0.0:
                break
    return best


def solve(st: GameState, seat: int, policy: Policy, rng: random.Random, nodes: int = 2000,
          throw_width: int = 4, opponent: str = "max") -> float:
    """The value of simulation state ``st`` for ``seat`` (1 win, 0.5 tablas, 0 loss):
    alpha-beta over both seats' choices (``opponent="max"``; ``"policy"``: the opponent
    plays ``policy``), ``nodes`` expanded states at most, then ``policy`` playouts.
    ``st`` is consumed."""
    if opponent not in ("max", "policy"):
        raise ValueError("opponent must be 'max' or 'policy'")
    cx = _Ctx(seat, nodes, policy, rng, throw_width, opponent == "policy")
    return _ab(st, 0.0, 1.0, cx)


__all__ = ["moves", "solve"]

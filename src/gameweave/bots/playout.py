"""The searches' playouts: a fast rule-of-thumb policy for both seats of a simulation state
and the loop that plays a state to its end with it (every profile, §V).

One home for the policy that ``search``, ``search-v1``, the endgame solver and the tree
search (:mod:`~gameweave.bots.search`, :mod:`~gameweave.bots.search_v1`,
:mod:`~gameweave.bots.endgame`, :mod:`~gameweave.bots.ismcts`) value their leaves with.
As OpenSpiel's ``mcts.RandomRolloutEvaluator`` is given to its ``MCTSBot``, a search is
*given* its policy (a :data:`Policy`, ``policy(state, rng) -> action``; default
:func:`rollout_action`, or one built by :func:`make_policy`) and scores a leaf with
:func:`playout`.

A simulation state is a sampled world (:func:`~gameweave.bots.determinize.world_state`),
never the real deal (R21): the policy may read both hands of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import PH_FORCED, PH_TAKE, PH_THROW, PH_TURNED, GameState, native
from ..engine.actions import REFUSE, TURN, meld_cards, refuse_action, throw_action
from ..engine.cards import RANK_OTHERS as _SAME

Policy = Callable[[GameState, random.Random], int]
"""A playout policy: ``policy(state, rng) -> action``, a legal action of ``state.to_act``."""

_ADJ = tuple(((1 << (c - 4)) if c >= 4 else 0) | ((1 << (c + 4)) if c + 4 < 40 else 0) for c in range(40))
_GAP = tuple(((1 << (c - 8)) if c >= 8 else 0) | ((1 << (c + 8)) if c + 8 < 40 else 0) for c in range(40))


def throw_score(st: GameState, seat: int, c: int, peek: bool = False) -> int:
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


def rollout_meld(st: GameState, seat: int, card: int) -> int:
    """The playout's ``meld`` action for ``card`` by ``seat`` (R12, R18; R18e for a forced
    card): the option whose result holds most cards (the first of them), or -1 if the
    card cannot be melded."""
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


def rollout_action(st: GameState, rng: random.Random) -> int:
    """The fast playout policy's action in a simulation state ``st`` (both seats, every
    profile).

    Meld when possible (R12, R18, and a forced card's ``meld``, R18e): the option whose
    result holds most cards (``meld_cards(a).bit_count()``: in gameweave the biggest
    meld, where tables are rearranged the table with most hand cards added, which
    includes any option reaching eleven); otherwise ``turn``/``refuse`` (never force, never
    force back).  Throw (R13) the hand card with the lowest score ``3*pair + 2*adjacent +
    1*gap + 6*extends-opponent``; ties go to the higher card.  ``rng`` is not used.
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
        return rollout_meld(st, seat, st.forced)
    if ph == PH_TAKE or ph == PH_TURNED:
        a = rollout_meld(st, seat, st.card)
        if a >= 0:
            return a
        return TURN if ph == PH_TAKE else REFUSE
    return TURN


def playout(st: GameState, rng: random.Random, seat: int, max_steps: int = 400,
            policy: Policy | None = None) -> float:
    """Play simulation state ``st`` to its end (at most ``max_steps`` actions) with
    ``policy`` (default :func:`rollout_action`) for both seats; returns the result for
    ``seat``: 1 win, 0.5 tablas (R17) or unfinished, 0 loss.  ``st`` is consumed.

    With :func:`rollout_action` and the native core available (issue 21), the playout
    runs in C on a copy of ``st`` (:func:`gameweave.engine.native.from_state`; the same
    policy ported) and its end is laid back on ``st``
    (:func:`~gameweave.engine.native.write_back`): the same actions, history, final
    state and result as in Python (tests/test_native.py)."""
    pol = policy or rollout_action
    if pol is rollout_action and native.AVAILABLE:
        ns = native.from_state(st)
        native.write_back(st, ns, *ns.rollout(max_steps))
        won = st.winner
        if won < 0:
            return 0.5
        return 1.0 if won == seat else 0.0
    apply = st.apply
    n = 0
    while not st.is_over and n < max_steps:
        apply(pol(st, rng))
        n += 1
    if st.winner < 0:
        return 0.5
    return 1.0 if st.winner == seat else 0.0


def _may_force(st: GameState, target: int, min_hand: int) -> bool:
    return st.hands[target].bit_count() >= min_hand and st.table_counts[target] + 1 < 11


def _declines(st: GameState, seat: int, a: int, turned: bool, peek: bool, decline: int) -> bool:
    """``make_policy``'s ``decline``: the meld ``a`` uses no hand card, refusing would not
    hand the card to the opponent, and every throw left scores at least ``decline``."""
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


def make_policy(force: bool = False, peek: bool = False, force_min_hand: int = 4, decline: int = 0) -> Policy:
    """A playout policy for both seats of a simulation state (every profile).

    It is :func:`rollout_action` (meld when possible, the option holding most cards; throw
    the least connected card) plus three switches:

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

    With all off it is exactly ``rollout_action`` (the same function).
    """
    if not force and not peek and not decline:
        return rollout_action

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
            return rollout_meld(st, seat, st.forced)
        if ph == PH_TAKE or ph == PH_TURNED:
            a = rollout_meld(st, seat, st.card)
            if a >= 0 and not (decline and _declines(st, seat, a, ph == PH_TURNED, peek, decline)):
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


DEFAULT_POLICY: Policy = make_policy(force=False, peek=False)
"""The playout policy of ``search`` at its default settings (:func:`rollout_action`; see
docs/BOTS.md for what was measured)."""


__all__ = ["DEFAULT_POLICY", "Policy", "make_policy", "playout", "rollout_action", "rollout_meld", "throw_score"]

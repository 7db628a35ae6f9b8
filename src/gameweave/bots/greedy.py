"""``greedy``: a rule-of-thumb Conquian player that decides from its view only (R21).

Plays every profile (§V), using what each allows.  Rules of thumb, in order:

* **Meld** (R12, R18) whenever a live, turned or forced card can be melded: an option
  that reaches eleven (R16, R18f) first, otherwise the one putting most cards on the
  table, ties broken by the value of the hand that is left.  Where tables are
  rearranged (R18) the partition of a table has no effect on the rest of the deal (taking,
  forcing and winning look only at the cards, R18d-f), so options are compared by the
  cards they put down and the first table of the best card set is played.
* **Throw** (R13) the card whose loss costs least: a card's *keep value* counts the pairs
  and near-sequences it is part of (weighted by how many of the cards that would complete
  them are still unseen), plus a *danger* term — the chance the opponent can meld it
  (certain when it can be forced onto their table under the profile's cap and
  rearranging, ``flow.forceable``; estimated from the unseen cards otherwise, counting
  the opponent's table cards as partners where melds are rearranged).
* **Force** (R15, R18e, R19) a card the opponent could take anyway when it breaks their
  hand (they hold at least ``force_min_hand`` cards and must throw one of them); **never**
  force a card that brings them to eleven (R16).
* With nothing to meld: ``turn`` / ``refuse``.

Pure function of the view: no state between calls, so one instance may serve many
threads (the ``seed`` only breaks exact ties).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import SeatView
from ..engine.actions import (
    REFUSE, THROW_KIND, TURN, is_forcing, is_meld, kind_of, meld_cards, thrown_card,
)
from ..engine.cards import RANK_OTHERS as _RANK_OTHERS
from ..engine.cards import Mask, cards_of
from ..engine.flow import Flow, flow_for
from ..engine.rules import find_profile
from .base import Bot
from .determinize import MELD_PARTNERS


def _up(c: int, k: int) -> int:
    """Card ``k`` positions above ``c`` in its suit, or -1 (R2: no wrap)."""
    r = (c >> 2) + k
    return c + 4 * k if 0 <= r <= 9 else -1


def keep_value(card: int, hand: int, avail: int) -> float:
    """How much ``card`` is worth keeping in ``hand`` (both 40-bit masks; ``avail`` the mask
    of cards that may still come: unseen ones).

    Sums, over every partial meld the card is part of, the number of unseen cards that
    would complete it (R5 sets; R6 sequences): a pair of one rank scores the unseen
    cards of that rank; two cards adjacent in a suit score the unseen cards at either
    end; two cards with a one-card gap score the unseen middle card.  A card already
    in a meld of three in hand counts double.  Unit-less; larger means keep.
    """
    v = 0.0
    same = hand & _RANK_OTHERS[card]
    ns = same.bit_count()
    if ns:
        v += 1.0 + (avail & _RANK_OTHERS[card]).bit_count() * (1.0 if ns == 1 else 1.5)
        if ns >= 2:
            v += 3.0
    hb = hand
    d1, d2, u1, u2 = _up(card, -1), _up(card, -2), _up(card, 1), _up(card, 2)
    has_d1 = d1 >= 0 and hb >> d1 & 1
    has_u1 = u1 >= 0 and hb >> u1 & 1
    if has_d1 and has_u1:
        v += 4.0  # middle of a run of three in hand
    if has_d1:
        ends = 0
        e1 = _up(card, -2)
        e2 = u1
        ends += 1 if e1 >= 0 and avail >> e1 & 1 else 0
        ends += 1 if e2 >= 0 and avail >> e2 & 1 else 0
        v += 0.6 + 0.9 * ends
    if has_u1:
        ends = 0
        e1 = d1
        e2 = _up(card, 2)
        ends += 1 if e1 >= 0 and avail >> e1 & 1 else 0
        ends += 1 if e2 >= 0 and avail >> e2 & 1 else 0
        v += 0.6 + 0.9 * ends
    if not has_d1 and d2 >= 0 and hb >> d2 & 1 and d1 >= 0 and avail >> d1 & 1:
        v += 0.7
    if not has_u1 and u2 >= 0 and hb >> u2 & 1 and u1 >= 0 and avail >> u1 & 1:
        v += 0.7
    return v


def danger(card: int, opp_melds: tuple[Mask, ...] | list[Mask], unseen: int, opp_count: int, flow: Flow | None = None) -> float:
    """Chance-like score (0..1) that the opponent can meld ``card`` if it goes live for
    them (R10, R12, R18d).

    1 when it can be forced onto their table of ``opp_melds`` (``flow.forceable``: the
    profile's cap and rearranging, R6, R15, R18e; ``flow`` defaults to the gameweave
    flow), else an estimate from the pairs of partners that would meld with it, each
    unseen partner held by the opponent with probability about ``opp_count / |unseen|``;
    where melds are rearranged (R18) a partner already on the opponent's table counts
    as held."""
    if flow is None:
        flow = _GW_FLOW
    if opp_melds and flow.forceable(opp_melds, card):
        return 1.0
    n = unseen.bit_count()
    if n == 0 or opp_count < 1:
        return 0.0
    p = opp_count / n
    table = 0
    if flow.rearranging:
        for m in opp_melds:
            table |= m
    total = 0.0
    for pm in MELD_PARTNERS[card]:
        need = pm & ~table
        if need & ~unseen:
            continue
        k = need.bit_count()
        if k > opp_count:
            continue
        total += p if k == 1 else p * p
    return min(1.0, total)


_GW_FLOW = flow_for(find_profile("gameweave"))


class GreedyBot(Bot):
    """``greedy``: meld what helps, keep pairs and near-sequences, throw what the opponent
    cannot use, force only to break the opponent's hand and never into their eleven.

    Options: ``danger_weight`` (keep-value units a certain opponent meld costs, default 6),
    ``force_min_hand`` (default 4), ``meld_choice`` (``"most"``: the option putting most
    cards down, the default; ``"fewest"``: the fewest hand cards, best hand left — an
    R18 alternative kept for measurement, docs/BOTS.md).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, danger_weight: float = 6.0, force_min_hand: int = 4,
                 meld_choice: str = "most"):
        super().__init__(seed)
        if meld_choice not in ("most", "fewest"):
            raise ValueError("meld_choice must be 'most' or 'fewest'")
        self.danger_weight = danger_weight
        self.force_min_hand = force_min_hand
        self.meld_choice = meld_choice

    def decide(self, view: SeatView) -> int:
        return choose_greedy(view, view.legal, self.danger_weight, self.force_min_hand, self.meld_choice)


def view_flow(view: SeatView) -> Flow:
    """The flow (melding hooks, :mod:`gameweave.engine.flow`) of the view's profile."""
    return flow_for(find_profile(view.rules))


def meld_key(a: int, hand: int, unseen: int) -> tuple[int, float]:
    """Greedy ranking of a ``meld`` action (R12, R18): ``(cards put on the table,
    keep value of the hand left)``; larger is better."""
    used = meld_cards(a) & hand
    left = hand & ~used
    hv = 0.0
    for c in cards_of(left):
        hv += keep_value(c, left, unseen)
    return used.bit_count() + 1, hv


def best_melds(view: SeatView, legal: Sequence[int] | None = None, meld_choice: str = "most") -> list[int]:
    """The ``meld`` actions of ``legal`` (default ``view.legal``), one per distinct card
    set (R18: tables with the same cards play alike), best first by :func:`meld_key`
    (``meld_choice="fewest"``: fewest cards first, then the best hand left); an option
    reaching eleven (R16) first of all."""
    legal = view.legal if legal is None else legal
    hand = view.hand
    unseen = view.unseen()
    mine_t = view.table_counts[view.seat]
    seen: set[int] = set()
    ranked: list[tuple[bool, int, float, int, int]] = []
    for i, a in enumerate(legal):
        if not is_meld(a):
            continue
        cards = meld_cards(a)
        if view.rearranging:
            if cards in seen:
                continue
            seen.add(cards)
        gain, hv = meld_key(a, hand, unseen)
        win = mine_t + gain >= 11
        ranked.append((not win, gain if meld_choice == "fewest" else -gain, -hv, i, a))
    ranked.sort()
    return [r[-1] for r in ranked]


def choose_greedy(view: SeatView, legal: Sequence[int] | None = None, danger_weight: float = 6.0, force_min_hand: int = 4,
                  meld_choice: str = "most") -> int:
    """The greedy choice among ``legal`` (default ``view.legal``; see :class:`GreedyBot`).

    Only what the seat's view holds (R21) is used.
    """
    legal = view.legal if legal is None else legal
    seat = view.seat
    opp = 1 - seat
    opp_t = view.table_counts[opp]
    opp_count = view.hand_counts[opp]
    if kind_of(legal[0]) == THROW_KIND:
        return min(throw_scores(view, legal, danger_weight, force_min_hand))[2]
    # meld / take_or_turn / meld_or_refuse decisions (R10-R12, R15, R18, R19)
    melds = best_melds(view, legal, meld_choice)
    if melds:
        return melds[0]
    # nothing to meld: turn or refuse, possibly force (R15, R18e) or force back (R19)
    forces = [a for a in legal if is_forcing(a)]
    if forces and opp_t + 1 < 11 and opp_count >= force_min_hand:
        return forces[0]
    for a in legal:
        if a == TURN or a == REFUSE:
            return a
    return legal[0]


def throw_scores(view: SeatView, legal: Sequence[int] | None = None, danger_weight: float = 6.0,
                 force_min_hand: int = 4) -> list[tuple[float, int, int]]:
    """Greedy cost of each throw action in ``legal`` (default ``view.legal``; R13, R15):
    a list of ``(cost, index, action)``, lower cost = better throw.  The cost is the card's
    keep value plus ``danger_weight`` times its :func:`danger`; a force into the opponent's
    eleven (R16), or onto an opponent holding fewer than ``force_min_hand`` cards, costs
    ``inf``."""
    legal = view.legal if legal is None else legal
    seat = view.seat
    opp = 1 - seat
    hand = view.hand
    unseen = view.unseen()
    opp_t = view.table_counts[opp]
    opp_count = view.hand_counts[opp]
    opp_melds = view.melds[opp]
    flow = view_flow(view)
    out: list[tuple[float, int, int]] = []
    dang: dict[int, float] = {}
    for idx, a in enumerate(legal):
        c = thrown_card(a)
        kv = keep_value(c, hand, unseen)
        if is_forcing(a):
            if opp_t + 1 >= 11 or opp_count < force_min_hand:
                out.append((float("inf"), idx, a))
                continue
            score = kv + danger_weight * 0.8
        else:
            d = dang.get(c)
            if d is None:
                d = dang[c] = danger(c, opp_melds, unseen, opp_count, flow)
            score = kv + danger_weight * d
        out.append((score, idx, a))
    return out


__all__ = ["GreedyBot", "best_melds", "choose_greedy", "danger", "keep_value", "meld_key", "throw_scores",
           "view_flow"]

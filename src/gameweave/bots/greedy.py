"""``greedy``: a rule-of-thumb Conquian player that decides from its view only (R21).

Rules of thumb, in order:

* **Meld** (R12) whenever a live or turned card can be melded: an option that reaches
  eleven (R16) first, otherwise the one putting most cards on the table, ties broken by
  the value of the hand that is left.
* **Throw** (R13) the card whose loss costs least: a card's *keep value* counts the pairs
  and near-sequences it is part of (weighted by how many of the cards that would complete
  them are still unseen), minus a *danger* term — the chance the opponent can meld it
  (certain when it extends one of their melds, estimated from the unseen cards otherwise).
* **Force** (R15) a card the opponent could add anyway when it breaks their hand (they
  hold at least ``force_min_hand`` cards and must throw one of them); **never** force a
  card that would bring them to eleven (R16).
* With nothing to meld: ``turn`` / ``refuse``.

Pure function of the view: no state between calls, so one instance may serve many
threads (the ``seed`` only breaks exact ties).
"""

from __future__ import annotations

from ..engine import SeatView
from ..engine.actions import REFUSE, THROW, TURN
from ..engine.cards import RANK_MASKS
from ..engine.melds import meld_table
from .base import Bot

_RANK_OTHERS = tuple(RANK_MASKS[c >> 2] & ~(1 << c) for c in range(40))
_EXT = meld_table(None).ext


def _bit(c: int) -> int:
    return 1 << c if 0 <= c < 40 else 0


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


def danger(card: int, opp_ext: int, unseen: int, opp_count: int) -> float:
    """Chance-like score (0..1) that the opponent can meld ``card`` if it goes live for
    them (R10, R12): 1 when it extends one of their melds (``opp_ext``, 40-bit), else an
    estimate from how many pairs of still-unseen cards would meld with it, each held by
    the opponent with probability about ``(opp_count / |unseen|) ** 2``."""
    if opp_ext >> card & 1:
        return 1.0
    n = unseen.bit_count()
    if n == 0 or opp_count < 2:
        return 0.0
    p = opp_count / n
    p2 = p * p
    from .determinize import MELD_PARTNERS

    pairs = 0
    for pm in MELD_PARTNERS[card]:
        if unseen & pm == pm:
            pairs += 1
    return min(1.0, pairs * p2)


class GreedyBot(Bot):
    """``greedy``: meld what helps, keep pairs and near-sequences, throw what the opponent
    cannot use, force only to break the opponent's hand and never into their eleven.

    Options: ``danger_weight`` (keep-value units a certain opponent meld costs, default 6),
    ``force_min_hand`` (default 4).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, danger_weight: float = 6.0, force_min_hand: int = 4):
        super().__init__(seed)
        self.danger_weight = danger_weight
        self.force_min_hand = force_min_hand

    def decide(self, view: SeatView) -> int:
        legal = view.legal
        return choose_greedy(view.hand, view.melds, view.seat, view.unseen(), view.hand_counts[1 - view.seat],
                             view.centre, legal, self.danger_weight, self.force_min_hand)


def _tcount(side) -> int:
    n = 0
    for m in side:
        n += m.bit_count()
    return n


def choose_greedy(hand: int, melds, seat: int, unseen: int, opp_count: int, centre: int, legal,
                  danger_weight: float = 6.0, force_min_hand: int = 4) -> int:
    """The greedy choice among ``legal`` action ints (see :class:`GreedyBot`).

    ``hand`` and ``unseen`` are 40-bit masks, ``melds`` the pair of meld tuples of seats
    0 and 1, ``opp_count`` the opponent's hand size.  Only what a seat's view holds
    (R21) is used, so the simulation's rollout policy may call it too.
    """
    opp = 1 - seat
    mine_t = _tcount(melds[seat])
    opp_t = _tcount(melds[opp])
    opp_ext = 0
    for m in melds[opp]:
        opp_ext |= _EXT[m]
    if legal[0] >> 40 == 3:
        return min(throw_scores(hand, opp_t, opp_ext, unseen, opp_count, legal, danger_weight, force_min_hand))[2]
    # meld / turn / refuse decisions (R10-R12, R15)
    melds_opts = [a for a in legal if a >> 40 == 0]
    if melds_opts:
        best = None
        best_key = None
        bit = 1 << centre
        for a in melds_opts:
            used = (a ^ bit) & hand
            gain = 1 + used.bit_count()
            if mine_t + gain >= 11:
                return a  # R16: eleven wins at once
            left = hand & ~used
            hv = 0.0
            for c in _cards(left):
                hv += keep_value(c, left, unseen)
            key = (gain, hv)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best
    # nothing to meld: turn or refuse (possibly force)
    plain = [a for a in legal if a == TURN or a == REFUSE]
    forces = [a for a in legal if a >> 40 == 2 and a & 0xFF]
    if forces and opp_t + 1 < 11 and opp_count >= force_min_hand:
        return forces[0]
    return plain[0] if plain else legal[0]


def throw_scores(hand: int, opp_t: int, opp_ext: int, unseen: int, opp_count: int, legal,
                 danger_weight: float = 6.0, force_min_hand: int = 4) -> list[tuple[float, int, int]]:
    """Greedy cost of each throw action in ``legal`` (R13, R15): a list of
    ``(cost, index, action)``, lower cost = better throw.  The cost is the card's keep value
    plus ``danger_weight`` times its danger; a force into the opponent's eleven (R16), or
    onto an opponent holding fewer than ``force_min_hand`` cards, costs ``inf``."""
    out = []
    for idx, a in enumerate(legal):
        c = (a >> 8) & 0x3F
        kv = keep_value(c, hand, unseen)
        if a & 0xFF:
            if opp_t + 1 >= 11 or opp_count < force_min_hand:
                out.append((float("inf"), idx, a))
                continue
            score = kv + danger_weight * 0.8
        else:
            score = kv + danger_weight * danger(c, opp_ext, unseen, opp_count)
        out.append((score, idx, a))
    return out


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


__all__ = ["GreedyBot", "choose_greedy", "throw_scores", "keep_value", "danger"]

"""Determinization: sample the unseen cards of a seat's view and build a simulation state.

A bot sees only a :class:`~gameweave.engine.SeatView` (R21).  To search, it samples a
*world* consistent with that view — the opponent's hand (``hand_counts[opp]`` cards) and
the order of the stock (``stock_count`` cards), drawn from :meth:`SeatView.unseen` — and
has the engine build a :class:`~gameweave.engine.GameState` from it
(:func:`~gameweave.engine.view.state_from_view`, which replays the view's public history
on a reconstructed deck).  The state is a private simulation: it is never shown to anyone, and it is built
from the view and the sampled cards only, never from the true state.

Sampling is *informed* by the public history (R21), read from the structured
:class:`~gameweave.engine.PublicEvent` s (``kind``, ``died``, ``card``), never from action
text: a card the opponent let die (``turn`` with ``died``) or refused while it could
have melded it with two hand cards makes hands holding such pairs less likely, and so
does a card the opponent threw (players rarely throw the partner of a pair they hold).
This is done by weighted rejection: a sampled hand that contradicts ``k`` such clues is
kept with probability ``keep ** k``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import GameState, SeatView, find_profile, state_from_view
from ..engine.cards import RANK_OTHERS
from ..engine.melds import meld_table

World = tuple[int, list[int]]
"""A sampled world: ``(opponent hand, stock)``, a 40-bit mask of the opponent's hidden
cards and the stock's cards, top first (R21: drawn from the view's unseen cards only)."""


def _meld_partners(card: int) -> tuple[int, ...]:
    """40-bit masks of every pair of other cards that makes a meld of three with ``card``
    (sets R5 and sequences R6; a run of three fits every cap)."""
    out = []
    others = RANK_OTHERS[card]
    cs = [c for c in range(40) if others >> c & 1]
    for i in range(len(cs)):
        for j in range(i + 1, len(cs)):
            out.append((1 << cs[i]) | (1 << cs[j]))
    r = card >> 2
    for lo in (r - 2, r - 1, r):
        if lo >= 0 and lo + 2 <= 9:
            m = 0
            for rr in range(lo, lo + 3):
                if rr != r:
                    m |= 1 << (rr * 4 + (card & 3))
            out.append(m)
    return tuple(out)


MELD_PARTNERS: tuple[tuple[int, ...], ...] = tuple(_meld_partners(c) for c in range(40))
"""``MELD_PARTNERS[card]``: the 40-bit masks of the pairs of cards that meld with ``card``."""


def clues(view: SeatView) -> list[int]:
    """Cards that the opponent of ``view.seat`` declined or threw (R21 public history).

    Returns the card ints (each at most once) that the opponent let die while live for
    it (a ``turn`` event's ``died``), refused after turning it, or threw — evidence that
    it holds no pair melding with them.  Only the structured public events are read.
    """
    opp = 1 - view.seat
    out: list[int] = []
    seen = 0
    for ev in view.history:
        if ev.seat != opp:
            continue
        kind = ev.kind
        if kind == "refuse" or kind == "throw":
            c = ev.card
        elif kind == "turn":
            c = ev.died  # the live card it let die (the viewer let it go), or -1
        else:
            continue
        if c >= 0 and not seen >> c & 1:
            seen |= 1 << c
            out.append(c)
    return out


def _draw_hand(pool: list[int], k: int, rng: random.Random, tries: int,
               chance: Callable[[int], float | None] | None) -> int:
    """Weighted rejection: shuffle ``pool`` and deal its first ``k`` cards as the hand, up
    to ``tries`` times; a hand is kept with probability ``chance(hand)`` (None: kept
    without a draw; no ``chance``: the first hand), else the last hand is used.  ``pool``
    is left in its last order."""
    hand = 0
    for _ in range(tries):
        rng.shuffle(pool)
        hand = 0
        for c in pool[:k]:
            hand |= 1 << c
        if chance is None:
            break
        p = chance(hand)
        if p is None or rng.random() < p:
            break
    return hand


def sample_world(view: SeatView, rng: random.Random, clue_cards: list[int] | None = None,
                 keep: float = 0.25, tries: int = 12) -> World:
    """Sample the opponent's hand and the stock order consistently with ``view``.

    Returns ``(opp_hand, stock)``: a 40-bit mask of ``hand_counts[opp]`` cards and a list
    of the ``stock_count`` remaining unseen cards, top of the stock first.  Each sampled
    hand that could have melded ``k`` of ``clue_cards`` (default :func:`clues`) with two
    of its cards is accepted with probability ``keep ** k``; after ``tries`` rejections
    the last hand is used.
    """
    unseen = view.unseen()
    pool = [c for c in range(40) if unseen >> c & 1]
    k = view.hand_counts[1 - view.seat]
    partners = [MELD_PARTNERS[c] for c in (clues(view) if clue_cards is None else clue_cards)]

    def chance(hand: int) -> float | None:
        bad = 0
        for pms in partners:
            for pm in pms:
                if hand & pm == pm:  # the hand holds two cards melding with the clue
                    bad += 1
                    break
        return None if bad == 0 else keep ** bad

    hand = _draw_hand(pool, k, rng, tries, chance if partners else None)
    return hand, pool[k:]


def world_state(view: SeatView, opp_hand: int, stock: list[int]) -> GameState:
    """The simulation :class:`GameState` of ``view`` plus sampled hidden cards, built by
    the engine (:func:`~gameweave.engine.view.state_from_view`): ``opp_hand`` is the
    opponent's hand (40-bit mask) and ``stock`` the unseen stock cards, top first.  Its
    view for ``view.seat`` equals ``view``.  Raises :class:`ValueError` if the cards do
    not fit the view."""
    return state_from_view(view, opp_hand, stock)


def impossible_cards(view: SeatView) -> int:
    """Mask of the unseen cards the opponent of ``view.seat`` provably does not hold (R12).

    In a profile whose melds are not rearranged (gameweave), a set of three built from a
    taken card and two hand cards while the builder held three of the rank uses the
    *first two in hand order* (R4, R12).  So when the opponent melded a new set of three
    from two hand cards ``x < y`` (an event whose ``from_hand`` is two cards of the
    taken card's rank and whose ``meld`` is those three), the fourth card ``z`` of that
    rank was not in its hand if ``z < y`` in hand order: it would have been used.  A
    hand only ever loses cards (a taken or forced card goes to the table, R12, R15), so
    it does not hold ``z`` now either.  Read from the structured public events only
    (R21); where melds are rearranged (R18) any two cards may be used and nothing follows.
    """
    if view.rearranging:
        return 0
    opp = 1 - view.seat
    out = 0
    for ev in view.history:
        if ev.seat != opp or ev.kind != "meld" or ev.card < 0 or ev.forced:
            continue
        fh = ev.from_hand
        if fh.bit_count() != 2 or fh & ~RANK_OTHERS[ev.card]:
            continue
        if ev.meld != fh | 1 << ev.card:
            continue
        z = RANK_OTHERS[ev.card] & ~fh
        if z and z < (fh & ~(fh & -fh)):  # the fourth card lies below the higher hand card
            out |= z
    return out & view.unseen()


def biggest_meld_cards(view: SeatView) -> int:
    """Mask of the unseen cards the opponent of ``view.seat`` did not hold, *if* it always
    melds a taken card into the biggest meld it can (R12): the cards that would have
    extended a new meld it built from hand cards (``from_hand`` of two or more cards) into
    a bigger legal meld (R5, R6 under the profile's cap).  A hand only loses cards, so
    it does not hold them now either.

    This is evidence about the opponent's *policy*, not a proof from the rules: the
    greedy and the searches' playouts meld the biggest option.  Fitted on self-play
    (docs/BOTS.md): the opponent's true hand held such a card in 0 of 2,465 cases with
    greedy and 1 of 208 with search-v1, against 24 % for a random hand.  Gameweave
    (non-rearranging) profiles only; where melds are rearranged (R18) it returns 0.
    Read from the structured public events only (R21)."""
    if view.rearranging:
        return 0
    ext = meld_table(find_profile(view.rules).max_sequence).ext
    opp = 1 - view.seat
    out = 0
    for ev in view.history:
        if ev.seat != opp or ev.kind != "meld" or ev.forced or ev.card < 0:
            continue
        if ev.from_hand.bit_count() >= 2:
            out |= ext.get(ev.meld, 0)
    return out & view.unseen()


FITTED_DECLINE_KEEP = 0.02
"""``clue_weights(view, fitted=True)``: keep weight of a hand that could have melded a card
the opponent let die or refused.  Fitted on 300 greedy self-play deals per profile: the
true hand contradicted 0 of about 27,500 such clues (a random hand: 4-5 %), so such a
hand is nearly impossible; 0.02, not 0, for opponents that do decline (R14)."""

FITTED_THROW_KEEP = {False: 0.8, True: 0.02}
"""``clue_weights(view, fitted=True)``: keep weight of a hand holding a pair that melds
with a card the opponent threw, by ``view.rearranging``: in gameweave the true hand
contradicts such a clue about 0.8 times as often as a random hand (1.9 % vs 2.4 %, 3,806
clues), where melds are rearranged (R18) never (0 of 3,544 vs 1.8 %)."""


def clue_weights(view: SeatView, fitted: bool = False) -> list[tuple[int, float]]:
    """The opponent's declines as weighted evidence: ``(card, keep)`` pairs where a sampled
    hand holding a pair that melds with ``card`` is kept with probability ``keep``.

    A card the opponent *threw* weighs more (keep 0.2: players rarely throw the partner
    of a pair they hold) than one it *let die* or *refused* (keep 0.35: it may have
    declined a card it could use, R14).  With ``fitted`` the weights fitted on self-play
    are used instead (:data:`FITTED_DECLINE_KEEP`, :data:`FITTED_THROW_KEEP`).  Only
    structured public events are read (R21)."""
    opp = 1 - view.seat
    out: dict[int, float] = {}
    tw, dw = (FITTED_THROW_KEEP[view.rearranging], FITTED_DECLINE_KEEP) if fitted else (0.2, 0.35)
    for ev in view.history:
        if ev.seat != opp:
            continue
        kind = ev.kind
        if kind == "throw":
            c, w = ev.card, tw
        elif kind == "refuse":
            c, w = ev.card, dw
        elif kind == "turn":
            c, w = ev.died, dw
        else:
            continue
        if c >= 0:
            out[c] = min(out.get(c, 1.0), w)
    return list(out.items())


def sample_informed(view: SeatView, rng: random.Random, excluded: int | None = None,
                    weighted: list[tuple[int, float]] | None = None,
                    tries: int = 12) -> World:
    """Sample the opponent's hand and the stock order like :func:`sample_world`, but
    never deal the opponent a card it provably does not hold (``excluded``, default
    :func:`impossible_cards`, R12) and weigh declines per card (``weighted``, default
    :func:`clue_weights`): a hand contradicting clues ``c1..ck`` is kept with probability
    ``keep(c1) * ... * keep(ck)``; after ``tries`` rejections the last hand is used.

    Returns ``(opp_hand, stock)`` as :func:`sample_world` does.  If the exclusions left
    too few cards for the hand (an inconsistent view), they are ignored."""
    unseen = view.unseen()
    if excluded is None:
        excluded = impossible_cards(view)
    if weighted is None:
        weighted = clue_weights(view)
    excluded &= unseen
    allowed = [c for c in range(40) if unseen >> c & 1 and not excluded >> c & 1]
    banned = [c for c in range(40) if excluded >> c & 1]
    k = view.hand_counts[1 - view.seat]
    if len(allowed) < k:
        allowed += banned
        banned = []
    partners = [(MELD_PARTNERS[c], w) for c, w in weighted]

    def chance(hand: int) -> float | None:
        keep = 1.0
        for pms, w in partners:
            for pm in pms:
                if hand & pm == pm:  # the hand holds two cards melding with the clue
                    keep *= w
                    break
        return None if keep >= 1.0 else keep

    hand = _draw_hand(allowed, k, rng, tries, chance if partners else None)
    stock = allowed[k:] + banned
    rng.shuffle(stock)
    return hand, stock


__all__ = ["FITTED_DECLINE_KEEP", "FITTED_THROW_KEEP", "MELD_PARTNERS", "RANK_OTHERS", "biggest_meld_cards",
           "World", "clue_weights", "clues", "impossible_cards", "sample_informed",
           "sample_world", "world_state"]

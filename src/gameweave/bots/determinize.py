"""Determinization: sample the unseen cards of a seat's view and build a simulation state.

A bot sees only a :class:`~gameweave.engine.SeatView` (R21).  To search, it samples a
*world* consistent with that view — the opponent's hand (``hand_counts[opp]`` cards) and
the order of the stock (``stock_count`` cards), drawn from :meth:`SeatView.unseen` — and
has the engine build a :class:`~gameweave.engine.GameState` from it
(:meth:`GameState.from_view`, which replays the view's public history on a reconstructed
deck).  The state is a private simulation: it is never shown to anyone, and it is built
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

from ..engine import GameState, SeatView
from ..engine.cards import RANK_MASKS


RANK_OTHERS: tuple[int, ...] = tuple(RANK_MASKS[c >> 2] & ~(1 << c) for c in range(40))
"""``RANK_OTHERS[card]``: the other three cards of the card's rank (R5); the bots' one copy."""


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


def sample_world(view: SeatView, rng: random.Random, clue_cards: list[int] | None = None,
                 keep: float = 0.25, tries: int = 12) -> tuple[int, list[int]]:
    """Sample the opponent's hand and the stock order consistently with ``view``.

    Returns ``(opp_hand, stock)``: a 40-bit mask of ``hand_counts[opp]`` cards and a list
    of the ``stock_count`` remaining unseen cards, top of the stock first.  Each sampled
    hand that could have melded ``k`` of ``clue_cards`` with two of its cards is accepted
    with probability ``keep ** k``; after ``tries`` rejections the last hand is used.
    """
    unseen = view.unseen()
    pool = [c for c in range(40) if unseen >> c & 1]
    k = view.hand_counts[1 - view.seat]
    if clue_cards is None:
        clue_cards = clues(view)
    hand = 0
    for _ in range(tries):
        rng.shuffle(pool)
        hand = 0
        for c in pool[:k]:
            hand |= 1 << c
        if not clue_cards:
            break
        bad = 0
        for c in clue_cards:
            for pm in MELD_PARTNERS[c]:
                if hand & pm == pm:
                    bad += 1
                    break
        if bad == 0 or rng.random() < keep ** bad:
            break
    return hand, pool[k:]


def world_state(view: SeatView, opp_hand: int, stock: list[int]) -> GameState:
    """The simulation :class:`GameState` of ``view`` plus sampled hidden cards, built by
    the engine (:meth:`GameState.from_view`): ``opp_hand`` is the opponent's hand (40-bit
    mask) and ``stock`` the unseen stock cards, top first.  Its view for ``view.seat``
    equals ``view``.  Raises :class:`ValueError` if the cards do not fit the view."""
    return GameState.from_view(view, opp_hand, stock)


__all__ = ["MELD_PARTNERS", "RANK_OTHERS", "clues", "sample_world", "world_state"]

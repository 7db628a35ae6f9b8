"""Determinization: sample the unseen cards of a seat's view and build a simulation state.

A bot sees only a :class:`~gameweave.engine.SeatView` (R21).  To search, it samples a
*world* consistent with that view — the opponent's hand (``hand_counts[opp]`` cards) and
the order of the stock (``stock_count`` cards), drawn from :meth:`SeatView.unseen` — and
builds a :class:`~gameweave.engine.GameState` from it with :func:`world_state`.  The state
is a private simulation: it is never shown to anyone, and it is built from the view and
the sampled cards only, never from the true state.

Sampling is *informed* by the public history (R21): a card the opponent let die or
refused while it could have melded it with two hand cards (R12) makes hands holding such
pairs less likely, and so does a card the opponent threw (players rarely throw the
partner of a pair they hold).  This is done by weighted rejection: a sampled hand that
contradicts ``k`` such clues is kept with probability ``keep ** k``.
"""

from __future__ import annotations

import random

from ..engine import GameState, SeatView
from ..engine.actions import REFUSE, THROW, TURN
from ..engine.cards import FULL_MASK, RANK_MASKS
from ..engine.melds import meld_table
from ..engine.rules import find_profile
from ..engine.state import PH_MELD, PH_OVER, PH_TAKE, PH_THROW, PH_TURN, PLAYING, TABLAS, WON

_PHASE_OF = {"turn": PH_TURN, "take_or_turn": PH_TAKE, "meld_or_refuse": PH_MELD, "throw": PH_THROW, None: PH_OVER}
_RANK_OTHERS = tuple(RANK_MASKS[c >> 2] & ~(1 << c) for c in range(40))


def _meld_partners(card: int) -> tuple[int, ...]:
    """40-bit masks of every pair of other cards that makes a meld of three with ``card``
    (sets R5 and sequences R6)."""
    out = []
    others = _RANK_OTHERS[card]
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
    it, refused after turning it, or threw — evidence that it holds no pair melding with
    them.  Only public events are read.
    """
    opp = 1 - view.seat
    out: list[int] = []
    seen = 0
    hist = view.history
    for i, ev in enumerate(hist):
        if ev.seat != opp or ev.card < 0:
            continue
        a = ev.action
        c = -1
        if a.startswith("refuse") or a.startswith("throw"):
            c = ev.card
        elif a == "turn" and i > 0:
            prev = hist[i - 1]
            # the card live for the opponent was the one the viewer let go just before
            if prev.seat != opp and (prev.action.startswith("refuse") or prev.action.startswith("throw")):
                if "force" not in prev.action:
                    c = prev.card
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
    """Build a simulation :class:`GameState` from ``view`` plus sampled hidden cards.

    ``opp_hand`` is the opponent's hand (40-bit mask) and ``stock`` the unseen stock cards,
    top first (``len(stock) == view.stock_count``).  The deck order before the stock
    position is filled with the other cards in hand order (it only keeps the deck a
    permutation; the simulation never reads it).  History is left empty.
    Raises :class:`ValueError` if the cards do not add up to the pack (R1).
    """
    seat = view.seat
    opp = 1 - seat
    rules = find_profile(view.rules)
    tab = meld_table(rules.max_sequence)
    st = GameState.__new__(GameState)
    st.rules = rules
    st._ext = tab.ext
    st._seq = tab.seq
    st._cap = 10 if rules.max_sequence is None else rules.max_sequence
    stock_pos = 40 - len(stock)
    stock_mask = 0
    for c in stock:
        stock_mask |= 1 << c
    rest = FULL_MASK & ~stock_mask
    front = [c for c in range(40) if rest >> c & 1]
    if len(front) != stock_pos or opp_hand & stock_mask or opp_hand & view.hand:
        raise ValueError("sampled cards do not match the view")
    st.deck = tuple(front + list(stock))
    st.opener = view.opener
    hands = [0, 0]
    hands[seat] = view.hand
    hands[opp] = opp_hand
    st.hands = hands
    st.melds = [list(view.melds[0]), list(view.melds[1])]
    ext = tab.ext
    st.tcount = [sum(m.bit_count() for m in side) for side in st.melds]
    ea = [0, 0]
    for s in (0, 1):
        for m in st.melds[s]:
            ea[s] |= ext[m]
    st.extall = ea
    st.stock_pos = stock_pos
    st.to_act = view.to_act
    st.phase = _PHASE_OF[view.decision]
    st.card = view.centre
    st.live_from = view.live_from
    st.dead = view.dead
    st.status = view.status
    st.winner = view.winner
    st.history = []
    st.actors = []
    return st


__all__ = ["MELD_PARTNERS", "clues", "sample_world", "world_state"]

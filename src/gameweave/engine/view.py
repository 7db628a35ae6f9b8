"""What one seat may see (RULES R21) — the only way out of a state for non-engine code.

:func:`seat_view` builds a frozen :class:`SeatView` from a state and a seat index.  It
holds the seat's own hand, both seats' melds, the card in the centre and who let it go,
the public history (every card turned, thrown or refused, and every meld), the stock and
hand counts, whose turn it is and what they decide, and — only for the seat to act — the
legal actions.  It never holds the opponent's hand or the stock order while the deal is
being played; once the deal is over the opponent's hand is shown (``opponent_hand``).

Two states that differ only in the opponent's hand or in the order of the unturned stock
give equal views (a property test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import format_action
from .cards import CARD_NAMES, FULL_MASK, mask_names
from .state import PH_MELD, PH_OVER, PH_TAKE, STOCK_START, GameState, DECISIONS


@dataclass(frozen=True)
class PublicEvent:
    """One step of the public history: ``seat`` (0/1) did ``action`` (§VII text);
    ``card`` is the card that became visible by it (the card turned by ``turn``, the
    card melded, refused or thrown), or -1."""

    seat: int
    action: str
    card: int


@dataclass(frozen=True)
class SeatView:
    """A seat's view of a deal (R21).  Masks are 40-bit ints; seats are indexes 0/1.

    Attributes:
        seat: the viewing seat.
        rules: profile name.
        opener: seat that opened the deal (R9).
        status: ``"playing"``, ``"won"`` or ``"tablas"``; ``winner`` seat or -1.
        to_act: seat to act, or -1 when over; ``decision`` its decision name or None.
        hand: the viewer's hand.
        melds: ``(melds of seat 0, melds of seat 1)``, each a tuple of masks in §VII order.
        centre: the face-up card in the centre (live or just turned), or -1.
        live_from: seat that let the centre card go, or -1 (none, or just turned).
        stock_count: cards left in the stock; ``hand_counts``: cards in each hand.
        dead: mask of dead cards on the discard pile.
        history: tuple of :class:`PublicEvent`.
        legal: the viewer's legal actions (ints) if it is to act, else ``()``.
        opponent_hand: the opponent's hand mask once the deal is over, else ``None``.
    """

    seat: int
    rules: str
    opener: int
    status: str
    winner: int
    to_act: int
    decision: str | None
    hand: int
    melds: tuple[tuple[int, ...], tuple[int, ...]]
    centre: int
    live_from: int
    stock_count: int
    hand_counts: tuple[int, int]
    dead: int
    history: tuple[PublicEvent, ...]
    legal: tuple[int, ...]
    opponent_hand: int | None

    @property
    def opponent(self) -> int:
        """The other seat's index."""
        return 1 - self.seat

    @property
    def table(self) -> int:
        """Mask of every card on both tables."""
        m = 0
        for side in self.melds:
            for x in side:
                m |= x
        return m

    def unseen(self) -> int:
        """Mask of the cards this seat cannot see: the opponent's hand plus the stock."""
        seen = self.hand | self.table | self.dead
        if self.centre >= 0:
            seen |= 1 << self.centre
        return FULL_MASK & ~seen

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: cards and actions in canonical text, seats numbered 1 and 2."""

        def seat_no(s: int) -> int | None:
            return s + 1 if s >= 0 else None

        return {
            "seat": self.seat + 1,
            "rules": self.rules,
            "opener": self.opener + 1,
            "status": self.status,
            "winner": seat_no(self.winner),
            "to_act": seat_no(self.to_act),
            "decision": self.decision,
            "hand": mask_names(self.hand),
            "melds": {
                str(s + 1): [mask_names(m) for m in self.melds[s]] for s in (0, 1)
            },
            "live": CARD_NAMES[self.centre] if self.centre >= 0 else None,
            "live_from": seat_no(self.live_from),
            "stock": self.stock_count,
            "hand_counts": {"1": self.hand_counts[0], "2": self.hand_counts[1]},
            "dead": mask_names(self.dead),
            "history": [
                {
                    "seat": e.seat + 1,
                    "action": e.action,
                    "card": CARD_NAMES[e.card] if e.card >= 0 else None,
                }
                for e in self.history
            ],
            "legal": [format_action(a) for a in self.legal],
            "opponent_hand": None if self.opponent_hand is None else mask_names(self.opponent_hand),
        }


def public_history(state: GameState) -> tuple[PublicEvent, ...]:
    """The public history of a deal (R21): each action with the card it made visible."""
    events = []
    deck = state.deck
    next_turn = STOCK_START
    centre = -1
    for seat, a in zip(state.actors, state.history):
        kind = a >> 40
        card = -1
        if kind == 1:
            if next_turn < state.stock_pos:
                card = deck[next_turn]
                next_turn += 1
            centre = card
        elif kind == 3:
            card = (a >> 8) & 0x3F
            centre = card
        else:  # meld or refuse: the centre card
            card = centre
        events.append(PublicEvent(seat, format_action(a), card))
    return tuple(events)


def seat_view(state: GameState, seat: int) -> SeatView:
    """The view of ``seat`` (0 or 1) of ``state`` (R21).  Raises ValueError for a bad seat."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    over = state.phase == PH_OVER
    return SeatView(
        seat=seat,
        rules=state.rules.name,
        opener=state.opener,
        status=state.status,
        winner=state.winner,
        to_act=state.to_act,
        decision=DECISIONS[state.phase],
        hand=state.hands[seat],
        melds=(tuple(state.melds[0]), tuple(state.melds[1])),
        centre=state.card,
        live_from=state.live_from,
        stock_count=state.stock_count,
        hand_counts=(state.hands[0].bit_count(), state.hands[1].bit_count()),
        dead=state.dead,
        history=public_history(state),
        legal=tuple(state.legal_actions()) if state.to_act == seat else (),
        opponent_hand=state.hands[1 - seat] if over else None,
    )


__all__ = ["PublicEvent", "SeatView", "seat_view", "public_history", "PH_MELD", "PH_TAKE"]

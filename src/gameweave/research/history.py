"""The public history of a deal as 40-card masks, kept step by step (R21).

A :class:`~gameweave.research.deal.Deal` notes every public event here as it applies it,
so that the observer (:mod:`gameweave.research.observer`) lays out the information
state's history planes without reading the history again.  Only what an event shows
reaches a mask: the card turned, refused, thrown, let die, melded from hand or forced.
"""

from __future__ import annotations

from ..engine import MELD, TABLE, PublicEvent, kind_of
from ..engine.actions import REFUSE_KIND, THROW_KIND, TURN_KIND

HISTORY_PLANES = tuple(
    f"{who}_{what}" for who in ("my", "opponent")
    for what in ("turned", "refused", "thrown", "let_die", "melded_from_hand", "forced_on_other")
)
"""The 40-card planes the information state adds (public history, both seats)."""


def note(public: list[int], hist: list[int], ev: PublicEvent) -> None:
    """Add one public event to the history masks: ``public[6 * seat + plane]`` (12 masks,
    the six planes of :data:`HISTORY_PLANES` per seat, seat 0 first) and ``hist`` (per
    seat, the twelve planes as one int in that seat's :data:`HISTORY_PLANES` order, its
    own six first: bit ``40 * plane + card``).  Only what the event shows (R21)."""
    seat = ev.seat
    base = 6 * seat
    k = kind_of(ev.action)
    card = ev.card
    adds = 0  # the event's six planes, bit 40 * plane + card
    if k == TURN_KIND:
        if card >= 0:
            public[base] |= 1 << card
            adds = 1 << card
        if ev.died >= 0:
            public[base + 3] |= 1 << ev.died
            adds |= 1 << (120 + ev.died)
    elif k == REFUSE_KIND:
        public[base + 1] |= 1 << card
        adds = 1 << (40 + card)
    elif k == THROW_KIND:
        public[base + 2] |= 1 << card
        adds = 1 << (80 + card)
    elif k == MELD or k == TABLE:
        public[base + 4] |= ev.from_hand
        adds = ev.from_hand << 160
    if ev.forced and k != MELD and k != TABLE:
        public[base + 5] |= 1 << card
        adds |= 1 << (200 + card)
    hist[seat] |= adds
    hist[1 - seat] |= adds << 240


__all__ = ["HISTORY_PLANES", "note"]

"""Cards as plain ints and card sets as 40-bit masks (RULES §I).

A card is an ``int`` in ``0..39``: ``card = rank * 4 + suit`` where ``rank`` is the
sequence position 0..9 of ``A 2 3 4 5 6 7 J Q K`` (R2) and ``suit`` is 0..3 for
``c d h s`` (R3).  With this numbering the natural int order *is* hand order (R4):
rank first, then suit.  A set of cards is a 40-bit ``int`` mask with bit ``card`` set;
iterating its bits from low to high yields the cards in hand order.

Everything here is built once at import; nothing allocates per call on the hot path.
"""

from __future__ import annotations

from typing import TypeAlias
from collections.abc import Iterable, Iterator

from .errors import UnparsableError

Card: TypeAlias = int
"""A card, 0..39 (``rank * 4 + suit``)."""
Mask: TypeAlias = int
"""A set of cards as a 40-bit mask (bit ``card`` set)."""
Seat: TypeAlias = int
"""A seat index, 0 or 1 (shown as 1 and 2 to people)."""

RANKS = "A234567JQK"
"""Rank characters in sequence position order (R1, R2)."""
SUITS = "cdhs"
"""Suit letters in suit order c < d < h < s (R3)."""
SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in suit order, accepted on input (R3)."""

NUM_CARDS = 40
FULL_MASK = (1 << NUM_CARDS) - 1
"""40-bit mask of the whole pack (R1)."""

RANK_MASKS: tuple[int, ...] = tuple(0b1111 << (4 * r) for r in range(10))
"""``RANK_MASKS[r]``: 40-bit mask of the four cards of rank position ``r``."""
SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << (4 * r + s) for r in range(10)) for s in range(4)
)
"""``SUIT_MASKS[s]``: 40-bit mask of the ten cards of suit ``s``."""
RANK_OTHERS: tuple[int, ...] = tuple(RANK_MASKS[c >> 2] & ~(1 << c) for c in range(NUM_CARDS))
"""``RANK_OTHERS[card]``: mask of the other three cards of the card's rank (a set's partners, R5);
the one table of it in the house."""

CARD_NAMES: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(NUM_CARDS))
"""``CARD_NAMES[card]``: canonical text of a card, e.g. ``'Ah'``, ``'7c'`` (R3)."""

_PARSE: dict[str, int] = {}
for _c, _name in enumerate(CARD_NAMES):
    for _r in (_name[0], _name[0].lower()):
        for _s in (SUITS[_c & 3], SUITS[_c & 3].upper(), SUIT_SYMBOLS[_c & 3]):
            _PARSE[_r + _s] = _c
# common variant suit glyphs (white suits) are accepted too
for _c in range(NUM_CARDS):
    for _r in (RANKS[_c >> 2], RANKS[_c >> 2].lower()):
        _PARSE[_r + "♧♢♡♤"[_c & 3]] = _c


def rank_of(card: int) -> int:
    """Rank position 0..9 of ``card`` (R2)."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (c, d, h, s) of ``card`` (R3)."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    """The card (0..39) of rank position ``rank`` (0..9) and suit ``suit`` (0..3)."""
    return rank * 4 + suit


def card_name(card: int) -> str:
    """Canonical text of one card, e.g. ``card_name(0) == 'Ac'`` (R3)."""
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """Parse one card (R3): rank then suit, case-insensitive, ``c d h s`` or ``♣ ♦ ♥ ♠``.

    Returns the card int 0..39.  Raises :class:`UnparsableError` for anything else.
    """
    card = _PARSE.get(text.strip())
    if card is None:
        raise UnparsableError(f"not a card: {text!r} (write rank then suit, e.g. 7h, Ks)", reason="not_a_card",
                              text=text.strip())
    return card


def parse_cards(text: str) -> list[int]:
    """Parse whitespace- or comma-separated cards, in the order written.

    Raises :class:`UnparsableError` if any token is not a card.
    """
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def mask_of(cards: Iterable[int]) -> int:
    """40-bit mask of an iterable of card ints."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a 40-bit mask, in hand order (R4)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(mask: int) -> str:
    """Space-separated canonical names of a mask's cards, in hand order (R3, R4)."""
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def mask_names(mask: int) -> list[str]:
    """Canonical names of a mask's cards as a list, in hand order (R3, R4)."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def lowest_bit(mask: int) -> int:
    """The bit of a mask's first card in hand order (R4): ``mask & -mask``, 0 for an empty
    mask.  Sorting melds by it puts them in §VII order (by their lowest card)."""
    return mask & -mask

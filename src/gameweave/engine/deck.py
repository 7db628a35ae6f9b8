"""Deck orders and the deal (RULES R8): which cards each seat is dealt and where the stock starts.

A deck order is a tuple of the 40 card ints: cards 1-20 are dealt alternately, the opener
first, and card 21 tops the stock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import FULL_MASK, Mask, Seat, format_cards, parse_cards
from .errors import UnparsableError

HAND_SIZE = 10
"""Cards dealt to each seat (R8)."""
STOCK_START = 20
"""Deck index of the top stock card (R8)."""

_BIT_OF: dict[int, Mask] = {c: 1 << c for c in range(40)}
"""card -> its bit (the deal sums them in C: the cards of a hand are distinct)."""
_PACK = list(range(40))


def validate_deck(deck: Sequence[int] | str) -> tuple[int, ...]:
    """Check a deck order (R8) and return it as a tuple of 40 card ints.

    Accepts 40 card ints or text of 40 cards.  Raises :class:`UnparsableError` if it is
    not a permutation of the 40-card pack (R1).
    """
    if isinstance(deck, str):
        cards = parse_cards(deck)
    else:
        cards = list(deck)
    if len(cards) != 40 or sorted(cards) != _PACK:
        seen = 0
        twice = 0
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 40:
                raise UnparsableError(f"a deck order holds cards 0..39, not {c!r}")
            twice |= seen & (1 << c)
            seen |= 1 << c
        missing = FULL_MASK & ~seen
        raise UnparsableError(
            f"a deck order is the 40 cards of the pack, each once (got {len(cards)} cards"
            + (f"; twice: {format_cards(twice)}" if twice else "")
            + (f"; missing: {format_cards(missing)}" if missing else "")
            + ")"
        )
    return tuple(cards)


def shuffled_deck(seed: int | str) -> tuple[int, ...]:
    """A deterministic deck order (R8) from ``seed`` (same seed, same deck, any machine).

    Uses a private :class:`random.Random` instance, never the global generator.  Not for
    fair play against people: the server draws decks from a cryptographic source.
    """
    deck = list(range(40))
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def dealt_hands(deck: Sequence[int], opener: Seat) -> list[Mask]:
    """The two hands a deck order deals (R8), as ``[mask of seat 0, mask of seat 1]``:
    the first 20 cards, alternately, the opener first."""
    bit = _BIT_OF.__getitem__
    first = sum(map(bit, deck[0:STOCK_START:2]))
    second = sum(map(bit, deck[1:STOCK_START:2]))
    return [first, second] if opener == 0 else [second, first]


def deck_of(first_hand: Sequence[int], second_hand: Sequence[int], stock: Sequence[int]) -> list[int]:
    """The deck order (R8) that deals ``first_hand`` to the opener and ``second_hand`` to
    the other seat (ten cards each, in the order given), then ``stock`` top first."""
    deck: list[int] = []
    for x, y in zip(first_hand, second_hand):
        deck += [x, y]
    return deck + list(stock)

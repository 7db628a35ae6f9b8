"""The table's secrets (R8, R21, PROTOCOL §2): match ids, seat tokens and their hashes,
invites and watch keys, the cryptographic shuffle, and the fair-shuffle commitment.

Every secret comes from the standard library's :mod:`secrets`; only a seat token's
SHA-256 is ever stored.  The deck and salt of a deal stay secret until it ends; the
commitment to them is public from the start.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from ..engine import CARD_NAMES


def new_id() -> str:
    """A new match id: 16 hex characters from :mod:`secrets`."""
    return secrets.token_hex(8)


def new_token() -> str:
    """A new seat token: 64 hex characters (256 bits) from :mod:`secrets`."""
    return secrets.token_hex(32)


def new_invite() -> str:
    """A new invite (or watch key): 32 hex characters (128 bits) from :mod:`secrets`."""
    return secrets.token_hex(16)


def hash_token(token: str) -> str:
    """SHA-256 hex of a seat token; only this is stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def draw_seat() -> int:
    """A seat index (0/1) drawn from :mod:`secrets`: the first opener where the profile
    draws it (R9, R20)."""
    return secrets.randbelow(2)


def deck_text(deck: Sequence[int]) -> str:
    """The 40 cards of a deck order (R8) as canonical names joined by single spaces."""
    return " ".join(CARD_NAMES[c] for c in deck)


def commitment(deck: Sequence[int] | str, salt: str) -> str:
    """The fair-shuffle commitment: ``sha256(deck_text + " " + salt)`` as 64 hex, UTF-8.

    ``deck`` is 40 card ints in R8 order or its canonical text.
    """
    text = deck if isinstance(deck, str) else deck_text(deck)
    return hashlib.sha256((text + " " + salt).encode("utf-8")).hexdigest()


def secure_deck() -> tuple[tuple[int, ...], str]:
    """A deck order (R8) shuffled by a cryptographic source, and a fresh 32-hex salt."""
    deck = list(range(40))
    secrets.SystemRandom().shuffle(deck)
    return tuple(deck), secrets.token_hex(16)


__all__ = ["commitment", "deck_text", "draw_seat", "hash_token", "new_id", "new_invite", "new_token", "secure_deck"]

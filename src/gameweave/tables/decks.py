"""Test decks: deal fixed deck orders (R8) to replay a position (``serve --test-decks``).

A test-deck file holds one 40-card deck order per line in the §VII deck text that
:func:`~gameweave.tables.deck_text` prints (``Ac 2d …``, R8 order); blank lines and lines
starting with ``#`` are ignored.  :class:`TestDecks` deals them in turn, then fair
shuffles.  Every deal it gives from the file is marked as a test deal: its match says
``test: true`` and makes no fair-shuffle claim (the deck was chosen, not shuffled).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from ..engine import GameweaveError, validate_deck
from .secrets import secure_deck


class TestDeckError(ValueError):
    """A test-deck file that cannot be read: ``message`` names the line and what is wrong."""

    __test__ = False  # not a pytest class

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def read_test_decks(path: Path | str) -> list[tuple[int, ...]]:
    """The deck orders of a test-deck file, in order.  Raises :class:`TestDeckError`
    for a missing or unreadable file, a line that is not a deck order of the 40 cards
    (R1, R8), or a file with no deck at all."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TestDeckError(f"cannot read the test decks {path}: {exc}") from None
    decks = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            decks.append(tuple(validate_deck(line)))
        except GameweaveError as exc:
            raise TestDeckError(f"{path} line {n} is not a deck order of the 40 cards: {exc}") from None
    if not decks:
        raise TestDeckError(f"{path} holds no deck order (one 40-card deck a line; # starts a comment)")
    return decks


class TestDecks:
    """A deck source (``() -> (deck, salt, test)``): the given deck orders first, in
    turn, each with a fresh salt and ``test=True``; then cryptographic shuffles
    (:func:`~gameweave.tables.secure_deck`) with ``test=False``.  Thread-safe."""

    __test__ = False  # not a pytest class

    def __init__(self, decks: Sequence[Sequence[int]]):
        self.decks = [tuple(d) for d in decks]
        self.dealt = 0
        self.lock = threading.Lock()

    @classmethod
    def from_file(cls, path: Path | str) -> TestDecks:
        """The decks of a test-deck file (see :func:`read_test_decks`)."""
        return cls(read_test_decks(path))

    @property
    def left(self) -> int:
        """Test decks not dealt yet."""
        return len(self.decks) - self.dealt

    def __call__(self) -> tuple[tuple[int, ...], str, bool]:
        fair, salt = secure_deck()
        with self.lock:
            if self.dealt < len(self.decks):
                deck = self.decks[self.dealt]
                self.dealt += 1
                return deck, salt, True
        return fair, salt, False


__all__ = ["TestDeckError", "TestDecks", "read_test_decks"]

"""Tables: a match between two seats, its deals, and the order of checks for every
incoming message (no I/O; the server persists and announces); the seat's choices and
the deal's progress (:mod:`~gameweave.tables.choices`); how to play and what each
profile offers (:mod:`~gameweave.tables.help`); test decks (:mod:`~gameweave.tables.decks`).

The referee is :class:`Table` (:mod:`~gameweave.tables.table`); its secrets are
:mod:`~gameweave.tables.secrets`, names and clocks :mod:`~gameweave.tables.policy`, a deal
:mod:`~gameweave.tables.deal`, the refusal :mod:`~gameweave.tables.errors`.  What goes out
on the wire is built by ``gameweave.server.frames``.  See docs/PROTOCOL.md.
"""

from .choices import Choice, choice_of, progress, seat_choices
from .deal import DealInfo
from .decks import TestDeckError, TestDecks, read_test_decks
from .errors import TableError
from .help import (all_profile_offers, check_new_match, formats_of, help_data, help_for_wire, profile_offers,
                   profile_title)
from .phrases import PHRASES, is_phrase
from .policy import CLOCK_BANK, CLOCKS, MAX_NAME, check_clock, check_name, clock_bank
from .secrets import commitment, deck_text, hash_token, new_id, new_invite, new_token, secure_deck
from .table import Table

__all__ = [
    "CLOCK_BANK", "CLOCKS", "MAX_NAME", "PHRASES", "check_clock", "check_name", "clock_bank", "is_phrase", "Choice",
    "DealInfo", "Table", "TableError", "TestDeckError", "TestDecks", "all_profile_offers",
    "check_new_match", "choice_of", "commitment", "deck_text", "formats_of", "hash_token", "help_data", "profile_title",
    "help_for_wire", "new_id", "new_invite", "new_token", "profile_offers", "progress", "read_test_decks",
    "seat_choices", "secure_deck",
]

"""Tables: a match between two seats, its deals, and the order of checks for every
incoming message (no I/O; the server persists and announces).

See :class:`Table` and docs/PROTOCOL.md.
"""

from .table import (
    DealInfo, Table, TableError, commitment, deck_text, hash_token, new_id, new_invite,
    new_token, secure_deck,
)

__all__ = [
    "DealInfo", "Table", "TableError", "commitment", "deck_text", "hash_token", "new_id",
    "new_invite", "new_token", "secure_deck",
]

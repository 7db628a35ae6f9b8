"""Quick phrases (issue 10): the only words one person's page shows the other.

Nothing typed by a person ever reaches the other seat: a seat sends one of these keys
(WS ``{"type": "phrase", "key": k}``) and every page says ``phrase.<key>`` from its own
catalog, in its reader's language.  So there is nothing to moderate.
"""

from __future__ import annotations

PHRASES = (
    "hello", "good_luck", "well_played", "nice_move", "thanks", "oops",
    "thinking", "hurry", "sorry", "wow", "one_more", "bye",
)
"""The phrase keys, in the order the page offers them; each has a ``phrase.<key>``
message in both catalogs (a test checks it)."""


def is_phrase(key: object) -> bool:
    """True if ``key`` is one of :data:`PHRASES`."""
    return isinstance(key, str) and key in PHRASES


__all__ = ["PHRASES", "is_phrase"]

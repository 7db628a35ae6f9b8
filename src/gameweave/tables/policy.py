"""What a table accepts from people besides moves: players' names and match clocks
(issues 10 and 11).

A name is text of 1 to :data:`MAX_NAME` characters with no control character once
trimmed (emoji glue does not count); a clock is one of :data:`CLOCKS` seconds per
decision, with a time bank of :data:`CLOCK_BANK` seconds per seat.
"""

from __future__ import annotations

import unicodedata

from .errors import TableError

MAX_NAME = 24
"""Longest player name, in characters (issue 10)."""

CLOCKS = (60, 30)
"""The clocks a match may have: seconds per decision (or none)."""

CLOCK_BANK = {60: 30, 30: 15}
"""The time bank of each seat for each clock, seconds: used up once a decision takes
longer than the clock's seconds; a decision past both is played by the server."""


_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Zero-width (non-)joiner and the text/emoji variation selectors: glue inside a name's
emoji or script, allowed in names and not counted as characters."""


def check_name(name: object) -> str | None:
    """A player's name, trimmed: None stays None (the page shows ``term.seat_n``).
    Raises :class:`TableError` ``bad_name`` unless it is text of 1-24 characters with
    no control character once trimmed."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TableError("bad_name", "a name must be text", params={"max": MAX_NAME})
    out = name.strip()
    # emoji sequences are joined with U+200D and styled with variation selectors: they are
    # part of one character, not control characters (and not counted towards the 24)
    length = sum(1 for ch in out if ch not in _JOINERS)
    if not 1 <= length <= MAX_NAME or any(unicodedata.category(ch).startswith("C") and ch not in _JOINERS
                                          for ch in out):
        raise TableError("bad_name", f"a name has 1 to {MAX_NAME} characters and no control characters",
                         params={"max": MAX_NAME})
    return out


def check_clock(clock: int | None) -> int | None:
    """A match's clock: one of :data:`CLOCKS` seconds per decision, or None for none.
    Raises :class:`TableError` ``bad_option`` for any other value."""
    if clock is not None and clock not in CLOCKS:
        raise TableError("bad_option", f"'clock' is one of {', '.join(map(str, CLOCKS))} seconds or null",
                         params={"detail": "clock"})
    return clock


def clock_bank(clock: int | None, scale: float = 1.0) -> float:
    """Each seat's starting time bank, seconds, for ``clock`` (0 without a clock);
    ``scale`` is a test setting that shortens it."""
    return CLOCK_BANK.get(clock or 0, 0) * scale


__all__ = ["CLOCKS", "CLOCK_BANK", "MAX_NAME", "check_clock", "check_name", "clock_bank"]

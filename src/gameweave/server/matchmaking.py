"""Who plays whom in the quick-match queue (issue 20; PROTOCOL §3.16): no I/O, no clock
of its own (the time is given), so it is tested alone.

Two entries may meet when they queue for the same profile, the same clock and the same
kind of play (rated or casual), are not the same account nor the same browser (two tabs
of one browser: the page's browser key), and their ratings are within
*both* players' windows.  A window starts at ±:data:`WINDOW_START` and widens linearly
with waiting to ±:data:`WINDOW_END` after :data:`WIDEN_S` seconds.  The oldest entry
chooses first, and it takes the nearest rating (ties: whoever waited longer), so the
longest waiter is served first and nobody is skipped for a closer pair forming later.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

WINDOW_START = 100.0
"""Rating window (±) at the moment a player joins the queue."""

WINDOW_END = 400.0
"""Rating window (±) after :data:`WIDEN_S` seconds of waiting, and from then on."""

WIDEN_S = 30.0
"""Seconds over which the window widens from :data:`WINDOW_START` to :data:`WINDOW_END`."""


class Entry(Protocol):
    """What pairing reads of a queue entry (:class:`~gameweave.storage.lobby.QueueRow`)."""

    id: int
    rules: str
    clock: int | None
    rated: bool
    account_id: int | None
    browser: str | None
    rating: float
    created_at: datetime


def window(waited_s: float) -> float:
    """The rating window (±, rating points) after ``waited_s`` seconds in the queue:
    100 at 0 s, growing linearly to 400 at 30 s and staying there."""
    f = min(max(waited_s, 0.0), WIDEN_S) / WIDEN_S
    return WINDOW_START + (WINDOW_END - WINDOW_START) * f


def can_meet(a: Entry, b: Entry, now: datetime) -> bool:
    """True if ``a`` and ``b`` may be paired at ``now`` (same profile, clock and kind;
    not one account twice, nor one browser twice; ratings within both windows)."""
    if (a.rules, a.clock, a.rated) != (b.rules, b.clock, b.rated):
        return False
    if a.account_id is not None and a.account_id == b.account_id:
        return False
    if a.browser is not None and a.browser == b.browser:
        return False
    gap = abs(a.rating - b.rating)
    wa = window((now - a.created_at).total_seconds())
    wb = window((now - b.created_at).total_seconds())
    return gap <= min(wa, wb)


def plan(entries: Sequence[Entry], now: datetime) -> list[tuple[Entry, Entry]]:
    """The pairs to make now from ``entries`` (oldest first, as the queue gives them):
    each unpaired entry, oldest first, takes the nearest-rated one it can meet.  The
    first of a pair (the older entry) holds seat 1."""
    order = sorted(entries, key=lambda e: (e.created_at, e.id))
    taken: set[int] = set()
    pairs: list[tuple[Entry, Entry]] = []
    for i, a in enumerate(order):
        if a.id in taken:
            continue
        best = None
        for b in order[i + 1:]:
            if b.id in taken or not can_meet(a, b, now):
                continue
            if best is None or abs(a.rating - b.rating) < abs(a.rating - best.rating):
                best = b
        if best is not None:
            taken.update((a.id, best.id))
            pairs.append((a, best))
    return pairs


__all__ = ["Entry", "WIDEN_S", "WINDOW_END", "WINDOW_START", "can_meet", "plan", "window"]

"""Precomputed meld tables (RULES §II, R5, R6).

Every legal meld of the pack is enumerated once per sequence cap, with a stable id (its
index).  With no cap there are 40 sets of three + 10 sets of four + 144 sequences = 194
melds.  For each meld the table also holds its *extension mask*: the 40-bit mask of the
cards that can be added to it to give another legal meld (used for additions, R12, and
forcing, R15).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from .cards import RANK_MASKS, make_card


@dataclass(frozen=True)
class MeldTable:
    """All melds for one sequence cap.

    Attributes:
        max_sequence: the cap in cards (R6), or ``None``.
        melds: tuple of 40-bit masks; a meld's id is its index here.
        ids: mask -> id.
        ext: mask -> extension mask (cards that extend it legally).
        seq: ``seq[(low_card, length)]`` -> mask of the sequence starting at ``low_card``.
        by_card: ``by_card[c]`` -> the melds that contain card ``c`` (R18 enumeration).
        by_low: ``by_low[c]`` -> the melds whose lowest card is ``c``.
    """

    max_sequence: int | None
    melds: tuple[int, ...]
    ids: dict[int, int] = field(repr=False)
    ext: dict[int, int] = field(repr=False)
    seq: dict[tuple[int, int], int] = field(repr=False)
    by_card: tuple[tuple[int, ...], ...] = field(repr=False, default=())
    by_low: tuple[tuple[int, ...], ...] = field(repr=False, default=())

    def is_meld(self, mask: int) -> bool:
        """True if the 40-bit ``mask`` is one legal meld (a set, R5, or a sequence, R6)."""
        return mask in self.ids


def _sequence_mask(low_rank: int, suit: int, length: int) -> int:
    m = 0
    for r in range(low_rank, low_rank + length):
        m |= 1 << make_card(r, suit)
    return m


@cache
def meld_table(max_sequence: int | None = None) -> MeldTable:
    """The :class:`MeldTable` for a sequence cap (R6); built once and cached."""
    cap = 10 if max_sequence is None else max_sequence
    melds: list[int] = []
    for r in range(10):  # R5 sets: every 3 of the 4 suits, then all four
        cards = [make_card(r, s) for s in range(4)]
        for combo in combinations(cards, 3):
            melds.append(sum(1 << c for c in combo))
        melds.append(RANK_MASKS[r])
    seq: dict[tuple[int, int], int] = {}
    for s in range(4):  # R6 sequences of 3..cap consecutive positions of one suit
        for length in range(3, cap + 1):
            for low in range(0, 10 - length + 1):
                m = _sequence_mask(low, s, length)
                melds.append(m)
                seq[(make_card(low, s), length)] = m
    ids = {m: i for i, m in enumerate(melds)}
    ext: dict[int, int] = {}
    for m in melds:
        e = 0
        for c in range(40):
            if not (m >> c) & 1 and (m | (1 << c)) in ids:
                e |= 1 << c
        ext[m] = e
    by_card = tuple(tuple(m for m in melds if m >> c & 1) for c in range(40))
    by_low = tuple(tuple(m for m in melds if (m & -m) == 1 << c) for c in range(40))
    return MeldTable(max_sequence, tuple(melds), ids, ext, seq, by_card, by_low)

"""Partitions of cards into melds, for the profiles that rearrange (RULES R18).

A *table* is a tuple of disjoint legal melds (40-bit masks).  Everything here works on
one :class:`~gameweave.engine.melds.MeldTable` (one sequence cap, R6) and is pure.

* :func:`tables_with` enumerates every new table that R18 offers: a partition into
  legal melds of the ``required`` cards (the seat's table cards and the card being
  melded) plus any subset of the ``hand`` cards, each partition once (R18a, R18b, R18c).
* :func:`can_cover` says whether at least one such table exists, without listing them
  (R18d: a live card may be taken; R17: a seat that can meld is not at tablas).
* :func:`Partitioner.partitionable` says whether a mask of cards can be split exactly
  into legal melds with no hand card (R18e forcing, R19 forcing back), memoised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .actions import Action, table_action
from .cards import FULL_MASK, RANK_MASKS, RANK_OTHERS, Mask
from .melds import MeldTable

_T = TypeVar("_T")

_RANK_ABOVE: tuple[int, ...] = tuple(RANK_MASKS[c >> 2] & ~((2 << c) - 1) for c in range(40))


_ODD_BITS = 0x5555555555
_PAIRS = 0x3333333333
_ONES = 0x1111111111
_TWOS = 0x2222222222
_FOURS = 0x4444444444


def _rank_counts(pool: Mask) -> int:
    """Per rank (one 4-bit nibble of the 40-bit mask, R1's card order), how many of its
    cards ``pool`` holds (0..4), as nibbles of one int."""
    a = (pool & _ODD_BITS) + (pool >> 1 & _ODD_BITS)
    return (a & _PAIRS) + (a >> 2 & _PAIRS)


def has_meld(pool: Mask) -> bool:
    """True if some legal meld (a set of three, R5, or a sequence of three, R6) lies
    within ``pool``; every longer meld holds one, so False means no meld at all.  Pure
    bit arithmetic (no loop): a sequence is three cards four apart, a set three cards of
    one nibble."""
    if pool & pool >> 4 & pool >> 8:
        return True
    return bool((_rank_counts(pool) + _ONES) & _FOURS)


def near_pairs(pool: Mask) -> Mask:
    """The cards that make a meld of three (R5, R6) with two cards of ``pool``: the rest
    of every rank with two or more cards in ``pool``, and each card next to two suit
    neighbours in ``pool``.  A superset filter for R18e forcing (a card outside it fits
    no partition of a table ``pool``)."""
    seq = (pool << 4 & pool << 8) | (pool << 4 & pool >> 4) | (pool >> 4 & pool >> 8)
    two = ((_rank_counts(pool) + _TWOS) & _FOURS) >> 2
    return (seq | two * 15) & FULL_MASK & ~pool


def _sets(bit: Mask, same: Mask, out: list[Mask]) -> None:
    """Append the sets (R5) of card ``bit`` with two or three of the cards ``same``
    (two or three cards of its rank)."""
    a = same & -same
    rest = same ^ a
    b = rest & -rest
    d = rest ^ b
    out.append(bit | a | b)
    if d:
        out.append(bit | a | d)
        out.append(bit | b | d)
        out.append(bit | same)


_SUIT_OTHERS: tuple[int, ...] = tuple(
    sum(1 << x for x in range(c & 3, 40, 4)) & ~(1 << c) for c in range(40)
)
_WITH_NEAR: tuple[int, ...] = tuple(RANK_OTHERS[c] | _SUIT_OTHERS[c] for c in range(40))
"""The cards whose presence decides which melds hold card ``c``: its rank and its suit."""
_LOW_NEAR: tuple[int, ...] = tuple(_RANK_ABOVE[c] | (_SUIT_OTHERS[c] & ~((2 << c) - 1)) for c in range(40))
"""The cards whose presence decides which melds have lowest card ``c``."""
_MEMO_LIMIT = 1 << 16
_WITH_MEMO: dict[int, tuple[Mask, ...]] = {}
_LOW_MEMO: dict[int, tuple[Mask, ...]] = {}


def _with_card(tab: MeldTable, c: int, pool: Mask) -> tuple[Mask, ...]:
    """Every legal meld (R5, R6, the table's cap) that holds card ``c`` and lies within
    ``pool | c``, in :func:`_build_with_card`'s order.  Memoised on the cap, ``c`` and
    the cards of ``pool`` in ``c``'s rank and suit (nothing else can change the answer);
    the memo is cleared when it holds ``_MEMO_LIMIT`` keys."""
    key = pool & _WITH_NEAR[c] | c << 40 | (tab.max_sequence or 10) << 46
    got = _WITH_MEMO.get(key)
    if got is None:
        if len(_WITH_MEMO) >= _MEMO_LIMIT:
            _WITH_MEMO.clear()
        got = _WITH_MEMO[key] = tuple(_build_with_card(tab, c, pool))
    return got


def _lowest_at(tab: MeldTable, c: int, pool: Mask) -> tuple[Mask, ...]:
    """Every legal meld within ``pool`` whose lowest card is ``c`` (``c`` in pool), in
    :func:`_build_lowest_at`'s order; memoised as :func:`_with_card`."""
    key = pool & _LOW_NEAR[c] | c << 40 | (tab.max_sequence or 10) << 46
    got = _LOW_MEMO.get(key)
    if got is None:
        if len(_LOW_MEMO) >= _MEMO_LIMIT:
            _LOW_MEMO.clear()
        got = _LOW_MEMO[key] = tuple(_build_lowest_at(tab, c, pool))
    return got


def _build_with_card(tab: MeldTable, c: int, pool: Mask) -> list[Mask]:
    """Every legal meld (R5, R6, the table's cap) that holds card ``c`` and lies within
    ``pool | c``; built from the run and the same-rank cards around ``c``: sets first,
    then sequences by lowest card, each from shortest to longest."""
    bit = 1 << c
    out: list[Mask] = []
    same = pool & RANK_OTHERS[c]
    if same & (same - 1):
        _sets(bit, same, out)
    lo = 0
    x = c - 4
    while x >= 0 and pool >> x & 1:
        lo += 1
        x -= 4
    hi = 0
    x = c + 4
    while x < 40 and pool >> x & 1:
        hi += 1
        x += 4
    if lo + hi >= 2:
        seq = tab.seq
        cap = 10 if tab.max_sequence is None else tab.max_sequence
        for i in range(lo, -1, -1):
            start = c - 4 * i
            for j in range(hi + 1):
                n = i + j + 1
                if 3 <= n <= cap:
                    out.append(seq[(start, n)])
    return out


def _build_lowest_at(tab: MeldTable, c: int, pool: Mask) -> list[Mask]:
    """Every legal meld within ``pool`` whose lowest card is ``c`` (``c`` in pool): sets
    first, then sequences from shortest to longest."""
    bit = 1 << c
    out: list[Mask] = []
    same = pool & _RANK_ABOVE[c]
    if same & (same - 1):
        _sets(bit, same, out)
    hi = 0
    x = c + 4
    while x < 40 and pool >> x & 1:
        hi += 1
        x += 4
    if hi >= 2:
        seq = tab.seq
        cap = 10 if tab.max_sequence is None else tab.max_sequence
        for n in range(3, min(hi + 1, cap) + 1):
            out.append(seq[(c, n)])
    return out


def _partitions(tab: MeldTable, required: Mask, hand: Mask,
                make: Callable[[list[Mask]], _T]) -> list[_T]:
    """The enumeration of :func:`tables_with`; each table is passed to ``make`` (as the
    working list of its melds, in the order found) and its result listed."""
    out: list[_T] = []
    append = out.append

    def extend(rest: Mask, chosen: list[Mask], floor: int) -> None:
        append(make(chosen))
        h = rest >> floor << floor
        if not has_meld(h):  # the common case: no meld of hand cards only is left
            return
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            for m in _lowest_at(tab, c, rest):
                chosen.append(m)
                extend(rest & ~m, chosen, c + 1)
                chosen.pop()

    def cover(req: Mask, rest: Mask, chosen: list[Mask]) -> None:
        if not req:
            extend(rest, chosen, 0)
            return
        low = req & -req
        for m in _with_card(tab, low.bit_length() - 1, (req ^ low) | rest):
            chosen.append(m)
            cover(req & ~m, rest & ~m, chosen)
            chosen.pop()

    cover(required, hand, [])
    return out


def tables_with(tab: MeldTable, required: Mask, hand: Mask) -> list[tuple[Mask, ...]]:
    """Every partition into legal melds of ``required | S`` for every ``S`` within
    ``hand`` (R18a-c), each exactly once, melds listed as found.

    Shapes: masks are 40-bit ints; ``required`` and ``hand`` are disjoint.  The result
    is empty when the required cards cannot all be covered.  The enumeration covers the
    lowest uncovered required card with each meld that can hold it (so a partition is
    found once), then adds any set of melds made only of hand cards, in increasing order
    of their lowest card (once again).  The 128-choice position of R18b takes well
    under a millisecond.
    """
    return _partitions(tab, required, hand, tuple)


def table_actions_with(tab: MeldTable, required: Mask, hand: Mask) -> list[Action]:
    """The ``meld`` actions (:func:`~gameweave.engine.actions.table_action`) of
    :func:`tables_with`, in the same order, without building the tuples (R18a-c)."""
    return _partitions(tab, required, hand, table_action)


def can_cover(tab: MeldTable, required: Mask, hand: Mask) -> bool:
    """True if :func:`tables_with` would list at least one table (R18d, R17)."""

    def cover(req: Mask, rest: Mask) -> bool:
        if not req:
            return True
        low = req & -req
        for m in _with_card(tab, low.bit_length() - 1, (req ^ low) | rest):
            if cover(req & ~m, rest & ~m):
                return True
        return False

    return cover(required, hand)


class Partitioner:
    """Memoised exact partitions for one meld table (R18e, R19).

    ``partitionable(mask)`` is True if the cards of ``mask`` split exactly into legal
    melds.  The memo holds at most ``limit`` masks (it is cleared when full), so memory
    stays bounded in long simulations.
    """

    __slots__ = ("tab", "memo", "limit")

    def __init__(self, tab: MeldTable, limit: int = 1 << 17) -> None:
        self.tab = tab
        self.memo: dict[Mask, bool] = {0: True}
        self.limit = limit

    def partitionable(self, mask: Mask) -> bool:
        """True if ``mask`` (40-bit) is the union of disjoint legal melds."""
        got = self.memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        ok = False
        for m in _with_card(self.tab, low.bit_length() - 1, mask ^ low):
            if self.partitionable(mask & ~m):
                ok = True
                break
        if len(self.memo) >= self.limit:
            self.memo.clear()
            self.memo[0] = True
        self.memo[mask] = ok
        return ok

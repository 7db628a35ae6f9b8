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

from .cards import Mask
from .melds import MeldTable


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
    out: list[tuple[Mask, ...]] = []
    by_card = tab.by_card
    by_low = tab.by_low

    def extend(rest: Mask, chosen: list[Mask], floor: int) -> None:
        out.append(tuple(chosen))
        h = rest >> floor << floor
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            for m in by_low[c]:
                if m & rest == m:
                    chosen.append(m)
                    extend(rest & ~m, chosen, c + 1)
                    chosen.pop()

    def cover(req: Mask, rest: Mask, chosen: list[Mask]) -> None:
        if not req:
            extend(rest, chosen, 0)
            return
        low = req & -req
        pool = req | rest
        for m in by_card[low.bit_length() - 1]:
            if m & pool == m:
                chosen.append(m)
                cover(req & ~m, rest & ~m, chosen)
                chosen.pop()

    cover(required, hand, [])
    return out


def can_cover(tab: MeldTable, required: Mask, hand: Mask) -> bool:
    """True if :func:`tables_with` would list at least one table (R18d, R17)."""
    by_card = tab.by_card

    def cover(req: Mask, rest: Mask) -> bool:
        if not req:
            return True
        low = req & -req
        pool = req | rest
        for m in by_card[low.bit_length() - 1]:
            if m & pool == m and cover(req & ~m, rest & ~m):
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
        for m in self.tab.by_card[low.bit_length() - 1]:
            if m & mask == m and self.partitionable(mask & ~m):
                ok = True
                break
        if len(self.memo) >= self.limit:
            self.memo.clear()
            self.memo[0] = True
        self.memo[mask] = ok
        return ok

"""How melding and forcing work, chosen once per deal from the profile (RULES R12, R15, R18).

A *flow* is a small strategy object with the hooks where profiles differ; the state's
per-decision legal/apply functions call them and hold no profile logic of their own
(python-chess ``variant.py`` style).  There are two:

* :class:`SingleMeldFlow` (gameweave): a taken card is added to one meld or makes one
  new meld with hand cards (R12); a forced card goes onto the named meld at once (R15).
* :class:`RearrangeFlow` (anglo-american, classic): melding chooses a whole new table
  (R18a-c); a card can be forced when some partition of the opponent's table plus the
  card is legal (R18e), and the forced seat then decides ``meld`` itself.

:func:`flow_for` picks one from a :class:`~gameweave.engine.rules.Rules`.  A future
profile (the Mexican 2-3 player game) adds a flow here, not branches in the state.

Hooks read a deal through :class:`Tables` (the four per-seat fields a flow needs; the
game state has them) and never write it: :meth:`~SingleMeldFlow.meld_change` and
:meth:`~SingleMeldFlow.force_change` return a :data:`TableChange`, which the state lays
down (OpenSpiel gin_rummy's per-phase apply functions own their state the same way).
"""

from __future__ import annotations

from functools import cache
from typing import Protocol, TypeAlias

from .actions import FORCE_ANY, PAYLOAD_SHIFT, Action, meld_action, table_of
from .cards import RANK_OTHERS, Mask, Seat, lowest_bit
from .melds import MeldTable, meld_table
from .partition import Partitioner, can_cover, near_pairs, table_actions_with
from .rules import Rules


class Tables(Protocol):
    """What a flow reads of a deal, per seat index (0/1): the hands, the melds in §VII
    order, the mask and number of the cards on each table, and the mask of the cards that
    extend one of each seat's melds (R15).  :class:`~gameweave.engine.state.GameState`
    is one."""

    hands: list[Mask]
    melds: list[list[Mask]]
    table_cards: list[Mask]
    table_counts: list[int]
    extensions: list[Mask]


TableChange: TypeAlias = tuple[list[Mask], Mask, Mask, int, Mask]
"""A seat's table after a meld or a force, for the state to lay down:
``(melds, extensions, table_cards, table_count, from_hand)`` — the new meld list (a new
list, §VII order), its extension mask (R15), the mask and number of its cards, and the
hand cards the step took from the seat's hand (0 for a force)."""

_L1 = tuple(1 << (c - 4) if c >= 4 else 0 for c in range(40))
_L2 = tuple(1 << (c - 8) if c >= 8 else 0 for c in range(40))
_R1 = tuple(1 << (c + 4) if c < 36 else 0 for c in range(40))
_R2 = tuple(1 << (c + 8) if c < 32 else 0 for c in range(40))


def _in_some_meld(card: int, pool: Mask) -> bool:
    """True if some meld of three holds ``card`` and two cards of ``pool`` (R5, R6);
    every longer meld holds such a three, so False means no meld can hold the card."""
    same = pool & RANK_OTHERS[card]
    if same & (same - 1):
        return True
    if pool & _L1[card]:
        return bool(pool & _L2[card] or pool & _R1[card])
    return bool(pool & _R1[card] and pool & _R2[card])


# the hand cards any new meld with card c needs at least one of: same rank, or a suit neighbour
_NEAR: tuple[int, ...] = tuple(
    RANK_OTHERS[c] | (1 << (c - 4) if c >= 4 else 0) | (1 << (c + 4) if c < 36 else 0)
    for c in range(40)
)


def _ext_union(tab: MeldTable, melds: list[Mask]) -> Mask:
    e = 0
    ext = tab.ext
    for m in melds:
        e |= ext[m]
    return e


class SingleMeldFlow:
    """The gameweave flow: R12 melding, R15 forcing onto a numbered meld.

    Attributes: ``tab`` (the :class:`MeldTable` of the profile's cap), ``rearranging``
    (False), ``numbered_force`` (True: a force names a meld number, §VII).
    """

    rearranging = False
    numbered_force = True

    def __init__(self, tab: MeldTable) -> None:
        self.tab = tab
        self._ext = tab.ext
        self._seq = tab.seq
        self._cap = 10 if tab.max_sequence is None else tab.max_sequence

    # ------------------------------------------------------------ legal
    def meld_options(self, st: Tables, seat: Seat, card: int) -> list[Action]:
        """Every ``meld`` action by which ``seat`` can meld ``card`` now (R12).

        Order: additions to the seat's melds (by meld number), the new set of three, the
        new set of four, then new sequences by lowest card then length.  A set of three
        built while holding three of the rank uses the first two in hand order.
        """
        bit = 1 << card
        hand = st.hands[seat]
        if not hand & _NEAR[card]:
            if not st.extensions[seat] & bit:
                return []
            hand = 0
        ext = self._ext
        out = [(m | bit) << PAYLOAD_SHIFT for m in st.melds[seat] if ext[m] & bit] if st.extensions[seat] & bit else []
        same = hand & RANK_OTHERS[card]
        if same and same & (same - 1):
            first = same & -same
            rest = same ^ first
            out.append((bit | first | (rest & -rest)) << PAYLOAD_SHIFT)
            if rest & (rest - 1):
                out.append((bit | same) << PAYLOAD_SHIFT)
        lo = 0
        c = card - 4
        while c >= 0 and (hand >> c) & 1:
            lo += 1
            c -= 4
        hi = 0
        c = card + 4
        while c < 40 and (hand >> c) & 1:
            hi += 1
            c += 4
        if lo + hi >= 2:
            seq = self._seq
            cap = self._cap
            for i in range(lo, -1, -1):
                start = card - 4 * i
                for j in range(hi + 1):
                    length = i + j + 1
                    if 3 <= length <= cap:
                        out.append(seq[(start, length)] << PAYLOAD_SHIFT)
        return out

    def can_meld(self, st: Tables, seat: Seat, card: int) -> bool:
        """True if :meth:`meld_options` is not empty (R17's test)."""
        if st.extensions[seat] >> card & 1:
            return True
        return bool(self.meld_options(st, seat, card))

    def force_values(self, st: Tables, target: Seat, card: int) -> list[int]:
        """The forces by which ``card`` can be put on ``target``: the meld numbers
        (1-based, §VII) of the target's melds that the card extends (R15)."""
        bit = 1 << card
        if not st.extensions[target] & bit:
            return []
        ext = self._ext
        return [i for i, m in enumerate(st.melds[target], 1) if ext[m] & bit]

    def force_mask(self, st: Tables, target: Seat, cards: Mask) -> Mask:
        """The cards of ``cards`` that :meth:`force_values` would let be forced onto
        ``target``: those that extend one of its melds (R15)."""
        return cards & st.extensions[target]

    def forceable(self, melds: tuple[Mask, ...] | list[Mask], card: int) -> bool:
        """True if ``card`` can be forced onto a table of ``melds`` (R15)."""
        ext = self._ext
        bit = 1 << card
        return any(ext[m] & bit for m in melds)

    # ------------------------------------------------------------ changes
    def meld_change(self, st: Tables, seat: Seat, action: Action, card: int) -> TableChange:
        """``seat``'s table once ``card`` and the hand cards of ``action`` are on it (R12):
        the meld is added, or replaces the meld it extends."""
        mask = action >> PAYLOAD_SHIFT
        rest = mask ^ (1 << card)
        used = rest & st.hands[seat]
        if used:
            melds = st.melds[seat] + [mask]
            if len(melds) > 1:
                melds.sort(key=lowest_bit)
        else:  # the card extends meld ``rest``: its place changes only if it is its lowest
            melds = st.melds[seat][:]
            melds[melds.index(rest)] = mask
            if (1 << card) < (rest & -rest) and len(melds) > 1:
                melds.sort(key=lowest_bit)
        ext = 0  # _ext_union inlined: one step in ten is a meld
        table = self.tab.ext
        for m in melds:
            ext |= table[m]
        return melds, ext, st.table_cards[seat] | mask, st.table_counts[seat] + 1 + used.bit_count(), used

    def force_change(self, st: Tables, target: Seat, card: int, force: int) -> TableChange | None:
        """R15: ``target``'s table once ``card`` joins its meld number ``force`` (it is on
        the table at once; the target then throws, or has won)."""
        melds = st.melds[target][:]
        joined = melds[force - 1]
        melds[force - 1] = joined | 1 << card
        if (1 << card) < (joined & -joined) and len(melds) > 1:  # its lowest card: it may move
            melds.sort(key=lowest_bit)
        ext = 0  # _ext_union inlined, as in meld_change
        table = self.tab.ext
        for m in melds:
            ext |= table[m]
        return melds, ext, st.table_cards[target] | 1 << card, st.table_counts[target] + 1, 0

    def forced_meld(self, melds_before: tuple[Mask, ...], card: int, force: int) -> Mask:
        """The meld a gameweave force made: meld ``force`` of ``melds_before`` plus
        ``card`` (for the public history)."""
        return melds_before[force - 1] | 1 << card


class RearrangeFlow:
    """The R18 flow: a meld action is a whole new table; forcing by "some partition".

    Attributes: ``tab`` (the capped :class:`MeldTable`), ``rearranging`` (True),
    ``numbered_force`` (False: ``force`` names no meld, R18e), ``parts``
    (a :class:`Partitioner` memo).
    """

    rearranging = True
    numbered_force = False

    def __init__(self, tab: MeldTable) -> None:
        self.tab = tab
        self.parts = Partitioner(tab)

    def meld_options(self, st: Tables, seat: Seat, card: int) -> list[Action]:
        """Every new table by which ``seat`` can meld ``card`` (R18a-c): each partition
        of its table cards, the card and any hand cards, once (R18b)."""
        hand = st.hands[seat]
        table = st.table_cards[seat]
        if not _in_some_meld(card, table | hand):
            return []  # no meld holds the card at all
        return table_actions_with(self.tab, table | 1 << card, hand)

    def can_meld(self, st: Tables, seat: Seat, card: int) -> bool:
        """True if at least one new table holds ``card`` (R18d, R17)."""
        if st.extensions[seat] >> card & 1:
            return True
        hand = st.hands[seat]
        table = st.table_cards[seat]
        if not _in_some_meld(card, table | hand):
            return False
        if _in_some_meld(card, hand):
            return True  # a new meld from hand cards beside the table as it is
        return can_cover(self.tab, table | 1 << card, hand)

    def force_values(self, st: Tables, target: Seat, card: int) -> list[int]:
        """``[FORCE_ANY]`` if some partition of ``target``'s table plus ``card`` alone
        is legal (R18e), else ``[]``."""
        if st.extensions[target] >> card & 1:
            return [FORCE_ANY]
        table = st.table_cards[target]
        if not _in_some_meld(card, table):
            return []
        if self.parts.partitionable(table | 1 << card):
            return [FORCE_ANY]
        return []

    def force_mask(self, st: Tables, target: Seat, cards: Mask) -> Mask:
        """The cards of ``cards`` that :meth:`force_values` would let be forced onto
        ``target`` (R18e), in one pass: those that extend a meld, and those that fit
        some partition of the table with it alone (cards that make no meld of three
        with two table cards are skipped without a search)."""
        table = st.table_cards[target]
        ext = st.extensions[target]
        out = cards & ext
        rest = cards & near_pairs(table) & ~ext
        parts = self.parts
        while rest:
            low = rest & -rest
            rest ^= low
            if parts.partitionable(table | low):
                out |= low
        return out

    def forceable(self, melds: tuple[Mask, ...] | list[Mask], card: int) -> bool:
        """True if ``card`` can be forced onto a table of ``melds`` (R18e)."""
        if not melds:
            return False
        m = 1 << card
        for x in melds:
            m |= x
        return self.parts.partitionable(m)

    def meld_change(self, st: Tables, seat: Seat, action: Action, card: int) -> TableChange:
        """``seat``'s table replaced by the action's table (R18a-c)."""
        melds = list(table_of(action))
        new = 0
        for m in melds:
            new |= m
        return melds, _ext_union(self.tab, melds), new, new.bit_count(), new & st.hands[seat]

    def force_change(self, st: Tables, target: Seat, card: int, force: int) -> TableChange | None:
        """R18e: None, nothing is on the table yet: the forced card waits for
        ``target``'s ``meld`` decision."""
        return None

    def forced_meld(self, melds_before: tuple[Mask, ...], card: int, force: int) -> Mask:
        """0: under R18 the forced seat writes its own ``meld`` (R18e)."""
        return 0


Flow = SingleMeldFlow | RearrangeFlow
"""Either flow."""


@cache
def _flow(rearranging: bool, cap: int | None) -> Flow:
    tab = meld_table(cap)
    return RearrangeFlow(tab) if rearranging else SingleMeldFlow(tab)


def flow_for(rules: Rules) -> Flow:
    """The flow of a profile: :class:`RearrangeFlow` where ``rules.rearranging``, else
    :class:`SingleMeldFlow`; one shared instance per (rearranging, cap)."""
    return _flow(rules.rearranging, rules.max_sequence)


__all__ = ["Flow", "RearrangeFlow", "SingleMeldFlow", "TableChange", "Tables", "flow_for", "meld_action"]

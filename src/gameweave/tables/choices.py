"""The seat's choices and the deal's progress, as data, from the seat's view only (R21).

One place builds them for every edge: the state frame of the table server
(``choices`` and ``progress``, PROTOCOL §4.3) and the terminal (``gameweave play``).

* :func:`seat_choices` gives one :class:`Choice` per legal action of the viewer, in the
  order of ``view.legal``: what kind of move it is, the card it moves, the opponent's
  cards it forces onto (R15, R18e, R19), the viewer's whole table after a ``meld``
  (R12, R18), the hand cards it puts on the table, and whether it *publicly* gives the
  opponent eleven (R16).
* :func:`progress` gives the cards each seat has melded and which seats are one card
  from eleven.

Nothing here reads the opponent's hand or the stock order: only the view's tables, hand
counts, centre card and legal actions.  "Publicly gives eleven" (R16) means either the
card is forced on an opponent holding ten on the table (the forced card completes eleven),
or the card goes live for an opponent holding ten on the table and none in hand and it
can be added to their table under the profile's rules (R12 / R18).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypedDict

from ..engine import (
    CARD_NAMES, FORCE_ANY, SeatView, find_profile, flow_for, force_of, format_action, is_forcing,
    kind_of, lowest_bit, mask_names, meld_cards, table_of, thrown_card,
)
from ..engine.actions import FORCE_KIND, MELD, REFUSE_KIND, TABLE, THROW_KIND, TURN_KIND
from ..engine.state import WIN_COUNT

KINDS = {MELD: "meld", TURN_KIND: "turn", REFUSE_KIND: "refuse", THROW_KIND: "throw", FORCE_KIND: "force",
         TABLE: "table"}
"""The ``kind`` of a choice by action kind: a whole R18 table is ``"table"``."""


class ChoiceWire(TypedDict):
    """A choice on the wire (PROTOCOL §4.3, :meth:`Choice.to_dict`; ``schemas.Choice``
    documents and checks it): cards as canonical names."""

    id: int
    action: str
    kind: str
    card: str | None
    force: list[str] | None
    melds: list[list[str]] | None
    uses: list[str]
    gives_eleven: bool


class ProgressWire(TypedDict):
    """The wire ``progress`` object (:func:`progress`; ``schemas.Progress``)."""

    melded: dict[str, int]
    one_from_eleven: list[int]


class Counts(Protocol):
    """What :func:`progress` reads of a view: a seat's or a spectator's."""

    @property
    def table_counts(self) -> tuple[int, int]: ...


@dataclass(frozen=True)
class Choice:
    """One legal action of the viewer, described for a person (R21: from the view).

    Attributes:
        action: the action int (one of ``view.legal``).
        text: its §VII text, exactly as in ``view.legal``.
        kind: ``meld`` (R12), ``table`` (a whole new table, R18), ``turn``, ``refuse``,
            ``throw`` or ``force`` (R19).
        card: the card thrown, refused, forced back or melded (the centre card or the
            card forced on the viewer, R18e); -1 for ``turn``.
        force: mask of the opponent's cards the move forces onto: the named meld (R15),
            or the opponent's whole table where the force names no meld (R18e, R19);
            0 for a move that forces nothing.
        melds: for ``meld``/``table``, the viewer's whole table after the move (melds in
            order of their lowest card); ``()`` otherwise.
        uses: mask of the viewer's hand cards the move puts on the table (R12, R18a).
        gives_eleven: the move publicly hands the opponent the deal (R16).
    """

    action: int
    text: str
    kind: str
    card: int
    force: int
    melds: tuple[int, ...]
    uses: int
    gives_eleven: bool

    @property
    def is_meld(self) -> bool:
        """True for ``meld`` and ``table`` choices."""
        return self.kind in ("meld", "table")

    def to_dict(self) -> ChoiceWire:
        """The wire form (PROTOCOL §4.3): ``id`` the action int (what a client sends back),
        ``action`` its §VII text; cards as canonical names, null where none."""
        return {
            "id": self.action,
            "action": self.text,
            "kind": self.kind,
            "card": CARD_NAMES[self.card] if self.card >= 0 else None,
            "force": mask_names(self.force) if self.force else None,
            "melds": [mask_names(m) for m in self.melds] if self.is_meld else None,
            "uses": mask_names(self.uses),
            "gives_eleven": self.gives_eleven,
        }


def melding_card(view: SeatView) -> int:
    """The card the viewer's ``meld`` choices meld: the card forced on it (R18e) or the
    centre card; -1 if neither."""
    return view.forced if view.forced >= 0 else view.centre


def table_after(view: SeatView, action: int) -> tuple[int, ...]:
    """The viewer's whole table after the ``meld`` ``action`` (R12: one meld added to or
    one new meld; R18: the action's table); ``()`` for any other action."""
    k = kind_of(action)
    if k == TABLE:
        return table_of(action)
    if k != MELD:
        return ()
    mask = meld_cards(action)
    card = melding_card(view)
    rest = mask & ~(1 << card) if card >= 0 else mask
    mine = list(view.melds[view.seat])
    if rest in mine and not rest & view.hand:
        mine[mine.index(rest)] = mask
    else:
        mine.append(mask)
    return tuple(sorted(mine, key=lowest_bit))


def _gives_eleven(view: SeatView, action: int, card: int) -> bool:
    """R16, public facts only: a forced card onto ten, or a live card an opponent with
    ten on the table and an empty hand can add to its table (R12/R18 via the flow)."""
    opp = view.opponent
    on_table = view.table_counts[opp]
    if on_table + 1 < WIN_COUNT or card < 0:
        return False
    if is_forcing(action):
        return True
    if view.hand_counts[opp] != 0:
        return False  # their hand is hidden (R21): nothing public says they can meld it
    flow = flow_for(find_profile(view.rules))
    return flow.forceable(view.melds[opp], card)


def choice_of(view: SeatView, action: int) -> Choice:
    """The :class:`Choice` of one of the viewer's legal actions."""
    k = kind_of(action)
    opp_melds = view.melds[view.opponent]
    melds: tuple[int, ...] = ()
    uses = 0
    force = 0
    if k in (MELD, TABLE):
        card = melding_card(view)
        melds = table_after(view, action)
        uses = meld_cards(action) & view.hand
    elif k == TURN_KIND:
        card = -1
    elif k == THROW_KIND:
        card = thrown_card(action)
    else:  # refuse, force back: the centre card
        card = view.centre
    if is_forcing(action):
        f = force_of(action)
        if k == FORCE_KIND or f == FORCE_ANY:
            for m in opp_melds:
                force |= m
        elif 1 <= f <= len(opp_melds):
            force = opp_melds[f - 1]
    gives = k in (REFUSE_KIND, THROW_KIND, FORCE_KIND) and _gives_eleven(view, action, card)
    return Choice(action, format_action(action), KINDS[k], card, force, melds, uses, gives)


def seat_choices(view: SeatView) -> list[Choice]:
    """One :class:`Choice` per action of ``view.legal``, in that order (empty when the
    viewer is not to act)."""
    return [choice_of(view, a) for a in view.legal]


def one_from_eleven(view: Counts) -> list[int]:
    """Seat indexes (0/1) holding ten cards on the table: one card from winning (R16)."""
    return [s for s in (0, 1) if view.table_counts[s] == WIN_COUNT - 1]


def progress(view: Counts) -> ProgressWire:
    """The wire ``progress`` object: ``{"melded": {"1": n, "2": n}, "one_from_eleven":
    [seat numbers]}`` (R16; public counts only), for a seat's view or a spectator's."""
    return {
        "melded": {"1": view.table_counts[0], "2": view.table_counts[1]},
        "one_from_eleven": [s + 1 for s in one_from_eleven(view)],
    }


__all__ = ["Choice", "ChoiceWire", "Counts", "KINDS", "ProgressWire", "choice_of", "melding_card", "one_from_eleven", "progress", "seat_choices",
           "table_after"]

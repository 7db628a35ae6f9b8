"""Why an action is not legal now, as a reason code and in words (PROTOCOL §4.2).

:meth:`GameState.why_illegal <gameweave.engine.state.GameState.why_illegal>` asks here;
the words speak only of the acting seat's own hand, the public tables and the centre
card, never of the opponent's hand or the stock (R21), so they are safe to send.
"""

from __future__ import annotations

from typing import Protocol

from .actions import (
    FORCE_KIND, REFUSE_KIND, THROW_KIND, TURN_KIND, Action, force_of, format_action, is_meld, kind_of,
    meld_cards, thrown_card,
)
from .cards import CARD_NAMES, Seat, format_cards
from .decisions import PH_FORCED, PH_TAKE, PH_THROW, PH_TURNED, WANTS
from .flow import Flow, Tables


class Deal(Tables, Protocol):
    """What a refusal reads of a deal besides its :class:`~gameweave.engine.flow.Tables`:
    the seat to act, the phase, the centre card, the forced card, whether the live card
    was refused (R19) and the profile's flow.  The game state is one."""

    to_act: Seat
    phase: int
    card: int
    forced: int
    refused: bool
    flow: Flow


def why_illegal(st: Deal, a: Action) -> tuple[str, str]:
    """``(reason code, message)`` saying why ``a`` is not legal in ``st`` now (call it only
    for an action not among the legal ones): ``wrong_decision`` (not this decision's kind
    of action), ``not_a_choice`` (R12, R18a), ``not_in_hand`` (R13) or ``cannot_force``
    (R15, R18e, R19), as :class:`~gameweave.engine.errors.IllegalActionError` carries
    them; the message names no action."""
    seat = st.to_act
    opp = 1 - seat
    k = kind_of(a)
    ph = st.phase
    who = f"seat {seat + 1}"
    wants = WANTS[ph]
    if is_meld(a):
        if ph not in (PH_TAKE, PH_TURNED, PH_FORCED):
            return "wrong_decision", f"nothing to meld now; {who} must {wants}"
        card = st.forced if ph == PH_FORCED else st.card
        if not meld_cards(a) >> card & 1:
            return "not_a_choice", f"a meld must contain {CARD_NAMES[card]}, the card being melded (R12, R18a)"
        options = st.flow.meld_options(st, seat, card)
        shown = ", ".join(format_action(x) for x in options[:8]) or "none"
        if len(options) > 8:
            shown += f", … ({len(options)} in all)"
        rule = "R18" if st.flow.rearranging else "R12"
        return "not_a_choice", f"not one of the ways {who} can meld {CARD_NAMES[card]} ({rule}; choices: {shown})"
    if k == TURN_KIND:
        return "wrong_decision", f"{who} must {wants} now, not turn the stock"
    if k == FORCE_KIND:
        if ph != PH_TAKE or not st.refused:
            return "wrong_decision", f"only a card the opponent turned and refused can be forced back (R19); {who} must {wants}"
        return "cannot_force", (
            f"{CARD_NAMES[st.card]} cannot go back onto seat {opp + 1}'s table without cards from their hand (R19)"
        )
    n = force_of(a)
    if k == REFUSE_KIND and ph != PH_TURNED:
        return "wrong_decision", f"only a card just turned from the stock can be refused; {who} must {wants}"
    if k == THROW_KIND:
        if ph != PH_THROW:
            return "wrong_decision", f"{who} throws only after melding or being forced; now {who} must {wants}"
        card = thrown_card(a)
        if not (st.hands[seat] >> card) & 1:
            return "not_in_hand", f"{CARD_NAMES[card]} is not in {who}'s hand"
    else:
        card = st.card
    if n:
        if st.flow.numbered_force:
            if n > len(st.melds[opp]):
                return "cannot_force", f"seat {opp + 1} has no meld {n} to force onto (R15)"
            return "cannot_force", (
                f"{CARD_NAMES[card]} does not extend seat {opp + 1}'s meld {n}, "
                f"{format_cards(st.melds[opp][n - 1])} (R15)"
            )
        return "cannot_force", f"{CARD_NAMES[card]} fits no partition of seat {opp + 1}'s table (R18e)"
    return "not_a_choice", "not legal now"

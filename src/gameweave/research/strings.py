"""The research strings: what a seat or a spectator sees of a :class:`~gameweave.research.deal.Deal`, as text.

OpenSpiel's observation and information-state strings and the environments' ``render``.
Actions and tables are written by the engine's codec (:func:`~gameweave.engine.format_action`,
:func:`~gameweave.engine.format_table`), cards by :func:`~gameweave.engine.format_cards`;
only the layout of the lines is this module's.  Hidden information (R21): a seat's
strings are made from its :class:`~gameweave.engine.SeatView` and its own pending step;
the spectator's shows no hand until the deal is over.
"""

from __future__ import annotations

from ..engine import CARD_NAMES, format_action, format_cards, format_table, kind_of
from ..engine.actions import TURN_KIND
from .deal import Deal
from .ids import MELDS


def observation_string(deal: Deal, seat: int) -> str:
    """What the seat sees now, as text (R21): its hand, both tables, the centre, counts,
    the decision and its own pending step."""
    return _observation(deal, seat, own=True)


def _observation(deal: Deal, seat: int, own: bool) -> str:
    """:func:`observation_string`; ``own=False`` leaves out the acting seat's pending
    step (an R18 table being built, a force's card), which only that seat has seen."""
    view = deal.view(seat)
    if view is None:
        mine = 0
        for c in deal.dealt_to(seat):
            mine |= 1 << c
        return f"seat {seat + 1} dealing: hand {format_cards(mine) or '-'}; {len(deal.dealt)}/20 dealt"
    parts = [f"seat {seat + 1}", f"hand {format_cards(view.hand) or '-'}"]
    for s in (seat, 1 - seat):
        who = "mine" if s == seat else "theirs"
        parts.append(f"{who} " + (format_table(view.melds[s]) or "-"))
    parts.append(f"centre {CARD_NAMES[view.centre] if view.centre >= 0 else '-'}"
                 + (f" from seat {view.live_from + 1}" if view.live_from >= 0 else ""))
    if view.forced >= 0:
        parts.append(f"forced {CARD_NAMES[view.forced]}")
    parts.append(f"dead {format_cards(view.dead) or '-'}")
    parts.append(f"stock {view.stock_count}; hands {view.hand_counts[0]}/{view.hand_counts[1]}")
    if deal.turning:
        parts.append("turning")
    elif view.to_act >= 0:
        parts.append(f"seat {view.to_act + 1} to {view.decision}")
    else:
        parts.append(view.status + (f" seat {view.winner + 1}" if view.winner >= 0 else ""))
    if view.to_act == seat and not deal.turning and own:
        if deal.pending_table:
            parts.append("building " + format_table(MELDS[m] for m in deal.pending_table))
        elif deal.pending_force is not None:
            parts.append(f"forcing {CARD_NAMES[deal.pending_force[0]]}")
    return "; ".join(parts)


def information_state_string(deal: Deal, seat: int) -> str:
    """The seat's information state as text: the observation plus the whole public
    history in order (perfect recall of everything public, R21)."""
    view = deal.view(seat)
    obs = observation_string(deal, seat)
    if view is None:
        return obs
    hist = " | ".join(f"{e.seat + 1}:{format_action(e.action)}"
                      + (f"={CARD_NAMES[e.card]}" if kind_of(e.action) == TURN_KIND and e.card >= 0 else "")
                      for e in view.history)
    return f"{obs}; history {hist}"


def render(deal: Deal, seat: int | None = None) -> str:
    """Text for people: a seat's observation, or (``seat=None``) what a spectator may see —
    both tables, the centre, the counts, the last actions, and no hand until the deal is
    over (R21)."""
    if seat is not None:
        return observation_string(deal, seat)
    view = deal.view(0)
    if view is None:
        return f"dealing: {len(deal.dealt)}/20 cards dealt"
    text = _observation(deal, 0, own=False).split("; ", 2)[2]  # drop "seat 1; hand ..."
    text = text.replace("mine ", "seat 1 melds ", 1).replace("theirs ", "seat 2 melds ", 1)
    last = " | ".join(f"{e.seat + 1}:{format_action(e.action)}" for e in view.history[-4:])
    lines = [text, f"last: {last or '-'}"]
    if view.opponent_hand is not None:
        lines.append(f"hands at the end: seat 1 {format_cards(view.hand) or '-'}; "
                     f"seat 2 {format_cards(view.opponent_hand) or '-'}")
    return "\n".join(lines)


__all__ = ["information_state_string", "observation_string", "render"]

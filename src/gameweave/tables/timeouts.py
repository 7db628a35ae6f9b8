"""What the server plays for a seat whose clock ran out (issue 10): the timeout policy.

A safe move, in this order: ``refuse`` when melding is optional (the turned or thrown
card is let go, R11), ``turn`` instead of taking (R10), else — a throw or a meld that must
be chosen — the move of a *chooser* given in (the server passes the greedy bot's; this
module imports no bot).  The chooser sees only the seat's own view (R21).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import REFUSE, TURN, GameState, SeatView, seat_view

Chooser = Callable[[SeatView, Sequence[int]], int]
"""``chooser(view, legal) -> action int``: picks one of ``legal`` from the seat's view."""


def first_legal(view: SeatView, legal: Sequence[int]) -> int:
    """The first legal action (a chooser for tests and for a hub built without one)."""
    return legal[0]


@dataclass(frozen=True)
class TimeoutPolicy:
    """The move the server plays when a timed decision runs out.

    Attributes:
        chooser: picks the move where neither ``refuse`` nor ``turn`` is legal.
    """

    chooser: Chooser = first_legal

    def __call__(self, state: GameState, seat: int) -> int:
        """The action int to play for ``seat`` (the seat to act) in ``state``: ``refuse``,
        else ``turn``, else the chooser's pick from ``seat_view(state, seat)``.  Raises
        :class:`ValueError` if the chooser picks an action that is not legal."""
        legal = state.legal_actions()
        if REFUSE in legal:
            return REFUSE
        if TURN in legal:
            return TURN
        a = self.chooser(seat_view(state, seat), legal)
        if a not in legal:
            raise ValueError("the timeout chooser picked an action that is not legal")
        return a


__all__ = ["Chooser", "TimeoutPolicy", "first_legal"]

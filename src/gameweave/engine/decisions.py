"""The decisions of a deal (RULES §III, §IV): phase numbers, their names, the statuses.

The vocabulary the state's phase machine (:mod:`gameweave.engine.state`), its views and
its refusals (:mod:`gameweave.engine.reasons`) share; re-exported by the state.
"""

from __future__ import annotations

PH_TURN, PH_TAKE, PH_TURNED, PH_THROW, PH_FORCED, PH_OVER, PH_CLOSED = range(7)
"""Phase numbers; ``DECISIONS[phase]`` is the decision's name (``None`` once over, and in a
deal closed undecided, :meth:`~gameweave.engine.state.GameState.close`)."""
DECISIONS: tuple[str | None, ...] = (
    "turn", "take_or_turn", "meld_or_refuse", "throw", "meld", None, None,
)
PHASE_OF: dict[str | None, int] = {d: i for i, d in enumerate(DECISIONS[:PH_CLOSED])}
"""Decision name -> phase number (``None`` -> ``PH_OVER``)."""

WANTS: tuple[str, ...] = (
    "turn the stock", "take the live card or turn the stock",
    "meld or refuse the turned card", "throw a card", "meld the card forced on them",
    "wait: the deal is over", "wait: the deal is closed",
)
"""What each decision asks of the seat, in words, by phase (for error messages)."""

PLAYING, WON, TABLAS = "playing", "won", "tablas"
"""Values of :attr:`~gameweave.engine.state.GameState.status`."""

WIN_COUNT = 11
"""Melded cards that win a deal (R16)."""

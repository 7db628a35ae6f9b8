"""One deal of a match as the table keeps it: its number, its secret deck and salt, the
public commitment to them (R8), the engine state, and a resignation (R20)."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import GameState


@dataclass
class DealInfo:
    """One deal of a match.

    Attributes: ``number`` (1-based), ``deck`` (40 card ints, R8 order — secret until
    the deal ends), ``salt`` (hex, secret until the end), ``commitment`` (public),
    ``state`` (the engine state, replayed from the actions), ``test`` (dealt from a
    test deck, ``serve --test-decks``: chosen, not shuffled).
    """

    number: int
    deck: tuple[int, ...]
    salt: str
    commitment: str
    state: GameState
    test: bool = False
    resigned: int | None = None

    @property
    def over(self) -> bool:
        """True once the deal is won or tablas, or a seat resigned it (``resigned``,
        the seat index: it counts as won by the other seat, R20)."""
        return self.state.is_over or self.resigned is not None

    @property
    def status(self) -> str:
        """``playing``, ``won`` or ``tablas`` (a resigned deal is ``won``)."""
        return "won" if self.resigned is not None else self.state.status

    @property
    def winner(self) -> int:
        """The winning seat index, or -1 (tablas or playing)."""
        return 1 - self.resigned if self.resigned is not None else self.state.winner


__all__ = ["DealInfo"]

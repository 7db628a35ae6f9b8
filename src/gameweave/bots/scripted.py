"""A bot that plays a fixed script: the opponent of the guided first deal (issue 19).

:class:`ScriptedBot` is given the §VII text of the action it plays at each point of a
deal, keyed by how many actions the deal has had so far (the length of the view's public
history, R21); where the script says nothing, or its action is not legal in the view (the
deal went another way), it asks its ``fallback`` bot.  It reads nothing but its view, so
it is a bot like any other: the rules stay the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine import GameweaveError, SeatView, find_profile, parse_action
from .base import Bot, make_bot


class ScriptedBot(Bot):
    """Plays ``script[len(view.history)]`` when that text is a legal action of the view.

    Args:
        script: ``{actions so far: §VII action text}`` for the points where this seat
            decides, e.g. ``{2: "turn", 3: "meld Qc Qh Qs"}``.
        seed: as for :class:`Bot` (passed to the fallback).
        fallback: the name of the bot asked off the script (default ``greedy``).

    Raises :class:`~gameweave.engine.UnknownProfileError` only when a view names an
    unknown profile; an unparsable script text is treated as off the script.
    """

    name = "scripted"

    def __init__(self, script: Mapping[int, str], seed: int | None = None, fallback: str = "greedy"):
        super().__init__(seed)
        self.script = dict(script)
        self.fallback = make_bot(fallback, seed=self.seed)

    def scripted(self, view: SeatView) -> int | None:
        """The script's action int for ``view`` if it is legal there, else None."""
        text = self.script.get(len(view.history))
        if text is None:
            return None
        try:
            a = parse_action(text, find_profile(view.rules))
        except GameweaveError:
            return None
        return a if a in view.legal else None

    def choose(self, view: SeatView) -> int:
        """The scripted action when legal (even when it is the only one), else the
        fallback bot's choice.  Raises :class:`ValueError` if the view has no legal
        actions (not this seat's turn)."""
        if not view.legal:
            raise ValueError("no legal actions: it is not this seat's turn")
        a = self.scripted(view)
        return a if a is not None else self.fallback.choose(view)

    def decide(self, view: SeatView) -> int:
        """See :meth:`choose`."""
        return self.choose(view)


__all__ = ["ScriptedBot"]

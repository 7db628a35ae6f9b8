"""One deal of a match as the table keeps it: its number, its secret deck and salt, the
public commitment to them (R8), the engine state, and a resignation (R20)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..engine import GameState, PublicEvent, apply_public


@dataclass
class DealInfo:
    """One deal of a match.

    Attributes: ``number`` (1-based), ``deck`` (40 card ints, R8 order — secret until
    the deal ends), ``salt`` (hex, secret until the end), ``commitment`` (public),
    ``state`` (the engine state, replayed from the actions), ``test`` (dealt from a
    test deck, ``serve --test-decks``: chosen, not shuffled).

    The deal's public history (R21) is kept step by step (:meth:`history`,
    :meth:`history_json`): a table that sends every seat and spectator its view after
    every action would otherwise replay the whole deal for each of them each time.  Its
    wire form is kept as JSON text, not dicts: a server holding hundreds of live deals
    keeps a few strings per step instead of a dozen objects the garbage collector walks.
    """

    number: int
    deck: tuple[int, ...]
    salt: str
    commitment: str
    state: GameState
    test: bool = False
    resigned: int | None = None
    _kept_for: GameState | None = field(default=None, init=False, repr=False, compare=False)
    _shadow: GameState | None = field(default=None, init=False, repr=False, compare=False)
    _history: tuple[PublicEvent, ...] = field(default=(), init=False, repr=False, compare=False)
    _joined: str = field(default="[]", init=False, repr=False, compare=False)

    def history(self) -> tuple[PublicEvent, ...]:
        """The deal's public history, as :func:`~gameweave.engine.public_history` gives it:
        each action not seen yet is applied to a copy of the deal kept from its start
        (:func:`~gameweave.engine.apply_public`), so each step costs one event."""
        self._catch_up()
        return self._history

    def history_json(self) -> str:
        """The events of :meth:`history` in their wire form (:meth:`PublicEvent.to_dict`)
        as one compact JSON array (text), made once per step and shared by every frame."""
        self._catch_up()
        return self._joined

    def history_dicts(self) -> list[dict[str, Any]]:
        """The events of :meth:`history` in their wire form (:meth:`PublicEvent.to_dict`):
        a new list each call (of :meth:`history_json`)."""
        result: list[dict[str, Any]] = json.loads(self.history_json())
        return result

    def _catch_up(self) -> None:
        st = self.state
        actions = st.history
        if self._kept_for is not st or len(self._history) > len(actions):  # a new state object
            self._kept_for, self._shadow = st, st.at_start()
            self._history, self._joined = (), "[]"
        seen = len(self._history)
        if seen == len(actions):
            return
        shadow = self._shadow
        assert shadow is not None
        new = tuple(apply_public(shadow, a) for a in actions[seen:])
        texts = ",".join(orjson.dumps(ev.to_dict()).decode() for ev in new)
        self._history += new
        self._joined = self._joined[:-1] + ("," if seen else "") + texts + "]"

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

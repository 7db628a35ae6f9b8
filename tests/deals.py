"""The tests' one deal driver: deal, walk every decision, play a move, until the deal ends.

A test that needs whole deals writes what it checks, not the loop::

    for d in deals("classic", 25, seed=4000, opener="alternate", driver=mixed(0.85, rng)):
        assert impossible_cards(d.view) & d.state.hands[d.opponent] == 0

:func:`deals` deals ``n`` deals (deal ``i`` from ``seed + i``, R8) and yields one
:class:`Decision` per decision, before its move; :func:`play` does the same for one
state.  After the loop body, the driver's move is applied (``state.apply``, or
``state.play(move, seat)`` with ``checked=True``) — unless the body chose the move itself
with :meth:`Decision.play`.  The body may read ``d.action`` (the driver's move, chosen
once, when first read) to check it before it is played.  Breaking out of the loop stops
the deal where it is.

:func:`moves` yields each move after it is played instead (with a copy of the state
before it), for checks of what a move changed.

Drivers are callables ``driver(decision) -> action``; :func:`at_random`, :func:`greedy`,
:func:`mixed`, :func:`conformance_player` and :func:`by_seat` make the common ones
(``"random"`` and ``"greedy"`` name the first two with their defaults).  The order of work is that of the hand-written loops this
replaces: the view, then the body, then the driver (so a generator shared by the body and
the driver is drawn from in the same order).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from gameweave.bots import make_bot
from gameweave.bots.base import Bot
from gameweave.engine import GameState, SeatView, seat_view
from gameweave.engine.conformance import choose_action

Driver = Callable[["Decision"], Any]
"""Chooses the move of a decision: an action int (or §VII text, with ``checked=True``)."""

_UNSET: Any = object()


class Decision:
    """One decision of a deal, seen before its move.

    Attributes: ``state`` (the live :class:`GameState`; do not change it), ``seat`` (the
    seat to act), ``index`` (the deal's number in :func:`deals`, from 0), ``seed`` (the
    deal's seed, or None), ``step`` (decisions before this one in the deal, from 0).
    ``view`` (the seat's view), ``legal`` (its legal actions) and ``action`` (the driver's
    move) are computed when first read.
    """

    __slots__ = ("state", "seat", "index", "seed", "step", "_driver", "_memo", "_view", "_legal", "_action",
                 "_chosen")

    def __init__(self, state: GameState, index: int, seed: int | None, step: int, driver: Driver | None,
                 memo: dict[Any, Any]):
        self.state = state
        self.seat = state.to_act
        self.index = index
        self.seed = seed
        self.step = step
        self._driver = driver
        self._memo = memo
        self._view: SeatView | None = None
        self._legal: Sequence[int] | None = None
        self._action: Any = _UNSET
        self._chosen: Any = _UNSET

    @property
    def opponent(self) -> int:
        """The other seat (``1 - seat``)."""
        return 1 - self.seat

    @property
    def view(self) -> SeatView:
        """``seat_view(state, seat)``, computed once."""
        if self._view is None:
            self._view = seat_view(self.state, self.seat)
        return self._view

    @property
    def legal(self) -> Sequence[int]:
        """The legal actions in engine order (``view.legal`` if the view is built, else
        ``state.legal_actions()``: the same actions in the same order)."""
        if self._view is not None:
            return self._view.legal
        if self._legal is None:
            self._legal = self.state.legal_actions()
        return self._legal

    @property
    def action(self) -> Any:
        """The driver's move for this decision, chosen once, when first read."""
        if self._action is _UNSET:
            if self._driver is None:
                raise ValueError("this deal has no driver: the loop body must choose with Decision.play")
            self._action = self._driver(self)
        return self._action

    def play(self, action: Any) -> None:
        """Play ``action`` (an action int, or §VII text with ``checked=True``) for this
        decision instead of the driver's move."""
        self._chosen = action

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """A per-deal value (a driver's bot or generator for this deal), made once."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _move(self) -> Any:
        """The move played after the loop body: the body's choice, else the driver's."""
        return self.action if self._chosen is _UNSET else self._chosen


def play(state: GameState, driver: Driver | str | None = None, *, index: int = 0, seed: int | None = None,
         checked: bool = False, limit: int | None = None) -> Iterator[Decision]:
    """Walk ``state`` to the end of its deal, yielding a :class:`Decision` before each move.

    ``driver``: a callable, ``"random"``, ``"greedy"`` or None (the loop body chooses
    every move with :meth:`Decision.play`).  ``checked``: apply moves through
    ``state.play(move, seat=...)`` (the checked path) instead of ``state.apply``.
    ``limit``: stop after that many moves even if the deal goes on.  ``index`` and
    ``seed`` are given to the decisions (and to drivers that keep something per deal).
    """
    choose = driver_of(driver)
    memo: dict[Any, Any] = {}
    step = 0
    while not state.is_over and (limit is None or step < limit):
        d = Decision(state, index, seed, step, choose, memo)
        yield d
        move = d._move()
        if checked:
            state.play(move, seat=d.seat)
        else:
            state.apply(move)
        step += 1


def deals(rules: str, n: int, driver: Driver | str | None = "random", *, seed: int = 0,
          opener: int | str = 0, checked: bool = False) -> Iterator[Decision]:
    """Deal ``n`` deals of profile ``rules`` and walk each to its end (see :func:`play`).

    Deal ``i`` is ``GameState.new(seed=seed + i, opener=..., rules=rules)``; ``opener`` is
    a seat index, or ``"alternate"`` for ``i & 1`` (R9).
    """
    for i in range(n):
        first = i & 1 if opener == "alternate" else int(opener)
        st = GameState.new(seed=seed + i, opener=first, rules=rules)
        yield from play(st, driver, index=i, seed=seed + i, checked=checked)


def play_out(state: GameState, driver: Driver | str, *, checked: bool = False, limit: int | None = None,
             ) -> GameState:
    """Play ``state`` to the end of its deal (or ``limit`` moves) with ``driver``; returns it."""
    for _ in play(state, driver, checked=checked, limit=limit):
        pass
    return state


class Move:
    """One move of a deal, seen after it was played: ``before`` (a copy of the state
    before it), ``seat`` (who played), ``action`` (what), ``state`` (the live state after
    it).  Yielded by :func:`moves`."""

    __slots__ = ("before", "seat", "action", "state")

    def __init__(self, before: GameState, seat: int, action: Any, state: GameState):
        self.before, self.seat, self.action, self.state = before, seat, action, state


def moves(state: GameState, driver: Driver | str, *, checked: bool = False, limit: int | None = None,
          ) -> Iterator[Move]:
    """Walk ``state`` to the end of its deal like :func:`play`, yielding each
    :class:`Move` after it is played (the loop body runs before the driver's next
    choice)."""
    last: Move | None = None
    for d in play(state, driver, checked=checked, limit=limit):
        if last is not None:
            yield last
        last = Move(state.clone(), d.seat, d.action, state)
    if last is not None:
        yield last


def play_until(state: GameState, driver: Driver | str, done: Callable[[GameState], bool]) -> bool:
    """Play moves with ``driver`` until ``done(state)`` holds after a move (True), or the
    deal ends without it (False)."""
    moved = False
    for _ in play(state, driver):
        if moved and done(state):
            return True
        moved = True
    return moved and done(state)


# ---------------------------------------------------------------------------- drivers
def driver_of(driver: Driver | str | None) -> Driver | None:
    """A driver from a name (``"random"``, ``"greedy"``) or a callable (returned as is)."""
    if driver == "random":
        return at_random()
    if driver == "greedy":
        return greedy()
    if isinstance(driver, str):
        raise ValueError(f"unknown driver {driver!r}")
    return driver


def at_random(rng: random.Random | None = None) -> Driver:
    """Uniform over the legal actions: ``rng.choice(legal)``.  Without ``rng``, each deal
    draws from its own ``random.Random(deal seed)``."""

    def choose(d: Decision) -> int:
        r = rng if rng is not None else d.memo(at_random, lambda: random.Random(d.seed))
        return r.choice(d.legal)

    return choose


def greedy(seed: int | None = None) -> Driver:
    """The greedy bot (``make_bot("greedy", seed=...)``) of each deal: with no ``seed``,
    deal ``i``'s bot has seed ``i`` (its number in :func:`deals`)."""
    bots: dict[int, Bot] = {}

    def choose(d: Decision) -> int:
        key = d.index if seed is None else seed
        if key not in bots:
            bots[key] = make_bot("greedy", seed=key)
        return bots[key].choose(d.view)

    return choose


def mixed(p: float, rng: random.Random, seed: int | None = None) -> Driver:
    """The greedy move (as :func:`greedy`) with probability ``p``, else a uniform one:
    ``greedy if rng.random() < p else rng.choice(legal)``."""
    g = greedy(seed)

    def choose(d: Decision) -> int:
        return g(d) if rng.random() < p else rng.choice(d.legal)

    return choose


def conformance_player(rng: random.Random, eager: float = 0.0) -> Driver:
    """The conformance suite's random player: ``choose_action(rng, legal, eager)``
    (uniform, or with probability ``eager`` a meld or a forcing move when there is one)."""

    def choose(d: Decision) -> int:
        return choose_action(rng, d.legal, eager)

    return choose


def by_seat(bots: Sequence[Bot]) -> Driver:
    """Seat ``s`` plays ``bots[s].choose(view)``."""

    def choose(d: Decision) -> int:
        return bots[d.seat].choose(d.view)

    return choose

"""The optional native core (issue 21): the engine's rules in C, for every profile (§V).

The pure-Python engine (:class:`~gameweave.engine.state.GameState`) is the reference and
the fallback; the C extension ``gameweave.engine._native`` is built by setuptools when a
C compiler is present (``setup.py``, ``optional=True``) and is then used where speed
matters.  It is a port of the reference, proved equal to it by tests/test_native.py
(legal actions in the same order and every field of the state, step by step on random
deals of every profile; perft; the same random playouts from the same seed).

* :data:`AVAILABLE` — True if the extension is importable and not disabled by the
  environment variable ``GAMEWEAVE_NO_NATIVE`` (any non-empty value but ``0``), which
  forces the pure-Python path (how the fallback is tested).
* :func:`new_state` — a :class:`NativeState` for a deal (R8): ``legal_actions()`` (the
  same action ints, §VII codec, in :meth:`GameState.legal_actions`' order), ``apply(a)``
  (checked: :class:`ValueError` if ``a`` is not legal now), ``is_over``, ``to_act``,
  ``winner``, ``clone()``, ``snapshot()``.
* :func:`playouts` — random playouts in C, the same deals as
  :func:`gameweave.bench.playout_rep` plays from the same seed.
* :func:`snapshot` — the same tuple as ``NativeState.snapshot()``, of a Python state;
  :func:`from_state` — a native copy of a Python state in the middle of a deal, whose
  ``rollout(max_steps)`` plays on with the searches' default playout policy
  (:func:`gameweave.bots.playout.rollout_action`) and returns the actions and who played
  them, and :func:`write_back` lays the result on the Python state — which is how
  :func:`gameweave.bots.playout.playout` plays when the native core is there.

Standard library only (the extension is part of this package).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from .rules import Rules, find_profile
from .state import GameState

DISABLE_ENV = "GAMEWEAVE_NO_NATIVE"
"""Set (to anything but ``""`` or ``"0"``) to ignore the extension: the pure-Python path."""


def _load() -> Any:
    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        return None
    try:
        from . import _native  # type: ignore[attr-defined]
    except ImportError:  # not built: no C compiler at install time
        return None
    return _native


_native = _load()
AVAILABLE: bool = _native is not None
"""True when the native core is importable and not disabled (:data:`DISABLE_ENV`)."""

NativeState: Any = _native.NativeState if _native is not None else None
"""The extension's state type, or None when :data:`AVAILABLE` is False."""


def _rules_args(rules: Rules | str) -> tuple[bool, bool, int]:
    r = find_profile(rules)
    return r.rearranging, r.force_back, 10 if r.max_sequence is None else r.max_sequence


def _require() -> Any:
    if _native is None:
        raise RuntimeError(f"the native core is not available (not built, or {DISABLE_ENV} is set)")
    return _native


def new_state(deck: Sequence[int], opener: int = 0, rules: Rules | str = "gameweave") -> Any:
    """A native state of the deal ``deck`` (40 card ints, R8 order) opened by seat
    ``opener`` (0/1, R9) under profile ``rules`` (§V).  Raises :class:`RuntimeError` if
    the native core is not available, :class:`ValueError` for a bad deck or opener."""
    return _require().NativeState(tuple(deck), opener, *_rules_args(rules))


def seed_key(seed: int) -> list[int]:
    """The 32-bit words ``random.Random(seed)`` seeds its Mersenne Twister with (an int
    seed: ``abs(seed)``, low word first; ``[0]`` for 0)."""
    n = abs(int(seed))
    words = []
    while n:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
    return words or [0]


def playouts(decks: Sequence[Sequence[int]], seed: int, rules: Rules | str = "gameweave") -> int:
    """Play every deck once in C (deck ``i`` opened by seat ``i & 1``), each action drawn
    uniformly among the legal ones as ``random.Random(seed).choice`` draws; returns the
    transitions (applied actions).  The same deals, choices and count as
    :func:`gameweave.bench.playout_rep` with the same ``seed``.  Raises
    :class:`RuntimeError` if the native core is not available."""
    return int(_require().playouts([tuple(d) for d in decks], seed_key(seed), *_rules_args(rules)))


_STATUS = ("playing", "won", "tablas")
_STATUS_CODE = {name: i for i, name in enumerate(_STATUS)}


def write_back(st: GameState, ns: Any, actions: Sequence[int], actors: Sequence[int]) -> None:
    """Make the Python state ``st`` what the native state ``ns`` became after playing
    ``actions`` (by seats ``actors``) from a copy of ``st`` (:func:`from_state`, then
    ``ns.rollout``): every field of :func:`snapshot`, and the actions appended to
    ``st.history`` / ``st.actors`` — as if ``st`` had applied them itself."""
    (hands, melds, cards, counts, ext, st.stock_pos, st.to_act, st.phase, st.card, st.live_from, refused,
     st.forced, st.dead, st.status, st.winner) = ns.snapshot()
    st.hands = list(hands)
    st.melds = [list(melds[0]), list(melds[1])]
    st.table_cards = list(cards)
    st.table_counts = list(counts)
    st.extensions = list(ext)
    st.refused = bool(refused)
    st.history += actions
    st.actors += actors


def from_state(st: GameState) -> Any:
    """A native copy of the Python state ``st`` at any point of its deal (hands, melds,
    stock, centre, phase: every field :func:`snapshot` lists; the extension recomputes the
    table masks, counts and extensions from the melds).  Raises :class:`RuntimeError` if
    the native core is not available."""
    rearranging, force_back, cap = _rules_args(st.rules)
    return _require().from_fields(
        st.deck, st.opener, rearranging, force_back, cap, st.hands[0], st.hands[1], st.melds[0], st.melds[1],
        st.stock_pos, st.to_act, st.phase, st.card, st.live_from, int(st.refused), st.forced, st.dead,
        _STATUS_CODE[st.status], st.winner,
    )


def snapshot(st: GameState) -> tuple[Any, ...]:
    """Every field of a Python state that the native state keeps, as
    ``NativeState.snapshot()`` returns them: hands, melds (§VII order), table cards,
    table counts, extensions (each a pair by seat), stock position, seat to act, phase,
    centre card, who let it go, refused (0/1), forced card, dead cards, status, winner."""
    return (
        tuple(st.hands), (tuple(st.melds[0]), tuple(st.melds[1])), tuple(st.table_cards), tuple(st.table_counts),
        tuple(st.extensions), st.stock_pos, st.to_act, st.phase, st.card, st.live_from, int(st.refused), st.forced,
        st.dead, st.status, st.winner,
    )


__all__ = [
    "AVAILABLE", "DISABLE_ENV", "NativeState", "from_state", "new_state", "playouts", "seed_key", "snapshot",
    "write_back",
]

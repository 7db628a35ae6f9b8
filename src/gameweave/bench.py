"""Random-playout benchmark of the engine (issue: engine performance).

Measures single-core random playouts: each deal is dealt from a fixed deck list and
played to its end by choosing uniformly among :meth:`GameState.legal_actions` and
applying with the unchecked :meth:`GameState.apply`.  One *transition* is one applied
action.  Reports deals/s and transitions/s as median, min and max over the repetitions,
and prints an ``ANCHOR {json}`` line in the format of ``shared/anchors/harness.py`` so
that ``run_all.sh`` can put it beside OpenSpiel and RLCard.

``engine="native"`` plays the same deals with the same choices in the native core
(:func:`gameweave.engine.native.playouts`, issue 21); ``"python"`` (the pure-Python
reference) is the default; the anchor name of a native run ends in ``_native``.
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from .engine import GameState, Rules, find_profile, native, shuffled_deck

ANCHOR_NAME = "gameweave_random_playout"


def playout_rep(decks: list[tuple[int, ...]], seed: int, rules: Rules | str = "gameweave",
                clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float]:
    """Play every deck once with uniform random legal actions under profile ``rules``.

    Returns ``(deals, transitions, seconds)``; seconds by ``clock`` (wall time,
    ``perf_counter``, unless told: ``time.process_time`` for CPU time).
    """
    rng = random.Random(seed)
    choice = rng.choice
    transitions = 0
    t0 = clock()
    for i, deck in enumerate(decks):
        st = GameState.new(deck, opener=i & 1, rules=rules)
        legal = st.legal_actions
        apply = st.apply
        while not st.is_over:
            apply(choice(legal()))
            transitions += 1
    return len(decks), transitions, clock() - t0


def native_playout_rep(decks: list[tuple[int, ...]], seed: int, rules: Rules | str = "gameweave",
                       clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float]:
    """:func:`playout_rep` in the native core: the same deals, the same choices, the same
    ``(deals, transitions, seconds)``.  Raises :class:`RuntimeError` without the core."""
    t0 = clock()
    transitions = native.playouts(decks, seed, rules)
    return len(decks), transitions, clock() - t0


ENGINES = ("python", "native")
"""The engines :func:`run` measures: the pure-Python reference, the native core."""


def run(deals: int = 2000, reps: int = 7, warmup: int = 1, rules: Rules | str = "gameweave",
        engine: str = "python", cpu: bool = False) -> dict[str, Any]:
    """Run the benchmark: ``warmup`` + ``reps`` repetitions of ``deals`` deals each,
    under profile ``rules`` (§V), on ``engine`` (:data:`ENGINES`).  The anchor name
    carries the profile unless it is gameweave (``gameweave_random_playout`` stays the
    gameweave figure), then ``_native`` for the native core.  ``cpu`` times each
    repetition by this process's CPU time instead of the wall clock (a shared machine).

    Returns the ANCHOR-format result dict (rates in deals/s and transitions/s).  Raises
    :class:`ValueError` for an unknown engine and :class:`RuntimeError` for ``native``
    when the native core is not available.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    profile = find_profile(rules)
    rep = native_playout_rep if engine == "native" else playout_rep
    if engine == "native" and not native.AVAILABLE:
        raise RuntimeError(f"the native core is not available (not built, or {native.DISABLE_ENV} is set)")
    decks = [shuffled_deck(s) for s in range(deals)]
    clock = time.process_time if cpu else time.perf_counter
    for w in range(warmup):
        rep(decks, -1 - w, profile, clock)
    gc.collect()
    samples = [rep(decks, r, profile, clock) for r in range(reps)]
    rates: dict[str, dict[str, float]] = {}
    for key, idx in (("deals_per_s", 0), ("transitions_per_s", 1)):
        vals = [s[idx] / s[2] for s in samples]
        rates[key] = {"median": statistics.median(vals), "min": min(vals), "max": max(vals)}
    secs = [s[2] for s in samples]
    name = ANCHOR_NAME if profile.name == "gameweave" else f"{ANCHOR_NAME}_{profile.name.replace('-', '_')}"
    return {
        "anchor": name + ("_native" if engine == "native" else ""),
        "reps": reps,
        "warmup": warmup,
        "rep_seconds": {"median": statistics.median(secs), "min": min(secs), "max": max(secs)},
        "totals": {"deals": sum(s[0] for s in samples), "transitions": sum(s[1] for s in samples)},
        "rates": rates,
        "per_unit": {},
        "primary": "transitions_per_s",
        "meta": {"python": platform.python_version(), "deals_per_rep": deals, "rules": profile.name,
                 "engine": engine, "clock": "cpu" if cpu else "wall"},
    }


def report(result: dict[str, Any]) -> str:
    """Human-readable lines for a :func:`run` result, then the ANCHOR line."""
    r = result["rates"]
    lines = [
        f"gameweave random playouts ({result['meta']['rules']} rules"
        + (", native engine" if result["meta"].get("engine") == "native" else "")
        + f"): {result['meta']['deals_per_rep']} deals x {result['reps']} reps, "
        f"Python {result['meta']['python']}, one core",
        "  transitions/s: median {median:,.0f}  (min {min:,.0f}, max {max:,.0f})".format(**r["transitions_per_s"]),
        "  deals/s:       median {median:,.0f}  (min {min:,.0f}, max {max:,.0f})".format(**r["deals_per_s"]),
        f"  mean transitions per deal: {result['totals']['transitions'] / result['totals']['deals']:.1f}",
        "ANCHOR " + json.dumps(result, sort_keys=True),
    ]
    return "\n".join(lines)

"""The native core (issue 21) equals the pure-Python reference engine, and the engine
works without it.

* Random deals of every profile compared step by step: the same legal actions in the
  same order and every field of the state after every action (R8-R19, §V).
* Perft (tests/data/perft.json) counted on the native core gives the pinned numbers.
* Random playouts in C from a seed play the very deals the Python benchmark plays
  (the same transition count, deal by deal).
* With ``GAMEWEAVE_NO_NATIVE=1`` the package uses the pure-Python engine and says so.

The tests that need the extension skip when it was not built (no C compiler at install
time); the fallback test runs everywhere.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gameweave.bench import playout_rep
from gameweave.engine import PROFILE_NAMES, GameState, native, shuffled_deck

needs_native = pytest.mark.skipif(not native.AVAILABLE, reason="the native core is not available (not built: no C compiler; or GAMEWEAVE_NO_NATIVE is set)")
DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
ROOT = Path(__file__).resolve().parents[1]


def _compare_random_deals(rules: str, deals: int, seed: int) -> int:
    """Play ``deals`` random deals on both engines at once; assert equality at every
    step; return the steps compared."""
    rng = random.Random(f"{rules}-{seed}")
    steps = 0
    for d in range(deals):
        st = GameState.new(seed=seed * 100_000 + d, opener=d & 1, rules=rules)
        ns = native.new_state(st.deck, d & 1, rules)
        while True:
            legal = st.legal_actions()
            assert ns.legal_actions() == legal, (rules, d, st.history)
            assert ns.snapshot() == native.snapshot(st), (rules, d, st.history)
            assert ns.is_over == st.is_over and ns.to_act == st.to_act and ns.winner == st.winner
            if st.is_over:
                break
            a = rng.choice(legal)
            st.apply(a)
            ns.apply(a)
            steps += 1
    return steps


@needs_native
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_r8_r19_native_equals_python_step_by_step_on_random_deals(rules: str) -> None:
    assert _compare_random_deals(rules, 150, 1) > 5000


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_r8_r19_native_equals_python_on_thousands_of_deals(rules: str) -> None:
    assert _compare_random_deals(rules, 3000, 2) > 100_000


def _native_perft(ns, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in ns.legal_actions():
        child = ns.clone()
        child.apply(a)
        total += _native_perft(child, depth - 1)
    return total


@needs_native
@pytest.mark.parametrize("deal", DATA["deals"], ids=lambda d: f"{d['rules']}: {d['name']}")
def test_issue21_r10_r19_native_perft_matches_the_pinned_numbers(deal: dict) -> None:
    st = GameState.new(deal["deck"], opener=deal["opener"] - 1, rules=deal["rules"])
    for a in deal.get("prefix", []):
        st.play(a)
    ns = native.new_state(st.deck, st.opener, deal["rules"])
    for a in st.history:
        ns.apply(a)
    assert ns.snapshot() == native.snapshot(st)
    assert [_native_perft(ns, d) for d in range(1, DATA["max_depth"] + 1)] == deal["perft"]


@needs_native
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_playouts_play_the_python_benchmarks_deals(rules: str) -> None:
    """Same seed, same decks: the C playouts draw the same choices (CPython's Mersenne
    Twister, random.choice's rule) — the same transitions, deal by deal."""
    decks = [shuffled_deck(s) for s in range(40)]
    for seed in (0, 7, -3, 2**40 + 5):
        per_deal = [playout_rep(decks[:i + 1], seed, rules)[1] for i in (9, 19, 39)]
        assert [native.playouts(decks[:i + 1], seed, rules) for i in (9, 19, 39)] == per_deal


@needs_native
def test_issue21_native_apply_is_checked_and_the_state_validated() -> None:
    st = GameState.new(seed=3)
    ns = native.new_state(st.deck, 0, "gameweave")
    before = ns.snapshot()
    with pytest.raises(ValueError):
        ns.apply(2)  # refuse: not legal at a `turn` decision
    assert ns.snapshot() == before
    with pytest.raises(ValueError):
        native.new_state(list(range(39)) + [0], 0, "gameweave")
    with pytest.raises(ValueError):
        native.new_state(st.deck, 2, "gameweave")
    twin = ns.clone()
    twin.apply(twin.legal_actions()[0])
    assert ns.snapshot() == before != twin.snapshot()
    # a state the rules cannot reach is refused (the C buffers are sized for real deals)
    good = native.from_state(st)
    assert good.snapshot() == native.snapshot(st)
    bogus = st.clone()
    bogus.hands = [(1 << 40) - 1, 0]
    with pytest.raises(ValueError):
        native.from_state(bogus)
    bogus = st.clone()
    bogus.melds = [[0b111 << 4] * 5, []]
    with pytest.raises(ValueError):
        native.from_state(bogus)


def test_issue21_without_the_native_core_the_engine_falls_back_to_python(tmp_path: Path) -> None:
    """``GAMEWEAVE_NO_NATIVE=1`` (as on a machine where no C compiler built the core):
    the engine plays in pure Python, the benchmark's python engine runs and its native
    engine refuses with one line and exit status 1."""
    env = {**os.environ, native.DISABLE_ENV: "1"}
    code = ("from gameweave.engine import native, GameState; from gameweave.bench import run\n"
            "assert not native.AVAILABLE and native.NativeState is None\n"
            "st = GameState.new(seed=1)\n"
            "while not st.is_over: st.apply(st.legal_actions()[0])\n"
            "r = run(deals=3, reps=5, warmup=0)\n"
            "assert r['meta']['engine'] == 'python' and r['totals']['deals'] == 15\n"
            "try:\n    native.new_state(st.deck)\nexcept RuntimeError as e:\n    print('refused:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "refused: the native core is not available" in out.stdout
    bench = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "playout.py"), "--engine", "native",
                            "--deals", "2"], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert bench.returncode == 1 and "native core is not available" in bench.stderr


def test_issue21_the_sdist_carries_every_file_the_native_core_includes() -> None:
    """setup.py builds the extension from the sdist: each local header that _native.c
    includes must be in MANIFEST.in (a ``depends`` file is not packed by itself)."""
    import re

    source = (ROOT / "src" / "gameweave" / "engine" / "_native.c").read_text()
    manifest = (ROOT / "MANIFEST.in").read_text()
    headers = re.findall(r'#include "([^"]+)"', source)
    assert headers and all(f"include src/gameweave/engine/{h}" in manifest for h in headers)


@needs_native
def test_issue21_the_benchmark_measures_both_engines_on_the_same_deals() -> None:
    from gameweave.bench import run

    py = run(deals=20, reps=5, warmup=0, rules="classic", cpu=True)
    nat = run(deals=20, reps=5, warmup=0, rules="classic", engine="native", cpu=True)
    assert py["totals"] == nat["totals"]  # the same deals and choices: the same transitions
    assert nat["anchor"] == py["anchor"] + "_native" and nat["meta"]["clock"] == "cpu"
    with pytest.raises(ValueError):
        run(deals=1, reps=5, engine="rust")


@needs_native
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_native_rollout_plays_the_searches_policy_action_for_action(rules: str) -> None:
    """The searches' default playout (bots/playout.py ``rollout_action``) in C: from random
    mid-deal states, the same number of actions and the same final state as the Python
    policy; ``playout()`` gives the same result and leaves the state as Python would."""
    from gameweave.bots import playout as pl

    rng = random.Random(f"rollout-{rules}")
    checked = 0
    for d in range(120):
        st = GameState.new(seed=d, opener=d & 1, rules=rules)
        for _ in range(rng.randrange(60)):
            if st.is_over:
                break
            st.apply(rng.choice(st.legal_actions()))
        if st.is_over:
            continue
        ns = native.from_state(st)
        assert ns.snapshot() == native.snapshot(st)
        py = st.clone()
        steps = 0
        while not py.is_over and steps < 400:
            py.apply(pl.rollout_action(py, rng))
            steps += 1
        actions, actors = ns.rollout(400)
        assert actions == py.history[len(st.history):] and actors == py.actors[len(st.history):]
        assert len(actions) == steps and ns.snapshot() == native.snapshot(py)
        seat = st.to_act
        want = 0.5 if py.winner < 0 else float(py.winner == seat)
        consumed = st.clone()
        assert pl.playout(consumed, rng, seat) == want
        # the state is left as the Python playout leaves it (st is consumed either way)
        assert native.snapshot(consumed) == native.snapshot(py)
        assert consumed.history == py.history and consumed.actors == py.actors
        assert consumed.legal_actions() == py.legal_actions()
        checked += 1
    assert checked > 60


_SEARCH_RUN = r"""
from gameweave.bots.search import SearchBot
from gameweave.engine import GameState, seat_view
out = []
for d in range(3):
    st = GameState.new(seed=40 + d, rules="RULES")
    bot = SearchBot(seed=d, iterations=60)
    while not st.is_over and len(st.history) < 30:
        v = seat_view(st, st.to_act)
        a = bot.choose(v) if len(v.legal) > 1 else v.legal[0]
        out.append(a)
        st.apply(a)
print(out)
"""


@needs_native
@pytest.mark.parametrize("rules", ["gameweave", "classic"])
def test_issue21_search_decides_the_same_with_and_without_the_native_core(rules: str) -> None:
    runs = []
    for flag in ("", "1"):
        env = {**os.environ, native.DISABLE_ENV: flag}
        out = subprocess.run([sys.executable, "-c", _SEARCH_RUN.replace("RULES", rules)], env=env,
                             capture_output=True, text=True, timeout=240)
        assert out.returncode == 0, out.stderr
        runs.append(out.stdout)
    assert runs[0] == runs[1] and len(runs[0]) > 20


@needs_native
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_conformance_with_the_native_twin_in_every_profile(rules: str) -> None:
    """The conformance suite (invariants, checked path, record replay) with the native
    core playing every deal beside the Python engine, eager deals included (wins and
    forcing chains, R15, R16, R18e, R19), compared before every action."""
    from gameweave.engine.conformance import random_deal_check

    counts = random_deal_check(21, 60, rules, native_twin=True)
    assert counts["native"] and counts["deals"] == 60 and counts["won"] > 10 and counts["forces"] > 0


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_conformance_with_the_native_twin_on_a_thousand_deals(rules: str) -> None:
    from gameweave.engine.conformance import random_deal_check

    counts = random_deal_check(2026, 1000, rules, native_twin=True)
    assert counts["deals"] == 1000 and counts["won"] + counts["tablas"] == 1000


@needs_native
def test_issue21_the_conformance_command_takes_native() -> None:
    import json as _json

    from typer.testing import CliRunner

    from gameweave.cli import app

    res = CliRunner().invoke(app, ["conformance", "--rules", "anglo-american", "--deals", "10", "--native"])
    assert res.exit_code == 0, res.output
    assert _json.loads(res.stdout)["native"] is True


def test_issue21_gameweave_bench_takes_the_engine() -> None:
    """``gameweave bench --engine native`` measures the native core (exit 2 with one line
    where it is not built); an unknown engine is a usage error (exit 2)."""
    from typer.testing import CliRunner

    from gameweave.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["bench", "--engine", "native", "--deals", "5", "--reps", "5", "--cpu", "--rules", "classic"])
    if native.AVAILABLE:
        assert res.exit_code == 0, res.output
        assert "(classic rules, native engine)" in res.stdout and "gameweave_random_playout_classic_native" in res.stdout
    else:
        assert res.exit_code == 2 and "native core is not available" in res.output
    bad = runner.invoke(app, ["bench", "--engine", "rust", "--deals", "1", "--reps", "5"])
    assert bad.exit_code == 2

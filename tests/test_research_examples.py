"""The research examples run (issue 12), at small sizes; the bot registry gains ``ismcts``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")
pytest.importorskip("matplotlib", reason="the research extra is not installed")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_train_selfplay_learns_a_curve_and_saves_a_png(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    got = _load("train_selfplay").main(["--episodes", "200", "--eval-every", "100", "--eval-games", "40",
                                        "--out", str(out)])
    assert got["episodes"] == 200 and [c[0] for c in got["curve"]] == [0, 100, 200]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    w, t, lo = got["curve"][-1][1:4]
    assert w + t + lo == 40


def test_ismcts_vs_search_plays_both_seats() -> None:
    got = _load("ismcts_vs_search").main(["--deals", "1", "--simulations", "5", "--iterations", "10"])
    assert len(got["games"]) == 2 and got["summary"]["games"] == 2


def test_research_bots_register_and_play_in_the_arena() -> None:
    from gameweave.bots import bot_names, make_bot
    from gameweave.research.bots import ISMCTSBot

    got = _load("arena_with_research_bots").main(["ismcts", "random", "--deals", "1", "--simulations", "5",
                                                  "--rules", "anglo-american"])
    assert "ismcts" in bot_names() and isinstance(make_bot("ismcts", seed=1), ISMCTSBot)
    assert got["summary"]["games"] == 2


def test_issue21_the_docs_reinforce_command_is_the_examples_own_and_its_defaults() -> None:
    """Issue 21: docs/RESEARCH.md's REINFORCE command is the one in the example's
    docstring, and its flags are the example's defaults (so the table reproduces from
    either), evaluating every 1,500 deals as the table's rows do."""
    import re

    docs = (EXAMPLES.parent / "docs" / "RESEARCH.md").read_text()
    example = (EXAMPLES / "train_selfplay.py").read_text()
    cmd = re.search(r"\.venv/bin/python examples/train_selfplay\.py[^\n]*", docs).group(0)
    assert cmd in example
    flags = dict(re.findall(r"--([a-z-]+) (\S+)", cmd))
    assert flags["eval-every"] == "1500" and "| gameweave | 1,500 |" in docs
    src = example.split("def main", 1)[1]
    for name in ("episodes", "eval-every", "eval-games", "seed"):
        default = re.search(rf'"--{name}", type=int, default=(\d+)', src).group(1)
        assert flags[name] == default, name

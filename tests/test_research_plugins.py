"""The research bots reach the core through the ``gameweave.bots`` entry points: the
arena finds ``ismcts`` by name when the ``[research]`` extra is installed, and a plugin
whose extra is missing is skipped, never an import error in the core."""

from __future__ import annotations

import importlib.metadata as md

import pytest
from typer.testing import CliRunner

pytest.importorskip("pyspiel", reason="the [research] extra is not installed")

from gameweave.bots import BOTS, base, load_plugins, make_bot  # noqa: E402
from gameweave.cli import app  # noqa: E402


def test_make_bot_finds_the_research_bot_by_name() -> None:
    from gameweave.research.bots import ISMCTSBot

    assert type(make_bot("ismcts", seed=1)) is ISMCTSBot
    assert "ismcts" in load_plugins()


def test_arena_plays_the_research_bot() -> None:
    result = CliRunner().invoke(app, ["arena", "ismcts", "random", "--deals", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert '"ismcts"' in result.output


def test_a_plugin_whose_extra_is_missing_is_skipped(monkeypatch) -> None:
    broken = md.EntryPoint("nosuchbot", "gameweave_no_such_module:Bot", base.PLUGIN_GROUP)
    monkeypatch.setattr(md, "entry_points", lambda group: [broken] if group == base.PLUGIN_GROUP else [])
    assert load_plugins() == []
    assert "nosuchbot" not in BOTS
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nosuchbot")


_ISMCTS_RUN = r"""
import sys
from gameweave.engine import GameState, seat_view
from gameweave.research.bots import ISMCTSBot
st = GameState.new(seed=int(sys.argv[1]), rules=sys.argv[2])
bot = ISMCTSBot(seed=11, simulations=25)
out = []
while not st.is_over and len(out) < 12:
    view = seat_view(st, st.to_act)
    a = bot.decide(view) if len(view.legal) > 1 else view.legal[0]
    out.append(a)
    st.apply(a)
print(out)
"""


@pytest.mark.parametrize("rules", ["gameweave", "classic"])
def test_issue21_ismcts_same_seed_same_decisions_in_fresh_processes(rules: str) -> None:
    """Issue 21: IS-MCTS runs reproduce from a seed — two fresh processes (other string
    hash seeds) make the same decisions along the same deal."""
    import os
    import subprocess
    import sys

    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", _ISMCTS_RUN, "5", rules], capture_output=True, text=True,
                             env=env, timeout=240)
        assert out.returncode == 0, out.stderr
        runs.append(out.stdout)
    assert runs[0] == runs[1] and len(eval(runs[0])) >= 6

"""benchmarks/research.py is self-contained (issue 21): it runs from a fresh clone with
nothing outside the repository, measures RLCard when it is installed and says so when
it is not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripts import load_script

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "research.py"


def _load():
    return load_script("benchmarks/research.py", "gw_bench_research")


def test_issue21_research_benchmark_imports_nothing_from_outside_the_repository(tmp_path: Path) -> None:
    import ast

    tree = ast.parse(SCRIPT.read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "harness" not in imported  # the anchors' file outside the repository (No module named 'harness')
    assert "timing" in imported and (SCRIPT.parent / "timing.py").exists()
    # a fresh process from another directory imports the script and all it needs
    out = subprocess.run([sys.executable, str(SCRIPT), "--help"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "RLCard" in out.stdout


def test_issue21_research_benchmark_says_when_rlcard_is_missing(monkeypatch, capsys) -> None:
    mod = _load()
    monkeypatch.setitem(sys.modules, "rlcard", None)  # import rlcard -> ImportError
    assert mod.rlcard_anchor(1, 1) == []
    assert "RLCard: not installed" in capsys.readouterr().out


def test_issue21_research_benchmark_measures_the_openspiel_anchor_in_process(capsys) -> None:
    mod = _load()
    import pyspiel

    got = mod.bench_openspiel("openspiel.gin_rummy.random_playout.py_loop", pyspiel.load_game("gin_rummy"), 1, 1)
    assert got["totals"]["games"] == 1 and got["totals"]["transitions"] > 20
    assert got["rates"]["transitions_per_s"]["median"] > 0
    assert "ANCHOR {" in capsys.readouterr().out

"""Static checks that keep the house in order (issue 8): the import layering of
ARCHITECTURE.md, ruff over the whole tree and mypy --strict over the engine, the bots
and the tables.

Layers (an arrow means "may import"): cli -> server -> tables -> bots -> engine;
storage beside tables (it persists tables and may read them, never the reverse);
research -> bots -> engine; i18n (the catalogs) is used by tables, server and cli and
imports nothing of ours.  The engine imports the standard library only.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "src" / "gameweave"

ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "i18n": set(),
    "accounts": set(),
    "bots": {"engine"},
    "arena": {"engine", "bots"},
    "bench": {"engine"},
    "research": {"engine", "bots", "arena"},
    "tables": {"engine", "bots", "i18n"},
    "storage": {"engine", "tables"},
    "server": {"engine", "bots", "tables", "storage", "i18n", "accounts"},
    "cli": {"engine", "bots", "tables", "storage", "server", "arena", "bench", "research", "i18n", "accounts"},
}
"""Which layers each layer may import (besides itself and the package root)."""


def _layer(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.name != "__init__.py" else ""


def _imports(path: Path) -> list[tuple[int, str, int]]:
    """(line, module, level) of every import statement in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, node.module or "", node.level))
    return out


def _target_layer(path: Path, module: str, level: int) -> str | None:
    """The package layer an import reaches, or None for a module outside the package."""
    if level == 0:
        if module == "gameweave" or module.startswith("gameweave."):
            parts = module.split(".")
            return parts[1] if len(parts) > 1 else ""
        return None
    base = path.parent.relative_to(PKG).parts
    up = base[: len(base) - (level - 1)] if level > 1 else base
    parts = list(up) + (module.split(".") if module else [])
    return parts[0] if parts else ""


def _py_files() -> list[Path]:
    return [p for p in PKG.rglob("*.py") if "migrations" not in p.parts]


def test_layers_import_only_downwards() -> None:
    """ARCHITECTURE.md: no layer imports one above it."""
    bad = []
    for path in _py_files():
        layer = _layer(path)
        if layer not in ALLOWED:
            continue
        for line, module, level in _imports(path):
            target = _target_layer(path, module, level)
            if target in (None, "", layer):
                continue
            if target not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {layer} imports {target}")
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_engine_imports_the_standard_library_only() -> None:
    """ARCHITECTURE.md: the engine is pure standard-library Python."""
    bad = []
    for path in (PKG / "engine").rglob("*.py"):
        for line, module, level in _imports(path):
            if level == 0 and module.split(".")[0] not in sys.stdlib_module_names and module != "__future__":
                bad.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not bad, "\n".join(bad)


def test_layering_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The checker itself works: an engine module importing the bots is reported."""
    fake = PKG / "engine" / "state.py"
    assert _target_layer(fake, "bots.greedy", 2) == "bots"
    assert _target_layer(fake, "cards", 1) == "engine"
    assert _target_layer(PKG / "cli" / "play.py", "gameweave.server", 0) == "server"
    assert "bots" not in ALLOWED["engine"] and "server" not in ALLOWED["tables"]


def _tool(name: str) -> str:
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return str(exe)
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def test_ruff_finds_nothing() -> None:
    """ruff (pyflakes, pycodestyle errors, bugbear, pyupgrade, no print in the library)."""
    r = subprocess.run([_tool("ruff"), "check", "--no-cache", "src", "tests", "benchmarks"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


MYPY_PACKAGES = ["src/gameweave/engine", "src/gameweave/bots", "src/gameweave/tables"]
"""What mypy --strict checks (pyproject's [tool.mypy] ``files``)."""


def test_mypy_strict_on_the_engine_bots_and_tables() -> None:
    """mypy --strict over gameweave.engine, gameweave.bots and gameweave.tables, as
    pyproject's [tool.mypy] says.  The cache lives in the temp directory (one per
    checkout), so a second run only rechecks what changed."""
    import hashlib
    import tempfile
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == MYPY_PACKAGES and config["strict"] is True
    cache = Path(tempfile.gettempdir()) / f"gameweave-mypy-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}"
    r = subprocess.run([_tool("mypy"), "--cache-dir", str(cache)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr

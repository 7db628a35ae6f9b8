"""Issue 18: the bots package has no import circle; the interface (``bots/base.py``) imports
no implementation; the frozen ``search-v1`` is nobody's library; the default estimate of a
bot that does not estimate itself is ``estimate_actions`` (R21: from the view only)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gameweave.bots import base, make_bot
from gameweave.bots.estimate import estimate_actions
from gameweave.engine import GameState, seat_view

SRC = Path(__file__).resolve().parents[1] / "src" / "gameweave"
BOTS = SRC / "bots"


def _imports(path: Path, package: str) -> list[tuple[str, list[str]]]:
    """``(module, imported names)`` of every import in ``path`` (function-level and
    TYPE_CHECKING ones too), relative imports resolved against ``package``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            anchor = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            full = ".".join(x for x in (anchor, node.module or "") if x)
            out.append((full, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out.extend((a.name, []) for a in node.names)
    return out


def _bots_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in BOTS.glob("*.py"):
        name = "gameweave.bots" + ("" if path.stem == "__init__" else "." + path.stem)
        edges = set()
        for mod, names in _imports(path, "gameweave.bots"):
            for target in [mod] + [f"{mod}.{n}" for n in names]:
                if target.startswith("gameweave.bots.") and (BOTS / f"{target.split('.')[2]}.py").exists():
                    edges.add(".".join(target.split(".")[:3]))
        graph[name] = edges - {name}
    return graph


def test_bots_modules_have_no_import_circle():
    graph = _bots_graph()
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        state[n] = 1
        for m in graph.get(n, ()):
            assert state.get(m) != 1, f"import circle: {' -> '.join(path + [m])}"
            if m not in state:
                visit(m, path + [m])
        state[n] = 2

    for n in graph:
        if n not in state:
            visit(n, [n])


def test_the_interface_imports_no_bot_implementation():
    assert _bots_graph()["gameweave.bots.base"] == set()


def test_only_the_package_imports_search_v1_and_no_private_name_crosses_modules():
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC.parent)
        package = ".".join(rel.with_suffix("").parts[:-1])
        for mod, names in _imports(path, package):
            if "search_v1" in mod or "search_v1" in names:
                assert path == BOTS / "__init__.py", f"{rel} imports search_v1"
            if path.parent == BOTS and mod.startswith("gameweave.bots"):
                assert not [n for n in names if n.startswith("_")], f"{rel} imports a private name from {mod}"


def _view():
    st = GameState.new(seed=11)
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    return seat_view(st, st.to_act)


def test_r21_default_estimate_is_estimate_actions_and_can_be_unset():
    view = _view()
    assert make_bot("greedy", seed=3).estimate(view) == estimate_actions(view, 3)
    assert make_bot("random", seed=4).estimate(view) == estimate_actions(view, 4)
    try:
        base.set_default_estimator(None)
        with pytest.raises(NotImplementedError):
            make_bot("greedy", seed=3).estimate(view)
    finally:
        base.set_default_estimator(estimate_actions)
    assert make_bot("greedy", seed=3).estimate(view) == estimate_actions(view, 3)

"""The shape of the house (issue 18, docs/ARCHITECTURE.md): small files, short functions
and an import graph without circles.

* no file under ``src/`` over 600 lines (Python or JavaScript);
* no Python function over 80 lines (``end_lineno - lineno + 1``; migrations aside);
* no import circle among the Python modules, counting every import: at module level,
  inside functions and under ``TYPE_CHECKING`` alike — a lazy import still ties two
  modules together for the reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PKG = SRC / "gameweave"

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def _sources(*suffixes: str) -> list[Path]:
    return sorted(p for p in PKG.rglob("*") if p.suffix in suffixes and "migrations" not in p.parts)


def test_no_source_file_is_over_600_lines() -> None:
    long = []
    for path in _sources(".py", ".js"):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_FILE_LINES:
            long.append(f"{path.relative_to(ROOT)}: {n} lines")
    assert not long, "files over 600 lines:\n" + "\n".join(long)


def long_functions(tree: ast.AST, limit: int = MAX_FUNCTION_LINES) -> list[tuple[int, str, int]]:
    """``(line, name, length)`` of every function in ``tree`` longer than ``limit`` lines."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                out.append((node.lineno, node.name, length))
    return out


def test_no_python_function_is_over_80_lines() -> None:
    long = []
    for path in _sources(".py"):
        for line, name, length in long_functions(ast.parse(path.read_text(encoding="utf-8"))):
            long.append(f"{path.relative_to(ROOT)}:{line} {name}: {length} lines")
    assert not long, "functions over 80 lines:\n" + "\n".join(long)


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def import_graph(files: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """The graph ``module -> modules it imports`` over the given modules.

    ``files`` maps a module name to ``(source text, is a package)``.  Every ``import``
    and ``from … import`` anywhere in the source counts; ``from package import name``
    points at the submodule ``package.name`` where there is one, else at the package.
    Imports of modules outside ``files`` are left out."""

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, (text, is_package) in files.items():
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(text)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in files else origin for a in node.names]
            for t in targets:
                found = known(t)
                if found is not None and found != module:
                    graph[module].add(found)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of two or more
    modules (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_there_are_no_import_circles() -> None:
    files = {}
    for path in PKG.rglob("*.py"):
        name, is_package = _module_name(path)
        files[name] = (path.read_text(encoding="utf-8"), is_package)
    found = circles(import_graph(files))
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_checkers_catch_a_circle_a_lazy_import_and_a_long_function() -> None:
    files = {
        "p": ("", True),
        "p.a": ("from . import b\n", False),
        "p.b": ("def f():\n    from .c import x\n", False),
        "p.c": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.a import y\n", False),
        "p.d": ("from .a import z\n", False),
    }
    assert circles(import_graph(files)) == [["p.a", "p.b", "p.c"]]
    files["p.c"] = ("import os\n", False)
    assert circles(import_graph(files)) == []
    body = "def f():\n" + "    x = 1\n" * 80
    assert long_functions(ast.parse(body)) == [(1, "f", 81)]
    assert long_functions(ast.parse("def g():\n" + "    x = 1\n" * 79)) == []

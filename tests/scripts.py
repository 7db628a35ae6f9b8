"""Load a script of the repository (``benchmarks/…``) as a module, for the tests that
check it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""


def load_script(relative: str, name: str) -> ModuleType:
    """The script at ``ROOT / relative`` imported as module ``name`` (run once, like an
    import; its ``main`` is not called)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

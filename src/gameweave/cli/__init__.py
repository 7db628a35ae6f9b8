"""The ``gameweave`` command line: ``replay``, ``demo``, ``bench`` and the other tables.

Each subcommand lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

from .app import app, whole_short_help
from . import replay as _replay  # noqa: F401  (registers `replay`, `demo`)
from . import bench as _bench  # noqa: F401  (registers `bench`)
from . import play as _play  # noqa: F401  (registers `play`)
from . import arena as _arena  # noqa: F401  (registers `arena`)
from . import serve as _serve  # noqa: F401  (registers `serve`, `verify`)
from . import conformance as _conformance  # noqa: F401  (registers `conformance`)
from . import analyze as _analyze  # noqa: F401  (registers `analyze`)
from . import ladder as _ladder  # noqa: F401  (registers `ladder`)
from . import dataset as _dataset  # noqa: F401  (registers `dataset`)

whole_short_help()


def main() -> None:
    """Entry point of the ``gameweave`` console script."""
    app()


__all__ = ["app", "main"]

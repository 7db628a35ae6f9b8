"""The optional native core (issue 21): a C extension built by setuptools when a C compiler
is there, skipped (with a warning) when it is not: ``optional=True``, so ``pip install .``
and ``pip install -e .`` succeed either way and the pure-Python engine is used
(gameweave.engine.native, docs/ENGINE.md)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gameweave.engine._native",
            sources=["src/gameweave/engine/_native.c"],
            depends=["src/gameweave/engine/_native_core.h", "src/gameweave/engine/_native_research.h",
                     "src/gameweave/engine/_native_rbot.h", "src/gameweave/engine/_native_vec.h"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)

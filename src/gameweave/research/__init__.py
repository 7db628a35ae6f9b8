"""Conquian for AI research (issue 12; docs/RESEARCH.md): the optional ``[research]`` extra.

- :mod:`gameweave.research.core` — explicit chance, the dense action id space and the
  seat encodings, shared by the three interfaces (pure Python + numpy for tensors);
- :mod:`gameweave.research.openspiel` — the OpenSpiel game ``conquian``;
- :mod:`gameweave.research.pettingzoo` — ``env(rules=...)``, a PettingZoo AEC environment;
- :mod:`gameweave.research.gym` — ``gameweave/Conquian-v0`` for Gymnasium;
- :mod:`gameweave.research.bots` — OpenSpiel's IS-MCTS as a gameweave bot (``ismcts``).

Nothing in the core package imports this one; it imports the engine and the bots only.
Importing this package imports no third-party library.
"""

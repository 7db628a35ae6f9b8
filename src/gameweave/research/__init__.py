"""Conquian for AI research (issue 12; docs/RESEARCH.md): the optional ``[research]`` extra.

- the core shared by the three interfaces (pure Python + numpy for tensors):
  :mod:`~gameweave.research.ids` (the dense action ids and their names),
  :mod:`~gameweave.research.deal` (``Deal``: explicit chance and the R18 sub-steps),
  :mod:`~gameweave.research.history` (the public history as card masks),
  :mod:`~gameweave.research.observer` (the seat encodings),
  :mod:`~gameweave.research.strings` (the seat's and the spectator's text), and
  :mod:`~gameweave.research.core`, which gathers their names in one import;
- :mod:`gameweave.research.openspiel` — the OpenSpiel game ``conquian``;
- :mod:`gameweave.research.pettingzoo` — ``env(rules=...)``, a PettingZoo AEC environment;
- :mod:`gameweave.research.gym` — ``gameweave/Conquian-v0`` for Gymnasium;
- :mod:`gameweave.research.bots` — OpenSpiel's IS-MCTS as a gameweave bot (``ismcts``).

Nothing in the core package imports this one; it imports the engine and the bots only.
Importing this package imports no third-party library.
"""

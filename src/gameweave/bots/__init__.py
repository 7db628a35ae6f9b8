"""Bots that play from a seat's view only (R21): ``random``, ``greedy``, ``search``
(the newest search), ``search-v1`` (issue 8's search, the yardstick) and the levels.

Use :func:`make_bot` (``make_bot("greedy", seed=1).choose(view)``).  See docs/BOTS.md.

The modules, each importing only those above it: ``base`` (the interface and the
registry), ``determinize`` (sampled worlds), ``playout`` (the playout policy),
``greedy``, ``estimate`` (every action's chances), ``opponent``, ``pimc`` (candidates and
sequential halving), ``endgame``, ``ismcts``, ``search``, ``search_v1``, ``levels`` and
``advice``.  This package module alone wires them: it registers the bots by name and
the default estimator of :meth:`Bot.estimate`.
"""

from .base import (
    BOTS, ActionEstimate, Bot, RandomBot, bot_names, load_plugins, make_bot, register, set_default_estimator,
)
from .estimate import estimate_actions
from .greedy import GreedyBot
from .search import SearchBot
from .search_v1 import SearchV1Bot

set_default_estimator(estimate_actions)
register("greedy", GreedyBot)
register("search", SearchBot)
register("search-v1", SearchV1Bot)

from .levels import LEVELS, level_names, make_level  # noqa: E402  (registers the levels by name)

__all__ = ["BOTS", "ActionEstimate", "Bot", "RandomBot", "GreedyBot", "SearchBot", "SearchV1Bot", "LEVELS", "bot_names",
           "level_names", "load_plugins", "make_bot", "make_level", "register"]

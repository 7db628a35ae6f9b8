"""Bots that play from a seat's view only (R21): ``random``, ``greedy``, ``search``.

Use :func:`make_bot` (``make_bot("greedy", seed=1).choose(view)``).  See docs/BOTS.md.
"""

from .base import BOTS, Bot, RandomBot, bot_names, make_bot, register
from .greedy import GreedyBot
from .search import SearchBot

register("greedy", GreedyBot)
register("search", SearchBot)

__all__ = ["BOTS", "Bot", "RandomBot", "GreedyBot", "SearchBot", "bot_names", "make_bot", "register"]

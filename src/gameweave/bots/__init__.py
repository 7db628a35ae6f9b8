"""Bots that play from a seat's view only (R21): ``random``, and more by name.

Use :func:`make_bot` (``make_bot("random", seed=1).choose(view)``).
"""

from .base import BOTS, Bot, RandomBot, bot_names, make_bot, register

__all__ = ["BOTS", "Bot", "RandomBot", "bot_names", "make_bot", "register"]

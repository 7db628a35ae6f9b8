"""The bot levels' measured ladder ratings (issue 20): Glicko-2 figures measured in the
arena by ``gameweave ladder`` (the command and its results are in ``ladder.json`` beside
this file; docs/BOTS.md, "Ladder ratings"), shown beside the levels' names."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LADDER_FILE = Path(__file__).resolve().parent / "ladder.json"
"""The measured ladder: ``{"command", "rules", "deals_per_pairing", "results", "ratings":
{level: {"rating", "rd"}}}``."""


@cache
def ladder() -> dict[str, Any]:
    """The measured ladder (``{}`` if the file is missing)."""
    try:
        data: dict[str, Any] = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


def ladder_rating(bot: str | None) -> dict[str, Any] | None:
    """``{"rules", "rating", "rd", "provisional": False, "ladder": True}`` of a measured
    level, or None (another bot, or not measured)."""
    data = ladder()
    got = data.get("ratings", {}).get(bot or "")
    if got is None:
        return None
    return {"rules": data.get("rules", "gameweave"), "rating": int(got["rating"]), "rd": int(got["rd"]),
            "provisional": False, "ladder": True}


__all__ = ["LADDER_FILE", "ladder", "ladder_rating"]

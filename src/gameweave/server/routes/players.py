"""Ratings, the leaderboard and players' public profiles (issue 20; PROTOCOL §3.18,
§3.19).  Nothing here needs an account or a seat token, and nothing private is given:
no token, no seat secret, no card of a live deal (a finished deal's replay reveals it
all, as the record does; a deal still played has no replay)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query

from ...bots.ladder import ladder
from ...engine import UnknownProfileError, find_profile
from ...storage.glicko import PROVISIONAL_RD
from ...tables.chart import rating_geometry
from ..deps import HubDep
from ..errors import ApiError
from ..hub import Hub
from ..rating_schemas import Leaderboard, PlayerOut
from ..replay import replay_steps
from ..schemas import ReplayOut, error_responses

router = APIRouter(prefix="/api", tags=["players"], responses=error_responses(422, 429))

LEADERBOARD_SIZE = 100
"""The most players one leaderboard lists."""


def _rules(rules: str) -> str:
    try:
        return find_profile(rules).name
    except UnknownProfileError:
        raise ApiError("bad_option", f"no rule profile {rules[:32]!r}", {"detail": f"rules {rules[:32]}"}) from None


async def account_named(hub: Hub, name: str) -> tuple[int, str]:
    """``(account id, username)`` of the live account called ``name``; 404
    ``unknown_player`` otherwise (a deleted account's profile is gone)."""
    found = await hub.ratings.account_named(name)
    if found is None:
        raise ApiError("unknown_player", "there is no player of that name", {"name": name[:32]})
    return found


def bot_ratings() -> list[dict[str, Any]]:
    """The bot levels' measured ladder ratings (``bots/ladder.json``), weakest first."""
    data = ladder()
    got = data.get("ratings", {})
    return [{"bot": b, "rules": data.get("rules", "gameweave"), "rating": int(r["rating"]), "rd": int(r["rd"])}
            for b, r in sorted(got.items(), key=lambda kv: kv[1]["rating"])]


@router.get("/leaderboard", response_model=Leaderboard, responses=error_responses(422))
async def leaderboard(hub: HubDep, rules: str = Query("gameweave", max_length=32)) -> dict:
    """The players rated in profile ``rules``: established players (deviation at most
    110) by rating, then provisional ones; at most 100.  ``422 bad_option`` for a
    profile that does not exist."""
    name = _rules(rules)
    rows = await hub.db.run(hub.ratings.store.leaderboard, name, LEADERBOARD_SIZE)
    players = [{"rank": i + 1, "username": u, **r.shown(), "deals": r.deals, "won": r.won, "tablas": r.tablas,
                "lost": r.lost} for i, (u, r) in enumerate(rows)]
    for p in players:
        p.pop("rules"), p.pop("ladder")
    return {"rules": name, "provisional_rd": PROVISIONAL_RD, "players": players, "bots": bot_ratings()}


@router.get("/players/{name}", response_model=PlayerOut, responses=error_responses(404))
async def player(name: str, hub: HubDep) -> dict:
    """A player's public profile: the rating in every profile played rated, with its
    history and chart, deals won / tablas / lost and the streak; the recent matches
    with a replay address per finished deal.  ``404 unknown_player``."""
    account_id, username = await account_named(hub, name)
    store = hub.ratings.store
    rated = await hub.db.run(store.ratings_of, account_id)
    matches = await hub.db.run(store.recent_matches, account_id)
    out = []
    for r in rated:
        mine = await hub.db.run(store.history, account_id, r.rules)
        shown = r.shown()
        out.append({**shown, "deals": r.deals, "won": r.won, "tablas": r.tablas, "lost": r.lost, "streak": r.streak,
                    "history": [{k: h[k] for k in ("match_id", "deal", "score", "rating", "rd", "opponent", "at")}
                                for h in mine],
                    "chart": rating_geometry([h["rating"] for h in mine])})
        out[-1].pop("ladder")
    for m in matches:
        for d in m["deals"]:
            d["replay"] = (f"/replay/{m['match_id']}/{d['number']}?player={quote(username)}&seat={m['seat']}"
                           if d["status"] not in ("playing", "abandoned") else None)
    return {"username": username, "ratings": out, "matches": matches}


@router.get("/players/{name}/matches/{match_id}/deals/{n}/replay", response_model=ReplayOut,
            responses=error_responses(404, 409))
async def player_replay(name: str, match_id: str, n: int, hub: HubDep) -> dict:
    """A finished deal of one of the player's matches, step by step (the object of
    §3.6b), for anyone: ``404 unknown_player`` / ``unknown_match`` (not one of the
    player's matches) / ``unknown_deal``; ``409 deal_not_over`` while it is played."""
    account_id, _username = await account_named(hub, name)
    if not await hub.db.run(hub.ratings.store.holds_seat, account_id, match_id):
        raise ApiError("unknown_match", "no such match of this player")
    table = await hub.table(match_id)
    if table is None:
        raise ApiError("unknown_match", "no such match")
    async with hub.lock(match_id):
        return replay_steps(table, n)

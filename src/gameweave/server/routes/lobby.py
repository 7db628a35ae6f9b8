"""Lobby routes: the bots, the profiles and how to play them, creating and joining
matches, a seat's list of matches."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ...bots import bot_names, level_names
from ...bots.ladder import ladder_rating
from ... import i18n
from ..deps import ORIGIN_CHECKED_IF_NAMED, SIGNED_IN_CHANGE, AccountDep, AccountsDep, HubDep
from ..errors import ApiError
from ..frames import invite_url, summary
from ..seats import invite_problem
from ...tables import all_profile_offers, help_for_wire
from ..schemas import (
    BotList, Catalog, CreateMatch, HelpOut, error_responses, InviteStatus, JoinMatch, JoinWithName, MyMatches,
    MyMatchesOut, ProfileList, SeatCreated, SeatJoined,
)

router = APIRouter(prefix="/api", tags=["lobby"], responses=error_responses(429))


@router.get("/bots", response_model=BotList)
async def list_bots() -> dict:
    """The bots offered to people, as the lobby lists them: ``random`` and the levels,
    weakest first (``beginner`` … ``master``).  ``POST /api/matches`` also takes the
    older names (``greedy``, ``search``) and any other registered bot.  ``ladder``: the
    levels' measured ladder ratings (``gameweave ladder``, issue 20)."""
    have = set(bot_names())
    offered = [b for b in ["random", *level_names()] if b in have]
    measured = {b: r["rating"] for b in offered if (r := ladder_rating(b)) is not None}
    return {"bots": offered, "ladder": measured}


@router.get("/profiles", response_model=ProfileList)
async def list_profiles() -> dict:
    """The rule profiles a match may be played under (§V), default first: each one's
    title, one-line summary, options, the match formats it offers and their defaults,
    and its stakes options (R20; null where it does not play for stakes)."""
    return {"profiles": all_profile_offers()}


@router.get("/i18n/{lang}", response_model=Catalog, responses=error_responses(404, 422))
async def get_catalog(lang: str) -> dict:
    """Every message of one language (``es`` or ``en``) as ``{key: text}``: the page's
    own strings (``page.*``), the game's words (``term.*``), the errors (``error.<code>``,
    filled with an error's ``params``), the quick phrases (``phrase.*``) …  404
    ``unknown_language`` for another language."""
    try:
        code = i18n.check_language(lang)
    except i18n.UnknownLanguage:
        raise ApiError("unknown_language", "the table speaks es and en", {"lang": lang[:16]}) from None
    return {"lang": code, "messages": dict(i18n.messages(code))}


@router.get("/help", response_model=HelpOut, responses=error_responses(404, 422))
async def get_help(lang: str = "en") -> dict:
    """How to play, in ``lang`` (``es`` or ``en``): each profile's rules in short
    sections, a glossary of the game's terms, and tips for a first deal."""
    try:
        code = i18n.check_language(lang)
    except i18n.UnknownLanguage:
        raise ApiError("unknown_language", "the table speaks es and en", {"lang": lang[:16]}) from None
    return help_for_wire(code)


@router.post("/matches", status_code=201, response_model=SeatCreated, responses=error_responses(400, 403, 413, 422),
             dependencies=[SIGNED_IN_CHANGE])
async def create_match(body: CreateMatch, request: Request, hub: HubDep, account: AccountDep,
                       accounts: AccountsDep) -> dict:
    """Create a match; you hold seat 1 (the token is given only now).  Options left
    out are the profile's defaults (``GET /api/profiles``).  Signed in, the seat joins
    the account at once and ``name`` defaults to the username (``403 cross_origin`` for
    a request from another origin, or a signed-in one naming none, §3.13)."""
    name = body.name if body.name is not None or account is None else account.username
    table, token = await hub.create(body.opponent, body.bot, body.format, body.target, rules=body.rules,
                                    stake=body.stake, tablas_stake=body.tablas_stake, name=name,
                                    clock=body.clock, hints=body.hints)
    await accounts.keep_new_seat(account, table.match_id, 1, token)
    return {
        "match_id": table.match_id, "seat": 1, "token": token,
        "invite_url": invite_url(table), "table_url": f"/table/{table.match_id}",
    }


@router.post("/matches/{match_id}/join", response_model=SeatJoined, responses=error_responses(403, 404, 409, 413, 422),
             dependencies=[SIGNED_IN_CHANGE])
async def join_match(match_id: str, body: JoinWithName, request: Request, hub: HubDep, account: AccountDep,
                     accounts: AccountsDep) -> dict:
    """Join a friend match by its invite, with your ``name`` (optional; signed in, the
    username); you hold seat 2 (token given only now).  Signed in, the seat joins the
    account at once.  ``403 cross_origin`` as for creating."""
    name = body.name if body.name is not None or account is None else account.username
    table, token = await hub.join(match_id, body.invite, name)
    await accounts.keep_new_seat(account, table.match_id, 2, token)
    return {"match_id": table.match_id, "seat": 2, "token": token, "table_url": f"/table/{table.match_id}"}


@router.post("/matches/{match_id}/invite-status", response_model=InviteStatus, responses=error_responses(403, 413, 422),
             dependencies=[ORIGIN_CHECKED_IF_NAMED])
async def invite_status(match_id: str, body: JoinMatch, hub: HubDep) -> dict:
    """Whether ``invite`` would take seat 2 now, without taking it; always 200:
    ``open`` (true or false) and ``code`` (null, ``unknown_match``, ``not_a_friend_match``,
    ``bad_invite`` or ``already_joined``: the codes ``join`` would answer).  Lets the
    page explain a used or wrong invite without a refused request (``403 cross_origin``
    for a request naming another origin, §3.13)."""
    table = await hub.table(match_id)
    if table is None:
        code = "unknown_match"
    else:
        problem = invite_problem(table, body.invite)
        code = problem[0] if problem else None
    return {"open": code is None, "code": code, "hints": bool(table is not None and table.hints_on)}


@router.post("/my-matches", response_model=MyMatchesOut, responses=error_responses(403, 413, 422),
             dependencies=[ORIGIN_CHECKED_IF_NAMED])
async def my_matches(body: MyMatches, hub: HubDep) -> dict:
    """Summaries of the remembered seats whose token is valid (``403 cross_origin`` for
    a request naming another origin, §3.13)."""
    out = []
    for ref in body.seats:
        table, seat = await hub.seat_for_token(ref.match_id, ref.token)
        if table is not None and seat >= 0:
            out.append(summary(table, seat))
    return {"matches": out}

"""The guided first deal (issue 19): ``POST /api/tutorial`` deals one (a gameweave match
against the scripted guide, from a fixed deck), and ``GET /api/matches/{id}/tutorial``
says what the guide says at a point of it.  The engine and the referee play the deal as
any other (PROTOCOL §4); these routes only read :mod:`gameweave.tables.tutorial`."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from ...tables.tutorial import tutorial_guide
from ..deps import SIGNED_IN_CHANGE, AccountDep, AccountsDep, HubDep, SeatDep
from ..frames import invite_url
from ..schemas import CreateTutorial, SeatCreated, TutorialGuide, error_responses

router = APIRouter(prefix="/api", tags=["tutorial"], responses=error_responses(429))


@router.post("/tutorial", status_code=201, response_model=SeatCreated, responses=error_responses(403, 413, 422),
             dependencies=[SIGNED_IN_CHANGE])
async def create_tutorial(request: Request, hub: HubDep, account: AccountDep, accounts: AccountsDep,
                          body: CreateTutorial | None = None) -> dict:
    """Deal a guided first deal: a gameweave match, first to one won deal, against the
    guide (``match.opponent.bot`` is ``tutorial``), from a fixed deck (``test: true``: the
    deck was chosen, not shuffled).  You hold seat 1 (the token is given only now); play
    it over the WebSocket as any match.  422 ``bad_name`` for a bad ``name``.  Signed in,
    the seat joins the account and the name defaults to the username.  ``403
    cross_origin`` for a request from another origin, or a signed-in one naming none."""
    name = body.name if body is not None and body.name is not None else None
    if name is None and account is not None:
        name = account.username
    table, token = await hub.create_tutorial(name)
    await accounts.keep_new_seat(account, table.match_id, 1, token)
    return {"match_id": table.match_id, "seat": 1, "token": token, "invite_url": invite_url(table),
            "table_url": f"/table/{table.match_id}"}


@router.get("/matches/{match_id}/tutorial", response_model=TutorialGuide,
            responses=error_responses(401, 404, 409, 422))
async def get_tutorial(seat_of: SeatDep, hub: HubDep,
                       at: int | None = Query(None, ge=0, description="the point: how many actions the deal "
                                              "has had (the length of the view's history); default now")) -> dict:
    """What the guide says at point ``at`` of a guided deal (never a point the deal has
    not reached: a later ``at`` answers now): its steps, each a catalogue key with the
    cards it names (only cards the seat sees there, R21) and the one move it asks for, or
    none (read, then "next").  409 ``not_a_tutorial`` for any other match."""
    table, _seat = seat_of
    async with hub.lock(table.match_id):
        return tutorial_guide(hub.tables.get(table.match_id) or table, at)

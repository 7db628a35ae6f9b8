"""Open tables and the quick-match queue (issue 20; PROTOCOL §3.15, §3.16).  Every ``POST``
checks the request's origin first (:func:`~..accounts.check_origin`: ``403 cross_origin``
for one naming another origin); the lobby feed is the WebSocket ``/ws/lobby``
(``server/lobbyws.py``)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..deps import ORIGIN_CHECKED, ORIGIN_CHECKED_IF_NAMED, AccountDep, SeatDep
from ..lobby import Lobby, queue_out
from ..errors import ApiError
from ..lobby_schemas import CreateOpen, JoinQueue, OpenSeat, OpenTablesOut, QueueOut, SitDown, SitOut, Ticket, \
    Withdrawn
from ..schemas import error_responses

router = APIRouter(prefix="/api", tags=["open tables and quick match"], responses=error_responses(429))


def _lobby(request: Request) -> Lobby:
    return request.app.state.lobby


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.get("/open-tables", response_model=OpenTablesOut)
async def open_tables(request: Request) -> dict:
    """The open tables, oldest first (the lobby feed sends the same list and then each
    change)."""
    lobby = _lobby(request)
    await lobby.refresh()
    return {"tables": lobby.feed.tables()}


@router.post("/open-tables", status_code=201, response_model=OpenSeat, responses=error_responses(401, 403, 409, 422),
             dependencies=[ORIGIN_CHECKED])
async def create_open(body: CreateOpen, request: Request, account: AccountDep) -> dict:
    """Open a table (you hold seat 1; the token is given only now): it appears in every
    lobby's list until someone sits, you cancel it, or you are away from it for a
    minute.  Refusals: ``account_needed`` (rated as a guest), ``too_many_tables``
    (3 open at once), ``bad_option``, ``bad_name``, ``cross_origin``."""
    table, token = await _lobby(request).create_open(
        account=account, address=_address(request), rules=body.rules, fmt=body.format, target=body.target,
        stake=body.stake, tablas_stake=body.tablas_stake, clock=body.clock, rated=body.rated, name=body.name)
    return {"match_id": table.match_id, "seat": 1, "token": token, "table_url": f"/table/{table.match_id}",
            "rated": table.rated}


@router.post("/open-tables/{match_id}/sit", response_model=SitOut, responses=error_responses(401, 403, 409, 422),
             dependencies=[ORIGIN_CHECKED])
async def sit(match_id: str, body: SitDown, request: Request, account: AccountDep) -> dict:
    """Sit at an open table: 200 with ``seated: true`` and seat 2's token (given only
    now).  Exactly one of two people sitting at once, on any nodes, is seated; the other
    gets 200 ``seated: false`` with ``code: "seat_taken"`` (``"table_gone"`` for a
    table withdrawn meanwhile): the outcome of a race is an answer, not an error.
    Refused: ``account_needed`` (a rated table, as a guest), ``own_table``,
    ``bad_name``, ``cross_origin``."""
    try:
        table, token = await _lobby(request).sit(match_id, body.name, account)
    except ApiError as exc:
        if exc.code not in ("seat_taken", "table_gone"):
            raise
        return {"seated": False, "code": exc.code, "match_id": match_id[:32], "seat": None, "token": None,
                "table_url": None, "rated": False}
    return {"seated": True, "code": None, "match_id": table.match_id, "seat": 2, "token": token,
            "table_url": f"/table/{table.match_id}", "rated": table.rated}


@router.post("/open-tables/{match_id}/cancel", response_model=Withdrawn, responses=error_responses(401, 403, 404, 422),
             dependencies=[ORIGIN_CHECKED])
async def cancel_open(seat: SeatDep, request: Request) -> dict:
    """Seat 1 withdraws its open table (``Authorization: Bearer <seat-1 token>``); its
    match closes as abandoned.  ``withdrawn: false`` once someone has sat."""
    table, index = seat
    return {"withdrawn": await _lobby(request).cancel_open(table, index)}


@router.post("/queue", status_code=201, response_model=QueueOut, responses=error_responses(403, 409, 422),
             dependencies=[ORIGIN_CHECKED])
async def join_queue(body: JoinQueue, request: Request, account: AccountDep) -> dict:
    """Join the quick-match queue for a profile and a clock; the ticket (given only
    now) follows the entry: ``/ws/lobby`` (``follow``) or ``POST /api/queue/status``.
    Rated for a signed-in player with ``rated`` true, else casual.  ``browser``
    (optional): the browser's own random key; two entries with one key (two tabs) are
    never paired with each other.  Refusals: ``already_queued``, ``bad_option``,
    ``bad_name``, ``cross_origin``."""
    ticket, row = await _lobby(request).enqueue(account=account, address=_address(request), rules=body.rules,
                                                clock=body.clock, rated=body.rated, name=body.name,
                                                browser=body.browser)
    return {"ticket": ticket, **queue_out(row)}


@router.post("/queue/status", response_model=QueueOut, responses=error_responses(403, 404, 422),
             dependencies=[ORIGIN_CHECKED_IF_NAMED])
async def queue_status(body: Ticket, request: Request) -> dict:
    """The entry of a ticket (asking keeps it in the queue: an entry not heard from for
    12 s is not paired, after 60 s it leaves).  Once ``paired``: the match, the seat
    and the seat's token.  ``404 unknown_ticket``; ``403 cross_origin`` for a request
    naming another origin."""
    return queue_out(await _lobby(request).entry(body.ticket))


@router.post("/queue/cancel", response_model=QueueOut, responses=error_responses(403, 404, 422),
             dependencies=[ORIGIN_CHECKED])
async def queue_cancel(body: Ticket, request: Request) -> dict:
    """Leave the queue (``cancelled``); an entry paired already stays ``paired`` (go to
    the table).  ``404 unknown_ticket``."""
    return queue_out(await _lobby(request).leave(body.ticket))


__all__ = ["router"]

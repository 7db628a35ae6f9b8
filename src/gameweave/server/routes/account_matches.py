"""The matches of the signed-in account (issue 20, item 2; PROTOCOL §3.14): every live
and finished match whose seat the account holds, on any device, and taking one of those
seats into this browser (its token, the seat's own secret, goes to the account that
holds it and to no one else)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..account_schemas import SeatTaken, TakeSeat
from ..deps import ORIGIN_CHECKED_SIGNED_IN, AccountDep, AccountsDep, HubDep
from ..errors import ApiError
from ..frames import summary
from ..schemas import MAX_SEATS_LISTED, MyMatchesOut, error_responses
from ...storage.accounts import AccountRow

router = APIRouter(prefix="/api/account/matches", tags=["account"], responses=error_responses(401, 429))


def _need(account: AccountRow | None) -> AccountRow:
    if account is None:
        raise ApiError("not_signed_in", "sign in first")
    return account


@router.get("", response_model=MyMatchesOut)
async def account_matches(account: AccountDep, accounts: AccountsDep, hub: HubDep) -> dict:
    """Summaries (as ``POST /api/my-matches``, §3.5) of the seats the signed-in account
    holds, newest match first, at most 200; no tokens.  ``401 not_signed_in`` without a
    session."""
    row = _need(account)
    out = []
    for link in await accounts.seats(row, MAX_SEATS_LISTED):
        table = await hub.table(link.match_id)
        if table is not None:
            out.append(summary(table, link.seat - 1))
    return {"matches": out}


@router.post("/{match_id}/take", response_model=SeatTaken, responses=error_responses(403, 404, 422),
             dependencies=[ORIGIN_CHECKED_SIGNED_IN])
async def take_seat(match_id: str, body: TakeSeat, request: Request, account: AccountDep,
                    accounts: AccountsDep) -> dict:
    """Hand seat ``seat`` of ``match_id``, which the signed-in account holds, to this
    browser: its token, to keep as the seat store keeps any seat (the table then opens
    with it; a socket elsewhere on the seat is replaced at this one's ``hello``, as with
    two tabs).  Changes nothing on the server, but gives out a secret, so it is a
    ``POST`` with the origin check (``403 cross_origin``).  ``404 seat_not_held``: the
    account holds no such seat (another account's seat included); ``401 not_signed_in``."""
    row = _need(account)
    token = await accounts.seat_token(row, match_id, body.seat) if len(match_id) <= 32 else None
    if token is None:
        raise ApiError("seat_not_held", "this account holds no such seat", {"seat": body.seat})
    return {"match_id": match_id, "seat": body.seat, "token": token, "table_url": f"/table/{match_id}"}


__all__ = ["router"]

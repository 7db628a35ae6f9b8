"""A seat's match: its summary, current view, finished deals' records and replays, and a
rematch.  Every route takes ``Authorization: Bearer <seat token>`` (either seat)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..deps import SIGNED_IN_CHANGE, AccountDep, AccountsDep, HubDep, SeatDep
from ..frames import invite_url, record_download, summary
from ..replay import replay_steps
from ..schemas import RecordDownload, ReplayOut, SeatCreated, StateFrame, Summary, error_responses

router = APIRouter(prefix="/api/matches/{match_id}", tags=["matches"],
                   responses=error_responses(401, 404, 422, 429))


@router.get("", response_model=Summary)
async def get_match(seat_of: SeatDep, hub: HubDep) -> dict:
    """The seat's summary of one match (one entry of ``POST /api/my-matches``)."""
    table, seat = seat_of
    async with hub.lock(table.match_id):
        return summary(table, seat)


@router.get("/view", response_model=StateFrame)
async def get_view(seat_of: SeatDep, hub: HubDep) -> dict:
    """The seat's current state frame (same object as on the WebSocket)."""
    table, seat = seat_of
    async with hub.lock(table.match_id):
        return hub.frame(hub.tables.get(table.match_id) or table, seat)


@router.get("/deals/{n}/record", response_model=RecordDownload, responses=error_responses(409))
async def get_record(n: int, seat_of: SeatDep) -> dict:
    """A finished deal's §VII record with the revealed deck, salt and commitment."""
    table, _seat = seat_of
    return record_download(table, n)


@router.get("/deals/{n}/replay", response_model=ReplayOut, responses=error_responses(409))
async def get_replay(n: int, seat_of: SeatDep) -> dict:
    """A finished deal step by step (both hands): the record download plus ``history``,
    ``snapshots`` (one more than the actions), ``seats`` (who plays each seat) and
    ``deals`` (the match's deals so far).  Only once deal ``n`` has ended."""
    table, _seat = seat_of
    return replay_steps(table, n)


@router.post("/rematch", status_code=201, response_model=SeatCreated, responses=error_responses(403),
             dependencies=[SIGNED_IN_CHANGE])
async def rematch(seat_of: SeatDep, request: Request, hub: HubDep, account: AccountDep,
                  accounts: AccountsDep) -> dict:
    """A new match with the same settings (profile, format, target, stakes, opponent and
    bot); you hold its seat 1 (the token is given only now; a friend match has a new
    invite).  Either seat of any match may ask.  Signed in, the new seat joins the
    account (``403 cross_origin`` from another origin)."""
    table, seat = seat_of
    new, token = await hub.rematch(table, seat)
    await accounts.keep_new_seat(account, new.match_id, 1, token)
    return {
        "match_id": new.match_id, "seat": 1, "token": token,
        "invite_url": invite_url(new), "table_url": f"/table/{new.match_id}",
    }

"""FastAPI dependencies shared by the routers (the template's ``deps.py``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import HTTPBearer

from ..storage.accounts import AccountRow
from ..tables import Table
from .accounts import COOKIE, Accounts, check_origin, check_signed_in_change
from .errors import ApiError
from .hub import Hub


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def get_hub(request: Request) -> Hub:
    """The app's :class:`Hub`."""
    return request.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]
"""The hub, as a route parameter."""


SEAT_TOKEN = HTTPBearer(auto_error=False, scheme_name="seat token",
                        description="The seat token given when the match was created or joined.")
"""The bearer security scheme of the match routes, as OpenAPI shows it (``/docs``:
Authorize).  The header is read by :func:`bearer` (so a missing or odd one is our own
``bad_token``, never FastAPI's 403)."""


async def seat_of(match_id: str, hub: HubDep, request: Request,
                  _scheme: object = Security(SEAT_TOKEN)) -> tuple[Table, int]:
    """``(table, seat index)`` for the match in the path and the Bearer token.  Raises
    :class:`ApiError` ``unknown_match`` or ``bad_token``."""
    table, seat = await hub.seat_for_token(match_id, bearer(request.headers.get("authorization")))
    if table is None:
        raise ApiError("unknown_match", "no such match")
    if seat < 0:
        raise ApiError("bad_token", "send 'Authorization: Bearer <seat token>' with a token of this match")
    return table, seat


SeatDep = Annotated[tuple[Table, int], Depends(seat_of)]
"""The table and seat a request's token holds, as a route parameter."""



def get_accounts(request: Request) -> Accounts:
    """The app's :class:`~.accounts.Accounts`."""
    return request.app.state.accounts


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
"""The accounts service, as a route parameter."""


async def account_of(request: Request, accounts: AccountsDep) -> AccountRow | None:
    """The account whose session cookie the request carries, or None for a guest (no
    cookie, an unknown or an expired session): issue 20.  Never raises."""
    return await accounts.session(request.cookies.get(COOKIE))


AccountDep = Annotated[AccountRow | None, Depends(account_of)]
"""The signed-in account or None, as a route parameter."""



def origin_checked(request: Request) -> None:
    """A route dependency for a request that changes something (issue 20): its origin is
    checked (:func:`~.accounts.check_origin`, a session cookie counting as a session)
    before FastAPI reads the body, so a request from another site is refused ``403
    cross_origin`` whatever it sent, never ``422``."""
    check_origin(request, has_session=COOKIE in request.cookies)


def origin_checked_signed_in(request: Request) -> None:
    """:func:`origin_checked` for a route that only a signed-in browser may call: a
    request with neither ``Origin`` nor ``Referer`` is refused too."""
    check_origin(request, has_session=True)


def origin_checked_if_named(request: Request) -> None:
    """A route dependency for a ``POST`` that guests make too (creating or joining a
    match, the guided deal, a queue ticket's entry, the seats' summaries, an invite's
    status): a request that names an origin (``Origin``, else ``Referer``) must name
    this server, else ``403 cross_origin`` before the body is read
    (:func:`~.accounts.check_origin`); one that names none (a script: curl, the test
    client) passes, with a session cookie or without."""
    check_origin(request, has_session=False)


async def signed_in_change(request: Request, _named: Annotated[None, Depends(origin_checked_if_named)],
                           account: AccountDep) -> None:
    """:func:`origin_checked_if_named` for a change that also joins a signed-in
    player's account (creating or joining a match, a rematch, the guided deal): the
    named origin is checked first (before the session is looked up), then a signed-in
    request must name one (:func:`~.accounts.check_signed_in_change`); both refusals
    are ``403 cross_origin``, before the body is read."""
    check_signed_in_change(request, account)


ORIGIN_CHECKED = Depends(origin_checked)
ORIGIN_CHECKED_SIGNED_IN = Depends(origin_checked_signed_in)
ORIGIN_CHECKED_IF_NAMED = Depends(origin_checked_if_named)
SIGNED_IN_CHANGE = Depends(signed_in_change)

__all__ = ["AccountDep", "AccountsDep", "HubDep", "ORIGIN_CHECKED", "ORIGIN_CHECKED_IF_NAMED",
           "ORIGIN_CHECKED_SIGNED_IN", "SEAT_TOKEN", "SIGNED_IN_CHANGE", "SeatDep", "account_of", "bearer",
           "get_accounts", "get_hub", "origin_checked", "origin_checked_if_named", "origin_checked_signed_in",
           "seat_of", "signed_in_change"]

"""Account routes (issue 20; PROTOCOL §3.13): sign up, sign in, who is signed in, sign
out (this browser, everywhere), change the password, delete the account.  Every route
that changes something checks the request's origin first (:data:`~..deps.ORIGIN_CHECKED`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ..account_schemas import AccountOut, DeleteAccount, PasswordChange, SignedOut, SignIn, SignUp
from ..accounts import COOKIE, Accounts
from ..deps import ORIGIN_CHECKED, AccountsDep
from ..errors import ApiError
from ..schemas import error_responses

router = APIRouter(prefix="/api/account", tags=["account"], responses=error_responses(429))


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _set_cookie(request: Request, response: Response, session_id: str) -> None:
    settings = request.app.state.settings
    response.set_cookie(COOKIE, session_id, max_age=int(settings.session_idle_days * 86400), httponly=True,
                        samesite="lax", secure=settings.cookie_secure, path="/")


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.app.state.settings.cookie_secure)


async def _out(accounts: Accounts, row: Any) -> dict:
    return {"signed_in": True, "username": row.username,
            "seats": [{"match_id": s.match_id, "seat": s.seat} for s in await accounts.seats(row)]}


async def _signed_in(request: Request, accounts: Accounts) -> Any:
    """The signed-in account (``401 not_signed_in`` if none)."""
    row = await accounts.session(request.cookies.get(COOKIE))
    if row is None:
        raise ApiError("not_signed_in", "sign in first")
    return row


@router.get("", response_model=AccountOut)
async def who(request: Request, accounts: AccountsDep) -> dict:
    """The account this browser is signed in to and the seats it holds, or
    ``signed_in: false`` (a page asks this on every visit: not an error)."""
    row = await accounts.session(request.cookies.get(COOKIE))
    if row is None:
        return {"signed_in": False, "username": None, "seats": []}
    return await _out(accounts, row)


@router.post("/sign-up", status_code=201, response_model=AccountOut, responses=error_responses(403, 409, 422),
             dependencies=[ORIGIN_CHECKED])
async def sign_up(body: SignUp, request: Request, response: Response, accounts: AccountsDep) -> dict:
    """Make an account and sign in to it (a session cookie is set); the seats this
    browser holds (``seats``) join it.  Refusals: ``bad_username``, ``bad_password``,
    ``username_taken``, ``rate_limited`` (20 sign-ups an hour from one address),
    ``cross_origin``."""
    row, session_id = await accounts.sign_up(body.username, body.password, _address(request), body.seats)
    _set_cookie(request, response, session_id)
    return await _out(accounts, row)


@router.post("/sign-in", response_model=AccountOut, responses=error_responses(401, 403, 422),
             dependencies=[ORIGIN_CHECKED])
async def sign_in(body: SignIn, request: Request, response: Response, accounts: AccountsDep) -> dict:
    """Sign in (a new session id in the cookie).  A wrong username and a wrong password
    get the same ``401 bad_credentials``; ``rate_limited`` after 10 failures for one
    account from one address, 100 for one account from every address together, or 50
    from one address, in 15 minutes; ``cross_origin``."""
    old = request.cookies.get(COOKIE)
    row, session_id = await accounts.sign_in(body.username, body.password, _address(request))
    if old:
        await accounts.sign_out(old)  # a new id at every sign-in
    _set_cookie(request, response, session_id)
    return await _out(accounts, row)


@router.post("/sign-out", response_model=SignedOut, responses=error_responses(401, 403),
             dependencies=[ORIGIN_CHECKED])
async def sign_out(request: Request, response: Response, accounts: AccountsDep) -> dict:
    """End this browser's session."""
    await _signed_in(request, accounts)
    await accounts.sign_out(request.cookies[COOKIE])
    _clear_cookie(request, response)
    return {"ok": True, "ended": 1}


@router.post("/sign-out-everywhere", response_model=SignedOut, responses=error_responses(401, 403),
             dependencies=[ORIGIN_CHECKED])
async def sign_out_everywhere(request: Request, response: Response, accounts: AccountsDep) -> dict:
    """End every session of the account, this browser's included."""
    row = await _signed_in(request, accounts)
    ended = await accounts.sign_out_everywhere(row)
    _clear_cookie(request, response)
    return {"ok": True, "ended": ended}


@router.post("/password", response_model=AccountOut, responses=error_responses(401, 403, 422),
             dependencies=[ORIGIN_CHECKED])
async def change_password(body: PasswordChange, request: Request, response: Response,
                          accounts: AccountsDep) -> dict:
    """Change the password (``current`` checked first: ``401 bad_credentials``); every
    other session ends, this browser gets a new one."""
    row = await _signed_in(request, accounts)
    session_id = await accounts.change_password(row, body.current, body.new, _address(request))
    _set_cookie(request, response, session_id)
    return await _out(accounts, row)


@router.post("/delete", response_model=SignedOut, responses=error_responses(401, 403, 422),
             dependencies=[ORIGIN_CHECKED])
async def delete_account(body: DeleteAccount, request: Request, response: Response,
                         accounts: AccountsDep) -> dict:
    """Delete the account (the password once more).  Its matches' records stay, with
    the name at its seats made anonymous; every session ends; the name is free again."""
    row = await _signed_in(request, accounts)
    await accounts.delete(row, body.password, _address(request))
    _clear_cookie(request, response)
    return {"ok": True, "ended": 1}


__all__ = ["router"]

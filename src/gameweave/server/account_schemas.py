"""Wire schemas of the account routes (issue 20, ``routes/account.py``; PROTOCOL §3.13).
Request bodies are strict, as every request body of the API (:mod:`.schemas`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from .schemas import _Strict

MAX_CLAIMED_SEATS = 50
"""Most seats one sign-up may bring along."""


class SeatClaim(_Strict):
    """A seat this browser holds: the match, the seat (1 or 2) and its token."""

    match_id: str = Field(..., max_length=32)
    seat: int = Field(..., ge=1, le=2)
    token: str = Field(..., max_length=128)


class SignUp(_Strict):
    """``POST /api/account/sign-up``: a username (3-20 letters, digits, ``_`` or ``-``;
    case-insensitive), a password (at least 8 characters, not the username, not a common
    one) and the seats this browser holds (they join the account)."""

    username: str = Field(..., max_length=64)
    password: str = Field(..., max_length=256)
    seats: list[SeatClaim] = Field(default_factory=list, max_length=MAX_CLAIMED_SEATS)


class SignIn(_Strict):
    """``POST /api/account/sign-in``."""

    username: str = Field(..., max_length=64)
    password: str = Field(..., max_length=256)


class PasswordChange(_Strict):
    """``POST /api/account/password``: the current password and the new one."""

    current: str = Field(..., max_length=256)
    new: str = Field(..., max_length=256)


class DeleteAccount(_Strict):
    """``POST /api/account/delete``: the password, once more."""

    password: str = Field(..., max_length=256)


class HeldSeat(BaseModel):
    """A seat the account holds: its match and seat (1 or 2)."""

    match_id: str
    seat: int


class AccountOut(BaseModel):
    """Who this browser is signed in as: ``signed_in``, the username and the seats the
    account holds (newest match first); signed out: ``false``, ``null`` and ``[]``."""

    signed_in: bool
    username: str | None
    seats: list[HeldSeat]


class TakeSeat(_Strict):
    """``POST /api/account/matches/{match_id}/take``: which seat of the match (1 or 2;
    an account may hold both seats of one match)."""

    seat: int = Field(..., ge=1, le=2)


class SeatTaken(BaseModel):
    """A seat the account holds, handed to this browser: its token (the seat's secret,
    the socket's credential, PROTOCOL §1) and where its table is."""

    match_id: str
    seat: int
    token: str
    table_url: str


class SignedOut(BaseModel):
    """Sign-out and deletion: ``ended``: how many sessions ended."""

    ok: bool
    ended: int


__all__ = ["AccountOut", "DeleteAccount", "HeldSeat", "MAX_CLAIMED_SEATS", "PasswordChange", "SeatClaim",
           "SeatTaken", "SignIn", "SignUp", "SignedOut", "TakeSeat"]

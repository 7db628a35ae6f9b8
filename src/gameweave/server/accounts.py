"""Accounts on the server (issue 20): sign-up, sign-in, sessions, sign-out (here and
everywhere), password change, deletion, the seats an account holds, the rate limits and
the cross-origin check.  The routes are ``routes/account.py``; names, passwords and
hashing are :mod:`gameweave.accounts`'s; the tables are ``storage/accounts.py``'s.

* **Sessions** are server-side: the cookie :data:`COOKIE` holds a random id, the database
  its SHA-256; a new id at every sign-in; a session unused for ``session_idle_days``
  expires.  The cookie is ``HttpOnly``, ``SameSite=Lax`` and, with ``cookie_secure``,
  ``Secure``.
* **Rate limits** (:data:`LIMITS`), counted in the database so that every node counts the
  same: failed sign-ins per (account, address), per account over every address and per
  address, sign-ups per address.  A refusal is
  ``429 rate_limited`` with ``params.retry_after`` (seconds) and a ``Retry-After`` header.
* **The same answer** for an unknown username and a wrong password
  (``401 bad_credentials``), with the time of one password check either way.
* **Cross-origin requests** (:func:`check_origin`): a request that changes something
  (or hands out a secret) and carries an ``Origin`` (or, without one, a ``Referer``)
  naming another origin — another host, or another port of the same host — is refused
  with ``403 cross_origin``, a guest's too; one that carries a session must name this
  origin (which routes are checked how: ``deps.py``, PROTOCOL §3.13).  ``SameSite=Lax``
  keeps the cookie off cross-site posts as a second guard.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request

from ..accounts import AccountError, Passwords, check_password, new_session_id, normal_username, session_hash, \
    username_key
from ..storage import StorageError
from ..storage.accounts import AccountRow, AccountStore, SeatLink
from .errors import ApiError

log = logging.getLogger("gameweave.server")

COOKIE = "gameweave_session"
"""The session cookie's name."""


@dataclass(frozen=True)
class Limit:
    """At most ``count`` attempts in ``window`` in one bucket."""

    count: int
    window: timedelta


LIMITS = {
    "signin-account-address": Limit(10, timedelta(minutes=15)),
    "signin-account": Limit(100, timedelta(minutes=15)),
    "signin-address": Limit(50, timedelta(minutes=15)),
    "signup-address": Limit(20, timedelta(hours=1)),
}
"""The rate limits (PROTOCOL §3.13): failed sign-ins of one account from one address (10
in 15 minutes, so that guessing from one address locks the account only there), of one
account over every address (100 in 15 minutes, so that a guesser spread over many
addresses is limited too) and from one address (50 in 15 minutes); sign-ups per address
(20 an hour)."""


def account_buckets(key: str, address: str) -> list[tuple[str, str]]:
    """The ``(kind, bucket key)`` pairs a failed sign-in of the account whose username key
    is ``key``, from ``address``, counts in: the pair's (``signin-account-address``,
    ``<key>@<address>``) and the account's over every address (``signin-account``)."""
    return [("signin-account-address", f"{key}@{address}"), ("signin-account", key)]


def _error(exc: AccountError) -> ApiError:
    return ApiError(exc.code, exc.message, exc.params)


CROSS_ORIGIN = "a request from another site (or another port of this one) was refused"
"""The English message of a ``cross_origin`` refusal that named another origin: one for
every route the check guards (account, lobby and match routes alike)."""

NO_ORIGIN = "a signed-in request must come from this site's own pages (send Origin)"
"""The English message of a ``cross_origin`` refusal of a request that carried a session
but named no origin."""


def check_origin(request: Request, has_session: bool) -> None:
    """Refuse a cross-origin request (``403 cross_origin``) on a route that changes
    something or hands out a secret: its ``Origin`` (else ``Referer``) must name this
    server (the ``Host`` it was sent to, port included).  Without either header a request
    is allowed only if ``has_session`` is false (a script such as curl: it holds no
    one's session)."""
    claimed = request.headers.get("origin") or request.headers.get("referer")
    if claimed is None:
        if has_session:
            raise ApiError("cross_origin", NO_ORIGIN)
        return
    parts = urlsplit(claimed)
    host = request.headers.get("host", "")
    if parts.netloc.lower() != host.lower() or parts.scheme not in ("http", "https"):
        raise ApiError("cross_origin", CROSS_ORIGIN)


def check_signed_in_change(request: Request, row: AccountRow | None) -> None:
    """For a route that changes something and also works for guests (creating or
    joining a match): when the request is signed in (``row`` is its account) it is
    cookie-authenticated, so it must name this server's origin (:func:`check_origin`,
    ``403 cross_origin``) before anything changes.  A guest's request that names another
    origin is refused before this (``deps.origin_checked_if_named``); one that names
    none is not."""
    if row is not None:
        check_origin(request, has_session=True)


class Accounts:
    """The accounts service of one node (all store calls and hashing off the event loop).

    Args:
        store: the :class:`~gameweave.storage.accounts.AccountStore`.
        idle: a session unused this long has expired.
        passwords: the argon2id hasher (default parameters).
        seat_check: ``async (match_id, seat, token) -> bool``: is ``token`` seat ``seat``
            (1/2) of that match (the hub's check)?
    """

    def __init__(self, store: AccountStore, idle: timedelta, passwords: Passwords | None = None,
                 seat_check: Any = None):
        self.store = store
        self.idle = idle
        self.passwords = passwords or Passwords()
        self.seat_check = seat_check
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="gameweave-accounts")

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def _limit(self, kind: str, key: str) -> None:
        """Raise ``rate_limited`` if bucket ``kind:key`` is full (nothing counted)."""
        limit = LIMITS[kind]
        count, oldest = await self._run(self.store.attempts, f"{kind}:{key}", limit.window)
        if count >= limit.count:
            wait = (oldest + limit.window - datetime.now(UTC)).total_seconds() if oldest else limit.window.seconds
            retry = max(1, int(wait + 0.999))
            raise ApiError("rate_limited", f"too many attempts; try again in {retry} s", {"retry_after": retry})

    async def sign_up(self, username: Any, password: Any, address: str, seats: list[Any]) -> tuple[AccountRow, str]:
        """A new account and its first session id; the seats given (``{match_id, seat,
        token}``, checked against their matches) join it.  Raises :class:`ApiError`
        ``rate_limited``, ``bad_username``, ``bad_password``, ``username_taken``."""
        await self._limit("signup-address", address)
        try:
            name = normal_username(username)
            key = username_key(name)
            check_password(password, name)
        except AccountError as exc:  # a refused name or password is no sign-up: not counted
            raise _error(exc) from None
        await self._run(self.store.note_attempt, f"signup-address:{address}")
        digest = await self._run(self.passwords.hash, password)
        try:
            row = await self._run(self.store.create, name, key, digest)
        except StorageError:
            raise ApiError("username_taken", "that username is taken", {"username": name}) from None
        await self.join_seats(row, seats)
        log.info("account %d signed up", row.id)
        return row, await self._new_session(row)

    async def sign_in(self, username: Any, password: Any, address: str) -> tuple[AccountRow, str]:
        """The account and a new session id.  Raises :class:`ApiError` ``rate_limited``
        (any bucket of :data:`LIMITS` full: the address's, the account's from this
        address, the account's over every address) or ``bad_credentials`` (the same for
        an unknown name and a wrong password; the failure counts in all three).  Success
        clears the account's failures from this address only, so a sign-in between
        guesses does not reset the count over every address."""
        try:
            key = username_key(username) if isinstance(username, str) else ""
        except AccountError:
            key = ""
        buckets = [("signin-address", address), *(account_buckets(key, address) if key else [])]
        for kind, bucket in buckets:
            await self._limit(kind, bucket)
        row = await self._run(self.store.by_key, key) if key else None
        ok = False
        if isinstance(password, str) and 0 < len(password) <= 256:
            if row is None:
                await self._run(self.passwords.dummy_verify, password)
            else:
                ok = await self._run(self.passwords.verify, row.password_hash, password)
        if row is None or not ok:
            await self._run(self.store.note_attempts, [f"{kind}:{bucket}" for kind, bucket in buckets])
            raise ApiError("bad_credentials", "that username and password do not match an account")
        if self.passwords.needs_rehash(row.password_hash):
            await self._run(self.store.set_hash, row.id, await self._run(self.passwords.hash, password))
        kind, bucket = account_buckets(key, address)[0]
        await self._run(self.store.forget_attempts, f"{kind}:{bucket}")  # this address's; not every address's
        return row, await self._new_session(row)

    async def _new_session(self, row: AccountRow) -> str:
        session_id = new_session_id()
        await self._run(self.store.add_session, row.id, session_hash(session_id))
        return session_id

    async def session(self, session_id: str | None) -> AccountRow | None:
        """The account a session cookie holds, or None (none, unknown or expired)."""
        if not session_id or len(session_id) > 128:
            return None
        return await self._run(self.store.session, session_hash(session_id), self.idle)

    async def sign_out(self, session_id: str) -> None:
        """End this session."""
        await self._run(self.store.drop_session, session_hash(session_id))

    async def sign_out_everywhere(self, row: AccountRow) -> int:
        """End every session of the account; how many ended."""
        return int(await self._run(self.store.drop_sessions, row.id))

    async def _check_password(self, row: AccountRow, password: Any, address: str) -> None:
        """Check the signed-in account's password again (change, delete), from
        ``address``.  The failures count in the account's sign-in buckets
        (:func:`account_buckets`), so a session cannot guess it past the sign-in limits:
        ``rate_limited`` once one is full, else ``bad_credentials``."""
        buckets = account_buckets(username_key(row.username), address)
        for kind, bucket in buckets:
            await self._limit(kind, bucket)
        ok = isinstance(password, str) and await self._run(self.passwords.verify, row.password_hash, password)
        if not ok:
            await self._run(self.store.note_attempts, [f"{kind}:{bucket}" for kind, bucket in buckets])
            raise ApiError("bad_credentials", "that is not this account's password")

    async def change_password(self, row: AccountRow, current: Any, new: Any, address: str) -> str:
        """Check ``current`` (failures counted as sign-ins from ``address``), set ``new``,
        end every session; returns a new session id for this browser.  Raises
        ``rate_limited``, ``bad_credentials`` or ``bad_password``."""
        await self._check_password(row, current, address)
        try:
            check_password(new, row.username)
        except AccountError as exc:
            raise _error(exc) from None
        await self._run(self.store.set_hash, row.id, await self._run(self.passwords.hash, new))
        await self._run(self.store.drop_sessions, row.id)
        return await self._new_session(row)

    async def delete(self, row: AccountRow, password: Any, address: str) -> None:
        """Delete the account after checking its password (failures counted as sign-ins
        from ``address``; records stay, the name on them becomes anonymous).  Raises
        ``rate_limited`` or ``bad_credentials``."""
        await self._check_password(row, password, address)
        await self._run(self.store.delete, row.id)
        log.info("account %d deleted", row.id)

    async def join_seats(self, row: AccountRow, seats: list[Any]) -> int:
        """Join the seats whose tokens check out to the account; how many joined."""
        good = []
        for s in seats:
            if self.seat_check is not None and await self.seat_check(s.match_id, s.seat, s.token):
                good.append(SeatLink(s.match_id, s.seat, s.token))
        return int(await self._run(self.store.link_seats, row.id, good)) if good else 0

    async def link_seat(self, row: AccountRow, match_id: str, seat: int, token: str) -> bool:
        """Join seat ``seat`` (1 or 2) of ``match_id``, whose token is ``token``, to the
        account ``row`` (issue 20, item 2: a signed-in player's new seat follows the
        account at once).  The caller has just made or checked the seat (create, join,
        rematch, guided deal, an open table's sit), so the token is not checked again.
        Returns False when the seat was already held (by this account or another: it
        stays where it is).  Raises :class:`~gameweave.storage.StorageError` if the
        database fails."""
        return bool(await self._run(self.store.link_seats, row.id, [SeatLink(match_id, seat, token)]))

    async def keep_new_seat(self, row: AccountRow | None, match_id: str, seat: int, token: str) -> None:
        """:meth:`link_seat` for a seat a route has just made, when the request is signed
        in (``row`` None: a guest, nothing to do).  The match exists already, so a failed
        link is logged (never the token) rather than answered: the player still gets the
        seat, held in the browser as a guest's is."""
        if row is None:
            return
        try:
            await self.link_seat(row, match_id, seat, token)
        except Exception as exc:  # noqa: BLE001 - the seat was made; the account can gain it at the next sign-up
            log.warning("match %s: seat %d could not join account %d (%s)", match_id, seat, row.id,
                        type(exc).__name__)

    async def seats(self, row: AccountRow, limit: int | None = None) -> list[SeatLink]:
        """The seats the account holds, newest match first (at most ``limit``)."""
        return list(await self._run(self.store.seats, row.id, limit))

    async def seat_token(self, row: AccountRow, match_id: str, seat: int) -> str | None:
        """The token of seat ``seat`` (1 or 2) of ``match_id`` if the account holds it,
        else None (never another account's)."""
        return await self._run(self.store.seat_token, row.id, match_id, seat)

    def close(self) -> None:
        """Stop the hashing threads."""
        self.pool.shutdown(wait=True)


__all__ = ["Accounts", "COOKIE", "CROSS_ORIGIN", "LIMITS", "Limit", "NO_ORIGIN", "account_buckets",
           "check_origin", "check_signed_in_change"]

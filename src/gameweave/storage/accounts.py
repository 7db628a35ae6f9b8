"""Accounts in the database (issue 20): accounts, their server-side sessions, the seats
they hold and the attempts the rate limits count.  Synchronous, like :class:`~.store.Store`
(the server calls it on its database threads); the rules of names and passwords and the
hashing are :mod:`gameweave.accounts`'s."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .schema import account_seats, accounts, auth_attempts, matches, sessions
from .store import StorageError
from .times import _now

TOUCH_EVERY = timedelta(minutes=1)
"""A session's last use is written at most this often (not on every request)."""


@dataclass(frozen=True)
class AccountRow:
    """An account: ``id``, ``username`` (as given, NFKC) and its argon2id hash."""

    id: int
    username: str
    password_hash: str


@dataclass(frozen=True)
class SeatLink:
    """A seat an account holds: the match, the seat (1 or 2) and its token."""

    match_id: str
    seat: int
    token: str


class AccountStore:
    """The account tables of the database behind ``engine`` (the :class:`~.store.Store`'s)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    # ------------------------------------------------------------------ accounts
    def create(self, username: str, key: str, password_hash: str) -> AccountRow:
        """A new account.  Raises :class:`~.store.StorageError` when ``key`` is taken."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(insert(accounts).values(username=username, username_key=key,
                                                           password_hash=password_hash, created_at=_now()))
                account_id = int(res.inserted_primary_key[0])
        except IntegrityError:
            raise StorageError(f"the username {key!r} is taken") from None
        return AccountRow(account_id, username, password_hash)

    def by_key(self, key: str) -> AccountRow | None:
        """The live account whose username key is ``key``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.username, accounts.c.password_hash)
                               .where(accounts.c.username_key == key, accounts.c.deleted_at.is_(None))).first()
        return AccountRow(row.id, row.username, row.password_hash) if row else None

    def set_hash(self, account_id: int, password_hash: str) -> None:
        """Replace an account's password hash (a change, or a rehash at sign-in)."""
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

    def delete(self, account_id: int) -> None:
        """Delete an account: its name, key and hash are cleared (the row stays, so the
        name can be taken again), its sessions end, and the matches it sat in keep their
        records with that seat's name made anonymous."""
        with self.engine.begin() as conn:
            held = conn.execute(select(account_seats.c.match_id, account_seats.c.seat)
                                .where(account_seats.c.account_id == account_id)).all()
            for match_id, seat in held:
                column = "name1" if seat == 1 else "name2"
                conn.execute(update(matches).where(matches.c.id == match_id).values({column: None}))
            conn.execute(delete(account_seats).where(account_seats.c.account_id == account_id))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                username=None, username_key=None, password_hash=None, deleted_at=_now()))

    # ------------------------------------------------------------------ sessions
    def add_session(self, account_id: int, id_sha256: str) -> None:
        """Start a session (only the SHA-256 of its id is stored)."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(sessions).values(id_sha256=id_sha256, account_id=account_id, created_at=now,
                                                 last_seen_at=now))

    def session(self, id_sha256: str, idle: timedelta) -> AccountRow | None:
        """The account of a live session, or None; a session unused for ``idle`` has
        expired and is deleted.  Notes the use (at most once a :data:`TOUCH_EVERY`)."""
        now = _now()
        with self.engine.begin() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.username, accounts.c.password_hash, sessions.c.last_seen_at)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.id_sha256 == id_sha256, accounts.c.deleted_at.is_(None))).first()
            if row is None:
                return None
            seen = _aware(row.last_seen_at)
            if now - seen > idle:
                conn.execute(delete(sessions).where(sessions.c.id_sha256 == id_sha256))
                return None
            if now - seen > TOUCH_EVERY:
                conn.execute(update(sessions).where(sessions.c.id_sha256 == id_sha256).values(last_seen_at=now))
        return AccountRow(row.id, row.username, row.password_hash)

    def drop_session(self, id_sha256: str) -> None:
        """End one session (sign out)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id_sha256 == id_sha256))

    def drop_sessions(self, account_id: int) -> int:
        """End every session of an account (sign out everywhere); how many ended."""
        with self.engine.begin() as conn:
            return conn.execute(delete(sessions).where(sessions.c.account_id == account_id)).rowcount or 0

    # ------------------------------------------------------------------ seats
    def link_seats(self, account_id: int, seats: list[SeatLink]) -> int:
        """Join seats (already checked against their matches) to an account; a seat
        another account holds stays with it.  Returns how many joined."""
        joined = 0
        with self.engine.begin() as conn:
            for s in seats:
                held = conn.execute(select(account_seats.c.account_id).where(
                    account_seats.c.match_id == s.match_id, account_seats.c.seat == s.seat)).first()
                if held is None:
                    conn.execute(insert(account_seats).values(match_id=s.match_id, seat=s.seat,
                                                              account_id=account_id, token=s.token))
                    joined += 1
        return joined

    def seats(self, account_id: int, limit: int | None = None) -> list[SeatLink]:
        """The seats an account holds, newest match first (at most ``limit``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(account_seats.c.match_id, account_seats.c.seat, account_seats.c.token)
                                .join(matches, matches.c.id == account_seats.c.match_id)
                                .where(account_seats.c.account_id == account_id)
                                .order_by(matches.c.created_at.desc(), account_seats.c.match_id)
                                .limit(limit)).all()
        return [SeatLink(r.match_id, r.seat, r.token) for r in rows]

    def seat_token(self, account_id: int, match_id: str, seat: int) -> str | None:
        """The token of seat ``seat`` (1 or 2) of ``match_id`` if account ``account_id``
        holds that seat, else None (another account's seat is None too)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(account_seats.c.token).where(
                account_seats.c.account_id == account_id, account_seats.c.match_id == match_id,
                account_seats.c.seat == seat)).first()
        return row.token if row else None

    # ------------------------------------------------------------------ rate limits
    def note_attempt(self, bucket: str) -> None:
        """Count one attempt in ``bucket`` now."""
        self.note_attempts([bucket])

    def note_attempts(self, buckets: list[str]) -> None:
        """Count one attempt now in each of ``buckets`` (one transaction)."""
        if not buckets:
            return
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(auth_attempts), [{"bucket": b[:160], "at": now} for b in buckets])

    def attempts(self, bucket: str, window: timedelta) -> tuple[int, datetime | None]:
        """``(count, oldest)`` of the attempts in ``bucket`` within the last ``window``."""
        since = _now() - window
        with self.engine.connect() as conn:
            count, oldest = conn.execute(select(func.count(), func.min(auth_attempts.c.at)).where(
                auth_attempts.c.bucket == bucket[:160], auth_attempts.c.at >= since)).one()
        return int(count), _aware(oldest) if oldest is not None else None

    def forget_attempts(self, bucket: str) -> None:
        """Clear a bucket (a successful sign-in clears its account's failures)."""
        with self.engine.begin() as conn:
            conn.execute(delete(auth_attempts).where(auth_attempts.c.bucket == bucket[:160]))

    def prune_attempts(self, older_than: timedelta) -> int:
        """Delete attempts older than ``older_than``; how many."""
        with self.engine.begin() as conn:
            return conn.execute(delete(auth_attempts).where(auth_attempts.c.at < _now() - older_than)).rowcount or 0


def _aware(dt: datetime) -> datetime:
    """SQLite gives naive datetimes back: they are UTC."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


__all__ = ["AccountRow", "AccountStore", "SeatLink", "TOUCH_EVERY"]

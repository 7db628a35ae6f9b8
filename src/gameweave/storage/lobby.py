"""Open tables and the quick-match queue in the database (issue 20).  Synchronous, like
:class:`~.store.Store` (the server calls it on its database threads).

Exactly once, on every node:

* **Sitting at an open table** is one transaction of two conditional updates: the open
  table goes from ``open`` to ``taken`` only ``WHERE status = 'open'`` and the match's
  seat 2 only ``WHERE token2_sha256 IS NULL``, each checked by its row count (PostgreSQL
  makes the second of two concurrent updates wait for the first and then find nothing
  to update; SQLite has one writer at a time).
* **Pairing the queue** (:meth:`LobbyStore.pair_waiting`) reads the waiting entries
  ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (two nodes pairing at once never see the same
  entry: the second skips the rows the first holds), creates each pair's match in the
  same transaction and moves both entries ``WHERE status = 'waiting'`` (a row count
  other than 1 rolls the whole transaction back).  SQLite ignores ``FOR UPDATE``; its
  single writer serialises the transactions and the conditional updates still hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Engine

from .schema import matches, open_tables, queue_entries
from .store import Store, _iso, _now


@dataclass(frozen=True)
class OpenRow:
    """An open table: its match, settings, the creator's name (as shown), account
    (or None: a guest) and status (``open``, ``taken``, ``cancelled``, ``left``)."""

    match_id: str
    created_at: str
    rules: str
    format: str
    target: int
    clock: int | None
    rated: bool
    name: str | None
    account_id: int | None
    status: str


@dataclass(frozen=True)
class QueueRow:
    """A queue entry: id, settings, the player's account (or None), name and rating
    (used for pairing), when it joined (UTC), its status (``waiting``, ``paired``,
    ``cancelled``, ``gone``), once paired the match, the seat (1/2) and its token, and
    the SHA-256 of its browser's key (or None: the client sent none)."""

    id: int
    rules: str
    clock: int | None
    rated: bool
    account_id: int | None
    name: str | None
    rating: float
    created_at: datetime
    status: str
    match_id: str | None = None
    seat: int | None = None
    token: str | None = None
    browser: str | None = None


@dataclass(frozen=True)
class Pairing:
    """One pair the queue made: the match and each entry's id, seat and account id."""

    match_id: str
    entries: tuple[tuple[int, int, int | None, str], ...]
    """``(entry id, seat 1/2, account id or None, seat token)`` for both players."""


class _Lost(Exception):
    """A conditional update found another writer first: roll the transaction back."""


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _open_row(r: Any) -> OpenRow:
    return OpenRow(r.match_id, _iso(r.created_at), r.rules, r.format, r.target, r.clock, bool(r.rated), r.name,
                   r.account_id, r.status)


def _queue_row(r: Any) -> QueueRow:
    return QueueRow(r.id, r.rules, r.clock, bool(r.rated), r.account_id, r.name, float(r.rating),
                    _aware(r.created_at), r.status, r.match_id, r.seat, r.token, r.browser_sha256)


class LobbyStore:
    """The open tables and queue entries of the database of ``store`` (a
    :class:`~.store.Store`: its engine, and its way of inserting a new match)."""

    def __init__(self, store: Store):
        self.store = store
        self.engine: Engine = store.engine

    # ------------------------------------------------------------------ open tables
    def add_open(self, match_id: str, *, rules: str, format: str, target: int, clock: int | None, rated: bool,
                 name: str | None, account_id: int | None, address: str) -> OpenRow:
        """List the (just created) friend match ``match_id`` as an open table; its invite
        is cleared in the same transaction (an open table's seat 2 is taken by sitting,
        never by an invite)."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(update(matches).where(matches.c.id == match_id).values(invite=None))
            conn.execute(insert(open_tables).values(
                match_id=match_id, created_at=now, rules=rules, format=format, target=target, clock=clock,
                rated=rated, name=name, account_id=account_id, address=address[:64], status="open", seen_at=now))
        return OpenRow(match_id, _iso(now), rules, format, target, clock, rated, name, account_id, "open")

    def count_open(self, address: str, account_id: int | None) -> tuple[int, int]:
        """``(open tables from address, open tables of the account)`` (0 for a guest)."""
        with self.engine.connect() as conn:
            by_address = conn.execute(select(func.count()).where(
                open_tables.c.status == "open", open_tables.c.address == address[:64])).scalar() or 0
            by_account = 0 if account_id is None else conn.execute(select(func.count()).where(
                open_tables.c.status == "open", open_tables.c.account_id == account_id)).scalar() or 0
        return int(by_address), int(by_account)

    def open_list(self, limit: int = 200) -> list[OpenRow]:
        """The open tables, oldest first (at most ``limit``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(open_tables).where(open_tables.c.status == "open")
                                .order_by(open_tables.c.created_at, open_tables.c.match_id).limit(limit)).all()
        return [_open_row(r) for r in rows]

    def open_row(self, match_id: str) -> OpenRow | None:
        """The open table of ``match_id`` whatever its status, or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(open_tables).where(open_tables.c.match_id == match_id)).first()
        return _open_row(r) if r is not None else None

    def statuses(self, match_ids: Iterable[str]) -> dict[str, str]:
        """``match_id -> status`` (``open``, ``taken``, ``cancelled``, ``left``) of these
        open tables (ids that never were one are left out)."""
        ids = list(match_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(open_tables.c.match_id, open_tables.c.status)
                                .where(open_tables.c.match_id.in_(ids))).all()
        return {r.match_id: r.status for r in rows}

    def take_open(self, match_id: str, token_sha256: str, name: str | None) -> str:
        """Sit at an open table: seat 2 goes to the holder of ``token_sha256``, exactly
        once.  Returns ``"ok"``, ``"taken"`` (someone sat first) or ``"gone"`` (not an
        open table any more, or never one)."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(update(open_tables).where(
                    open_tables.c.match_id == match_id, open_tables.c.status == "open").values(status="taken"))
                if res.rowcount != 1:
                    raise _Lost()
                res = conn.execute(update(matches).where(
                    matches.c.id == match_id, matches.c.token2_sha256.is_(None), matches.c.abandoned.is_(False),
                ).values(token2_sha256=token_sha256, name2=name))
                if res.rowcount != 1:
                    raise _Lost()
        except _Lost:
            row = self.open_row(match_id)
            return "taken" if row is not None and row.status == "taken" else "gone"
        return "ok"

    def close_open(self, match_id: str, reason: str) -> bool:
        """Withdraw an open table (``reason``: ``cancelled`` or ``left``): it leaves the
        list and its match closes as abandoned (nobody can sit any more).  False if it
        was not open (taken, or withdrawn already)."""
        with self.engine.begin() as conn:
            res = conn.execute(update(open_tables).where(
                open_tables.c.match_id == match_id, open_tables.c.status == "open").values(status=reason))
            if res.rowcount != 1:
                return False
            conn.execute(update(matches).where(matches.c.id == match_id).values(abandoned=True))
        return True

    def touch_open(self, match_ids: Iterable[str]) -> None:
        """The creators of these open tables are at their tables now."""
        ids = list(match_ids)
        if ids:
            with self.engine.begin() as conn:
                conn.execute(update(open_tables).where(open_tables.c.match_id.in_(ids),
                                                       open_tables.c.status == "open").values(seen_at=_now()))

    def stale_open(self, away: timedelta) -> list[str]:
        """The open tables whose creator has not been seen for ``away``."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(open_tables.c.match_id).where(
                open_tables.c.status == "open", open_tables.c.seen_at < _now() - away)).scalars())

    # ------------------------------------------------------------------ the queue
    def enqueue(self, ticket_sha256: str, *, rules: str, clock: int | None, rated: bool, account_id: int | None,
                name: str | None, address: str, rating: float, browser_sha256: str | None = None) -> QueueRow:
        """A new waiting entry (only the SHA-256 of its ticket, and of its browser's key,
        are kept)."""
        now = _now()
        with self.engine.begin() as conn:
            res = conn.execute(insert(queue_entries).values(
                ticket_sha256=ticket_sha256, rules=rules, clock=clock, rated=rated, account_id=account_id, name=name,
                address=address[:64], rating=rating, created_at=now, seen_at=now, status="waiting",
                browser_sha256=browser_sha256))
            entry_id = int(res.inserted_primary_key[0])
        return QueueRow(entry_id, rules, clock, rated, account_id, name, rating, now, "waiting",
                        browser=browser_sha256)

    def count_waiting(self, address: str, account_id: int | None) -> tuple[int, int]:
        """``(waiting entries from address, waiting entries of the account)``."""
        with self.engine.connect() as conn:
            by_address = conn.execute(select(func.count()).where(
                queue_entries.c.status == "waiting", queue_entries.c.address == address[:64])).scalar() or 0
            by_account = 0 if account_id is None else conn.execute(select(func.count()).where(
                queue_entries.c.status == "waiting", queue_entries.c.account_id == account_id)).scalar() or 0
        return int(by_address), int(by_account)

    def entry(self, ticket_sha256: str, touch: bool = True) -> QueueRow | None:
        """The entry of a ticket, or None; ``touch``: its player is still there (a
        waiting entry's last sign of life is now, and it has not left)."""
        with self.engine.begin() as conn:
            if touch:
                conn.execute(update(queue_entries).where(
                    queue_entries.c.ticket_sha256 == ticket_sha256, queue_entries.c.status == "waiting",
                ).values(seen_at=_now(), left_at=None))
            r = conn.execute(select(queue_entries).where(queue_entries.c.ticket_sha256 == ticket_sha256)).first()
        return _queue_row(r) if r is not None else None

    def left(self, entry_id: int) -> bool:
        """The lobby socket following waiting entry ``entry_id`` closed: it is not paired
        until its player is heard from again (:meth:`entry` with ``touch``), and
        :meth:`pair_waiting` takes it out if that does not happen in time.  False if
        the entry was not waiting (paired, cancelled or gone already)."""
        with self.engine.begin() as conn:
            res = conn.execute(update(queue_entries).where(
                queue_entries.c.id == entry_id, queue_entries.c.status == "waiting").values(left_at=_now()))
        return res.rowcount == 1

    def cancel(self, ticket_sha256: str) -> QueueRow | None:
        """Leave the queue (a waiting entry becomes ``cancelled``); the entry as it is
        after, or None for an unknown ticket (a paired one stays paired)."""
        with self.engine.begin() as conn:
            conn.execute(update(queue_entries).where(queue_entries.c.ticket_sha256 == ticket_sha256,
                                                     queue_entries.c.status == "waiting").values(status="cancelled"))
        return self.entry(ticket_sha256, touch=False)

    def forget_tokens(self, kept: timedelta) -> int:
        """Clear the seat token of every entry paired more than ``kept`` ago (a paired
        entry's ``seen_at`` is when it was paired): the token is the seat's secret, kept
        in the clear only while its player may still come for it.  Returns how many."""
        with self.engine.begin() as conn:
            res = conn.execute(update(queue_entries).where(
                queue_entries.c.status == "paired", queue_entries.c.token.is_not(None),
                queue_entries.c.seen_at < _now() - kept).values(token=None))
        return int(res.rowcount or 0)

    def pair_waiting(self, fresh: timedelta, gone: timedelta,
                     plan: Callable[[Sequence[QueueRow], datetime], list[tuple[QueueRow, QueueRow]]],
                     make_match: Callable[[QueueRow, QueueRow], tuple[Any, str, str]],
                     left: timedelta = timedelta(seconds=10)) -> list[Pairing]:
        """Pair the queue once, in one transaction (see the module docstring): entries
        not heard from for ``gone``, or left (:meth:`left`) ``left`` ago and not heard
        from since, leave (``gone``); of those heard from within ``fresh`` and not left,
        ``plan(entries, now)`` chooses the pairs ``(seat 1, seat 2)``;
        ``make_match(a, b)`` builds each pair's table ``(table, token 1, token 2)``,
        which is stored with both entries moved to ``paired``.  Returns the pairs made
        (none if another writer moved an entry first: everything rolls back)."""
        with self.engine.connect() as conn:  # an empty queue costs one read, no write
            if conn.execute(select(queue_entries.c.id).where(queue_entries.c.status == "waiting").limit(1)).first() \
                    is None:
                return []
        now = _now()
        made: list[Pairing] = []
        try:
            with self.engine.begin() as conn:
                conn.execute(update(queue_entries).where(queue_entries.c.status == "waiting", or_(
                    queue_entries.c.seen_at < now - gone, queue_entries.c.left_at < now - left)).values(status="gone"))
                rows = conn.execute(select(queue_entries).where(
                    queue_entries.c.status == "waiting", queue_entries.c.seen_at >= now - fresh,
                    queue_entries.c.left_at.is_(None))
                    .order_by(queue_entries.c.created_at, queue_entries.c.id)
                    .with_for_update(skip_locked=True)).all()
                entries = [_queue_row(r) for r in rows]
                for a, b in plan(entries, now):
                    table, tok1, tok2 = make_match(a, b)
                    self.store.insert_new(conn, table, now)
                    for e, seat, tok in ((a, 1, tok1), (b, 2, tok2)):
                        res = conn.execute(update(queue_entries).where(
                            queue_entries.c.id == e.id, queue_entries.c.status == "waiting").values(
                            status="paired", match_id=table.match_id, seat=seat, token=tok, seen_at=now))
                        if res.rowcount != 1:
                            raise _Lost()
                    made.append(Pairing(table.match_id, ((a.id, 1, a.account_id, tok1), (b.id, 2, b.account_id, tok2))))
        except _Lost:
            return []
        return made


__all__ = ["LobbyStore", "OpenRow", "Pairing", "QueueRow"]

"""Meeting people who are not friends yet (issue 20): open tables and the quick-match
queue (PROTOCOL §3.15-§3.17).  The routes are ``routes/open.py``; the tables are
``storage/lobby.py``'s (where "exactly once" lives); who meets whom is
:mod:`~.matchmaking`; the live list is :mod:`~.lobbyfeed`.

* **Open tables.**  A friend match with no invite, listed in every lobby.  The first to
  sit takes seat 2 (one conditional update in the database), on whichever node; the
  others are refused ``409 seat_taken``.  A table leaves the list when it is taken,
  when its creator cancels it, or when its creator has been away from it (seat 1 not
  connected on any node) for :data:`AWAY_S` seconds (the ``open_away_s`` setting); a
  withdrawn table's match closes
  as abandoned.
* **The queue.**  Entries live in the database; every node pairs them every
  :data:`PAIR_EVERY_S` seconds in one transaction (``FOR UPDATE SKIP LOCKED`` on
  PostgreSQL), so a node that dies loses no one: its players follow their tickets
  through another node, which pairs them.  An entry not heard from (a status request,
  a lobby socket's ping) for :data:`FRESH_S` seconds is not paired; after
  :data:`GONE_S` it leaves the queue.  An entry whose lobby socket closed (its page
  was closed, or reloads) is not paired until it is heard from again, and leaves the
  queue if that does not happen within :data:`LEFT_S` (on any node: the database
  keeps when it was left).  Two entries of one account, or of one browser
  (the key the page sends, kept as a hash), are never paired with each other.
* **Rated play** needs an account on both sides: a guest's open table and queue entry
  are casual, and a guest cannot sit at a rated table.  Ratings come from the injected
  ``rating_of(account_id, rules) -> float`` (a coroutine function, or a plain function
  run on a database thread): the app gives the ratings store's
  (:meth:`~gameweave.storage.ratings.RatingStore.rating_of`); without one,
  :func:`default_rating` (1500 for everyone).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..engine import OptionError, find_profile
from ..storage.accounts import AccountRow
from ..storage.lobby import LobbyStore, OpenRow, QueueRow
from ..tables import Table, TableError, check_name, check_new_match, hash_token, new_token
from .errors import ApiError
from .lobbyfeed import REFRESH_S, LobbyFeed, sleep_loop
from .matchmaking import plan, window

log = logging.getLogger("gameweave.server")

DEFAULT_RATING = 1500.0
"""Everyone's rating until the ratings store (issue 20, item 4) answers."""

AWAY_S = 60.0
"""An open table is withdrawn after its creator has been away from it this long (the
default of the ``open_away_s`` setting)."""

PAIR_EVERY_S = 0.5
"""Seconds between two pairings of the queue on each node."""

FRESH_S = 12.0
"""A queue entry not heard from for this long is not paired (its player may be gone):
the page pings every 5 s while queued, so this is two pings missed and 2 s to spare (a
slow phone), as a seat's presence (12 s)."""

LEFT_S = 10.0
"""A queue entry whose lobby socket closed and that is not heard from again (a socket
following it on any node, a status request) within this long leaves the queue
(``gone``); meanwhile it is not paired.  Longer than the page's ping (5 s), so a reload
or a reconnect to another node, whose next ping clears the mark, never loses its place."""

GONE_S = 60.0
"""A queue entry not heard from for this long leaves the queue (``gone``)."""

PAIRED_KEEP_S = 300.0
"""A paired entry keeps its seat token this long for its player to fetch (the lobby
feed, ``POST /api/queue/status``); then the token is cleared from the queue (the seat
stays the player's: a signed-in player's account holds it)."""

MAX_OPEN = {"address": 3, "account": 3}
"""Open tables listed at once, per client address and per account (PROTOCOL §5)."""

MAX_WAITING = {"address": 4, "account": 1}
"""Queue entries waiting at once, per client address and per account (PROTOCOL §5)."""


def default_rating(account_id: int, rules: str) -> float:
    """The rating of every account when no ratings are given (a bare Lobby): 1500."""
    return DEFAULT_RATING


def ticket_hash(ticket: str) -> str:
    """The SHA-256 (hex) of a queue ticket: all the database keeps of it."""
    return hashlib.sha256(ticket.encode("utf-8", "replace")).hexdigest()


def browser_hash(key: Any) -> str | None:
    """The SHA-256 (hex) of a page's browser key (a random id the page keeps in
    localStorage; PROTOCOL §3.16), or None for no key: all the database keeps of it."""
    if not isinstance(key, str) or not key:
        return None
    return hashlib.sha256(b"browser:" + key.encode("utf-8", "replace")).hexdigest()


def public_table(row: OpenRow, rating: float | None) -> dict[str, Any]:
    """An open table as every lobby sees it (nothing private: no account, no address)."""
    return {"match_id": row.match_id, "rules": row.rules, "format": row.format, "target": row.target,
            "clock": row.clock, "rated": row.rated, "name": row.name,
            "rating": round(rating) if rating is not None else None, "created_at": row.created_at}


def queue_out(row: QueueRow, now: datetime | None = None) -> dict[str, Any]:
    """A queue entry as its holder sees it: status, seconds waited, the rating window
    now, and once paired the match, the seat and the seat's token."""
    waited = max(0.0, ((now or datetime.now(UTC)) - row.created_at).total_seconds())
    out: dict[str, Any] = {"status": row.status, "rules": row.rules, "clock": row.clock, "rated": row.rated,
                           "waited_s": round(waited, 1), "window": round(window(waited)),
                           "match_id": None, "seat": None, "token": None, "table_url": None}
    if row.status == "paired":
        out.update(match_id=row.match_id, seat=row.seat, token=row.token, table_url=f"/table/{row.match_id}")
    return out


class Lobby:
    """Open tables, the queue and the lobby feed of one node.

    Args:
        hub: the node's :class:`~.hub.Hub` (matches, rooms, the database threads, the bus).
        accounts: the :class:`~.accounts.Accounts` service (seats join accounts).
        rating_of: ``rating_of(account_id, rules) -> float`` (see the module docstring).
        away_s: seconds a creator may be away from an open table (:data:`AWAY_S`).
    """

    def __init__(self, hub: Any, accounts: Any, rating_of: Callable[[int, str], Any] | None = None,
                 away_s: float = AWAY_S):
        self.hub, self.accounts, self.db, self.away_s = hub, accounts, hub.db, away_s
        self.store = LobbyStore(hub.store)
        self.rating_of = rating_of or default_rating
        self.feed = LobbyFeed(hub.bus, self._withdrawn_here)
        self.feed.paired = self._tell_paired
        self._tasks: list[asyncio.Task] = []
        self._leaving: set[asyncio.Task] = set()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Read the open tables and start pairing and sweeping."""
        await self.refresh()
        self._tasks = [asyncio.create_task(sleep_loop(PAIR_EVERY_S, self.pair_once, "pairing")),
                       asyncio.create_task(sleep_loop(REFRESH_S, self.sweep, "the open-table sweep"))]

    def close(self) -> None:
        """Stop the loops and close the lobby sockets."""
        for task in self._tasks:
            task.cancel()
        self.feed.close()

    async def rating(self, account_id: int | None, rules: str) -> float:
        """The account's rating under ``rules`` (:data:`DEFAULT_RATING` for a guest)."""
        if account_id is None:
            return DEFAULT_RATING
        if inspect.iscoroutinefunction(self.rating_of):
            return float(await self.rating_of(account_id, rules))
        return float(await self.db.run(self.rating_of, account_id, rules))

    async def _link(self, account: AccountRow | None, match_id: str, seat: int, token: str) -> None:
        if account is not None:
            await self.accounts.link_seat(account, match_id, seat, token)

    # ------------------------------------------------------------------ open tables
    async def create_open(self, *, account: AccountRow | None, address: str, rules: str, fmt: str | None,
                          target: int | None, stake: int | None, tablas_stake: str | None, clock: int | None,
                          rated: bool, name: str | None) -> tuple[Table, str]:
        """Create an open table (you hold seat 1); it joins every lobby's list.  Raises
        :class:`ApiError` ``account_needed`` (rated, as a guest), ``too_many_tables``
        (:data:`MAX_OPEN`), and :class:`TableError` ``bad_option``/``bad_name``."""
        if rated and account is None:
            raise ApiError("account_needed", "rated play needs an account: sign in first")
        name = check_name(name) or (account.username if account is not None else None)
        by_address, by_account = await self.db.run(self.store.count_open, address,
                                                   account.id if account else None)
        if by_address >= MAX_OPEN["address"] or by_account >= MAX_OPEN["account"]:
            raise ApiError("too_many_tables", f"at most {MAX_OPEN['account']} open tables at once",
                           {"max": MAX_OPEN["account"]})
        table, token = await self.hub.create("friend", None, fmt, target, rules=rules, stake=stake,
                                             tablas_stake=tablas_stake, name=name, clock=clock, rated=rated)
        table.invite = None
        row = await self.db.run(lambda: self.store.add_open(
            table.match_id, rules=table.rules, format=table.format, target=table.target, clock=table.clock,
            rated=rated, name=name, account_id=account.id if account else None, address=address))
        await self._link(account, table.match_id, 1, token)
        await self.feed.emit({"op": "add", "table": public_table(row, await self._shown_rating(row))})
        log.info("match %s: an open table (%s)", table.match_id, "rated" if rated else "casual")
        return table, token

    async def _shown_rating(self, row: OpenRow) -> float | None:
        return await self.rating(row.account_id, row.rules) if row.account_id is not None else None

    async def sit(self, match_id: str, name: Any, account: AccountRow | None) -> tuple[Table, str]:
        """Take seat 2 of an open table, exactly once across nodes; returns ``(table,
        seat-2 token)``.  Raises :class:`ApiError` ``table_gone`` (not open: withdrawn,
        or no such table), ``seat_taken`` (someone sat first), ``account_needed`` (a
        guest at a rated table), ``own_table`` (your own account's table), and
        :class:`TableError` ``bad_name``."""
        name = check_name(name) or (account.username if account is not None else None)
        row = await self.db.run(self.store.open_row, match_id) if isinstance(match_id, str) else None
        if row is None or row.status not in ("open", "taken"):
            raise ApiError("table_gone", "that table is not open any more")
        if row.status == "taken":
            raise ApiError("seat_taken", "someone sat at that table first")
        if row.rated and account is None:
            raise ApiError("account_needed", "a rated table needs an account: sign in first")
        if account is not None and row.account_id == account.id:
            raise ApiError("own_table", "this is your own table: wait for someone to sit")
        token = new_token()
        h = hash_token(token)
        got = await self.db.run(self.store.take_open, match_id, h, name)
        if got == "taken":
            self.feed.gone(match_id, "taken")
            raise ApiError("seat_taken", "someone sat at that table first")
        if got != "ok":
            raise ApiError("table_gone", "that table is not open any more")
        room = await self.hub.room(match_id)
        if room is None or room.table is None:  # pragma: no cover - the row was just written
            raise ApiError("table_gone", "that table is not open any more")
        async with room.lock:
            room.table.token_hashes[1], room.table.names[1] = h, name
            room.announce()
            self.hub.sync.publish(room, {"kind": "join", "token2": h, "name": name})
        await self._link(account, match_id, 2, token)
        await self.feed.emit({"op": "gone", "match_id": match_id, "reason": "taken"})
        log.info("match %s: seat 2 sat at the open table", match_id)
        return room.table, token

    async def cancel_open(self, table: Table, seat: int) -> bool:
        """Seat 1 withdraws its open table (its match closes as abandoned); False if it
        was not open (taken already: the match goes on).  Raises :class:`ApiError`
        ``bad_token`` for seat 2."""
        if seat != 0:
            raise ApiError("bad_token", "only seat 1 can withdraw its open table")
        if not await self.db.run(self.store.close_open, table.match_id, "cancelled"):
            return False
        await self.feed.emit({"op": "gone", "match_id": table.match_id, "reason": "cancelled"})
        return True

    async def _withdrawn_here(self, event: dict[str, Any]) -> None:
        """A table was withdrawn (on any node): if its match is live here, it closes."""
        room = self.hub.rooms.get(event["match_id"])
        if event.get("reason") in ("cancelled", "left") and room is not None and room.table is not None:
            async with room.lock:
                if room.table.token_hashes[1] is None and not room.table.abandoned:
                    room.table.abandoned = True
                    room.announce()

    async def refresh(self) -> None:
        """Make this node's list the database's."""
        rows = await self.db.run(self.store.open_list)
        fresh = {}
        for row in rows:
            known = self.feed.listed.get(row.match_id)
            fresh[row.match_id] = known if known is not None else public_table(row, await self._shown_rating(row))
        missing = self.feed.missing(fresh)
        reasons = await self.db.run(self.store.statuses, missing) if missing else {}
        self.feed.reconcile(fresh, reasons)

    async def sweep(self) -> None:
        """Note the creators at their tables, withdraw the tables of those away for
        ``away_s``, clear the seat tokens of entries paired :data:`PAIRED_KEEP_S` ago, and
        check the list against the database."""
        here = []
        for match_id in list(self.feed.listed):
            if await self._creator_present(match_id):
                here.append(match_id)
        await self.db.run(self.store.touch_open, here)
        for match_id in await self.db.run(self.store.stale_open, timedelta(seconds=self.away_s)):
            if await self.db.run(self.store.close_open, match_id, "left"):
                log.info("match %s: the open table's creator left; withdrawn", match_id)
                await self.feed.emit({"op": "gone", "match_id": match_id, "reason": "left"})
        await self.db.run(self.store.forget_tokens, timedelta(seconds=PAIRED_KEEP_S))
        await self.refresh()

    async def _creator_present(self, match_id: str) -> bool:
        room = self.hub.rooms.get(match_id)
        if room is not None and room.people.connected(0, self.hub.presence_timeout_s):
            return True
        if self.hub.bus is not None:
            got = await self.hub.bus.presence(match_id)
            return got is None or got[0]  # Redis away: nobody is withdrawn for it
        return False

    # ------------------------------------------------------------------ the queue
    async def enqueue(self, *, account: AccountRow | None, address: str, rules: str, clock: int | None,
                      rated: bool, name: Any, browser: Any = None) -> tuple[str, QueueRow]:
        """Join the queue; returns ``(ticket, entry)`` (the ticket is given only now).
        ``rated`` counts only for an account (a guest's entry is casual); ``browser``:
        the page's browser key (two entries with one key are never paired).  Raises
        :class:`ApiError` ``already_queued`` (:data:`MAX_WAITING`) and
        :class:`TableError` ``bad_option`` (an unknown profile or clock), ``bad_name``."""
        name = check_name(name) or (account.username if account is not None else None)
        try:
            check_new_match(rules)
            rules = find_profile(rules).name  # one name per profile (pagat is anglo-american)
        except (OptionError, ValueError, KeyError) as exc:
            raise TableError("bad_option", str(exc), params={"detail": str(exc)}) from None
        if clock not in (None, 60, 30):
            raise TableError("bad_option", "clock must be null, 60 or 30", params={"detail": "clock"})
        account_id = account.id if account is not None else None
        by_address, by_account = await self.db.run(self.store.count_waiting, address, account_id)
        if by_address >= MAX_WAITING["address"] or by_account >= MAX_WAITING["account"]:
            raise ApiError("already_queued", "you are in the queue already", {"max": MAX_WAITING["address"]})
        ticket = secrets.token_urlsafe(24)
        rating = await self.rating(account_id, rules)
        row = await self.db.run(lambda: self.store.enqueue(
            ticket_hash(ticket), rules=rules, clock=clock, rated=bool(rated and account is not None),
            account_id=account_id, name=name, address=address, rating=rating, browser_sha256=browser_hash(browser)))
        return ticket, row

    async def entry(self, ticket: Any, touch: bool = True) -> QueueRow:
        """The entry of ``ticket`` (its player is there: it stays in the queue).  Raises
        :class:`ApiError` ``unknown_ticket``."""
        row = await self.db.run(self.store.entry, ticket_hash(ticket), touch) \
            if isinstance(ticket, str) and 0 < len(ticket) <= 128 else None
        if row is None:
            raise ApiError("unknown_ticket", "that queue ticket is not known here")
        return row

    async def leave(self, ticket: Any) -> QueueRow:
        """Leave the queue (a paired entry stays paired: go to the table).  Raises
        :class:`ApiError` ``unknown_ticket``."""
        await self.entry(ticket, touch=False)
        row = await self.db.run(self.store.cancel, ticket_hash(ticket))
        assert row is not None
        return row

    def left_soon(self, entry_id: int) -> None:
        """The last lobby socket on this node following entry ``entry_id`` closed: the
        entry is not paired until its player is heard from again, and leaves the queue
        after :data:`LEFT_S` if not (a closed page is no opponent).  Written by a task
        of its own, so the socket's handler being cancelled (a server stopping) does
        not lose it; a failure leaves the entry to :data:`FRESH_S`."""
        task = asyncio.create_task(self._left(entry_id))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def _left(self, entry_id: int) -> None:
        try:
            if await self.db.run(self.store.left, entry_id):
                log.debug("queue entry %s: its lobby socket closed", entry_id)
        except Exception:  # the database is away: the entry goes stale on its own
            log.warning("queue entry %s: could not record that its page left", entry_id, exc_info=True)

    def _make_match(self, a: QueueRow, b: QueueRow) -> tuple[Table, str, str]:
        """The match of a pair (on a database thread): the profile's default format,
        the queue's clock; rated when both entries are."""
        opts = check_new_match(a.rules)
        deck, salt, test = self.hub._deal()
        table, tok1 = Table.create(opponent="friend", bot=None, format=opts["match"], target=opts["target"],
                                   deck=deck, salt=salt, rules=a.rules, test=test, name=a.name, clock=a.clock,
                                   clock_scale=self.hub.clock_scale, rated=a.rated and b.rated)
        tok2 = new_token()
        table.invite = None
        table.token_hashes[1], table.names[1] = hash_token(tok2), b.name
        return table, tok1, tok2

    async def pair_once(self) -> int:
        """Pair the queue once (every node does, every :data:`PAIR_EVERY_S`); both
        players of each pair are told at once.  Returns how many pairs were made."""
        made = await self.db.run(self.store.pair_waiting, timedelta(seconds=FRESH_S), timedelta(seconds=GONE_S),
                                 plan, self._make_match, timedelta(seconds=LEFT_S))
        for pairing in made:
            for _entry, seat, account_id, token in pairing.entries:
                if account_id is not None:
                    await self.accounts.link_seat(AccountRow(account_id, "", ""), pairing.match_id, seat, token)
            log.info("match %s: paired by the queue", pairing.match_id)
            await self.feed.emit({"op": "paired", "entries": [e[0] for e in pairing.entries]})
        return len(made)

    async def _tell_paired(self, conn: Any) -> None:
        ticket = getattr(conn, "token", "")
        try:
            row = await self.entry(ticket, touch=False)
        except ApiError:
            return
        conn.send({"type": "queue", **queue_out(row)})


__all__ = ["AWAY_S", "DEFAULT_RATING", "FRESH_S", "GONE_S", "LEFT_S", "Lobby", "MAX_OPEN", "MAX_WAITING", "PAIRED_KEEP_S", "PAIR_EVERY_S",
           "browser_hash", "default_rating", "public_table", "queue_out", "ticket_hash"]

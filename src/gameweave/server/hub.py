"""The hub: live tables, their locks, the seats' sockets and the bots (no HTTP here).

Every change to a match happens under that match's :class:`asyncio.Lock`: check (the
order of :class:`~gameweave.tables.Table`), apply, commit to the database, then announce
to each connected seat its own state frame.  Bot seats think in a thread pool
(``run_in_executor``) so one slow bot never blocks other matches.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Callable

from ..bots import bot_names, make_bot
from ..engine import format_action, seat_view
from ..storage import Store, StorageError
from ..tables import Table, TableError, hash_token, new_token, secure_deck

log = logging.getLogger("gameweave.server")

MAX_FRAME = 64 * 1024
"""Largest accepted WebSocket text frame and HTTP body, in bytes (64 KiB)."""


class TokenBucket:
    """A token-bucket rate limit: ``burst`` messages at once, ``rate`` per second after."""

    __slots__ = ("burst", "rate", "tokens", "stamp")

    def __init__(self, burst: float, rate: float):
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token; False if none is left (the message must be refused)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One seat's WebSocket: an outgoing queue drained by a writer task, so that frames
    reach the client in the order they were announced and a slow client never blocks
    its match."""

    def __init__(self, websocket: Any, match_id: str, seat: int, token: str):
        self.ws = websocket
        self.match_id = match_id
        self.seat = seat
        self.token = token
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1000)
        self.closed = False
        self.close_code: int | None = None
        self.close_reason = ""

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame (JSON-encoded now, so it is a snapshot of this moment)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(frame, separators=(",", ":")))
        except asyncio.QueueFull:
            self.close(1008, "client too slow")

    def close(self, code: int, reason: str) -> None:
        """Ask the writer to close the socket after the frames already queued."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # pragma: no cover - close anyway
            pass

    async def writer(self) -> None:
        """Send queued frames until closed."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the reader notices too
            self.closed = True
            return
        try:
            await self.ws.close(code=self.close_code or 1000, reason=self.close_reason)
        except Exception:
            pass


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Hub:
    """Live tables backed by a :class:`Store`.

    Args:
        store: the database.
        bot_delay: pause before each bot action, seconds (so a person can follow).
        deck_source: ``() -> (deck, salt)`` for every new deal (default: :func:`secure_deck`).
        bot_workers: threads for bot decisions.
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        deck_source: Callable[[], tuple[Any, str]] | None = None,
        bot_workers: int = 4,
    ):
        self.store = store
        self.bot_delay = bot_delay
        self.deck_source = deck_source or secure_deck
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: dict[str, list[Connection | None]] = {}
        self.bots: dict[str, Any] = {}
        self.bot_tasks: dict[str, asyncio.Task] = {}
        self.executor = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="gameweave-bot")
        self.closing = False

    # ------------------------------------------------------------------ tables
    def lock(self, match_id: str) -> asyncio.Lock:
        """The match's lock (made on first use)."""
        lk = self.locks.get(match_id)
        if lk is None:
            lk = self.locks[match_id] = asyncio.Lock()
        return lk

    async def table(self, match_id: Any) -> Table | None:
        """The live table of ``match_id``, loaded from the database on first use (and
        its bot started if it is the bot's turn); None if there is no such match."""
        if not isinstance(match_id, str) or not (1 <= len(match_id) <= 32):
            return None
        t = self.tables.get(match_id)
        if t is not None:
            return t
        async with self.lock(match_id):
            t = self.tables.get(match_id)
            if t is None:
                t = self.store.load(match_id)
                if t is None:
                    return None
                self.tables[match_id] = t
        self.wake_bot(t)
        return t

    def _deal(self) -> tuple[tuple[int, ...], str]:
        deck, salt = self.deck_source()
        return tuple(deck), str(salt)

    async def create(self, opponent: str, bot: str | None, fmt: str, target: int,
                     rules: str = "gameweave") -> tuple[Table, str]:
        """Create and store a match; returns ``(table, seat-1 token)``.  Raises
        :class:`TableError` ``unknown_bot``."""
        if opponent == "bot":
            bot = (bot or "random").strip().lower()
            if bot not in bot_names():
                raise TableError("unknown_bot", f"unknown bot {bot!r} (this server has: {', '.join(bot_names())})")
        deck, salt = self._deal()
        table, token = Table.create(opponent=opponent, bot=bot, format=fmt, target=target, deck=deck, salt=salt,
                                    rules=rules)
        self.store.create(table)
        self.tables[table.match_id] = table
        log.info("match %s created (%s%s, %s %s)", table.match_id, opponent,
                 f" {bot}" if opponent == "bot" else "", fmt, target)
        self.wake_bot(table)
        return table, token

    async def join(self, match_id: str, invite: Any) -> tuple[Table, str]:
        """Give seat 2 of a friend match to the holder of ``invite``; returns
        ``(table, seat-2 token)``.  Raises :class:`TableError` (``unknown_match``,
        ``not_a_friend_match``, ``bad_invite``, ``already_joined``)."""
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            if table.opponent != "friend":
                raise TableError("not_a_friend_match", "this match is against a bot; nobody can join it")
            if not isinstance(invite, str) or table.invite is None or not secrets.compare_digest(
                invite.encode("utf-8", "replace"), table.invite.encode()
            ):
                raise TableError("bad_invite", "that invite is not valid for this match")
            if table.token_hashes[1] is not None:
                raise TableError("already_joined", "seat 2 of this match is already taken")
            token = new_token()
            h = hash_token(token)
            if not self.store.join(match_id, h):
                raise TableError("already_joined", "seat 2 of this match is already taken")
            table.token_hashes[1] = h
            log.info("match %s: seat 2 joined", match_id)
            self.announce(table)
        return table, token

    # ------------------------------------------------------------------ sockets
    def connected(self, match_id: str, seat: int) -> bool:
        """True if ``seat`` has an open socket on the match."""
        conns = self.sockets.get(match_id)
        return bool(conns and conns[seat] is not None and not conns[seat].closed)

    def frame(self, table: Table, seat: int) -> dict[str, Any]:
        """The state frame for ``seat`` now."""
        return table.state_frame(seat, self.connected(table.match_id, 1 - seat))

    def announce(self, table: Table) -> None:
        """Queue each connected seat's own state frame (R21: a seat only gets its view)."""
        conns = self.sockets.get(table.match_id)
        if not conns:
            return
        for seat in (0, 1):
            c = conns[seat]
            if c is not None and not c.closed:
                c.send(self.frame(table, seat))

    async def attach(self, conn: Connection, table: Table) -> None:
        """Make ``conn`` the seat's socket (closing an older one), send it the full view
        and tell the opponent it is connected."""
        async with self.lock(table.match_id):
            conns = self.sockets.setdefault(table.match_id, [None, None])
            old = conns[conn.seat]
            if old is not None and old is not conn:
                old.close(4000, "replaced by a newer connection")
            conns[conn.seat] = conn
            self.announce(table)

    async def detach(self, conn: Connection) -> None:
        """Forget ``conn`` and tell the opponent the seat left."""
        async with self.lock(conn.match_id):
            conns = self.sockets.get(conn.match_id)
            if conns and conns[conn.seat] is conn:
                conns[conn.seat] = None
                table = self.tables.get(conn.match_id)
                if table is not None:
                    self.announce(table)
                if conns == [None, None]:
                    self.sockets.pop(conn.match_id, None)

    # ------------------------------------------------------------------ actions
    async def act(self, match_id: Any, seat: Any, token: Any, action: Any, version: Any) -> Table:
        """Check, apply, commit and announce one action (PROTOCOL §4.2).

        Raises :class:`TableError` with the first failed check; nothing changes then.
        """
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            a = table.check_action(seat, token, action, version)
            self._commit_action(table, seat, a)
        self.wake_bot(table)
        return table

    def _commit_action(self, table: Table, seat: int, a: int) -> None:
        """Apply a checked action, commit it, then announce (caller holds the lock)."""
        prev = table.version
        text = format_action(a)
        seq = len(table.state.history) + 1
        table.apply_action(seat, a)
        try:
            self.store.add_action(table, seat, text, seq, prev)
        except Exception as exc:
            # the database did not take it: forget the in-memory table; it reloads
            self.tables.pop(table.match_id, None)
            log.error("match %s: could not store an action: %s", table.match_id, type(exc).__name__)
            raise TableError("stale" if isinstance(exc, StorageError) else "server_error",
                             "the action could not be stored; reload the state", prev) from None
        if table.state.is_over:
            log.info("match %s deal %d ended: %s", table.match_id, table.deal.number, table.state.status)
        self.announce(table)

    async def next_deal(self, match_id: Any, seat: Any, token: Any, version: Any) -> Table:
        """Deal the next deal of a match (R9 opener).  Raises :class:`TableError`."""
        table = await self.table(match_id)
        if table is None:
            raise TableError("unknown_match", "no such match")
        async with self.lock(match_id):
            table.check_next_deal(seat, token, version)
            prev = table.version
            deck, salt = self._deal()
            table.add_deal(deck, salt)
            try:
                self.store.add_deal(table, prev)
            except Exception as exc:
                self.tables.pop(table.match_id, None)
                log.error("match %s: could not store a deal: %s", table.match_id, type(exc).__name__)
                raise TableError("stale", "the deal could not be stored; reload the state", prev) from None
            self.announce(table)
        self.wake_bot(table)
        return table

    # ------------------------------------------------------------------ bots
    def wake_bot(self, table: Table) -> None:
        """Start the match's bot task if the bot must act and none is running."""
        if self.closing or not table.bot_to_act():
            return
        task = self.bot_tasks.get(table.match_id)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - no loop (sync caller)
            return
        self.bot_tasks[table.match_id] = loop.create_task(self._bot_loop(table.match_id))

    async def _bot_loop(self, match_id: str) -> None:
        """Play the bot seat while it is its decision, one action per ``bot_delay``."""
        try:
            while not self.closing:
                table = self.tables.get(match_id)
                if table is None or not table.bot_to_act():
                    return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                table = self.tables.get(match_id)
                if table is None or not table.bot_to_act():
                    return
                version = table.version
                seat = Table.BOT_SEAT
                view = seat_view(table.state, seat)  # the bot sees only its seat's view (R21)
                bot = self.bots.get(match_id)
                if bot is None or getattr(bot, "name", None) != table.bot:
                    bot = self.bots[match_id] = make_bot(table.bot, seed=secrets.randbits(32))
                loop = asyncio.get_running_loop()
                a = await loop.run_in_executor(self.executor, bot.choose, view)
                async with self.lock(match_id):
                    if self.tables.get(match_id) is not table or table.version != version or not table.bot_to_act():
                        continue
                    if a not in table.state.legal_actions():
                        log.error("match %s: bot %s chose an illegal action", match_id, table.bot)
                        return
                    try:
                        self._commit_action(table, seat, a)
                    except TableError:
                        return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken bot must not take the server down
            log.error("match %s: bot failed: %s", match_id, type(exc).__name__)

    async def close(self) -> None:
        """Stop bots, close sockets, release the database."""
        self.closing = True
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for conns in list(self.sockets.values()):
            for c in conns:
                if c is not None:
                    c.close(1001, "server shutting down")
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.store.close()


__all__ = ["Connection", "Hub", "MAX_FRAME", "TokenBucket"]

"""The database seen from the event loop: every :class:`~gameweave.storage.Store` call of
the server runs on a database thread, never on the loop.

* :class:`CommitQueue` — the group commit of accepted actions on one thread: the actions
  of different matches accepted while a transaction runs are committed together in the
  next one.
* :class:`Database` — the one helper through which every other store call from async
  code goes (loads, creates, joins, deals, resignations, sweeps): ``await db.run(fn, …)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..storage import Store
from ..storage.store import ActionRow

T = TypeVar("T")

STORE_THREADS = 2
"""Threads for the store calls other than the group commit (loads, deals, joins …)."""


class CommitQueue:
    """Group commit of accepted actions: the actions of different matches accepted while
    the previous transaction runs are committed together in the next one, on one
    database thread (so the event loop keeps serving sockets meanwhile).  Each waiter
    resumes only once its own row is committed: an action is still committed before any
    seat hears of it, and durability is the database's (SQLite WAL with
    ``synchronous=NORMAL``: survives a crash of the process, not a power cut in the last
    moments; PostgreSQL: as its ``synchronous_commit``)."""

    def __init__(self, store: Store):
        self.store = store
        self.pending: list[tuple[ActionRow, asyncio.Future]] = []
        self.flusher: asyncio.Task | None = None
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gameweave-db")

    async def commit(self, row: ActionRow) -> None:
        """Commit ``row``; raises :class:`~gameweave.storage.StorageError` if another
        writer stored the step first, or the database's error."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.pending.append((row, fut))
        if self.flusher is None or self.flusher.done():
            self.flusher = loop.create_task(self._flush())
        err = await fut
        if err is not None:
            raise err

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                results = await loop.run_in_executor(self.thread, self.store.commit_actions, [r for r, _ in batch])
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for (_, fut), res in zip(batch, results):
                if not fut.done():
                    fut.set_result(res)

    def close(self) -> None:
        """Stop the database thread (after the transaction in flight)."""
        self.thread.shutdown(wait=True)


class Database:
    """The store behind the server's async code.

    Attributes:
        store: the :class:`~gameweave.storage.Store` (its methods are synchronous).
        commits: the :class:`CommitQueue` of accepted actions.
    """

    def __init__(self, store: Store, threads: int = STORE_THREADS):
        self.store = store
        self.commits = CommitQueue(store)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="gameweave-store")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a :class:`Store` method) on a database thread; its result, or
        the exception it raised."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def commit(self, row: ActionRow) -> None:
        """Commit one accepted action through the group commit (:meth:`CommitQueue.commit`)."""
        await self.commits.commit(row)

    def close(self) -> None:
        """Finish the calls in flight, then release the threads and the store."""
        self.pool.shutdown(wait=True)
        self.commits.close()
        self.store.close()


__all__ = ["CommitQueue", "Database", "STORE_THREADS"]

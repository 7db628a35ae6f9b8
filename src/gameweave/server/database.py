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
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..storage import Store
from ..storage.commits import ActionRow

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
    moments; PostgreSQL: as its ``synchronous_commit``).

    The thread takes the next batch itself as soon as a transaction ends (a
    :class:`queue.SimpleQueue` the loop puts rows in), and hands a batch's answers back
    to the loop in one call: no loop turn sits between two transactions, and none
    between a row and its transaction but the thread's own wake-up."""

    def __init__(self, store: Store):
        self.store = store
        self.rows: queue.SimpleQueue[tuple[ActionRow, asyncio.Future, asyncio.AbstractEventLoop] | None] = \
            queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, name="gameweave-db", daemon=True)
        self.thread.start()

    async def commit(self, row: ActionRow) -> None:
        """Commit ``row``; raises :class:`~gameweave.storage.StorageError` if another
        writer stored the step first, or the database's error."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.rows.put((row, fut, loop))
        err = await fut
        if err is not None:
            raise err

    def _work(self) -> None:
        """The database thread: commit every row waiting, in one transaction, until
        :meth:`close` puts ``None``."""
        while True:
            first = self.rows.get()
            batch = [first]
            while first is not None:
                try:
                    batch.append(self.rows.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            work = [item for item in batch if item is not None]
            if work:
                try:
                    answers: list[Any] = list(self.store.commit_actions([r for r, _, _ in work]))
                    failed = False
                except Exception as exc:
                    answers, failed = [exc] * len(work), True
                for loop in {lp for _, _, lp in work}:
                    mine = [(fut, a) for (_, fut, lp), a in zip(work, answers) if lp is loop]
                    try:
                        loop.call_soon_threadsafe(_settle, mine, failed)
                    except RuntimeError:  # that loop is closed: nobody waits any more
                        pass
            if stop:
                return

    def close(self) -> None:
        """Stop the database thread (after the rows already queued)."""
        if self.thread.is_alive():
            self.rows.put(None)
            self.thread.join()


def _settle(answers: list[tuple[asyncio.Future, Any]], failed: bool) -> None:
    """On the loop: resolve each row's future with its answer (None or the
    :class:`~gameweave.storage.StorageError`), or with the batch's exception."""
    for fut, answer in answers:
        if fut.done():
            continue
        if failed:
            fut.set_exception(answer)
        else:
            fut.set_result(answer)


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

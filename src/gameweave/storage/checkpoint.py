"""SQLite's write-ahead log copied back into the database file on a thread of its own.

By default SQLite checkpoints inside a commit: the transaction that takes the log past
1,000 pages (``wal_autocheckpoint``) copies them back and syncs the file before it
returns.  Under the server's load (hundreds of actions a second, a few pages each) that
was one commit every 0.8 s or so taking 5-10 ms, and every action waiting for the group
commit meanwhile with it: the round trip's periodic tail (docs/DEPLOY.md, "The commit
path made lean").  A server's store turns that off on its connections and runs a
:class:`WalCheckpointer` instead: a *passive* checkpoint every ``period_s`` on its own
connection, which copies what it can without waiting for, or blocking, any writer or
reader.  Durability is unchanged (the log is the database until it is copied back; WAL
with ``synchronous=NORMAL`` as before).
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger("gameweave.storage")

PERIOD_S = 0.5
"""Seconds between two passive checkpoints."""

RESTART_PAGES = 16_384
"""A log holding this many pages after a passive checkpoint (64 MB of 4 KiB pages) gets a
``RESTART`` checkpoint: it waits for the writer and the readers of the moment (a few
milliseconds: the frames before were copied already) and lets the next writer start the
log from its beginning.  A writer restarts the log by itself whenever it begins while
every frame is copied back; under a steady load a passive checkpoint often ends with new
frames behind it, so without this the log could grow for as long as the load lasts."""


class WalCheckpointer:
    """Passive checkpoints of one SQLite database, every ``period_s`` seconds, on a
    daemon thread with its own connection.

    Args:
        path: the database file (its log is ``path + "-wal"``).
        period_s: seconds between two checkpoints.

    Attributes:
        runs: checkpoints done so far (for tests and logs).
        last: ``(busy, log_pages, checkpointed_pages)`` of the last one, as
            ``PRAGMA wal_checkpoint`` returns it.

    Errors of a checkpoint (the disk full, the file gone) are logged and the next round
    tries again; nothing is raised to the writers.
    """

    def __init__(self, path: str, period_s: float = PERIOD_S):
        self.path, self.period_s = path, period_s
        self.runs = 0
        self.last: tuple[int, int, int] | None = None
        self._conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._work, name="gameweave-checkpoint", daemon=True)
        self.thread.start()

    def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int] | None:
        """One checkpoint (``PASSIVE`` or ``RESTART``); its ``(busy, log_pages,
        checkpointed_pages)``, or None after an error (logged)."""
        try:
            busy, pages, done = self._conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as exc:
            log.error("checkpoint of %s failed: %s", self.path, type(exc).__name__)
            return None
        self.runs += 1
        self.last = (busy, pages, done)
        return self.last

    def _work(self) -> None:
        while not self._stop.wait(self.period_s):
            got = self.checkpoint()
            if got is not None and got[1] >= RESTART_PAGES:
                self.checkpoint("RESTART")

    def close(self) -> None:
        """Stop the thread, copy back what is left, and close the connection."""
        self._stop.set()
        if self.thread.is_alive():
            self.thread.join()
        self.checkpoint()
        self._conn.close()


__all__ = ["PERIOD_S", "RESTART_PAGES", "WalCheckpointer"]

"""The server's SQLite store copies its write-ahead log back on a thread of its own
(``gameweave.storage.checkpoint``), never inside a commit; other stores keep SQLite's
own checkpoints."""

from __future__ import annotations

import logging
import random
import time

from sqlalchemy import text

from test_storage import _new_table, _play

from gameweave.storage import Store, sqlite_url
from gameweave.storage.checkpoint import WalCheckpointer
from gameweave.tables import hash_token


def _autocheckpoint(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(text("PRAGMA wal_autocheckpoint")).scalar())


def _played_store(tmp_path, **kw) -> tuple[Store, str]:
    store = Store(sqlite_url(tmp_path / "g.db"), **kw)
    table, tok1 = _new_table(store, seed=5)
    assert store.join(table.match_id, hash_token("two"))
    table.token_hashes[1] = hash_token("two")
    _play(store, table, [tok1, "two"], random.Random(3), 60)
    return store, table.match_id


def test_a_server_store_never_checkpoints_in_a_commit_and_its_thread_copies_the_log_back(tmp_path):
    store, match_id = _played_store(tmp_path, background_checkpoint=True)
    try:
        assert _autocheckpoint(store) == 0  # no commit ever copies the log back itself
        cp = store.checkpointer
        assert cp is not None and cp.thread.is_alive()
        deadline = time.monotonic() + 10
        while cp.runs == 0 and time.monotonic() < deadline:  # every PERIOD_S on its own
            time.sleep(0.05)
        assert cp.runs > 0
        busy, pages, copied = cp.checkpoint()
        assert busy == 0 and pages > 0 and copied == pages  # all of the log is in the file now
        version = store.load(match_id).version
    finally:
        store.close()
    assert not store.checkpointer.thread.is_alive()
    again = Store(sqlite_url(tmp_path / "g.db"))  # the data survived: the same table replays
    try:
        assert again.load(match_id).version == version
    finally:
        again.close()


def test_other_stores_keep_sqlites_own_checkpoints(tmp_path):
    store = Store(sqlite_url(tmp_path / "plain.db"))
    try:
        assert store.checkpointer is None
        assert _autocheckpoint(store) == 1000
    finally:
        store.close()


def test_a_failed_checkpoint_is_logged_and_the_thread_goes_on(tmp_path, caplog):
    bad = tmp_path / "not-a-database.db"
    bad.write_bytes(b"this is not an SQLite file" * 200)
    cp = WalCheckpointer(str(bad), period_s=0.02)
    try:
        with caplog.at_level(logging.ERROR, logger="gameweave.storage"):
            assert cp.checkpoint() is None  # refused by SQLite: logged, not raised
            time.sleep(0.1)
        assert cp.thread.is_alive()
        assert any("checkpoint of" in r.getMessage() and "DatabaseError" in r.getMessage() for r in caplog.records)
    finally:
        cp.close()


def test_the_servers_own_sqlite_store_checkpoints_in_the_background_and_stops_with_it(tmp_path):
    from fastapi.testclient import TestClient

    from gameweave.server.app import create_app

    app = create_app(data_dir=tmp_path, bot_delay=0)
    with TestClient(app) as c:
        assert c.post("/api/matches", json={"opponent": "friend"}).status_code == 201
        store = app.state.hub.db.store
        assert store.checkpointer is not None and store.checkpointer.thread.is_alive()
        assert _autocheckpoint(store) == 0
    assert not store.checkpointer.thread.is_alive()  # the server's shutdown closed the store

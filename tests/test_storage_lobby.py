"""Migration 0009 (issue 20: open tables and the quick-match queue): it creates the
tables of storage/schema.py, column for column, and goes down to 0007 and up again;
0011 adds the queue's browser key to a queue that has entries in it."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect

from pg import alembic_to as _alembic, empty_database

from gameweave.storage import Store
from gameweave.storage.schema import open_tables, queue_entries


@pytest.fixture
def empty_db(db_url):
    """A database with no schema yet (:func:`pg.empty_database`)."""
    with empty_database(db_url) as url:
        yield url


def test_migration_0009_makes_the_schemas_tables_and_goes_down_and_up(empty_db):
    Store(empty_db).close()  # to head
    eng = create_engine(empty_db)
    cols = {t.name: {c["name"] for c in inspect(eng).get_columns(t.name)} for t in (open_tables, queue_entries)}
    assert cols == {t.name: {c.name for c in t.columns} for t in (open_tables, queue_entries)}
    eng.dispose()
    _alembic(empty_db, "0007", down=True)
    eng = create_engine(empty_db)
    assert not {"open_tables", "queue_entries"} & set(inspect(eng).get_table_names())
    eng.dispose()
    _alembic(empty_db, "head")
    eng = create_engine(empty_db)
    assert {"open_tables", "queue_entries"} <= set(inspect(eng).get_table_names())
    eng.dispose()


def test_migration_0011_adds_the_browser_key_to_a_queue_with_entries_and_goes_down_and_up(empty_db):
    """An entry made before 0011 keeps waiting after the upgrade, with no browser key (it
    meets anyone, as before); the column goes away on the way down and comes back."""
    from sqlalchemy import text

    _alembic(empty_db, "0010")
    eng = create_engine(empty_db)
    with eng.begin() as conn:
        conn.execute(text(
            "INSERT INTO queue_entries (ticket_sha256, rules, clock, rated, account_id, name, address, rating, "
            "created_at, seen_at, status) VALUES ('ab', 'classic', NULL, false, NULL, 'Ana', '10.0.0.1', 1500, "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'waiting')"))
    eng.dispose()
    _alembic(empty_db, "head")
    eng = create_engine(empty_db)
    with eng.connect() as conn:
        assert conn.execute(text("SELECT status, browser_sha256 FROM queue_entries")).one() == ("waiting", None)
    eng.dispose()
    _alembic(empty_db, "0010", down=True)
    eng = create_engine(empty_db)
    assert "browser_sha256" not in {c["name"] for c in inspect(eng).get_columns("queue_entries")}
    eng.dispose()
    _alembic(empty_db, "head")

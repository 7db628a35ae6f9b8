"""Migration 0009 (issue 20: open tables and the quick-match queue): it creates the
tables of storage/schema.py, column for column, and goes down to 0007 and up again."""

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

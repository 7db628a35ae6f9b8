"""A fresh PostgreSQL database for a test: one helper for the storage tests, the
migration tests and the several-node tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def fresh_database(base_url: str, prefix: str = "gw_test") -> Iterator[str]:
    """Create ``<prefix>_<hex>`` on the PostgreSQL server of ``base_url`` (a SQLAlchemy
    URL); yields its URL; drops it afterwards (after ending every session still on it).
    An unreachable server raises here, so the test fails."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = :n AND pid <> pg_backend_pid()"), {"n": name})
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def alembic_to(url: str, target: str, down: bool = False) -> None:
    """Run the packaged migrations on ``url`` up (or ``down``) to revision ``target``."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from gameweave.storage.store import MIGRATIONS

    eng = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)
    eng.dispose()


@contextmanager
def empty_database(db_url: str) -> Iterator[str]:
    """A database with no schema yet, for a migration test: the SQLite file of ``db_url``
    (not made yet), or a new PostgreSQL database beside ``db_url``'s, dropped after."""
    if db_url.startswith("sqlite"):
        yield db_url
        return
    with fresh_database(db_url, "gw_mig") as url:
        yield url

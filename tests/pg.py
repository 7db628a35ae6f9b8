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

"""Storage of tables behind a small interface (:class:`Store`): SQLite by default,
PostgreSQL by URL; schema managed by the packaged Alembic migrations."""

from .store import MIGRATIONS, Store, StorageError, default_data_dir, migrate, resolve_url, sqlite_url

__all__ = ["MIGRATIONS", "Store", "StorageError", "default_data_dir", "migrate", "resolve_url", "sqlite_url"]

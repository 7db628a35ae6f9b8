"""Times as the database keeps them (UTC, timezone-aware) and as the wire gives them."""

from __future__ import annotations

from datetime import UTC, datetime


def _now() -> datetime:
    """Now, UTC."""
    return datetime.now(UTC)


def _iso(dt: datetime | None) -> str:
    """ISO-8601 to the second; a naive time (SQLite gives them back) is UTC; "" for None."""
    if dt is None:
        return ""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat(timespec="seconds")


__all__ = ["_iso", "_now"]

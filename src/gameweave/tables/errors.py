"""The one refusal of the house: :class:`TableError`, a protocol error code with a
sentence and the parameters the page fills into ``error.<code>`` (PROTOCOL §3, §4.4).

The referee (:mod:`~gameweave.tables.table`), the name and clock policy
(:mod:`~gameweave.tables.policy`) and the server raise it; the server's HTTP
``ApiError`` is a :class:`TableError` without a version.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A refused message.  ``code`` is the protocol's error code (``not_your_turn``,
    ``illegal``, ``stale``, ``bad_token``, ``deal_over``, ``deal_not_over``,
    ``match_over``, ``malformed`` …); ``message`` is safe to show to the sender (it never
    holds the opponent's hand or the stock order, R21); ``version`` the current state
    version or None; ``params`` the values the page fills into ``error.<code>``
    (issue 10: errors travel as a code plus parameters)."""

    def __init__(self, code: str, message: str, version: int | None = None, params: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version
        self.params = dict(params or {})


__all__ = ["TableError"]

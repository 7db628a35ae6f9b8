"""Replay of a finished deal for the page: every position with both hands (R21 allows it
only once the deal has ended).

``GET /api/matches/{match_id}/deals/{n}/replay`` (``Authorization: Bearer <seat token>``,
either seat; served by ``routes/matches.py``) answers the record download of PROTOCOL §3.6 plus:

* ``history``: the public history of the deal, one event per action, the same objects as
  ``view.history`` (``seat, action, kind, card, died, forced, meld, table, from_hand``);
* ``snapshots``: ``len(actions) + 1`` full-information snapshots
  (:func:`gameweave.engine.record.snapshot`): before the first action, then after each one.

The rules stay in Python: the page only draws what this returns.  Errors as for the
record: ``unknown_match``, ``bad_token``, ``unknown_deal``, ``deal_not_over`` (409).
"""

from __future__ import annotations

from typing import Any

from ..engine import GameRecord
from ..engine.record import snapshot
from ..engine.view import public_history


def replay_steps(download: dict[str, Any]) -> dict[str, Any]:
    """Add ``rearranging`` (the profile's R18 flag), ``history`` and ``snapshots`` to a
    finished deal's record download
    (``Table.record(n)``: ``{"record", "salt", "commitment", "result"}``).

    Raises :class:`~gameweave.engine.record.ReplayError` if the record does not replay
    (it always does for a record the table made).
    """
    rec = GameRecord.from_dict(download["record"])
    state = rec.start()
    snaps = []
    for _step, _text, before in rec.steps(state):
        snaps.append(snapshot(before))
    snaps.append(snapshot(state))
    history = [e.to_dict() for e in public_history(state)]
    return {**download, "rearranging": state.rules.rearranging, "history": history, "snapshots": snaps}


__all__ = ["replay_steps"]

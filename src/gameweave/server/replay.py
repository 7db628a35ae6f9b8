"""Replay of a finished deal for the page: every position with both hands (R21 allows it
only once the deal has ended).

``GET /api/matches/{match_id}/deals/{n}/replay`` (``Authorization: Bearer <seat token>``,
either seat; served by ``routes/matches.py``) answers the record download of PROTOCOL §3.6 plus:

* ``history``: the public history of the deal, one event per action, the same objects as
  ``view.history`` (``seat, action, kind, card, died, forced, meld, table, from_hand``);
* ``snapshots``: ``len(actions) + 1`` full-information snapshots
  (:func:`gameweave.engine.record.snapshot`): before the first action, then after each one;
* ``rearranging`` (the profile's R18 flag) and ``deals`` (the match's deals so far).

Both are built by applying the deal's own action ints (its state's history) to a fresh
deal of the same deck and opener: nothing is read back from §VII text.  The rules stay in
Python: the page only draws what this returns.  Errors as for the record:
``unknown_deal``, ``deal_not_over`` (409).
"""

from __future__ import annotations

from typing import Any

from ..engine import GameState
from ..engine.record import snapshot
from ..engine.view import apply_public
from ..tables import Table
from .frames import finished_deal, record_download


def replay_steps(table: Table, n: object) -> dict[str, Any]:
    """The replay of finished deal ``n`` of ``table`` (``schemas.ReplayOut``): the record
    download (:func:`~gameweave.server.frames.record_download`) plus ``rearranging``,
    ``history``, ``snapshots`` and ``deals``.

    Raises :class:`~gameweave.tables.TableError` ``unknown_deal`` or ``deal_not_over``.
    """
    n = finished_deal(table, n)
    played = table.deals[n - 1].state
    state = GameState.new(played.deck, opener=played.opener, rules=played.rules)
    snaps = []
    history = []
    for a in played.history:
        snaps.append(snapshot(state))
        history.append(apply_public(state, a).to_dict())
    snaps.append(snapshot(state))
    return {**record_download(table, n), "rearranging": state.rules.rearranging, "history": history,
            "snapshots": snaps, "deals": len(table.deals)}


__all__ = ["replay_steps"]

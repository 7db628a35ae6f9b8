"""What goes out on the wire about a table: the state frames of a seat and of a spectator
(PROTOCOL §4.3), the lobby summary (§3.5) and a finished deal's record download (§3.6).

Every function takes the :class:`~gameweave.tables.Table` first and builds plain dicts
(the WebSocket sends them hundreds of times a second, so no model is built on the hot
path); their shapes are the models of :mod:`gameweave.server.schemas` (``StateFrame``,
``Summary``, ``RecordDownload`` …), which document them in ``/openapi.json`` and which
the tests hold every real frame to.  Seats are 0/1 in the arguments, 1/2 on the wire.
Hidden information (R21): a seat's frame holds its own view only
(:func:`~gameweave.engine.seat_view`), a spectator's the third-party view; both hands
appear once the deal is over, and the deck and salt only then (``deal.reveal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..bots.ladder import ladder_rating
from ..engine import GameRecord, GameState, SeatView, seat_view, spectator_view
from ..tables import Table, TableError, deck_text, progress, seat_choices


def opponent_info(table: Table, seat: int, connected: bool = False) -> dict[str, Any]:
    """The ``match.opponent`` object for ``seat``: ``{"kind": "bot", "bot"}`` or
    ``{"kind": "person", "joined", "connected"}``."""
    if seat == 0 and table.opponent == "bot":
        return {"kind": "bot", "bot": table.bot}
    return {"kind": "person", "joined": table.joined, "connected": bool(connected)}


def score(table: Table) -> dict[str, int]:
    """``{"1": wins, "2": wins, "tablas": n}`` (R20)."""
    return {"1": table.match.wins[0], "2": table.match.wins[1], "tablas": table.match.tablas}


def stakes(table: Table) -> dict[str, Any] | None:
    """``{"points": {"1": n, "2": n}, "current_stake", "base", "tablas_stake"}`` for a
    stakes match (R20: stakes won per seat, the next deal's stake, the base stake,
    ``double`` or ``carry``), else None."""
    m = table.match
    if m.format != "stakes":
        return None
    return {"points": {"1": m.points[0], "2": m.points[1]}, "current_stake": m.current_stake,
            "base": m.stake, "tablas_stake": m.tablas_stake}


def seats_info(table: Table) -> dict[str, dict[str, Any]]:
    """Who plays each seat: ``{"1": {"kind": "person", "bot": None, "name": "Ana"},
    "2": {"kind": "bot", "bot": "greedy", "name": None}}`` (for a replay and the
    record, where either seat may look)."""
    two = {"kind": "bot", "bot": table.bot} if table.opponent == "bot" else {"kind": "person", "bot": None}
    return {"1": {"kind": "person", "bot": None, "name": table.names[0]}, "2": {**two, "name": table.names[1]}}


def players(table: Table, online: Sequence[bool] = (False, False)) -> dict[str, dict[str, Any]]:
    """The ``match.players`` object: per seat ``name`` (or None), ``kind``, ``bot``,
    ``online`` (given by the server: socket open and heard from lately; a bot is
    always online), ``away`` (two timeouts in a row), ``ready`` (moved on from
    the finished deal, or a bot) and ``rating`` (issue 20: ``{"rules", "rating", "rd",
    "provisional", "ladder"}`` of the seat's account, a bot level's measured ladder
    rating, or None; loaded with the table, never a database call per frame)."""
    info = seats_info(table)
    out = {}
    for s in (0, 1):
        person = table.has_person(s)
        rating = table.ratings[s] if person else ladder_rating(table.bot)
        out[str(s + 1)] = {
            "name": table.names[s], "kind": info[str(s + 1)]["kind"], "bot": info[str(s + 1)]["bot"],
            "online": bool(online[s]) if person else True, "away": table.away[s] if person else False,
            "ready": table.ready[s] or not person, "rating": rating,
        }
    return out


def watch_url(table: Table) -> str:
    """``/watch/<match_id>/<watch_key>``: the spectators' address."""
    return f"/watch/{table.match_id}/{table.watch_key}"


def invite_url(table: Table) -> str | None:
    """``/join/<match_id>/<invite>`` for friend matches, else None."""
    return f"/join/{table.match_id}/{table.invite}" if table.invite else None


def match_info(table: Table, seat: int | None, opponent_connected: bool = False, *,
               online: Sequence[bool] | None = None, clock: dict[str, Any] | None = None,
               spectators: int = 0) -> dict[str, Any]:
    """The ``match`` object of a state frame for ``seat`` (0/1, or None for a
    spectator: no invite, no watch address).  ``online`` per seat (default: the
    seat itself and ``opponent_connected`` for the other), ``clock`` the server's
    clock object (or None), ``spectators`` how many watch."""
    if online is None:
        online = [True, True] if seat is None else [False, False]
        if seat is not None:
            online[seat] = True
            online[1 - seat] = opponent_connected
    waiting = table.waiting_for()
    return {
        "id": table.match_id,
        "rules": table.rules,
        "format": table.format,
        "target": table.target,
        "score": score(table),
        "results": [w + 1 if w >= 0 else None for w in table.match.results],
        "deal_number": table.deal.number,
        "over": table.match_over,
        "winner": table.winner + 1 if table.winner >= 0 else None,
        "opponent": opponent_info(table, 0 if seat is None else seat,
                                  bool(online[1]) if seat is None else opponent_connected),
        "invite_url": invite_url(table) if seat == 0 and not table.joined else None,
        "stakes": stakes(table),
        "test": table.test,
        "players": players(table, online),
        "waiting_for": [s + 1 for s in waiting],
        "timed_out": ({"seat": table.timed_out[0] + 1, "version": table.timed_out[1]}
                      if table.timed_out and table.timed_out[1] == table.version else None),
        "last_deal": table.last_deal(),
        "resigned": table.resigned + 1 if table.resigned is not None else None,
        "abandoned": table.abandoned,
        "clock": clock,
        "watch_url": watch_url(table) if seat is not None else None,
        "spectators": spectators,
        "hints": table.hints_on,
        "rated": table.rated,
        "open_table": table.opponent == "friend" and table.invite is None and not table.joined
        and not table.match_over,
    }


def deal_info(table: Table, n: int | None = None) -> dict[str, Any]:
    """The ``deal`` object: number, commitment, and the reveal once it has ended."""
    d = table.deals[-1] if n is None else table.deals[n - 1]
    reveal = {"deck": deck_text(d.deck), "salt": d.salt} if d.over else None
    return {"number": d.number, "commitment": d.commitment, "reveal": reveal, "test": d.test,
            "resigned": d.resigned + 1 if d.resigned is not None else None}


def _shown_state(table: Table) -> GameState:
    """The current deal as seats and spectators are shown it: a copy ended by its
    resignation (:meth:`~gameweave.engine.GameState.concede`, R20: won by the other seat,
    the hands revealed, R21) or closed undecided with its match
    (:meth:`~gameweave.engine.GameState.close`: nobody to act, nothing revealed); the
    deal itself, and so its record, stay as played."""
    st = table.state
    if st.is_over or not (table.deal.over or table.match_over):
        return st
    st = st.clone()
    if table.deal.resigned is not None:
        st.concede(table.deal.resigned)
    else:
        st.close()
    return st


def _view(table: Table, seat: int) -> SeatView:
    """The seat's :class:`~gameweave.engine.SeatView` of :func:`_shown_state`."""
    return seat_view(_shown_state(table), seat, history=table.deal.history())


def state_frame(table: Table, seat: int, opponent_connected: bool = False, history: Any = None,
                **info: Any) -> dict[str, Any]:
    """The ``state`` frame for ``seat`` (0/1): version, match, deal, the seat's own
    view only (R21), its ``choices`` (one per legal action, in ``view.legal`` order)
    and the deal's ``progress`` (:mod:`gameweave.tables.choices`).  ``info``: the
    server's ``online``, ``clock`` and ``spectators`` for :func:`match_info`;
    ``history``: the view's history as :func:`wire_history` gives it for a frame that
    goes straight to :func:`~gameweave.server.connection.dump_frame` (default: dicts)."""
    view = _view(table, seat)
    return {
        "type": "state",
        "version": table.version,
        "seat": seat + 1,
        "match": match_info(table, seat, opponent_connected, **info),
        "deal": deal_info(table),
        "view": view.to_dict(table.deal.history_dicts() if history is None else history),
        "choices": [c.to_dict() for c in seat_choices(view)],
        "progress": progress(view),
    }


def spectator_frame(table: Table, history: Any = None, **info: Any) -> dict[str, Any]:
    """The ``state`` frame for a spectator (``"seat": null``): the third-party view
    (:func:`~gameweave.engine.view.spectator_view`, R21: no hand of either seat and
    no legal action until the deal ends, then both hands), no choices; ``history`` as
    for :func:`state_frame`."""
    sv = spectator_view(_shown_state(table), history=table.deal.history())
    view = sv.to_dict(table.deal.history_dicts() if history is None else history)
    return {
        "type": "state",
        "version": table.version,
        "seat": None,
        "match": match_info(table, None, **info),
        "deal": deal_info(table),
        "view": view,
        "choices": [],
        "progress": progress(sv),
    }


def wire_history(table: Table) -> orjson.Fragment:
    """The deal's public history as the JSON array :func:`state_frame` puts in, already
    encoded (:meth:`~gameweave.tables.deal.DealInfo.history_json`), for a frame bound
    for the wire: made once per step, shared by every seat and spectator."""
    return orjson.Fragment(table.deal.history_json())


def status_for(table: Table, seat: int) -> str:
    """``waiting_for_opponent``, ``your_turn``, ``their_turn``, ``deal_over``,
    ``match_over`` or ``abandoned`` from ``seat``'s side."""
    if table.abandoned:
        return "abandoned"
    if table.match_over:
        return "match_over"
    if not table.joined:
        return "waiting_for_opponent"
    if table.deal.over:
        return "deal_over"
    return "your_turn" if table.state.to_act == seat else "their_turn"


def summary(table: Table, seat: int) -> dict[str, Any]:
    """A lobby summary of the match for ``seat`` (PROTOCOL §3.5)."""
    return {
        "match_id": table.match_id,
        "seat": seat + 1,
        "rules": table.match.rules.name,
        "opponent": opponent_info(table, seat),
        "format": table.format,
        "target": table.target,
        "score": score(table),
        "over": table.match_over,
        "winner": table.winner + 1 if table.winner >= 0 else None,
        "deal_number": table.deal.number,
        "status": status_for(table, seat),
        "table_url": f"/table/{table.match_id}",
        "created_at": table.created_at,
        "stakes": stakes(table),
        "test": table.test,
        "players": players(table),
        "resigned": table.resigned + 1 if table.resigned is not None else None,
        "clock": table.clock,
    }


def finished_deal(table: Table, n: object) -> int:
    """The number ``n`` of a finished deal of ``table``.  Raises :class:`TableError`
    ``unknown_deal`` (no such deal) or ``deal_not_over`` (still being played)."""
    if not isinstance(n, int) or not 1 <= n <= len(table.deals):
        raise TableError("unknown_deal", f"this match has no deal {n}", params={"n": n})
    if not table.deals[n - 1].over:
        raise TableError("deal_not_over", f"deal {n} is still being played; its record comes when it ends",
                         params={"n": n})
    return n


def record_download(table: Table, n: object) -> dict[str, Any]:
    """The record download of finished deal ``n`` (1-based, PROTOCOL §3.6): §VII record,
    salt, commitment, result, ``test`` (dealt from a test deck: no fair-shuffle claim)
    and ``seats``.  Raises :class:`TableError` as :func:`finished_deal`."""
    d = table.deals[finished_deal(table, n) - 1]
    return {
        "record": GameRecord.from_state(d.state).to_dict(),
        "salt": d.salt,
        "commitment": d.commitment,
        "result": {"status": d.status, "winner": d.winner + 1 if d.winner >= 0 else None,
                   "resigned": d.resigned + 1 if d.resigned is not None else None},
        "test": d.test,
        "seats": seats_info(table),
    }


__all__ = [
    "deal_info", "finished_deal", "invite_url", "match_info", "opponent_info", "players", "record_download", "score",
    "seats_info", "spectator_frame", "stakes", "state_frame", "status_for", "summary", "watch_url", "wire_history",
]

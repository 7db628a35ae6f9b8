"""Advice for a seat (issue 11): a hint on its turn and the analysis of a finished deal.

Both are computed by :mod:`gameweave.bots.advice` in a worker thread (the event loop never
waits on a search) and from the seat's own view only (R21): a hint reads
:func:`~gameweave.engine.seat_view`, an analysis reads each deciding seat's view at that
moment (the deal has ended, but nothing hidden at the time enters the numbers).
Every route takes ``Authorization: Bearer <seat token>`` (either seat).

An analysis is :func:`~gameweave.bots.advice.analyze_record` with its defaults, exactly
as ``gameweave analyze`` runs it, so one record gives the same figures in the page, the
API and the terminal (issue 19); its ``chart`` is :func:`~gameweave.tables.chart.chart_geometry`,
the one code that places the win-chance graph's points (the page only draws them).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from ...bots.advice import analyze_record, hint, record_views
from ...engine import GameRecord, format_action, seat_view
from ...tables.chart import chart_geometry
from ...tables.choices import choice_of
from ..deps import HubDep, SeatDep
from ..errors import ApiError
from ..frames import record_download
from ..schemas import AnalysisOut, HintOut, error_responses

router = APIRouter(prefix="/api/matches/{match_id}", tags=["advice"],
                   responses=error_responses(401, 404, 422, 429))

HINT_LEVEL = "master"
"""The level whose estimates a hint shows."""

ANALYSIS_CACHE_SIZE = 64
"""How many deals' analyses stay cached (the oldest goes first)."""

ANALYSES_AT_ONCE = 1
"""Deals analysed at the same time at most (the others wait their turn)."""

_cache: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_cache_lock = threading.Lock()
_running: dict[tuple[str, int], threading.Event] = {}  # the analyses being computed
_analysing = threading.BoundedSemaphore(ANALYSES_AT_ONCE)


def _estimate_out(e: Any) -> dict[str, Any]:
    return {"id": e.action, "action": format_action(e.action), "win": round(e.win, 4), "tablas": round(e.tablas, 4),
            "loss": round(e.loss, 4), "score": round(e.score, 4)}


@router.get("/hint", response_model=HintOut, responses=error_responses(409))
async def get_hint(seat_of: SeatDep, hub: HubDep) -> dict:
    """Each legal action of the seat's current decision with its estimated win / tablas /
    loss chances (``score`` = win + tablas / 2, the *win chance*), best first, from the
    seat's own view (R21).  409 ``hints_off`` in a friend match whose seats did not agree
    to hints, ``not_your_turn`` when the seat has no decision now."""
    table, seat = seat_of
    async with hub.lock(table.match_id):
        table = hub.tables.get(table.match_id) or table
        if not table.hints_on:
            raise ApiError("hints_off", "hints were not agreed when this match was made")
        view = seat_view(table.state, seat)
        if table.deal.over or table.match_over or view.to_act != seat or not view.legal:
            raise ApiError("not_your_turn", "a hint is for your own decision, on your turn")
        version = table.version
        seed = (table.deal.number * 100_003 + version) % (2 ** 31)
    est = await run_in_threadpool(hint, view, HINT_LEVEL, seed)
    return {"version": version, "level": HINT_LEVEL, "estimates": [_estimate_out(e) for e in est],
            "best": format_action(est[0].action), "best_id": est[0].action}


def _analysis(key: tuple[str, int], record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of ``key`` (match id, deal number) from its ``record``: from the
    cache, or computed once however many ask at the same time (the others wait for it),
    and at most :data:`ANALYSES_AT_ONCE` deals at a time (an analysis is seconds of CPU:
    repeated requests must not each pay for it, nor hold up the event loop)."""
    with _cache_lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
            return got
        running = _running.get(key)
        mine = running is None
        if mine:
            running = _running[key] = threading.Event()
    assert running is not None
    if not mine:
        running.wait()
        with _cache_lock:
            got = _cache.get(key)
        if got is not None:
            return got
        return _analysis(key, record)  # the first one failed: this one tries
    try:
        with _analysing:
            out = _compute(record)
        with _cache_lock:
            _cache[key] = out
            while len(_cache) > ANALYSIS_CACHE_SIZE:
                _cache.popitem(last=False)
        return out
    finally:
        with _cache_lock:
            _running.pop(key, None)
        running.set()


def _compute(record: dict[str, Any]) -> dict[str, Any]:
    rec = GameRecord.from_dict(record)
    analysis = analyze_record(rec)  # the defaults, as `gameweave analyze` (issue 19)
    out = analysis.to_dict()
    # the best alternative described as data by the one module that describes choices
    views = {step: view for step, view, _ in record_views(rec)}
    for d, d_out in zip(analysis.decisions, out["decisions"]):
        d_out["played_id"], d_out["best_id"] = d.played.action, d.best.action
        d_out["best_choice"] = choice_of(views[d.step], d.best.action).to_dict()
    out["steps"] = len(rec.actions)
    out["chart"] = chart_geometry(out["decisions"], len(rec.actions))
    return out


@router.get("/deals/{n}/analysis", response_model=AnalysisOut, responses=error_responses(409))
async def get_analysis(n: int, seat_of: SeatDep) -> dict:
    """The analysis of finished deal ``n``: for each decision of both seats (more than one
    legal action) the action played and its win chance, the best action and its win
    chance, the drop and whether it is a mistake (a drop of 10 points or more), and the
    win-chance graph's geometry (``chart``).  Each decision is judged from the deciding
    seat's view then (R21); the figures equal ``gameweave analyze``'s on the deal's
    record.  Cached per deal.
    ``status`` and ``winner`` are the deal's result (a resigned deal is won by the other
    seat, R20).  ``unknown_deal`` (404), ``deal_not_over`` (409)."""
    table, _seat = seat_of
    download = record_download(table, n)
    out = await run_in_threadpool(_analysis, (table.match_id, n), download["record"])
    result = download["result"]  # a resigned deal's record stops where a seat resigned (R20)
    return {"deal": n, **out, "status": result["status"], "winner": result["winner"]}


__all__ = ["ANALYSIS_CACHE_SIZE", "HINT_LEVEL", "router"]

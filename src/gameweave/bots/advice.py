"""Advice for people: hints during a deal and the analysis of a finished one (issue 11).

The whole API (used by ``gameweave analyze``; the server, the page and ``gameweave play``
call the same functions):

* :func:`hint` ``(view, level_or_bot="master", seed=0)`` -> the estimate of every legal
  action of a seat's view, best first (:class:`~gameweave.bots.base.ActionEstimate`:
  ``action``, ``win``, ``tablas``, ``loss``, ``samples``, ``score``).
* :func:`analyze_record` ``(record, ...)`` -> :class:`Analysis`: for each decision of a
  deal (more than one legal action) the action played and its win chance, the best
  alternative and its win chance, and a mistake flag (a drop of :data:`MISTAKE_DROP`,
  ten points, or more).  :meth:`Analysis.to_dict` is its JSON form.

The *win chance* of an action is its expected result ``win + tablas / 2`` (0..1), shown
as a percentage.  Everything is computed from the deciding seat's view at that moment
(:func:`~gameweave.engine.seat_view`, R21): a hint never sees the opponent's hand or the
stock order, and the analysis of a decision uses only what that seat saw then, even
though a record holds the whole deck.  Both are pure functions of (seed, view) — two
states with the same view give the same numbers.

The same record gives the same figures wherever it is analysed (issue 19): the page (the
server's route), ``gameweave analyze`` and the API all call :func:`analyze_record` with
its defaults (:data:`ANALYSIS_LEVEL`, :data:`ANALYSIS_SEED`, :data:`ANALYSIS_WORLDS`), and
each decision's random numbers are seeded from that base seed and the deciding seat's
view then (:func:`~gameweave.bots.base.view_key`: its hand and the public history, so one
seed per record and decision).  The seed never reads the deck order or the salt, which
were hidden when the decision was made (R21).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine import GameRecord, GameState, SeatView, format_action, seat_view
from .base import ActionEstimate, Bot
from .levels import make_level
from .search import SearchBot

MISTAKE_DROP = 0.10
"""A decision is a mistake when the best alternative's win chance exceeds the played
action's by this much (ten percentage points) or more."""

ANALYSIS_WORLDS = 400
"""Sampled worlds per action for each analysed decision (common to every action)."""

ANALYSIS_LEVEL = "master"
"""The level whose search analyses a deal unless another is asked for (the page's and
``gameweave analyze``'s)."""

ANALYSIS_SEED = 0
"""The base seed of every analysis unless another is asked for: with the deciding seat's
view it seeds each decision (see the module's docstring)."""


def _advisor(level_or_bot: str | Bot, seed: int) -> Bot:
    if isinstance(level_or_bot, Bot):
        return level_or_bot
    return make_level(level_or_bot, seed=seed)


def hint(view: SeatView, level_or_bot: str | Bot = "master", seed: int = 0) -> list[ActionEstimate]:
    """Every legal action of ``view`` with its estimate, best first (highest ``score``;
    ties in legal order).  ``level_or_bot`` is a level name (:func:`level_names`) or a
    bot; the estimate is that bot's :meth:`~gameweave.bots.base.Bot.estimate`, from the
    view only (R21).  Raises :class:`ValueError` if the view has no legal actions (not
    the seat's turn) or the level is unknown."""
    est = _advisor(level_or_bot, seed).estimate(view)
    order = {e.action: i for i, e in enumerate(est)}
    return sorted(est, key=lambda e: (-e.score, order[e.action]))


@dataclass(frozen=True)
class DecisionAnalysis:
    """One analysed decision.

    Attributes: ``step`` (1-based index of the action in the record), ``seat`` (0/1),
    ``decision`` (its name, e.g. ``throw``), ``legal`` (how many legal actions),
    ``played`` and ``best`` (:class:`ActionEstimate` of the action played and of the best
    action), ``drop`` (``best.score - played.score``, >= 0) and ``mistake``
    (``drop >= MISTAKE_DROP``)."""

    step: int
    seat: int
    decision: str
    legal: int
    played: ActionEstimate
    best: ActionEstimate
    drop: float
    mistake: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: seat numbered 1/2, actions as §VII text, chances rounded."""
        return {
            "step": self.step,
            "seat": self.seat + 1,
            "decision": self.decision,
            "legal": self.legal,
            "played": format_action(self.played.action),
            "played_win_chance": round(self.played.score, 4),
            "played_chances": _chances(self.played),
            "best": format_action(self.best.action),
            "best_win_chance": round(self.best.score, 4),
            "best_chances": _chances(self.best),
            "drop": round(self.drop, 4),
            "mistake": self.mistake,
            "samples": self.played.samples,
        }


def _chances(e: ActionEstimate) -> dict[str, float]:
    return {"win": round(e.win, 4), "tablas": round(e.tablas, 4), "loss": round(e.loss, 4)}


@dataclass
class Analysis:
    """The analysis of one deal: ``rules``, ``decisions`` (:class:`DecisionAnalysis`, in
    play order), ``status`` and ``winner`` of the deal as recorded (``winner`` -1 when
    none), the advisor's ``level`` and ``seed``, and ``seconds`` it took."""

    rules: str
    decisions: list[DecisionAnalysis] = field(default_factory=list)
    status: str = "playing"
    winner: int = -1
    level: str = "master"
    seed: int = 0
    seconds: float = 0.0

    def mistakes(self, seat: int | None = None) -> list[DecisionAnalysis]:
        """The decisions flagged as mistakes (of ``seat`` only, when given)."""
        return [d for d in self.decisions if d.mistake and (seat is None or d.seat == seat)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``decisions`` as :meth:`DecisionAnalysis.to_dict`)."""
        return {
            "rules": self.rules,
            "status": self.status,
            "winner": self.winner + 1 if self.winner >= 0 else None,
            "level": self.level,
            "seed": self.seed,
            "mistake_drop": MISTAKE_DROP,
            "decisions": [d.to_dict() for d in self.decisions],
            "mistakes": {str(s + 1): len(self.mistakes(s)) for s in (0, 1)},
            "seconds": round(self.seconds, 2),
        }


def analyze_views(steps: Iterable[tuple[int, SeatView, int]], advisor: Bot) -> list[DecisionAnalysis]:
    """Analyse ``(step, view, action_played)`` triples with ``advisor``'s estimates (R21:
    each from its view only).  Views with a single legal action are skipped."""
    out = []
    for step, view, played in steps:
        if len(view.legal) < 2:
            continue
        est = advisor.estimate(view)
        by_action = {e.action: e for e in est}
        p = by_action[played]
        best = max(est, key=lambda e: e.score)
        if best.score <= p.score:
            best = p
        drop = best.score - p.score
        out.append(DecisionAnalysis(step, view.seat, view.decision or "", len(view.legal), p, best, drop,
                                    drop >= MISTAKE_DROP - 1e-9))
    return out


def record_views(record: GameRecord, seats: Iterable[int] = (0, 1)) -> list[tuple[int, SeatView, int]]:
    """``(step, view, action)`` for every action of ``record`` taken by one of ``seats``:
    the acting seat's view just before it (R21) and the action played.  Raises
    :class:`~gameweave.engine.ReplayError` at an unparsable or illegal action."""
    wanted = set(seats)
    out = []
    state = record.start()
    for step, text, st in record.steps(state):
        seat = st.to_act
        if seat in wanted:
            out.append((step, seat_view(st, seat), st.parse(text)))
    return out


def _analysis_bot(level: str, seed: int, worlds: int) -> SearchBot:
    """The search that analyses for ``level``: the level's own search when it is one,
    else the master's, with ``worlds`` worlds per action."""
    bot = make_level(level, seed=seed)
    if not isinstance(bot, SearchBot):
        master = make_level("master", seed=seed)
        bot = master if isinstance(master, SearchBot) else SearchBot(seed=seed)
    return SearchBot(seed=seed, iterations=bot.iterations, informed=bot.informed, policy=bot.policy,
                     estimate_worlds=worlds)


def analyze_record(record: GameRecord, level: str = ANALYSIS_LEVEL, seed: int = ANALYSIS_SEED,
                   seats: Iterable[int] = (0, 1),
                   worlds: int = ANALYSIS_WORLDS,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse one deal record (finished or not): each decision of ``seats`` with the
    estimates of level ``level``'s search (its sampler and playouts, ``worlds`` sampled
    worlds per action; weaker levels are advised by the master's search), from the
    deciding seat's view only (R21).  ``progress(done, total)`` is called after each
    decision.  Deterministic: each decision's numbers depend on ``seed`` and the deciding
    seat's view only, not on which seats or decisions are analysed with it, so the same
    record and arguments give the same figures in the page, the API and the terminal.
    Raises :class:`~gameweave.engine.ReplayError` for a bad action and
    :class:`ValueError` for an unknown level."""
    t0 = time.perf_counter()
    advisor = _analysis_bot(level, seed, worlds)
    steps = [s for s in record_views(record, seats) if len(s[1].legal) > 1]
    decisions: list[DecisionAnalysis] = []
    for i, s in enumerate(steps, 1):
        decisions.extend(analyze_views([s], advisor))
        if progress:
            progress(i, len(steps))
    final: GameState = record.replay()
    return Analysis(rules=record.rules, decisions=decisions, status=final.status, winner=final.winner,
                    level=level, seed=seed, seconds=time.perf_counter() - t0)


__all__ = ["ANALYSIS_LEVEL", "ANALYSIS_SEED", "ANALYSIS_WORLDS", "MISTAKE_DROP", "Analysis", "DecisionAnalysis", "analyze_record", "analyze_views",
           "hint", "record_views"]

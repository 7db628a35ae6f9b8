"""The arena: bots play each other over many deals, and the results come with error bars.

Each of ``N`` deals is dealt from a deck order derived from the arena seed and played
**twice, with seats swapped** (bot 1 in seat 1, then bot 1 in seat 2, same deck), so the
luck of the cards largely cancels: ``N`` deals are ``2 N`` games.  Deal ``i`` uses deck
``shuffled_deck(f"{seed}:{i}")``; its first game has seat 1 open (R9), the second too (the
bots swap seats, the deck and the opener stay).  Bot seeds are derived from the arena
seed, the deal and the game, so results are identical for any number of worker processes.

Bots see only their seat's view (R21): :func:`play_game` hands each bot
``seat_view(state, seat)`` and applies its answer with the checked :meth:`GameState.play`.

Statistics (:func:`summarize`): wins, tablas and losses per bot over the ``2 N`` games,
each with a 95 % Wilson score interval; the *win share* of decided games (wins / (wins +
losses)) with its interval; an Elo difference from the score ``(wins + tablas/2) / games``;
and the median and 95th percentile of each bot's decision time in milliseconds (only
decisions with more than one legal action are timed: a forced move is no decision).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Iterable

from .bots import make_bot
from .engine import GameState, Rules, find_profile, seat_view, shuffled_deck


@dataclass
class GameResult:
    """One arena game: ``deal`` index, ``swap`` (False: bot 1 in seat 1), ``winner_bot``
    (0 = bot 1, 1 = bot 2, -1 = tablas), ``times`` (per bot, decision seconds), ``actions``."""

    deal: int
    swap: bool
    winner_bot: int
    times: tuple[list[float], list[float]]
    actions: int


def deal_deck(seed: int, deal: int) -> tuple[int, ...]:
    """Deck order (R8) of arena deal ``deal`` under arena ``seed``."""
    return shuffled_deck(f"arena:{seed}:{deal}")


def deal_opener(seed: int, deal: int, rules: Rules | str = "gameweave") -> int:
    """Seat index that opens both games of arena deal ``deal`` (R9): seat 1 where the
    profile says so, else drawn from the arena seed (R20, "drawn at random")."""
    if find_profile(rules).first_opener != "random":
        return 0
    return random.Random(f"arena:{seed}:{deal}:opener").randrange(2)


def _bot_seed(seed: int, deal: int, game: int, which: int) -> int:
    return (seed * 1_000_003 + deal * 4 + game * 2 + which) & 0x7FFFFFFF


def play_game(bot_names: tuple[str, str], deck: tuple[int, ...], swap: bool, seeds: tuple[int, int],
              options: tuple[dict[str, Any], dict[str, Any]] = ({}, {}), rules: Rules | str = "gameweave",
              opener: int = 0) -> tuple[int, tuple[list[float], list[float]], int]:
    """Play one deal between two bots by name under a profile (§V); bot 1 sits in seat 1
    unless ``swap``; seat index ``opener`` opens.

    Returns ``(winner_bot, times, actions)``: the winning bot (0/1) or -1 for tablas (R17),
    each bot's decision times in seconds (decisions with more than one legal action), and
    the number of actions.  Raises :class:`RuntimeError` if a bot answers an illegal action.
    """
    bots = [make_bot(bot_names[i], seed=seeds[i], **options[i]) for i in (0, 1)]
    seat_bot = (1, 0) if swap else (0, 1)
    st = GameState.new(deck, opener=opener, rules=rules)
    times: tuple[list[float], list[float]] = ([], [])
    n = 0
    while not st.is_over:
        seat = st.to_act
        b = seat_bot[seat]
        view = seat_view(st, seat)
        if len(view.legal) == 1:
            a = view.legal[0]
        else:
            t0 = time.perf_counter()
            a = bots[b].choose(view)
            times[b].append(time.perf_counter() - t0)
        if a not in view.legal:
            raise RuntimeError(f"bot {bot_names[b]!r} chose an illegal action {a!r}")
        st.apply(a)
        n += 1
    winner = -1 if st.winner < 0 else seat_bot[st.winner]
    return winner, times, n


DealTask = tuple[tuple[str, str], int, int, tuple[dict[str, Any], dict[str, Any]], str]
"""One arena deal for a worker: ``(bot names, arena seed, deal, options, profile name)``."""


def _play_deal(args: DealTask) -> list[GameResult]:
    names, seed, deal, options, rules = args
    deck = deal_deck(seed, deal)
    opener = deal_opener(seed, deal, rules)
    out: list[GameResult] = []
    for game, swap in enumerate((False, True)):
        seeds = (_bot_seed(seed, deal, game, 0), _bot_seed(seed, deal, game, 1))
        w, times, n = play_game(names, deck, swap, seeds, options, rules, opener)
        out.append(GameResult(deal, swap, w, times, n))
    return out


def run_arena(bot1: str, bot2: str, deals: int, *, seed: int = 0, jobs: int = 1,
              options: tuple[dict[str, Any], dict[str, Any]] = ({}, {}), rules: Rules | str = "gameweave",
              progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play ``deals`` deals under the profile ``rules`` (§V), each twice with seats swapped;
    returns the ``2 * deals`` games in deal order.  Both games of a deal have the same
    opener (:func:`deal_opener`).  ``jobs`` > 1 uses that many worker processes; the results do not depend on
    it.  ``progress(k)`` is called after each finished deal with ``k`` = deals done.
    Raises :class:`ValueError` for an unknown bot or ``deals`` < 1 and
    :class:`~gameweave.engine.UnknownProfileError` for an unknown profile.
    """
    rules = find_profile(rules).name
    if deals < 1:
        raise ValueError("deals must be at least 1")
    for name in (bot1, bot2):
        make_bot(name)  # unknown name -> ValueError, before any process starts
    names = (bot1, bot2)
    tasks: list[DealTask] = [(names, seed, d, options, rules) for d in range(deals)]
    results: list[GameResult] = []
    done = 0
    if jobs <= 1:
        for t in tasks:
            results.extend(_play_deal(t))
            done += 1
            if progress:
                progress(done)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        for res in ex.map(_play_deal, tasks, chunksize=max(1, min(8, deals // (jobs * 8) or 1))):
            results.extend(res)
            done += 1
            if progress:
                progress(done)
    return results


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval ``(low, high)`` of a proportion ``k / n``; ``(0, 1)`` if n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_diff(score: float) -> float:
    """Elo difference implied by a score share in (0, 1) (``+inf``/``-inf`` at the ends
    are clamped to +-800)."""
    if score <= 0:
        return -800.0
    if score >= 1:
        return 800.0
    return max(-800.0, min(800.0, -400.0 * math.log10(1 / score - 1)))


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


def labels(bot1: str, bot2: str) -> tuple[str, str]:
    """Names to report the two bots under (suffixed ``#1``/``#2`` when equal)."""
    if bot1 == bot2:
        return f"{bot1}#1", f"{bot2}#2"
    return bot1, bot2


def summarize(bot1: str, bot2: str, games: Iterable[GameResult], deals: int | None = None,
              rules: str | None = None) -> dict[str, Any]:
    """The arena's numbers as one JSON-ready dict.

    Keys: ``deals`` (deck orders; games = 2 x deals), ``games``, ``bots``, ``wins``,
    ``tablas``, ``losses`` (per bot label, counts), ``win_share`` (per bot, wins / decided
    games), ``ci95`` (per bot: ``win``, ``tablas``, ``loss`` and ``win_share`` Wilson
    intervals), ``elo`` (bot 1 minus bot 2 from the score, a tablas counting half (R17),
    with a 95 % interval from the score's interval), ``elo_decided`` (bot 1 minus bot 2
    from the win share of decided games, with its interval from that share's Wilson
    interval: tablas left out, as a match that replays them counts them), ``decision_ms`` (per bot: ``median``, ``p95``, ``max``, ``n``); and
    ``rules`` (the profile name) when ``rules`` is given.
    """
    games = list(games)
    l1, l2 = labels(bot1, bot2)
    n = len(games)
    w1 = sum(1 for g in games if g.winner_bot == 0)
    w2 = sum(1 for g in games if g.winner_bot == 1)
    t = n - w1 - w2
    decided = w1 + w2
    t1 = [x for g in games for x in g.times[0]]
    t2 = [x for g in games for x in g.times[1]]

    def ms(xs: list[float]) -> dict[str, float]:
        return {
            "median": round(statistics.median(xs) * 1000, 3) if xs else 0.0,
            "p95": round(_pct(xs, 0.95) * 1000, 3),
            "max": round(max(xs) * 1000, 3) if xs else 0.0,
            "n": len(xs),
        }

    def r(x: float) -> float:
        return round(x, 4)

    score = (w1 + 0.5 * t) / n if n else 0.5
    slo, shi = wilson(int(round(w1 + 0.5 * t)), n)
    out = {
        "bots": [l1, l2],
        "deals": deals if deals is not None else len({g.deal for g in games}),
        "games": n,
        "wins": {l1: w1, l2: w2},
        "tablas": {l1: t, l2: t},
        "losses": {l1: w2, l2: w1},
        "win_share": {l1: r(w1 / decided) if decided else None, l2: r(w2 / decided) if decided else None},
        "ci95": {
            l1: {"win": [r(x) for x in wilson(w1, n)], "tablas": [r(x) for x in wilson(t, n)],
                 "loss": [r(x) for x in wilson(w2, n)], "win_share": [r(x) for x in wilson(w1, decided)]},
            l2: {"win": [r(x) for x in wilson(w2, n)], "tablas": [r(x) for x in wilson(t, n)],
                 "loss": [r(x) for x in wilson(w1, n)], "win_share": [r(x) for x in wilson(w2, decided)]},
        },
        "elo": {"diff": round(elo_diff(score), 1), "ci95": [round(elo_diff(slo), 1), round(elo_diff(shi), 1)],
                "score": r(score), "of": l1, "over": l2},
        "elo_decided": _elo_of_share(w1, decided, l1, l2),
        "decision_ms": {l1: ms(t1), l2: ms(t2)},
    }
    if rules is not None:
        out["rules"] = find_profile(rules).name
    return out


def _elo_of_share(wins: int, decided: int, l1: str, l2: str) -> dict[str, Any]:
    """Elo of ``wins`` out of ``decided`` games (0.5 when none), with the Wilson interval's
    ends mapped the same way."""
    share = wins / decided if decided else 0.5
    lo, hi = wilson(wins, decided) if decided else (0.0, 1.0)
    return {"diff": round(elo_diff(share), 1), "ci95": [round(elo_diff(lo), 1), round(elo_diff(hi), 1)],
            "share": round(share, 4), "of": l1, "over": l2}


def report_lines(summary: dict[str, Any]) -> list[str]:
    """Plain-text lines of a :func:`summarize` result for the terminal."""
    l1, l2 = summary["bots"]
    s = summary
    head = f"{s['deals']} deals x 2 seatings = {s['games']} games"
    if s.get("rules", "gameweave") != "gameweave":
        head += f" ({s['rules']} rules)"
    out = [head]
    out.append(f"{'bot':<12} {'wins':>6} {'95% CI':>15} {'tablas':>7} {'losses':>7} {'win share':>10} {'95% CI':>15}"
               f" {'median ms':>10} {'p95 ms':>8}")
    for lab in (l1, l2):
        ci = s["ci95"][lab]
        ws = s["win_share"][lab]
        out.append(
            f"{lab:<12} {s['wins'][lab]:>6} {_ci(ci['win']):>15} {s['tablas'][lab]:>7} {s['losses'][lab]:>7} "
            f"{(f'{ws:.1%}' if ws is not None else '-'):>10} {_ci(ci['win_share']):>15} "
            f"{s['decision_ms'][lab]['median']:>10.2f} {s['decision_ms'][lab]['p95']:>8.2f}"
        )
    e = s["elo"]
    out.append(f"Elo difference from the score, a tablas counting half ({l1} - {l2}): {_elo(e['diff'])} "
               f"(95% CI {_elo(e['ci95'][0])} .. {_elo(e['ci95'][1])})")
    d = s["elo_decided"]
    out.append(f"Elo of decided games, tablas left out ({l1} - {l2}): {_elo(d['diff'])} "
               f"(95% CI {_elo(d['ci95'][0])} .. {_elo(d['ci95'][1])})")
    return out


def _elo(x: float) -> str:
    """An Elo figure for people: a sign, no ``-0``, and ``≥+800`` / ``≤-800`` at the clamp."""
    if x >= 800:
        return "≥+800"
    if x <= -800:
        return "≤-800"
    n = int(round(x))
    return f"{n:+d}" if n else "0"


def _ci(pair: list[float]) -> str:
    return f"{pair[0]:.1%}-{pair[1]:.1%}"


__all__ = ["GameResult", "deal_deck", "deal_opener", "play_game", "run_arena", "summarize", "report_lines", "wilson", "elo_diff"]

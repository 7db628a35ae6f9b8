"""``gameweave replay`` and ``gameweave demo``: records read back, deals shown step by step.

``replay`` reads deal records, match records and the table's record download (RULES
§VII), in any profile (§V): the record names its profile, or ``--rules`` gives it.  Steps
are told by the narrator (:mod:`gameweave.tables.words`) from the engine's public events
(:class:`~gameweave.engine.PublicEvent`), never by re-reading action text.  Both speak the
user's language (``--lang``, else the locale; ``replay.*`` and ``words.*`` in the
catalogs); errors are English lines on stderr, and JSON is the same in every language.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import IO, Any

import typer

from ..engine import (
    CARD_NAMES, GameRecord, GameState, GameweaveError, Match, MatchRecord, ReplayError, Rules, find_profile,
    format_cards, public_history, snapshot,
)
from ..engine.record import json_objects
from ..i18n import DEFAULT_LANGUAGE, translate
from ..tables import profile_title
from ..tables.words import LETTERS, decision_words, history_lines
from .app import RULES_HELP, app
from .common import error, language_or_exit, options_or_exit, profile_or_exit, read_records, resigned_seat

LANG_HELP = "Language: es or en (default: from the locale, LANGUAGE / LC_ALL / LC_MESSAGES / LANG)."


def _w(key: str, lang: str, **params: object) -> str:
    """A line of ``replay`` / ``demo`` (``replay.<key>``) in ``lang``."""
    return translate(f"replay.{key}", lang, **params)


def _seat_lines(state: GameState, indent: str = "  ", lang: str = DEFAULT_LANGUAGE) -> list[str]:
    lines = []
    for s in (0, 1):
        melds = "  ".join(f"[{format_cards(m)}]" for m in state.melds[s]) or _w("no_melds", lang)
        hand = format_cards(state.hands[s]) or _w("empty", lang)
        lines.append(indent + _w("seat_line", lang, n=s + 1, hand=hand, count=state.table_counts[s], melds=melds))
    return lines


def result_text(state: GameState, lang: str = DEFAULT_LANGUAGE, resigned: int | None = None) -> str:
    """One line saying how a deal stands: winner (``resigned``: the seat, 1 or 2, whose
    resignation ended it, R20), tablas, or who must decide what."""
    if state.status == "won" and resigned is not None:
        return _w("result.won_resigned", lang, n=state.winner + 1, resigned=resigned)
    if state.status == "won":
        return _w("result.won", lang, n=state.winner + 1)
    if state.status == "tablas":
        return _w("result.tablas", lang)
    centre = ""
    if state.forced >= 0:
        centre = _w("centre.forced", lang, card=CARD_NAMES[state.forced])
    elif state.card >= 0:
        centre = _w("centre.card", lang, card=CARD_NAMES[state.card])
        if state.live_from >= 0:
            centre += _w("centre.let_go", lang, n=state.live_from + 1)
    return _w("result.playing", lang, n=state.to_act + 1, decision=decision_words(state.decision, lang),
              centre=centre)


def step_lines(state: GameState, first: int = 1, indent: str = "  ", lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Numbered plain words for every applied action of a deal, told by the narrator
    from its public events as the record's log (§VII letters)."""
    lines = history_lines(public_history(state), state.status, None, lang, look=LETTERS)
    return [f"{indent}{i + first - 1:3}. {words}" for i, words in enumerate(lines, 1)]


def match_format_text(match: Match, lang: str = DEFAULT_LANGUAGE) -> str:
    """The match's format in words (R20), e.g. ``stakes, base 1, doubled after tablas``."""
    if match.format == "first_to":
        return _w("format.first_to", lang, n=match.target)
    if match.format == "stakes":
        return _w(f"format.stakes_{'double' if match.tablas_stake == 'double' else 'carry'}", lang, base=match.stake)
    return _w("format.tally", lang)


def match_result_lines(match: Match, indent: str = "  ", lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """How a match stands (R20): wins and tablas, the match winner, stakes."""
    w = match.wins
    lines = [indent + _w("match.line", lang, format=match_format_text(match, lang), first=w[0], second=w[1],
                         tablas=match.tablas)]
    if match.format == "first_to":
        if match.is_over:
            lines.append(indent + _w("match.winner", lang, n=match.winner + 1, won=w[match.winner],
                                     lost=w[1 - match.winner]))
        else:
            lines.append(indent + _w("match.not_over", lang, n=match.target))
    elif match.format == "stakes":
        p = match.points
        bal = match.balance(0)
        lead = _w("lead.even", lang) if bal == 0 else _w("lead.up", lang, n=1 if bal > 0 else 2, points=abs(bal))
        lines.append(indent + _w("match.stakes", lang, first=p[0], second=p[1], lead=lead, stake=match.current_stake))
    else:
        lead = _w("lead.even", lang) if w[0] == w[1] else _w("lead.leads", lang, n=1 if w[0] > w[1] else 2)
        lines.append(indent + _w("match.tally", lang, lead=lead))
    return lines


def match_json(match: Match, stakes: list[int]) -> dict[str, Any]:
    """The ``{"match": …}`` object ``replay --json`` prints after a match record's deals."""
    return {"match": {
        "rules": match.rules.name,
        "first_opener": match.first_opener + 1,
        "options": match.options,
        "results": [r + 1 if r >= 0 else None for r in match.results],
        "stakes": stakes if match.format == "stakes" else None,
        "wins": {"1": match.wins[0], "2": match.wins[1]},
        "tablas": match.tablas,
        "points": {"1": match.points[0], "2": match.points[1]} if match.format == "stakes" else None,
        "next_stake": match.current_stake if match.format == "stakes" else None,
        "over": match.is_over,
        "winner": match.winner + 1 if match.is_over else None,
    }}


def _new_match(rec: MatchRecord) -> Match:
    o = rec.options
    return Match(rules=find_profile(rec.rules), format=o.get("match", ""), target=o.get("target", 0),
                 stake=o.get("stake", 0), tablas_stake=o.get("tablas_stake", ""),
                 first_opener=rec.first_opener)


def _play_deal(rec: GameRecord, out: IO[str], as_json: bool, trace: bool) -> tuple[GameState, ReplayError | None]:
    """Replay one deal record; prints JSON snapshots before each step (``--json --trace``).
    Returns the state reached and the error that stopped it, if any."""
    state = rec.start()
    try:
        for _step, _text, before in rec.steps(state):
            if trace and as_json:
                out.write(json.dumps(snapshot(before), ensure_ascii=False) + "\n")
    except ReplayError as exc:
        return state, exc
    return state, None


def _replay_error(n: int, exc: ReplayError, deal: int | None = None) -> str:
    where = f"record {n}" + (f", deal {deal}" if deal is not None else "")
    return f"{where}, step {exc.step}, action {exc.action!r}: {exc.cause}"


def _record_header(n: int, rec: Any, match: Match | None, lang: str) -> str:
    """The first line of a record's report: its profile, format (R20), opener and length."""
    if match is not None:
        deals = _w("deals_one" if len(rec.deals) == 1 else "deals_many", lang, count=len(rec.deals))
        return _w("record.match", lang, n=n, rules=profile_title(rec.rules, lang), format=match_format_text(match, lang),
                  opener=rec.first_opener + 1, deals=deals)
    return _w("record.deal", lang, n=n, rules=profile_title(rec.rules, lang), opener=rec.opener + 1, actions=len(rec.actions))


def _deal_text(state: GameState, indent: str, lang: str, resigned: int | None = None) -> str:
    """Where a deal ended up: the result, both seats, the stock."""
    stock = _w("stock_one" if state.stock_count == 1 else "stock_many", lang, count=state.stock_count)
    return (f"{indent[:-2]}  {_w('result', lang, text=result_text(state, lang, resigned))}\n"
            + "\n".join(_seat_lines(state, indent, lang)) + f"\n{indent}{stock}\n")


def _stake_text(match: Match, state: GameState, paid: int, lang: str) -> str:
    """Who won a deal's stake, or that it stays unpaid after tablas, and the next (R20)."""
    if state.status == "won":
        return _w("stake.won", lang, n=state.winner + 1, paid=paid, stake=match.current_stake)
    how = "double" if match.tablas_stake == "double" else "carry"
    return _w(f"stake.unpaid_{how}", lang, paid=paid, stake=match.current_stake)


def _replay_one(n: int, rec: Any, out: IO[str], as_json: bool, trace: bool, lang: str = DEFAULT_LANGUAGE,
                resigned: int | None = None) -> bool:
    """Replay and report one record; True if it replayed without error.  ``resigned``:
    the seat (1/2) a record download says resigned the deal (R20: the other seat won)."""
    is_match = isinstance(rec, MatchRecord)
    deals = rec.deals if is_match else [rec]
    match = _new_match(rec) if is_match else None
    if not as_json:
        out.write(_record_header(n, rec, match, lang) + "\n")
    indent = "    " if is_match else "  "
    stakes: list[int] = []
    for i, deal in enumerate(deals, 1):
        if match is not None and match.is_over:
            error(f"record {n}, deal {i}: the match was already over (R20: seat {match.winner + 1} won it)")
            return False
        if match is not None and not as_json:
            stake = _w("deal_stake", lang, stake=match.current_stake) if match.format == "stakes" else ""
            out.write("  " + _w("deal", lang, n=i, opener=deal.opener + 1, actions=len(deal.actions), stake=stake)
                      + "\n")
        try:
            state, exc = _play_deal(deal, out, as_json, trace)
        except GameweaveError as bad:  # a bad deck
            error(f"record {n}" + (f", deal {i}" if is_match else "") + f": {bad}")
            return False
        if trace and not as_json:
            out.write("\n".join(step_lines(state, indent=indent, lang=lang)) + ("\n" if state.history else ""))
        if exc is not None:
            error(_replay_error(n, exc, i if is_match else None))
            return False
        if match is None and resigned is not None and not state.is_over:
            state.concede(resigned - 1)  # the deal ended where the seat resigned it (R20)
        else:
            resigned = None
        out.write(json.dumps(snapshot(state), ensure_ascii=False) + "\n" if as_json
                  else _deal_text(state, indent, lang, resigned))
        if match is None:
            continue
        if state.is_over:
            stakes.append(match.current_stake)
            paid = match.current_stake
            match.count(state)
            if match.format == "stakes" and not as_json:
                out.write(indent + _stake_text(match, state, paid, lang) + "\n")
        elif i < len(deals):
            error(f"record {n}, deal {i}: the deal is not finished, but another deal follows it (§VII)")
            return False
    if match is not None:
        out.write(json.dumps(match_json(match, stakes), ensure_ascii=False) + "\n" if as_json
                  else "\n".join(match_result_lines(match, lang=lang)) + "\n")
    return True


@app.command()
def replay(
    file: Path = typer.Argument(..., help="Deal records, match records or record downloads (JSON, JSON lines).",
                                exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per deal after its last action."),
    trace: bool = typer.Option(False, "--trace", help="Also show every step (with --json: the state before it)."),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP + " For records that name none."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
) -> None:
    """Replay game and match records (RULES §VII) and show where each deal ends up.

    A file holds one record, a JSON array, or JSON lines. A record is a deal record, a match record (each deal, then the match result: wins, tablas, the winner of a first-to match, stakes per R20) or the table's download ({"record", "salt", "commitment", "result"}).

    With --json: one state object per deal (with --trace also one before every action), and for a match record a final {"match": ...} object. Exit status 2 if a record cannot be read or an action is unparsable or illegal (one error line each)."""
    language = language_or_exit(lang)
    profile = profile_or_exit(rules)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        error(f"cannot read {file}: {exc}", 2)
    failed = False
    out = sys.stdout
    records = read_records(text, profile)
    if not records:
        error(f"{file} holds no game record (RULES §VII: a JSON object, or one per line)", 2)
    for n, (rec, obj) in enumerate(zip(records, json_objects(text)), 1):
        if isinstance(rec, GameweaveError):
            error(f"record {n}: cannot read it: {rec}")
            failed = True
            continue
        if not _replay_one(n, rec, out, as_json, trace, language, resigned_seat(obj)):
            failed = True
    out.flush()
    if failed:
        raise typer.Exit(2)


def _random_opener(rules: Rules, rng: random.Random) -> int:
    """The first opener of a match (R9, R20): seat 1, or drawn (here from the seed)."""
    return rng.randrange(2) if rules.first_opener == "random" else 0


@app.command()
def demo(
    seed: int | None = typer.Option(None, help="Seed for the deals and the players (default: random)."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    deals: int = typer.Option(1, "--deals", min=1, max=1000, help="Deals to play; more than one prints a match record."),
    option: list[str] | None = typer.Option(None, "--option", help="Match option key=value (R20), e.g. tablas_stake=carry."),
    record_only: bool = typer.Option(False, "--record-only", help="Print only the record (JSON), e.g. to save it to a file for replay or verify."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
) -> None:
    """Play deals between two random players and print them step by step, then the record
    (a line 'Record: {...}'); with --record-only just the record's JSON."""
    language = language_or_exit(lang)
    profile = profile_or_exit(rules)
    assert profile is not None
    opts = options_or_exit(profile, option)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    first = _random_opener(profile, rng)
    match = Match(rules=profile, format=opts["match"], target=opts["target"], stake=opts["stake"],
                  tablas_stake=opts["tablas_stake"], first_opener=first)
    drawn = _w("demo.drawn", language) if profile.first_opener == "random" else ""

    def echo(text: str) -> None:
        if not record_only:
            typer.echo(text)

    echo(_w("demo.intro", language, seed=seed, rules=profile_title(profile.name, language), opener=first + 1, drawn=drawn))
    records = []
    for d in range(deals):
        if match.is_over:
            break
        state = match.new_deal(seed=rng.randrange(1 << 62))
        if deals > 1:
            echo(_w("demo.deal", language, n=d + 1, opener=state.opener + 1))
        echo("\n".join(_seat_lines(state, lang=language)))
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        echo("\n".join(step_lines(state, lang=language)))
        echo(_w("result", language, text=result_text(state, language)))
        echo("\n".join(_seat_lines(state, lang=language)))
        match.count(state)
        records.append(GameRecord.from_state(state))

    def say(record: str) -> str:
        return record if record_only else _w("demo.record", language, record=record)

    if deals == 1:
        typer.echo(say(records[0].to_json()))
        return
    echo("\n".join(match_result_lines(match, "", language)))
    mrec = MatchRecord(rules=profile.name, first_opener=first, options=match.options, deals=records)
    obj = mrec.to_dict()
    for d in obj["deals"]:
        d.pop("rules", None)
    typer.echo(say(json.dumps(obj, ensure_ascii=False)))

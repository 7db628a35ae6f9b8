"""``gameweave replay`` and ``gameweave demo``: records read back, deals shown step by step.

``replay`` reads deal records, match records and the table's record download (RULES
§VII), in any profile (§V): the record names its profile, or ``--rules`` gives it.  Steps
are told from the engine's public events (:class:`~gameweave.engine.PublicEvent`), never
by re-reading action text.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer

from ..engine import (
    GameRecord, GameState, GameweaveError, Match, MatchRecord, ReplayError, Rules, find_profile,
    format_cards, public_history, snapshot,
)
from ..engine.cards import CARD_NAMES
from .app import app
from .common import RULES_HELP, error, event_words, options_or_exit, profile_or_exit, read_records


def _seat_lines(state: GameState, indent: str = "  ") -> list[str]:
    lines = []
    for s in (0, 1):
        melds = "  ".join(f"[{format_cards(m)}]" for m in state.melds[s]) or "none"
        lines.append(
            f"{indent}Seat {s + 1}: hand {format_cards(state.hands[s]) or '(empty)'}; "
            f"melds ({state.table_counts[s]} cards): {melds}"
        )
    return lines


def result_text(state: GameState) -> str:
    """One line saying how a deal stands: winner, tablas, or who must decide what."""
    if state.status == "won":
        return f"seat {state.winner + 1} won with eleven melded cards"
    if state.status == "tablas":
        return "tablas (the stock ran out)"
    centre = ""
    if state.forced >= 0:
        centre = f", {CARD_NAMES[state.forced]} forced on them (R18e)"
    elif state.card >= 0:
        centre = f", {CARD_NAMES[state.card]} in the centre"
        if state.live_from >= 0:
            centre += f" (let go by seat {state.live_from + 1})"
    decision = (state.decision or "").replace("_", " ")
    return f"still playing: seat {state.to_act + 1} to {decision}{centre}"


def step_lines(state: GameState, first: int = 1, indent: str = "  ") -> list[str]:
    """Numbered plain words for every applied action of a deal (from its public events)."""
    events = public_history(state)
    out = []
    last = len(events)
    for i, ev in enumerate(events, 1):
        end = i == last and state.is_over
        words = event_words(ev, won=end and state.status == "won", tablas=end and state.status == "tablas")
        out.append(f"{indent}{i + first - 1:3}. {words}")
    return out


def match_format_text(match: Match) -> str:
    """The match's format in words (R20), e.g. ``stakes, base 1, doubled after tablas``."""
    if match.format == "first_to":
        return f"first to {match.target}"
    if match.format == "stakes":
        how = "doubled after tablas" if match.tablas_stake == "double" else "carried over tablas"
        return f"stakes, base {match.stake}, {how}"
    return "running tally"


def match_result_lines(match: Match, indent: str = "  ") -> list[str]:
    """How a match stands (R20): wins and tablas, the match winner, stakes."""
    w = match.wins
    lines = [f"{indent}Match ({match_format_text(match)}): seat 1 won {w[0]}, seat 2 won {w[1]}, "
             f"tablas {match.tablas}"]
    if match.format == "first_to":
        if match.is_over:
            lines.append(f"{indent}Match result: seat {match.winner + 1} wins the match, {w[match.winner]} to {w[1 - match.winner]}")
        else:
            lines.append(f"{indent}Match result: not over (first to {match.target})")
    elif match.format == "stakes":
        p = match.points
        bal = match.balance(0)
        lead = "even" if bal == 0 else f"seat {1 if bal > 0 else 2} is {abs(bal)} up"
        lines.append(f"{indent}Stakes: seat 1 won {p[0]}, seat 2 won {p[1]} ({lead}); next stake {match.current_stake}")
    else:
        lead = "even" if w[0] == w[1] else f"seat {1 if w[0] > w[1] else 2} leads"
        lines.append(f"{indent}Match result: {lead} (a running tally has no end)")
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


def _play_deal(rec: GameRecord, out, as_json: bool, trace: bool) -> tuple[GameState, ReplayError | None]:
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


def _replay_one(n: int, rec: Any, out, as_json: bool, trace: bool) -> bool:
    """Replay and report one record; True if it replayed without error."""
    is_match = isinstance(rec, MatchRecord)
    deals = rec.deals if is_match else [rec]
    match = _new_match(rec) if is_match else None
    if not as_json:
        if match is not None:
            out.write(f"Record {n} — {rec.rules} match ({match_format_text(match)}), "
                      f"seat {rec.first_opener + 1} opens deal 1, {len(deals)} deal{'s' if len(deals) != 1 else ''}\n")
        else:
            out.write(f"Record {n} — {rec.rules}, seat {rec.opener + 1} opens, {len(rec.actions)} actions\n")
    indent = "    " if is_match else "  "
    stakes: list[int] = []
    for i, deal in enumerate(deals, 1):
        if match is not None and match.is_over:
            error(f"record {n}, deal {i}: the match was already over (R20: seat {match.winner + 1} won it)")
            return False
        if match is not None and not as_json:
            stake = f", stake {match.current_stake}" if match.format == "stakes" else ""
            out.write(f"  Deal {i} — seat {deal.opener + 1} opens, {len(deal.actions)} actions{stake}\n")
        try:
            state, exc = _play_deal(deal, out, as_json, trace)
        except GameweaveError as bad:  # a bad deck
            error(f"record {n}" + (f", deal {i}" if is_match else "") + f": {bad}")
            return False
        if trace and not as_json:
            out.write("\n".join(step_lines(state, indent=indent)) + ("\n" if state.history else ""))
        if exc is not None:
            error(_replay_error(n, exc, i if is_match else None))
            return False
        if as_json:
            out.write(json.dumps(snapshot(state), ensure_ascii=False) + "\n")
        else:
            out.write(f"{indent[:-2]}  Result: {result_text(state)}\n")
            out.write("\n".join(_seat_lines(state, indent)) + "\n")
            out.write(f"{indent}Stock: {state.stock_count} card{'' if state.stock_count == 1 else 's'}\n")
        if match is not None:
            if state.is_over:
                stakes.append(match.current_stake)
                paid = match.current_stake
                match.count(state)
                if match.format == "stakes" and not as_json:
                    if state.status == "won":
                        out.write(f"{indent}Stake: seat {state.winner + 1} wins {paid}; next stake {match.current_stake}\n")
                    else:
                        how = "doubled" if match.tablas_stake == "double" else "carried"
                        out.write(f"{indent}Stake: {paid} unpaid (tablas); next stake {match.current_stake} ({how}, R20)\n")
            elif i < len(deals):
                error(f"record {n}, deal {i}: the deal is not finished, but another deal follows it (§VII)")
                return False
    if match is not None:
        if as_json:
            out.write(json.dumps(match_json(match, stakes), ensure_ascii=False) + "\n")
        else:
            out.write("\n".join(match_result_lines(match)) + "\n")
    return True


@app.command()
def replay(
    file: Path = typer.Argument(..., help="Deal records, match records or record downloads (JSON, JSON lines).",
                                exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per deal after its last action."),
    trace: bool = typer.Option(False, "--trace", help="Also show every step (with --json: the state before it)."),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP + " For records that name none."),
) -> None:
    """Replay game and match records (RULES §VII) and show where each deal ends up.

    A file holds one record, a JSON array, or JSON lines. A record is a deal record, a match record (each deal, then the match result: wins, tablas, the winner of a first-to match, stakes per R20) or the table's download ({"record", "salt", "commitment", "result"}).

    With --json: one state object per deal (with --trace also one before every action), and for a match record a final {"match": ...} object. Exit status 2 if a record cannot be read or an action is unparsable or illegal (one error line each)."""
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
    for n, rec in enumerate(records, 1):
        if isinstance(rec, GameweaveError):
            error(f"record {n}: cannot read it: {rec}")
            failed = True
            continue
        if not _replay_one(n, rec, out, as_json, trace):
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
) -> None:
    """Play deals between two random players and print them step by step, then the record
    (a line 'Record: {...}'); with --record-only just the record's JSON."""
    profile = profile_or_exit(rules)
    assert profile is not None
    opts = options_or_exit(profile, option)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    first = _random_opener(profile, rng)
    match = Match(rules=profile, format=opts["match"], target=opts["target"], stake=opts["stake"],
                  tablas_stake=opts["tablas_stake"], first_opener=first)
    drawn = " (drawn at random)" if profile.first_opener == "random" else ""
    echo = (lambda _text: None) if record_only else typer.echo
    echo(f"Demo, seed {seed}, {profile.name} rules: two random players, seat {first + 1} opens{drawn}.")
    records = []
    for d in range(deals):
        if match.is_over:
            break
        state = match.new_deal(seed=rng.randrange(1 << 62))
        if deals > 1:
            echo(f"Deal {d + 1} — seat {state.opener + 1} opens")
        echo("\n".join(_seat_lines(state)))
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        echo("\n".join(step_lines(state)))
        echo(f"Result: {result_text(state)}")
        echo("\n".join(_seat_lines(state)))
        match.count(state)
        records.append(GameRecord.from_state(state))
    prefix = "" if record_only else "Record: "
    if deals == 1:
        typer.echo(prefix + records[0].to_json())
        return
    echo("\n".join(match_result_lines(match, "")))
    mrec = MatchRecord(rules=profile.name, first_opener=first, options=match.options, deals=records)
    obj = mrec.to_dict()
    for d in obj["deals"]:
        d.pop("rules", None)
    typer.echo(prefix + json.dumps(obj, ensure_ascii=False))

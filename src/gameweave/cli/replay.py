"""``gameweave replay`` and ``gameweave demo``: records read back, deals shown step by step."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Optional

import typer

from ..engine import (
    GameRecord, GameState, GameweaveError, ReplayError, parse_action, UnparsableError, format_action, format_cards,
    load_records, snapshot,
)
from ..engine.cards import CARD_NAMES
from .app import app


def _seat_lines(state: GameState) -> list[str]:
    lines = []
    for s in (0, 1):
        melds = "  ".join(f"[{format_cards(m)}]" for m in state.melds[s]) or "none"
        lines.append(
            f"  Seat {s + 1}: hand {format_cards(state.hands[s]) or '(empty)'}; "
            f"melds ({state.tcount[s]} cards): {melds}"
        )
    return lines


def result_text(state: GameState) -> str:
    """One line saying how a deal stands: winner, tablas, or who must decide what."""
    if state.status == "won":
        return f"seat {state.winner + 1} won with eleven melded cards"
    if state.status == "tablas":
        return "tablas (the stock ran out)"
    centre = ""
    if state.card >= 0:
        centre = f", {CARD_NAMES[state.card]} in the centre"
        if state.live_from >= 0:
            centre += f" (let go by seat {state.live_from + 1})"
    return f"still playing: seat {state.to_act + 1} to {state.decision.replace('_', ' ')}{centre}"


def step_text(state_before: GameState, action: str, state_after: GameState) -> str:
    """Plain words for one applied action, e.g. ``seat 1 turns Ks``."""
    seat = state_before.to_act + 1
    if action == "turn":
        if state_after.is_over and state_after.status == "tablas":
            return f"seat {seat} would turn, but the stock is empty: tablas"
        return f"seat {seat} turns {CARD_NAMES[state_after.card]}"
    return f"seat {seat}: {action}"


def _error(message: str) -> None:
    """One error line on stderr, after whatever stdout holds so far (keeps the order)."""
    sys.stdout.flush()
    typer.echo(f"error: {message}", err=True)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON) or many (JSON lines).", exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per record after its last action."),
    trace: bool = typer.Option(False, "--trace", help="Also show the state before every action."),
) -> None:
    """Replay game records (RULES §VII) and show where each deal ends up."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"error: cannot read {file}: {exc}", err=True)
        raise typer.Exit(2)
    failed = False
    out = sys.stdout
    records = load_records(text)
    if not records:
        _error(f"{file} holds no game record (RULES §VII: a JSON object, or one per line)")
        raise typer.Exit(2)
    for n, rec in enumerate(records, 1):
        if isinstance(rec, UnparsableError):
            _error(f"record {n}: cannot read it: {rec}")
            failed = True
            continue
        if not as_json:
            who = f"seat {rec.opener + 1} opens"
            out.write(f"Record {n} — {rec.rules}, {who}, {len(rec.actions)} actions\n")
        try:
            state = rec.start()
        except GameweaveError as exc:  # a bad deck, or a profile not playable yet (§V)
            _error(f"record {n}: {exc}")
            failed = True
            continue
        try:
            for step, action in enumerate(rec.actions, 1):
                if trace and as_json:
                    out.write(json.dumps(snapshot(state), ensure_ascii=False) + "\n")
                before = state.clone() if trace and not as_json else None
                try:
                    state.play(action)
                except GameweaveError as exc:
                    raise ReplayError(step, action, exc) from None
                if before is not None:
                    out.write(f"  {step:3}. {step_text(before, action, state)}\n")
        except ReplayError as exc:
            why = str(exc.cause)
            for prefix in (f"{exc.action!r}: ",):
                if why.startswith(prefix):
                    why = why[len(prefix):]
            try:
                canonical = format_action(parse_action(exc.action))
            except GameweaveError:
                canonical = exc.action
            if why.startswith(f"{canonical!r}: "):
                why = why[len(canonical) + 4:]
            _error(f"record {n}, step {exc.step}, action {exc.action!r}: {why}")
            failed = True
            continue
        if as_json:
            out.write(json.dumps(snapshot(state), ensure_ascii=False) + "\n")
        else:
            out.write(f"  Result: {result_text(state)}\n")
            out.write("\n".join(_seat_lines(state)) + "\n")
            out.write(f"  Stock: {state.stock_count} cards\n")
    out.flush()
    if failed:
        raise typer.Exit(2)


@app.command()
def demo(
    seed: Optional[int] = typer.Option(None, help="Seed for the deal and the players (default: random)."),
) -> None:
    """Play one deal between two random players and print it step by step."""
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    state = GameState.new(seed=seed)
    rng = random.Random(seed)
    typer.echo(f"Demo deal, seed {seed}: two random players, seat 1 opens.")
    typer.echo("\n".join(_seat_lines(state)))
    step = 0
    while not state.is_over:
        before = state.clone()
        action = format_action(rng.choice(state.legal_actions()))
        state.play(action)
        step += 1
        typer.echo(f"  {step:3}. {step_text(before, action, state)}")
    typer.echo(f"Result: {result_text(state)}")
    typer.echo("\n".join(_seat_lines(state)))
    typer.echo("Record: " + GameRecord.from_state(state).to_json())

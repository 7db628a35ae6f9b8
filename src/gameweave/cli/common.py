"""Helpers shared by the commands: ``--rules`` and ``--option`` values, reading record
files (deal records, match records and the table's download, RULES §VII), and plain
words for a public event (narrated from :class:`~gameweave.engine.PublicEvent` fields,
never from action text)."""

from __future__ import annotations

import sys
from typing import Any

import typer

from ..engine import (
    GameweaveError, OptionError, PublicEvent, Rules, UnparsableError, find_profile, format_cards,
    match_options, read_record,
)
from ..engine.cards import CARD_NAMES
from ..engine.record import json_objects

RULES_HELP = "Rule profile (§V): gameweave, anglo-american (alias pagat) or classic."


def error(message: str, code: int | None = None) -> None:
    """One ``error: …`` line on stderr, after whatever stdout holds so far (keeps the
    order); with ``code``, exit with it."""
    sys.stdout.flush()
    typer.echo(f"error: {message}", err=True)
    if code is not None:
        raise typer.Exit(code)


def profile_or_exit(name: str | None) -> Rules | None:
    """The profile named by ``--rules`` (None if not given); an unknown name is one
    error line and exit status 2."""
    if name is None:
        return None
    try:
        return find_profile(name)
    except GameweaveError as exc:
        error(str(exc), 2)
    raise AssertionError  # pragma: no cover


def options_or_exit(rules: Rules, pairs: list[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs checked against the profile's match options (R20);
    a bad one is one error line and exit status 2.  Returns the full option set."""
    given: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        key = key.strip()
        value = value.strip()
        if not eq or not key:
            error(f"--option takes key=value (e.g. tablas_stake=carry), not {pair!r}", 2)
        given[key] = int(value) if value.lstrip("-").isdigit() else value
    try:
        return match_options(rules, given)
    except OptionError as exc:
        error(str(exc), 2)
    raise AssertionError  # pragma: no cover


def read_records(text: str, rules: Rules | None = None) -> list[Any]:
    """Every record of a file: :class:`~gameweave.engine.GameRecord`,
    :class:`~gameweave.engine.MatchRecord`, or a
    :class:`~gameweave.engine.GameweaveError` for one that cannot be read.

    ``rules`` (``--rules``) is the profile of records that name none; a record that
    names another profile is an error (the file and the command disagree).
    """
    out: list[Any] = []
    for obj in json_objects(text):
        if isinstance(obj, GameweaveError):
            out.append(obj)
            continue
        try:
            out.append(read_record(_with_rules(obj, rules)))
        except GameweaveError as exc:
            out.append(exc)
    return out


def _with_rules(obj: Any, rules: Rules | None) -> Any:
    if rules is None or not isinstance(obj, dict):
        return obj
    inner = obj.get("record") if isinstance(obj.get("record"), dict) and "deck" not in obj else None
    target = inner if inner is not None else obj
    named = target.get("rules")
    if named is None:
        target = {**target, "rules": rules.name}
    else:
        try:
            named_rules = find_profile(named) if isinstance(named, str) else None
        except GameweaveError:
            named_rules = None  # the engine names the unknown profile
        if named_rules is not None and named_rules.name != rules.name:
            raise UnparsableError(f"it is {'an' if named_rules.name[0] in 'aeiou' else 'a'} {named_rules.name} record, not {rules.name} (--rules)")
    if inner is not None:
        return {**obj, "record": target}
    return target


# ---------------------------------------------------------------------------- words
def meld_words(mask: int) -> str:
    """A meld's cards in hand order (R4)."""
    return format_cards(mask)


def table_words(melds: tuple[int, ...] | list[int]) -> str:
    """A table as melds separated by `` / `` (§VII)."""
    return " / ".join(format_cards(m) for m in melds) or "nothing"


def event_words(ev: PublicEvent, won: bool = False, tablas: bool = False) -> str:
    """Plain third-person words for one public event, from its fields only, e.g.
    ``seat 1 turns 4c``, ``seat 2: meld 2c 3c 4c (takes 4c; 2c 3c from hand)``.

    ``won``/``tablas``: the step ended the deal that way (R16, R17)."""
    seat = ev.seat + 1
    other = 2 - ev.seat
    card = CARD_NAMES[ev.card] if ev.card >= 0 else None
    kind = ev.kind
    if kind == "turn":
        dies = f" ({CARD_NAMES[ev.died]} dies)" if ev.died >= 0 else ""
        if card is None or tablas:
            return f"seat {seat} would turn, but the stock is empty: tablas{dies}"
        return f"seat {seat} turns {card}{dies}"
    text = f"seat {seat}: {ev.text}"
    notes = []
    if kind == "meld":
        notes.append(f"melds the forced {card}" if ev.forced else f"melds {card}")
        if ev.from_hand:
            notes.append(f"{format_cards(ev.from_hand)} from hand")
        if len(ev.table) > 1:
            notes.append(f"table {table_words(ev.table)}")
    elif kind == "force":
        notes.append(f"{card} goes back onto seat {other}, who must meld it, R19")
    elif ev.forced:
        if ev.meld:
            notes.append(f"{card} forced onto seat {other}'s meld, now {format_cards(ev.meld)}")
        else:
            notes.append(f"{card} forced on seat {other}, who must meld it, R18e")
    elif kind == "refuse":
        notes.append(f"{card} goes live for seat {other}")
    if won:
        notes.append("eleven melded cards: the deal is won")
    elif tablas:
        notes.append("the stock is empty: tablas")
    return text + (f" ({'; '.join(notes)})" if notes else "")


__all__ = [
    "RULES_HELP", "error", "event_words", "meld_words", "options_or_exit", "profile_or_exit",
    "read_records", "table_words",
]

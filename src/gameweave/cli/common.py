"""Helpers shared by the commands: one ``error:`` line, the ``--lang``, ``--rules`` and
``--option`` values, and reading record files (deal records, match records and the
table's download, RULES §VII).

Every word here that a person reads comes from the catalogs (``cli.*``; errors are
written in English, as the engine's are).  Events and choices are told by the narrator,
:mod:`gameweave.tables.words`."""

from __future__ import annotations

import re
import sys
from typing import Any

import typer

from ..engine import GameweaveError, OptionError, Rules, UnparsableError, find_profile, match_options, read_record
from ..engine.record import json_objects
from ..i18n import UnknownLanguage, check_language, terminal_language, translate


def error(message: str, code: int | None = None) -> None:
    """One ``error: …`` line on stderr, after whatever stdout holds so far (keeps the
    order); with ``code``, exit with it."""
    sys.stdout.flush()
    typer.echo(translate("cli.error", message=message), err=True)
    if code is not None:
        raise typer.Exit(code)


def language_or_exit(lang: str | None) -> str:
    """The language of a run: ``--lang`` (es or en), else the terminal's locale
    (``LANGUAGE`` / ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``); another language is one
    error line and exit status 2."""
    if lang is None:
        return terminal_language()
    try:
        return check_language(lang)
    except UnknownLanguage:
        error(translate("cli.bad_lang", lang=repr(lang)), 2)
    raise AssertionError  # pragma: no cover


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
            error(translate("cli.option_pair", pair=repr(pair)), 2)
        given[key] = int(value) if re.fullmatch(r"-?[0-9]+", value) else value
    try:
        return match_options(rules, given)
    except OptionError as exc:
        error(str(exc), 2)
    raise AssertionError  # pragma: no cover


def resigned_seat(obj: Any) -> int | None:
    """The seat (1 or 2) that resigned the deal of a table's record download
    (``{"record", …, "result": {"resigned": n}}``, PROTOCOL §3.6), or None: another
    file, or a deal played to its end.  A resigned deal counts as won by the other
    seat (R20)."""
    stated = obj.get("result") if isinstance(obj, dict) and "record" in obj else None
    seat = stated.get("resigned") if isinstance(stated, dict) else None
    return seat if seat in (1, 2) and not isinstance(seat, bool) else None


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
            record = translate(f"cli.record_of.{named_rules.name}")
            raise UnparsableError(translate("cli.record_profile", record=record, rules=rules.name))
    if inner is not None:
        return {**obj, "record": target}
    return target


__all__ = ["error", "language_or_exit", "options_or_exit", "profile_or_exit", "read_records"]

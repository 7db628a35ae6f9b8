"""How to play, and what each profile offers a new match (RULES §V, R20).

Every word shown to a person about the rules lives in the translation catalogs
(:mod:`gameweave.i18n`, one source per string, Spanish and English): ``profile.<name>.title``
and ``.summary``, ``help.<section>.title`` / ``.text``, ``glossary.<term>.term`` / ``.text``,
``tips.<tip>``, ``terminal.<key>``.  ``help.json`` beside this module holds only the
structure: which sections each profile's help has, the glossary's and the tips' order.
The page reads it through ``GET /api/help?lang=``; ``gameweave play`` through ``help`` / ``?``.

:func:`profile_offers` joins those words with the profile's options from
:mod:`gameweave.engine.rules` for ``GET /api/profiles``; :func:`check_new_match` is the
one check of a new match's format and stakes for both the server and the terminal.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any, TypedDict, cast

from .. import i18n
from ..engine import MATCH_FORMATS, PROFILE_NAMES, TABLAS_STAKES, OptionError, Rules, find_profile, match_options
from ..engine.match import MAX_STAKE, MAX_TARGET


class HelpStructure(TypedDict):
    """``help.json``: each profile's section ids, the glossary's term ids, the tips' ids
    and the terminal's message keys, in order."""

    profiles: dict[str, list[str]]
    glossary: list[str]
    tips: list[str]
    terminal: list[str]


class Section(TypedDict):
    """One section of a profile's help: its title and text."""

    title: str
    text: str


class ProfileHelp(TypedDict):
    """A profile's title, one-line summary and help sections."""

    title: str
    summary: str
    sections: list[Section]


class Term(TypedDict):
    """One glossary entry: the term and what it means."""

    term: str
    text: str


class HelpWire(TypedDict):
    """The ``GET /api/help`` body (``schemas.HelpOut``)."""

    profiles: dict[str, ProfileHelp]
    glossary: list[Term]
    tips: list[str]


class HelpData(HelpWire):
    """:func:`help_data`: the wire body plus the terminal's words by key."""

    terminal: dict[str, str]


class StakeOffer(TypedDict):
    """The stakes a profile offers (R20)."""

    default: int
    max: int
    tablas_stake: list[str]
    default_tablas_stake: str


class ProfileOffer(TypedDict):
    """One entry of ``GET /api/profiles`` (``schemas.ProfileOffer``)."""

    name: str
    title: str
    summary: str
    rearranging: bool
    force_back: bool
    max_sequence: int | None
    formats: list[str]
    default_format: str
    default_target: int
    max_target: int
    stake: StakeOffer | None


class MatchOptions(TypedDict):
    """A new match's full R20 options (:func:`~gameweave.engine.match.match_options`)."""

    match: str
    target: int
    stake: int
    tablas_stake: str


@cache
def help_structure() -> HelpStructure:
    """The parsed ``help.json``: ``{"profiles": {name: [section ids]}, "glossary": [term
    ids], "tips": [tip ids], "terminal": [keys]}``.  Raises :class:`OSError`/``ValueError``
    only if the package is broken."""
    text = files("gameweave.tables").joinpath("help.json").read_text(encoding="utf-8")
    data: HelpStructure = json.loads(text)
    return data


@cache
def help_data(lang: str = "en") -> HelpData:
    """How to play in ``lang`` (``es`` or ``en``; :class:`~gameweave.i18n.UnknownLanguage`
    otherwise), from the catalogs in the order of ``help.json``: ``{"profiles": {name:
    {"title", "summary", "sections": [{"title", "text"}]}}, "glossary": [{"term", "text"}],
    "tips": [str], "terminal": {key: text}}``."""
    t = i18n.messages(i18n.check_language(lang))
    st = help_structure()
    return {
        "profiles": {name: {"title": t[f"profile.{name}.title"], "summary": t[f"profile.{name}.summary"],
                            "sections": [{"title": t[f"help.{s}.title"], "text": t[f"help.{s}.text"]}
                                         for s in secs]}
                     for name, secs in st["profiles"].items()},
        "glossary": [{"term": t[f"glossary.{g}.term"], "text": t[f"glossary.{g}.text"]} for g in st["glossary"]],
        "tips": [t[f"tips.{k}"] for k in st["tips"]],
        "terminal": {k: t[f"terminal.{k}"] for k in st["terminal"]},
    }


def profile_title(name: str, lang: str = "en") -> str:
    """A rule profile's name as a person reads it in ``lang`` (the catalog's
    ``profile.<name>.title``: ``classic`` -> ``"Classic"`` / ``"Clásico"``); a name the
    catalog does not know is returned as it is.  Raises
    :class:`~gameweave.i18n.UnknownLanguage` for a language other than ``es``/``en``."""
    return i18n.messages(i18n.check_language(lang)).get(f"profile.{name}.title", name)


def help_for_wire(lang: str = "en") -> HelpWire:
    """The ``GET /api/help`` body in ``lang``: the profiles' help, the glossary and the tips."""
    data = help_data(lang)
    return {"profiles": data["profiles"], "glossary": data["glossary"], "tips": data["tips"]}


def formats_of(rules: Rules) -> list[str]:
    """The match formats a new match of ``rules`` may use (R20), its default first:
    ``first_to`` and ``tally`` everywhere; ``stakes`` only where the profile plays for
    stakes (classic)."""
    allowed = [f for f in MATCH_FORMATS if f != "stakes" or rules.match == "stakes"]
    return [rules.match] + [f for f in allowed if f != rules.match]


def profile_offers(name: str) -> ProfileOffer:
    """One entry of ``GET /api/profiles`` (see PROTOCOL §3.7): name, title, summary,
    ``rearranging``, ``force_back``, ``formats``, ``default_format``, ``default_target``
    and ``stake`` (``{"default", "max", "tablas_stake", "default_tablas_stake"}`` where
    the profile plays for stakes, else None)."""
    rules = find_profile(name)
    words = help_data()["profiles"][rules.name]
    formats = formats_of(rules)
    stake: StakeOffer | None = None
    if "stakes" in formats:
        stake = {"default": rules.stake, "max": MAX_STAKE, "tablas_stake": list(TABLAS_STAKES),
                 "default_tablas_stake": rules.tablas_stake}
    return {
        "name": rules.name, "title": words["title"], "summary": words["summary"],
        "rearranging": rules.rearranging, "force_back": rules.force_back,
        "max_sequence": rules.max_sequence,
        "formats": formats, "default_format": rules.match, "default_target": rules.first_to,
        "max_target": MAX_TARGET, "stake": stake,
    }


def all_profile_offers() -> list[ProfileOffer]:
    """``GET /api/profiles``: :func:`profile_offers` of every canonical profile, default first."""
    return [profile_offers(n) for n in PROFILE_NAMES]


def check_new_match(rules: Rules | str, fmt: str | None = None, target: int | None = None,
                    stake: int | None = None, tablas_stake: str | None = None) -> MatchOptions:
    """The full options of a new match of ``rules`` (R20): ``{"match", "target", "stake",
    "tablas_stake"}``; what is not given is the profile's default.

    Raises :class:`~gameweave.engine.OptionError` with a sentence for a person when the
    format is not offered by the profile (``stakes`` outside classic), when ``stake`` or
    ``tablas_stake`` is given for a format other than ``stakes``, or for a bad value.
    """
    profile = find_profile(rules)
    fmt = profile.match if fmt is None else fmt
    formats = formats_of(profile)
    if fmt not in formats:
        title = help_data()["profiles"][profile.name]["title"]
        raise OptionError(f"the {title} rules do not offer the {fmt!r} format (they offer: {', '.join(formats)})")
    if fmt != "stakes":
        for key, value in (("stake", stake), ("tablas_stake", tablas_stake)):
            if value is not None:
                raise OptionError(f"'{key}' belongs to a stakes match, not to a {fmt} match")
    given: dict[str, Any] = {"match": fmt}
    for key, value in (("target", target), ("stake", stake), ("tablas_stake", tablas_stake)):
        if value is not None:
            given[key] = value
    return cast(MatchOptions, match_options(profile, given))


__all__ = ["HelpData", "HelpStructure", "HelpWire", "MatchOptions", "ProfileHelp", "ProfileOffer", "Section",
           "StakeOffer", "Term", "all_profile_offers", "check_new_match", "formats_of", "help_data", "help_for_wire", "help_structure",
           "profile_offers", "profile_title"]

"""Translations for everything a person reads: Spanish (es-MX) and English (issue 10).

The catalogs are gettext ``.po`` files, one per language, under
``gameweave/i18n/locale/<lang>/LC_MESSAGES/gameweave.po``, read with Babel.  Message ids
are stable keys (``term.meld``, ``error.not_your_turn``, ``lobby.create`` ...), not English
source text, so that a key missing from either language is a test failure
(``tests/test_i18n.py``) rather than a silent English fallback.  Parameters are written
``{name}`` and filled with :meth:`str.format`, in Python and on the page alike.

* :func:`translator` gives a :class:`babel.support.Translations` (gettext) for a language;
  :func:`translate` fills one message.
* :func:`messages` gives a whole catalog as a dict, which the server sends to the page
  (``GET /api/i18n/{lang}``), so the page and the terminal read the same catalog.
* :func:`negotiate` picks the language of an HTTP ``Accept-Language`` header;
  :func:`terminal_language` the language of the terminal's locale (``LANGUAGE``,
  ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

This module imports the standard library and Babel only; tables, server and cli use it.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("es", "en")
"""The languages of the table (issue 10): Mexican Spanish and English."""

DEFAULT_LANGUAGE = "en"
"""The language when nothing says which (a browser or locale asking for neither)."""

DOMAIN = "gameweave"
"""The gettext domain: the catalogs' file name."""

LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogs live: ``LOCALE_DIR/<lang>/LC_MESSAGES/gameweave.po``."""

_PARAM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class UnknownLanguage(ValueError):
    """A language other than :data:`LANGUAGES` was asked for (``.language`` says which)."""

    def __init__(self, language: str) -> None:
        super().__init__(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
        self.language = language


def catalog_path(language: str) -> Path:
    """The ``.po`` file of ``language``.  Raises :class:`UnknownLanguage`."""
    return LOCALE_DIR / check_language(language) / "LC_MESSAGES" / f"{DOMAIN}.po"


def check_language(language: str) -> str:
    """``language`` lower-cased and checked: ``"ES"`` -> ``"es"``.  Raises
    :class:`UnknownLanguage` for anything outside :data:`LANGUAGES`."""
    lang = str(language).strip().lower()
    if lang not in LANGUAGES:
        raise UnknownLanguage(str(language))
    return lang


@cache
def catalog(language: str) -> Catalog:
    """The Babel :class:`~babel.messages.catalog.Catalog` of ``language``, read once."""
    with catalog_path(language).open("rb") as fh:
        return read_po(fh, locale=language, domain=DOMAIN)


@cache
def messages(language: str) -> Mapping[str, str]:
    """Every message of ``language`` as ``{key: text}`` (the page's catalog)."""
    return {str(m.id): str(m.string) for m in catalog(language) if m.id and isinstance(m.id, str)}


@cache
def translator(language: str) -> Translations:
    """A gettext :class:`~babel.support.Translations` for ``language``, compiled in
    memory from its ``.po`` catalog (no build step, no ``.mo`` file in the tree)."""
    buf = io.BytesIO()
    write_mo(buf, catalog(language))
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def translate(key: str, language: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """The message ``key`` in ``language`` with ``{name}`` parameters filled.

    A key missing from the catalog comes back as the key itself (the catalog test keeps
    that from happening); a missing parameter is left as ``{name}`` rather than raising,
    so that a message never turns into a traceback in front of a person.
    """
    text = translator(check_language(language)).gettext(key)
    if not params:
        return text
    return _PARAM.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def parameters(text: str) -> set[str]:
    """The ``{name}`` parameters a message uses."""
    return set(_PARAM.findall(text))


def negotiate(accept_language: str | None) -> str:
    """The language for an HTTP ``Accept-Language`` header (RFC 9110 §12.5.4): the first of
    :data:`LANGUAGES` by the header's quality order (``es-MX,es;q=0.9,en;q=0.8`` ->
    ``es``); :data:`DEFAULT_LANGUAGE` when none matches or the header is missing."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        for p in rest.split(";"):
            name, _, value = p.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranked.append((-q, i, tag.strip().lower()))
    for negq, _, tag in sorted(ranked):
        if negq >= 0:
            break
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the POSIX locale variables, in gettext's order
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``es_MX.UTF-8`` -> ``es``;
    :data:`DEFAULT_LANGUAGE` when none names a known language."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        for tag in value.split(":"):
            primary = tag.split(".")[0].split("_")[0].split("-")[0].strip().lower()
            if primary in LANGUAGES:
                return primary
            if primary in ("c", "posix"):
                return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


__all__ = [
    "DEFAULT_LANGUAGE", "DOMAIN", "LANGUAGES", "LOCALE_DIR", "UnknownLanguage", "catalog", "catalog_path",
    "check_language", "messages", "negotiate", "parameters", "terminal_language", "translate", "translator",
]

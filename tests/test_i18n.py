"""The catalogs (issue 10): both languages hold the same keys, with the same parameters,
none empty; gettext through Babel fills them; the language follows the browser and the
terminal's locale."""

from __future__ import annotations

import pytest

from gameweave.i18n import (
    LANGUAGES, UnknownLanguage, catalog, messages, negotiate, parameters, terminal_language, translate,
)


def test_every_key_is_in_both_languages() -> None:
    keys = {lang: set(messages(lang)) for lang in LANGUAGES}
    es, en = keys["es"], keys["en"]
    assert not es - en, f"keys only in Spanish: {sorted(es - en)}"
    assert not en - es, f"keys only in English: {sorted(en - es)}"
    assert len(en) > 50


def test_a_profiles_rules_line_is_the_start_of_its_summary() -> None:
    """``profile.<name>.rules`` (the terminal's intro) repeats the rules part of
    ``profile.<name>.summary`` (the lobby, the help): the two may not drift apart."""
    from gameweave.engine import PROFILE_NAMES

    for lang in LANGUAGES:
        t = messages(lang)
        for name in PROFILE_NAMES:
            summary, rules = t[f"profile.{name}.summary"], t[f"profile.{name}.rules"]
            assert summary.startswith(rules + ";"), (lang, name, summary, rules)


def test_no_message_is_empty_or_fuzzy() -> None:
    for lang in LANGUAGES:
        for m in catalog(lang):
            if not m.id:
                continue
            assert m.string and str(m.string).strip(), f"{lang}: {m.id} has no text"
            assert not m.fuzzy, f"{lang}: {m.id} is marked fuzzy"


def test_both_languages_use_the_same_parameters() -> None:
    en, es = messages("en"), messages("es")
    for key, text in en.items():
        assert parameters(text) == parameters(es[key]), f"{key}: {parameters(text)} vs {parameters(es[key])}"


def test_translate_fills_parameters_through_gettext() -> None:
    assert translate("term.seat_n", "es", n=2) == "Jugador 2"
    assert translate("term.seat_n", "en", n=2) == "Seat 2"
    assert translate("error.unknown_deal", "es", n=3) == "Esta partida no tiene la mano 3."
    # a parameter left out stays visible rather than raising in front of a person
    assert translate("error.unknown_deal", "en") == "This match has no deal {n}."


def test_vocabulary_is_the_one_in_the_doc() -> None:
    es = messages("es")
    assert (es["term.set"], es["term.sequence"], es["term.force"], es["term.tablas"], es["term.throw"]) == (
        "tercia", "corrida", "forzar", "tablas", "descartar")


def test_unknown_language_is_a_typed_error() -> None:
    with pytest.raises(UnknownLanguage):
        translate("term.meld", "fr")


@pytest.mark.parametrize("header, lang", [
    ("es-MX,es;q=0.9,en;q=0.8", "es"),
    ("en-US,en;q=0.9,es;q=0.8", "en"),
    ("fr-FR,fr;q=0.9,es;q=0.5", "es"),
    ("fr-FR", "en"),
    ("es;q=0.2, en;q=0.9", "en"),
    ("es;q=0", "en"),
    ("", "en"),
    (None, "en"),
    ("*", "en"),
])
def test_the_page_follows_the_browser_language(header, lang) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "es_MX.UTF-8"}, "es"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANGUAGE": "es:en", "LANG": "en_US.UTF-8"}, "es"),
    ({"LC_ALL": "C", "LANG": "es_MX.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_terminal_follows_the_locale(env, lang) -> None:
    assert terminal_language(env) == lang


def test_every_error_code_the_server_can_send_has_a_message_in_both_languages() -> None:
    """Errors travel as code plus parameters (issue 10): the page says ``error.<code>``;
    every code in the server's table, and every code its source raises, has one."""
    import re
    from pathlib import Path

    from gameweave.server.errors import ERROR_CODES

    root = Path(__file__).resolve().parent.parent / "src/gameweave"
    src = "".join(p.read_text() for d in ("server", "server/routes", "tables") for p in (root / d).glob("*.py"))
    emitted = set(re.findall(r'(?:TableError|ApiError|_error|error_frame)\(\s*"([a-z_]+)"', src))
    emitted |= set(re.findall(r'code(?:, message)? = "([a-z_]+)"', src))
    assert {"bad_name", "spectator", "unknown_phrase", "not_your_turn"} <= emitted
    assert emitted <= set(ERROR_CODES), sorted(emitted - set(ERROR_CODES))
    for lang in LANGUAGES:
        missing = [c for c in ERROR_CODES if f"error.{c}" not in messages(lang)]
        assert not missing, f"{lang}: no error message for {missing}"


def test_every_quick_phrase_is_in_both_languages() -> None:
    from gameweave.tables import PHRASES

    assert 10 <= len(PHRASES) <= 14 and len(set(PHRASES)) == len(PHRASES)
    for lang in LANGUAGES:
        assert all(f"phrase.{k}" in messages(lang) for k in PHRASES), lang
    assert translate("phrase.good_luck", "es") == "¡Buena suerte!"


def test_the_server_sends_a_whole_catalog_and_refuses_another_language(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from gameweave.server import create_app

    with TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")) as client:
        r = client.get("/api/i18n/es")
        assert r.status_code == 200
        body = r.json()
        assert body["lang"] == "es" and body["messages"] == dict(messages("es"))
        assert body["messages"]["term.sequence"] == "corrida"
        r = client.get("/api/i18n/fr")
        assert r.status_code == 404
        assert r.json()["error"] == {"code": "unknown_language", "message": "the table speaks es and en",
                                     "params": {"lang": "fr"}}


def test_the_help_comes_from_the_catalogs_in_both_languages(tmp_path) -> None:
    """One source per string: help.json holds only structure; ``GET /api/help?lang=``
    answers the same sections in Spanish or English."""
    import json as _json
    from importlib.resources import files

    from fastapi.testclient import TestClient

    from gameweave.server import create_app
    from gameweave.tables import help_data

    structure = _json.loads(files("gameweave.tables").joinpath("help.json").read_text(encoding="utf-8"))
    words = [w for v in structure["profiles"].values() for w in v] + structure["glossary"] + structure["tips"]
    assert all(" " not in w for w in words)  # ids, not prose
    with TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")) as client:
        es, en = client.get("/api/help?lang=es").json(), client.get("/api/help?lang=en").json()
        assert client.get("/api/help").json() == en
        assert client.get("/api/help?lang=fr").json()["error"]["code"] == "unknown_language"
    assert set(es["profiles"]) == set(en["profiles"]) == {"gameweave", "anglo-american", "classic"}
    for name in es["profiles"]:
        assert len(es["profiles"][name]["sections"]) == len(en["profiles"][name]["sections"]) >= 7
    assert es["profiles"]["gameweave"]["sections"][0]["title"] == "Objetivo"
    assert en["profiles"]["gameweave"]["sections"][0]["title"] == "Goal"
    assert any(g["term"] == "corrida" for g in es["glossary"]) and len(es["tips"]) == len(en["tips"]) == 5
    assert "{opponent}" in help_data("es")["terminal"]["confirm_danger"]

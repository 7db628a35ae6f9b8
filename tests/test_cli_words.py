"""The command line speaks through one narrator (issue 18): ``play``, ``replay``, ``demo``
and ``analyze`` tell moves with :mod:`gameweave.tables.words`, in the user's language
(``--lang`` or the locale); §VII text comes from the engine's codec only; no English
literal is left in ``cli/common.py``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.i18n import messages

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "gameweave"
RECORDS = Path(__file__).parent / "records"
runner = CliRunner()


@pytest.fixture(autouse=True)
def _english_locale(tmp_path, monkeypatch):
    """The commands follow the locale: English unless a test says otherwise."""
    monkeypatch.setenv("GAMEWEAVE_DATA", str(tmp_path / "data"))
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


# ---------------------------------------------------------------------------- cli/common.py speaks no English
JSON_KEYS = {"record", "deck", "rules", "result", "resigned"}
"""Strings cli/common.py may hold that are data, not words: the JSON fields of a record and of a download."""


def english_literals(source: str) -> list[str]:
    """The string constants of a module that a person could read, other than docstrings,
    catalog keys, the module's own names and :data:`JSON_KEYS` (an f-string's pieces
    count too)."""
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    names = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    keys = set(messages("en"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value
            if not re.search(r"[A-Za-z]{2}", text) or text in names | JSON_KEYS | keys:
                continue
            if re.fullmatch(r"[a-z_]+\.[a-z_.-]*", text):  # the start of a catalog key, e.g. f"cli.record_of.{name}"
                continue
            out.append(text)
    return out


def test_no_english_literal_is_left_in_cli_common():
    found = english_literals((SRC / "cli" / "common.py").read_text(encoding="utf-8"))
    assert not found, found


def test_the_english_literal_check_catches_one():
    assert english_literals('def f():\n    """Doc."""\n    error("cannot read it")\n') == ["cannot read it"]
    assert english_literals('x = f"record {n}: nothing"\n') == ["record ", ": nothing"]
    assert english_literals('t = translate("cli.error")\nk = d.get("deck")\n') == []


# ---------------------------------------------------------------------------- one narrator, one codec
def _py(under: str) -> list[Path]:
    return sorted((SRC / under).rglob("*.py"))


def test_one_narrator_in_python():
    """Issue 18: ``grep -rn "def event_words\\|def choice_text" src`` gives at most one hit
    (``cli/play.py``'s ``choice_text``, the narrator's adapter for the tests that import it)."""
    hits = [f"{p}:{i}" for p in SRC.rglob("*.py") for i, line in enumerate(p.read_text().splitlines(), 1)
            if re.search(r"def (event_words|choice_text)\b", line)]
    assert len(hits) <= 1, hits


def test_cli_decodes_no_action_and_writes_no_table_separator():
    """``cli/`` imports no ``kind_of`` and writes no ``" / "``; no action text is split."""
    for path in _py("cli") + [SRC / "tables" / "words.py"]:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        if path.parent.name != "tables":
            assert "kind_of" not in imported, path
        assert '" / "' not in text, path
        assert ".split()[0]" not in text and '.split(" ")[' not in text, path


def test_the_set_or_sequence_test_lives_in_one_python_place():
    pattern = re.compile(r">> 2 for c in|RANK_MASKS\[rank_of\(lowest_(card|bit)")
    hits = [p for p in SRC.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))]
    assert hits == [SRC / "tables" / "words.py"], hits


# ---------------------------------------------------------------------------- the user's language
def _english_words(prefixes: tuple[str, ...]) -> list[str]:
    """English messages under ``prefixes`` that differ from the Spanish ones, cut at
    their parameters (long enough to be unambiguous)."""
    en, es = messages("en"), messages("es")
    out = []
    for key, text in en.items():
        if key.startswith(prefixes) and text != es[key]:
            for part in re.split(r"\{[a-z_]+\}", text):
                part = part.strip(" .:;,()")
                if len(part) >= 10:
                    out.append(part)
    return out


def test_replay_and_demo_speak_spanish_and_their_json_is_the_same():
    for args in (["replay", str(RECORDS / "aa_force_back.json"), "--trace"],
                 ["replay", str(RECORDS / "classic_stakes_match.json"), "--trace"],
                 ["demo", "--seed", "3", "--deals", "2", "--rules", "classic"]):
        res = runner.invoke(app, [*args, "--lang", "es"])
        assert res.exit_code == 0, res.output
        leaked = [w for w in _english_words(("words.log.", "replay.")) if w in res.stdout]
        assert not leaked, (args, leaked[:5])
        assert "jugador 1" in res.stdout
    out = runner.invoke(app, ["replay", str(RECORDS / "aa_force_back.json"), "--trace", "--lang", "es"]).stdout
    assert "8. jugador 2: force (7h le regresa forzada al jugador 1, que tiene que bajarla)" in out
    assert "Resultado: sigue en juego: al jugador 2 le toca tomar o voltear" in out
    en = runner.invoke(app, ["replay", str(RECORDS / "several.jsonl"), "--json", "--trace"])
    es = runner.invoke(app, ["replay", str(RECORDS / "several.jsonl"), "--json", "--trace", "--lang", "es"])
    assert en.stdout == es.stdout and en.exit_code == es.exit_code == 2


def test_replay_follows_the_locale_and_refuses_another_language():
    res = runner.invoke(app, ["replay", str(RECORDS / "won.json")], env={"LANG": "es_MX.UTF-8"})
    assert res.exit_code == 0 and "Resultado: el jugador 2 ganó con once cartas bajadas" in res.stdout
    for cmd in (["replay", str(RECORDS / "won.json")], ["analyze", str(RECORDS / "won.json")], ["demo"]):
        res = runner.invoke(app, [*cmd, "--lang", "fr"])
        assert res.exit_code == 2 and "--lang must be es or en, not 'fr'" in res.stderr


def test_analyze_tells_each_move_in_words_in_the_users_language():
    res = runner.invoke(app, ["analyze", str(RECORDS / "won.json"), "--worlds", "8", "--lang", "es"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "registro 1: reglas gameweave, ganada por el jugador 2" in out
    assert "jugó: bajar 4♣ con 2♣ 3♣ de tu mano -> nueva corrida 2♣ 3♣ 4♣" in out
    assert "(once: ganas)" in out and "se analizaron 5 decisiones" in out
    leaked = [w for w in _english_words(("analyze.", "words.choice.")) if w in out]
    assert not leaked, leaked[:5]
    en = runner.invoke(app, ["analyze", str(RECORDS / "won.json"), "--worlds", "8"])
    assert "played: meld 4♣ with 2♣ 3♣ from your hand -> new sequence 2♣ 3♣ 4♣" in en.stdout
    j_en = runner.invoke(app, ["analyze", str(RECORDS / "won.json"), "--worlds", "8", "--json"]).stdout
    j_es = runner.invoke(app, ["analyze", str(RECORDS / "won.json"), "--worlds", "8", "--json", "--lang", "es"]).stdout
    strip = [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in (j_en, j_es)]
    assert strip[0] == strip[1]


def test_play_in_spanish_leaks_no_english_narration():
    res = runner.invoke(app, ["play", "--lang", "es", "--bot", "random", "--rules", "anglo-american", "--deals", "2",
                              "--seed", "11", "--no-record"], input="h\n" + "1\n" * 600)
    assert res.exit_code == 0, res.output
    leaked = [w for w in _english_words(("words.",)) if w in res.output]
    assert not leaked, leaked[:5]
    assert "Volteaste" in res.output and "Tus opciones:" in res.output


def test_r16_the_confirmation_names_the_move_in_words():
    from test_play_cli import _asker, _danger_position

    view, choices = _danger_position()
    k = next(i for i, c in enumerate(choices, 1) if c.gives_eleven)
    asker, buf = _asker([str(k), "y"])
    assert asker.ask(view) == choices[k - 1].action
    from gameweave.tables.words import describe_choice

    words = describe_choice(choices[k - 1], view, opp="Search bot", notes=False)
    assert f"{words}: This hands the deal to Search bot" in buf.getvalue()
    assert choices[k - 1].card >= 0 and words != choices[k - 1].text

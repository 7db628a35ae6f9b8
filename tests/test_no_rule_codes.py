"""No rule codes in player text (issue 19): the rulebook's numbers ("R16", "(R17)",
"R18e") belong to docs/rules.md, the docstrings and the tests, never to what a person
reads.  Every message of both catalogues (the page, the terminal, the narrator, the help,
replay and analyze), the help as the server sends it, and the page's own string
literals are checked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gameweave.i18n import LANGUAGES, messages
from gameweave.tables import help_for_wire

RULE_CODE = re.compile(r"\(R\d|\bR\d+[a-z]?\b")
"""A rule code: "(R" and a digit, or a bare "R16" / "R18e"."""

WEB = Path(__file__).resolve().parents[1] / "src" / "gameweave" / "web"


def test_the_rule_code_pattern_finds_what_it_should():
    for text in ("Tablas: the stock ran out (R17).", "(R10, R11, R13)", "they win, R16", "(R18e)"):
        assert RULE_CODE.search(text), text
    for text in ("Tablas: the stock ran out.", "Revancha", "7♥ QR", "RULES"):
        assert not RULE_CODE.search(text), text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_message_holds_a_rule_code(lang):
    hits = {k: v for k, v in messages(lang).items() if RULE_CODE.search(v)}
    assert not hits, f"rule codes in player text ({lang}): {hits}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_the_server_sends_holds_no_rule_code(lang):
    text = json.dumps(help_for_wire(lang), ensure_ascii=False)
    assert not RULE_CODE.search(text), RULE_CODE.findall(text)


def _code_only(src: str) -> str:
    """JavaScript without its comments (a comment may cite the rules)."""
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in src.splitlines())


def test_no_page_string_holds_a_rule_code():
    for path in sorted(WEB.rglob("*.js")) + [WEB / "index.html"]:
        code = _code_only(path.read_text(encoding="utf-8"))
        for literal in re.findall(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`]*`", code):
            assert not RULE_CODE.search(literal), (path.name, literal)

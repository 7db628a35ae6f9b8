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


BAD_TEXTS = ("force", "force 1", "refuse force 1", "refuse force ²", "meld 3c 4c / 5c 6c 7c", "meld 3c 5h 9d",
             "meld Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc 2d 3d", "throw Zz", "zz")
"""Action texts a person may type that every or some profile cannot read."""


@pytest.mark.parametrize("profile", ["gameweave", "anglo-american", "classic"])
def test_the_terminal_says_the_engine_s_errors_without_rule_codes(profile):
    """The engine's sentences cite the rulebook (for developers); the terminal, which
    prints them to a person in English (and some in Spanish), says them without: the
    codec's unreadable texts (a digit of another script included: always
    :class:`UnparsableError`) and the referee's reason for every illegal action tried."""
    import random

    from gameweave.cli.terminal.asker import reason
    from gameweave.engine import GameState, IllegalActionError, UnparsableError, find_profile, parse_action

    rules = find_profile(profile)
    for text in BAD_TEXTS:
        try:
            parse_action(text, rules)
        except UnparsableError as exc:
            for lang in LANGUAGES:
                said = reason(exc, lang, text)
                assert said and not RULE_CODE.search(said), (lang, said)
    rng = random.Random(3)
    pool: set[int] = set()  # actions legal somewhere: each is illegal in most other states
    for seed in range(30):
        st = GameState.new(seed=100 + seed, rules=rules)
        while not st.is_over:
            pool.update(st.legal_actions())
            st.apply(rng.choice(st.legal_actions()))
    candidates = sorted(pool)
    seen = 0
    for seed in range(12):
        st = GameState.new(seed=seed, rules=rules)
        while not st.is_over:
            legal = set(st.legal_actions())
            for a in rng.sample(candidates, min(40, len(candidates))):
                if a not in legal:
                    code, why = st.why_illegal(a)
                    said = reason(IllegalActionError(why, reason=code), "en")
                    assert said and not RULE_CODE.search(said), said
                    seen += 1
            st.apply(rng.choice(sorted(legal)))
    assert seen > 1000

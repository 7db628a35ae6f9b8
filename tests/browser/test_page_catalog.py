"""Every string a person reads on the pages comes from the catalog (issue 10).

A static scan of ``src/gameweave/web`` and its folders (``web/table/``): each string literal of the JavaScript that reads
like words (a capitalised word, two words, or a sentence) must be a catalog key passed
to ``t()``/``tn()``/``data-i18n``, or a technical token (a CSS class, a selector, an
event, a URL), or one of the few names listed in ``ALLOWED`` with the reason.  Every
``t("key")`` the pages use exists in both catalogs.  The browser check that a Spanish
page shows no English catalog text is in test_people.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gameweave.i18n import LANGUAGES, messages

WEB = Path(__file__).resolve().parents[2] / "src" / "gameweave" / "web"

ALLOWED = {
    "Gameweave": "the product's name, the same in every language",
    "Español": "a language's own name in the lang-switch (also page.lang.es)",
    "English": "a language's own name in the lang-switch (also page.lang.en)",
    "The server cannot be reached.": "ApiError's English text for logs; the page shows page.error.network",
}

# What precedes a literal that is code, not words: CSS classes, selectors, DOM and storage
# names, imports, catalog keys themselves, developer-facing errors.
TECHNICAL_BEFORE = re.compile(
    r"(class:|className\s*=|classList\.\w+\(|querySelector(All)?\(|closest\(|matches\(|createElement\("
    r"|addEventListener\(|getItem\(|setItem\(|removeItem\(|import|from|\bt\(|\btn\(|\bhas\(|\.x\(|\bx\("
    r"|errorText\(|keysWithPrefix\(|startsWith\(|new Error\(|ApiError\([^()]*|\bh\(|type:|rel\s*=|matchMedia\("
    r"|setAttribute\(|getAttribute\(|dataset\.\w+\s*=|\bkind\s*===?|\bcode\s*===?|status\s*===?|decision\s*===?"
    r"|\bcase|\.includes\(|\.split\(|\.join\(|\.slice\(|toggle\(|escape\(|headers\[|Accept:|Content-Type|method|ev\.key\s*===?)\s*$"
)
WORDY = re.compile(r"[A-Za-z]{2,}[ ,'’][A-Za-z]{2,}|^[A-Z][a-z]+|[a-z]{2,}[.!?…]$")
TECHNICAL_LITERAL = re.compile(
    r"^(.*[\[\]=#>].*"  # selectors: "[data-testid=hand] .card"
    r"|\(.*\)"  # media queries
    r"|/.*|.*://.*|application/json|Accept-Language|Bearer|Bearer .*)$"
)


def _literals(src: str):
    """(literal text with ${...} parts removed, the code before it) for each string
    literal outside comments."""
    i, n = 0, len(src)
    out = []
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == "/" and re.search(r"[(,=:!&|?]\s*$", src[max(0, i - 20):i]):  # a regex literal
            j = i + 1
            while j < n and src[j] != "/":
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if c in "\"'`":
            j, buf, depth = i + 1, [], 0
            while j < n:
                d = src[j]
                if d == "\\":
                    buf.append(src[j:j + 2])
                    j += 2
                    continue
                if c == "`" and src.startswith("${", j):
                    depth, j = 1, j + 2
                    while j < n and depth:
                        depth += {"{": 1, "}": -1}.get(src[j], 0)
                        j += 1
                    buf.append(" ")
                    continue
                if d == c:
                    break
                buf.append(d)
                j += 1
            before = " ".join(src[max(0, i - 60):i].split())
            out.append(("".join(buf).strip(), before))
            i = j + 1
            continue
        i += 1
    return out


def _bypassing(path: Path) -> list[str]:
    bad = []
    for text, before in _literals(path.read_text(encoding="utf-8")):
        if not re.search(r"[A-Za-z]{2,}", text) or text in ALLOWED:
            continue
        if TECHNICAL_BEFORE.search(before) or TECHNICAL_LITERAL.match(text):
            continue
        if WORDY.search(text):
            bad.append(f"{path.name}: {text!r} (after …{before[-30:]!r})")
    return bad


@pytest.mark.parametrize("path", sorted(WEB.rglob("*.js")), ids=lambda p: p.relative_to(WEB).as_posix())
def test_no_page_string_bypasses_the_catalog(path: Path) -> None:
    bad = _bypassing(path)
    assert not bad, "words on the page outside the catalog (use t(key)):\n" + "\n".join(bad)


def test_the_scan_catches_a_literal_sentence(tmp_path: Path) -> None:
    """The scan itself fails on words written in the page's code."""
    js = tmp_path / "x.js"
    js.write_text('el.append(h("p", { class: "muted small" }, "Your turn: throw a card."));\n'
                  'const a = `Player ${n} online`;\nconst ok = t("page.you");\n', encoding="utf-8")
    bad = _bypassing(js)
    assert len(bad) == 2 and "Your turn" in bad[0] and "online" in bad[1]


def test_index_html_text_comes_from_the_catalog() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    body = re.sub(r"<noscript>.*?</noscript>", "", html.split("<body>", 1)[1], flags=re.S)
    for m in re.finditer(r"<(\w+)([^>]*)>([^<]*[A-Za-z]{2,}[^<]*)<", body):
        tag, attrs, text = m.groups()
        if text.strip() in ALLOWED:
            continue
        assert "data-i18n=" in attrs, f"<{tag}{attrs}>{text.strip()} is not from the catalog"
    for label in re.findall(r'aria-label="([^"]+)"', body):
        assert label in ALLOWED or f'aria-label="{label}" data-i18n-label=' in body, label


def test_every_key_the_pages_use_is_in_both_catalogs() -> None:
    used: set[str] = set()
    prefixes: set[str] = set()
    for path in WEB.rglob("*.js"):
        src = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z][\w.\-]*)\"", src))
        for key in re.findall(r"\btn\(\"([a-z][\w.\-]*)\"", src):
            used |= {f"{key}.one", f"{key}.other"}
        for key in re.findall(r"\.x\(\"([a-z][\w.\-]*)\"", src):
            used |= {f"{key}.me", f"{key}.opp"}
        prefixes |= set(re.findall(r"\bt\(`([a-z][\w.\-]*\.)\$\{", src))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-i18n(?:-label)?="([^"]+)"', html))
    assert len(used) > 300
    for lang in LANGUAGES:
        have = messages(lang)
        missing = sorted(k for k in used if k not in have)
        assert not missing, f"{lang}: keys the pages use but the catalog lacks: {missing}"
        for p in prefixes:
            assert any(k.startswith(p) for k in have), f"{lang}: no key under {p}"

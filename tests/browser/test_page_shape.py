"""The page's code stays in small pieces with one home for each thing (issue 18, item 4).

A static scan of ``src/gameweave/web`` (no browser needed): no file over 400 lines; no
JavaScript function over 150 lines (a function is measured from the line of its
parameter list, or of its ``=> {``, to its closing brace); the table separator, the
touch-screen test and the set-or-sequence test (R5, R6) are written in one module each;
the table's code never reads action text back (``.split(" ")``), and it sends the
choice's id, never its text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "gameweave" / "web"
SCRIPTS = sorted(WEB.rglob("*.js"))

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 150

_NOT_FUNCTIONS = {"if", "for", "while", "switch", "catch", "with"}
_REGEX_AFTER = set("(,=:!&|?{};[") | {""}


def function_lengths(src: str) -> list[tuple[int, int]]:
    """(first line, lines) of every function body in JavaScript source ``src``.

    Skips comments, strings, template literals (and scans the code inside their
    ``${...}``) and regex literals (a ``/`` after an operator or an opening bracket)."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[str, int, bool]] = []  # (opener, first line, is a function body)
    parens: list[tuple[int, str]] = []  # open "(": (line, the word before it)
    closed: tuple[int, str] | None = None  # the last ")" closed: (line of its "(", word before it)
    i, n, line = 0, len(src), 1
    prev = ""  # the last significant character of code

    def word_before(j: int) -> str:
        m = re.search(r"([A-Za-z_$][\w$]*)\s*$", src[max(0, j - 40):j])
        return m.group(1) if m else ""

    in_template = False
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
        if in_template:
            if c == "\\":
                i += 2
                continue
            if c == "`":
                in_template = False
                prev = "`"
            elif src.startswith("${", i):
                stack.append(("${", line, False))
                in_template = False
                prev = "{"
                i += 2
                continue
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            prev = c
            continue
        if c == "`":
            in_template = True
            i += 1
            continue
        if c == "/" and (prev in _REGEX_AFTER or re.search(r"\breturn\s*$", src[max(0, i - 10):i])):
            j, in_class = i + 1, False
            while j < n and (src[j] != "/" or in_class):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            i = j + 1
            prev = "/"
            continue
        if c == "(":
            parens.append((line, word_before(i)))
        elif c == ")":
            closed = parens.pop() if parens else None
        elif c == "{":
            before = src[max(0, i - 3):i].rstrip()
            if before.endswith("=>"):
                stack.append(("{", line, True))
            elif prev == ")" and closed and closed[1] not in _NOT_FUNCTIONS:
                stack.append(("{", closed[0], True))
            else:
                stack.append(("{", line, False))
        elif c == "}":
            opener, first, is_function = stack.pop()
            if opener == "${":
                in_template = True
            elif is_function:
                out.append((first, line - first + 1))
        if not c.isspace():
            prev = c
        i += 1
    assert not stack, "unbalanced braces"
    return out


def test_the_function_scan_measures_functions() -> None:
    src = (
        "function a(x) {\n  if (x) {\n    return `${x}`;\n  }\n  return 1;\n}\n"
        "const b = (y) => {\n  return /[}]/.test(y);\n};\n"
        "class C {\n  m(z) {\n    return z;\n  }\n}\n"
    )
    assert function_lengths(src) == [(1, 6), (7, 3), (11, 3)]


@pytest.mark.parametrize("path", [*SCRIPTS, *sorted(WEB.rglob("*.css")), *sorted(WEB.rglob("*.html"))],
                         ids=lambda p: p.relative_to(WEB).as_posix())
def test_no_page_file_is_over_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_FILE_LINES, f"{path.name} has {lines} lines"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.relative_to(WEB).as_posix())
def test_no_page_function_is_over_150_lines(path: Path) -> None:
    long = [(first, n) for first, n in function_lengths(path.read_text(encoding="utf-8")) if n > MAX_FUNCTION_LINES]
    assert not long, f"{path.name}: functions over {MAX_FUNCTION_LINES} lines at (line, length) {long}"


def _code(path: Path) -> str:
    """The file without its comments (a rough cut: enough for the greps below)."""
    src = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"(^|\s)//.*", "", src)


def _homes(pattern: str) -> list[str]:
    return [p.relative_to(WEB).as_posix() for p in SCRIPTS if re.search(pattern, _code(p))]


def test_one_home_for_the_table_separator_the_touch_test_and_the_set_test() -> None:
    assert _homes(r"TABLE_SEPARATOR = ") == ["cards.js"]
    assert _homes(r"[\"'`] / [\"'`]") == []  # tables are written by cards.shortTable
    assert _homes(r"function touchScreen\b") == ["ui.js"]
    assert _homes(r"pointer: coarse") == ["ui.js"]
    assert _homes(r"\[0\]\[0\]") == ["cards.js"]  # isSet (R5): one rank


def test_the_table_sends_ids_and_never_reads_action_text() -> None:
    table = [WEB / "table.js", *sorted((WEB / "table").glob("*.js"))]
    for path in table:
        code = _code(path)
        assert '.split(" ")' not in code, path.name
        assert not re.search(r"type: \"action\", action: (?!item\.id\b)", code), path.name
    sends = [p.name for p in table if 'type: "action"' in _code(p)]
    assert sends == ["table.js"]
    assert 'action: item.id' in _code(WEB / "table.js")

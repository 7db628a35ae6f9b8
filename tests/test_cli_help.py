"""``gameweave --help`` and every command's help read as whole sentences: plain text (no
Rich boxes cutting a sentence), every command's line in the list a whole sentence,
flags shown as flags; ``gameweave --version`` prints the version."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from gameweave import __version__
from gameweave.cli import app
from gameweave.cli.app import first_sentence

runner = CliRunner()
COMMANDS = ["replay", "demo", "bench", "play", "arena", "serve", "verify", "conformance", "dataset"]


def test_version_prints_the_package_version():
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == f"gameweave {__version__}"


def test_the_command_list_holds_whole_sentences():
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert res.exit_code == 0
    out = res.output
    assert "╭" not in out and "│" not in out
    assert not any(re.search(r"\w\.\.\.$", line.rstrip()) for line in out.splitlines())  # nothing cut short
    for name in COMMANDS:
        assert f"  {name} " in out
    joined = " ".join(out.split())
    assert "Play a match against a bot in the terminal: type a choice's number each turn." in joined


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_help_is_plain_text_with_flags_as_flags(name):
    res = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "╭" not in res.output and "<bool>" not in res.output
    assert "--help  " in res.output or "--help " in res.output


def test_replay_flags_are_flags():
    out = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "80"}).output
    lines = [ln.strip() for ln in out.splitlines()]
    assert any(ln.startswith("--json ") and "<" not in ln.split("  ")[0] for ln in lines)


def test_first_sentence_keeps_a_sentence_whole():
    assert first_sentence("Check it. Then more.") == "Check it."
    assert first_sentence("One line\nwrapped here.\n\nSecond paragraph.") == "One line wrapped here."
    assert first_sentence("Uses e.g. this. Next") == "Uses e.g. this."

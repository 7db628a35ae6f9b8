"""Edges of the command line a user hits first: empty files, bad decks, single choices."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.engine import CARD_NAMES, UnparsableError, validate_deck

runner = CliRunner()


def test_replay_of_an_empty_file_is_an_error_not_silence(tmp_path):
    f = tmp_path / "empty.json"
    f.write_text("\n\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", str(f), "--json"])
    assert res.exit_code == 2
    assert "holds no game record" in res.output
    assert "Traceback" not in res.output


def test_r1_r8_a_deck_with_a_card_twice_names_the_duplicate_and_the_missing_card():
    names = list(CARD_NAMES)
    names[5] = names[4]  # 2c twice, 2d missing
    with pytest.raises(UnparsableError) as exc:
        validate_deck(" ".join(names))
    msg = str(exc.value)
    assert f"twice: {CARD_NAMES[4]}" in msg
    assert f"missing: {CARD_NAMES[5]}" in msg


def test_replay_reports_a_duplicated_deck_card_with_exit_2(tmp_path):
    names = list(CARD_NAMES)
    names[0] = names[39]
    f = tmp_path / "dup.json"
    f.write_text(json.dumps({"rules": "gameweave", "deck": " ".join(names), "opener": 1, "actions": []}))
    res = runner.invoke(app, ["replay", str(f)])
    assert res.exit_code == 2
    assert f"twice: {CARD_NAMES[39]}" in res.output and f"missing: {CARD_NAMES[0]}" in res.output


def test_play_accepts_enter_when_there_is_only_one_choice_and_says_one_deal():
    # Enter alone: taken as the choice when there is exactly one, re-asked otherwise;
    # the script ends with EOF, which leaves cleanly.
    res = runner.invoke(app, ["play", "--bot", "random", "--deals", "1", "--seed", "3"], input="\n" * 300)
    assert res.exit_code == 0, res.output
    assert "Press Enter or 1" in res.output
    assert "Choose 1-1 " not in res.output
    assert "1 deals" not in res.output
    assert "Traceback" not in res.output


def test_play_and_arena_errors_are_one_plain_line_on_stderr():
    for args in (["play", "--bot", "nope"], ["arena", "nope", "random", "--deals", "1"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2
        assert "error: unknown bot 'nope'" in res.output

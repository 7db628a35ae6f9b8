"""``gameweave play`` driven with scripted keyboard input."""

from __future__ import annotations

import random

import pytest
from rich.text import Text
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.cli.play import choice_text, event_text
from gameweave.engine import GameState, decode, format_cards, meld_cards, seat_view

runner = CliRunner()


@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
def test_whole_deal_with_scripted_input(bot):
    res = runner.invoke(app, ["play", "--bot", bot, "--deals", "1", "--seed", "3"], input="1\n" * 400)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Traceback" not in out
    assert "Your hand:" in out and "Stock:" in out and "Your choices:" in out
    assert "Deal 1 is over" in out
    assert "Player 2's hand was:" in out  # the opponent's hand is shown at the end of a deal
    assert "Tally: you" in out
    assert "won the match" in out or "match is drawn" in out


def test_first_to_match_and_invalid_input_prompts_again():
    script = "zz\n0\nthrow Zz\n\n" + "1\n" * 3000
    res = runner.invoke(app, ["play", "--bot", "random", "--to", "1", "--seed", "5"], input=script)
    assert res.exit_code == 0, res.output
    assert "cannot read 'zz'" in res.output
    assert "There is no choice 0" in res.output
    assert "not a card" in res.output
    assert "Type a number from 1 to" in res.output
    assert "won the match" in res.output


def test_typed_action_text_is_accepted():
    res = runner.invoke(app, ["play", "--bot", "greedy", "--deals", "1", "--seed", "3"], input="refuse\nq\n")
    assert res.exit_code == 0, res.output
    assert "You refused 4s" in res.output
    assert "You left the table." in res.output


def test_end_of_input_and_quit_leave_cleanly():
    for script in ("", "q\n"):
        res = runner.invoke(app, ["play", "--seed", "1"], input=script)
        assert res.exit_code == 0
        assert "You left the table." in res.output
        assert "Traceback" not in res.output


def test_ctrl_c_leaves_cleanly(monkeypatch):
    from rich.console import Console

    def boom(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", boom)
    res = runner.invoke(app, ["play", "--seed", "1"])
    assert res.exit_code == 130
    assert "You left the table." in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_bad_options_are_clear_errors():
    res = runner.invoke(app, ["play", "--bot", "nobody"])
    assert res.exit_code == 2 and "unknown bot 'nobody'" in res.output
    res = runner.invoke(app, ["play", "--deals", "2", "--to", "2"])
    assert res.exit_code == 2 and "not both" in res.output


def test_r15_force_is_told_in_plain_words():
    """'Player 2 forced 7s onto your meld 4s 5s 6s': found in random deals."""
    rng = random.Random(0)
    found = 0
    for d in range(400):
        st = GameState.new(seed=d)
        while not st.is_over:
            seat = st.to_act
            a = rng.choice(st.legal_actions())
            before = seat_view(st, 0)
            dec = decode(a)
            if seat == 1 and dec.force:
                target = st.melds[0][dec.force - 1]
                card = st.card if dec.kind == 2 else dec.card
                st.apply(a)
                text = event_text(before, a, seat_view(st, 0), 0)
                assert text.startswith(f"Player 2 forced {format_cards(1 << card)} onto your meld {format_cards(target)}")
                found += 1
                continue
            st.apply(a)
        if found >= 5:
            break
    assert found >= 5


def test_r12_meld_choices_show_the_resulting_meld():
    rng = random.Random(1)
    seen = 0
    for d in range(50):
        st = GameState.new(seed=d)
        while not st.is_over:
            v = seat_view(st, st.to_act)
            for a in v.legal:
                t = Text.from_markup(choice_text(v, a)).plain
                if decode(a).kind == 0:
                    assert "-> " in t and t.split(" (eleven")[0].endswith(format_cards(meld_cards(a)))
                    seen += 1
                elif decode(a).force:
                    assert "force it onto Player" in t
            st.apply(rng.choice(v.legal))
    assert seen > 20

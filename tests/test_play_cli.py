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


# ------------------------------------------------------------------ every profile (§V)
RECORDS = __import__("pathlib").Path(__file__).parent / "records"


def _state_after(name: str, steps: int):
    import json

    from gameweave.engine import GameRecord

    rec = GameRecord.from_dict(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions[:steps]:
        st.play(text)
    return st


def test_r18_choices_are_whole_tables_with_the_hand_cards_named():
    st = _state_after("classic_r18_rearrange.json", 5)  # seat 1 may take 6d (R18d)
    v = seat_view(st, 0)
    texts = [Text.from_markup(choice_text(v, a)).plain for a in v.legal]
    assert texts == [
        "meld 6d, with 6c from your hand -> your table [3h 4h 5h] [6c 6d 6h]",
        "turn the stock (let 6d die)",
    ]
    st.play(v.legal[0])
    after = seat_view(st, 0)
    assert event_text(v, v.legal[0], after, 0) == (
        "You melded 6d with 6c from your hand: your table is now 3h 4h 5h / 6c 6d 6h")
    assert event_text(v, v.legal[0], seat_view(st, 1), 1) == (
        "Player 1 melded 6d with 6c from their hand: their table is now 3h 4h 5h / 6c 6d 6h")


def test_r19_force_back_and_the_forced_meld_decision_in_words():
    st = _state_after("aa_force_back.json", 7)  # seat 2 may force 7h back
    v2 = seat_view(st, 1)
    assert [Text.from_markup(choice_text(v2, a)).plain for a in v2.legal] == [
        "force 7h back onto Player 1, who turned and refused it (they must meld it, R19)",
        "turn the stock (let 7h die)",
    ]
    st.play("force")
    v1 = seat_view(st, 0)
    assert event_text(v2, 0, v1, 0) == "Player 2 forced 7h back onto you (R19): you must meld it"
    assert v1.decision == "meld" and v1.forced >= 0
    assert [Text.from_markup(choice_text(v1, a)).plain for a in v1.legal] == [
        "meld 7h, with Jh from your hand -> your table [3h 4h 5h] [6h 7h Jh]",
        "meld 7h -> your table [3h 4h 5h 6h 7h]",
        "meld 7h, with Jh from your hand -> your table [3h 4h 5h 6h 7h Jh]",
    ]


@pytest.mark.parametrize("rules", ["anglo-american", "classic", "pagat"])
def test_play_every_profile_to_the_end_with_scripted_input(rules):
    res = runner.invoke(app, ["play", "--bot", "random", "--rules", rules, "--deals", "2", "--seed", "11"],
                        input="1\n" * 600)
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())  # Rich wraps at the console width
    assert "Traceback" not in out
    name = "anglo-american" if rules == "pagat" else rules
    assert f"({name} rules)" in out and "drawn at random" in out
    assert "Deal 2 is over" in out
    if name == "classic":
        assert "stakes (base 1, doubled after tablas)" in out and "next stake" in out
    assert "won the match" in out or "match is drawn" in out


def test_play_shows_r18_tables_and_the_forced_decision_somewhere_in_random_deals():
    seen_table = seen_forced = False
    for seed in range(40):
        res = runner.invoke(app, ["play", "--bot", "random", "--rules", "anglo-american", "--deals", "1",
                                  "--seed", str(seed)], input="1\n" * 300)
        assert res.exit_code == 0, res.output
        out = " ".join(res.output.split())
        seen_table |= "-> your table [" in out
        seen_forced |= "was forced on you: choose your new table (R18e)" in out
        if seen_table and seen_forced:
            break
    assert seen_table and seen_forced

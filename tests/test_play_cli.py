"""``gameweave play`` driven with scripted keyboard input."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.text import Text
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.cli.play import choice_text, event_text
from gameweave.engine import GameState, decode, format_cards, mask_of, parse_cards, seat_view
from deals import at_random, deals

_SYMBOL = dict(zip("cdhs", "♣♦♥♠"))


def shown(text: str) -> str:
    """``text`` with its §VII cards written as the terminal shows them (``6d`` -> ``6♦``)."""
    return re.sub(r"\b([A2-7JQK])([cdhs])\b", lambda m: m[1] + _SYMBOL[m[2]], text)

runner = CliRunner()


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path, monkeypatch):
    """``gameweave play`` saves its record in the data directory: keep it in tmp_path."""
    monkeypatch.setenv("GAMEWEAVE_DATA", str(tmp_path / "data"))
    # the terminal follows the locale (issue 10): these tests read English unless they say
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    import gameweave.cli.play as play_module

    monkeypatch.setattr(play_module, "LANG", ["en"])


@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
def test_whole_deal_with_scripted_input(bot):
    res = runner.invoke(app, ["play", "--bot", bot, "--deals", "1", "--seed", "3"], input="1\n" * 400)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Traceback" not in out
    assert "Your hand:" in out and "Stock:" in out and "Your choices:" in out
    assert "Deal 1 is over" in out
    assert f"{bot.capitalize()} bot's hand was:" in out  # the opponent's hand is shown at the end of a deal
    assert "Tally: you" in out
    # a running tally has no end (R20): the last line says where it stands, not who won
    assert re.search(r"After 1 deal (you are ahead|you are level|\S.* is ahead), \d – \d \(a match of this "
                     r"format has no end\)", " ".join(out.split())), out[-400:]
    assert "won the match" not in out


def test_first_to_match_and_invalid_input_prompts_again():
    script = "zz\n0\nthrow Zz\n\n" + "1\n" * 3000
    res = runner.invoke(app, ["play", "--bot", "random", "--to", "1", "--seed", "5"], input=script)
    assert res.exit_code == 0, res.output
    assert "cannot read 'zz'" in res.output
    assert "There is no choice 0" in res.output
    assert "not a card" in res.output
    assert "type 1 or press enter" in res.output.lower() or "type a number from 1 to" in res.output.lower()
    assert "won the match" in res.output


def test_typed_action_text_is_accepted():
    res = runner.invoke(app, ["play", "--bot", "greedy", "--deals", "1", "--seed", "3"], input="turn\nrefuse\nq\n")
    assert res.exit_code == 0, res.output
    assert shown("You refused 4s") in res.output
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
    found = 0
    for d in deals("gameweave", 400, at_random(random.Random(0))):
        if d.step == 0 and found >= 5:
            break
        st, a = d.state, d.action
        dec = decode(a)
        if d.seat == 1 and dec.force:
            before = seat_view(st, 0)
            target = st.melds[0][dec.force - 1]
            card = st.card if dec.kind == 2 else dec.card
            after = st.clone()
            after.apply(a)
            text = event_text(before, a, seat_view(after, 0), 0)
            assert text.startswith(shown(f"Player 2 forced {format_cards(1 << card)} onto your meld {format_cards(target)}"))
            found += 1
    assert found >= 5


def test_r12_meld_choices_say_what_changes():
    """R12, issue 19: a meld choice says what it changes on the table, as the page's
    button: the card joining the meld it grows, or the new set or sequence."""
    from gameweave.tables import seat_choices
    from gameweave.tables.words import is_set

    grown = new = 0
    for d in deals("gameweave", 50, at_random(random.Random(1))):
        v = d.view
        for c in seat_choices(v):
            t = Text.from_markup(choice_text(v, c.action)).plain.split(" (eleven")[0]
            if c.kind == "meld":
                result = next(m for m in c.melds if m >> c.card & 1)
                old = [m for m in v.melds[v.seat] if m & ~result == 0 and m != result]
                if old:
                    verb = "joins" if (result & ~old[0]).bit_count() == 1 else "join"
                    assert t == shown(f"{format_cards(result & ~old[0])} {verb} {format_cards(old[0])}"), t
                    grown += 1
                else:
                    kind = "set" if is_set(result) else "sequence"
                    assert t == shown(f"New {kind} {format_cards(result)}"), t
                    new += 1
            elif c.force:
                assert "force it onto Player" in t
    assert grown > 5 and new > 20


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


def test_r18_choices_say_what_changes_and_show_the_whole_table():
    """issue 19: a meld choice says what it changes, as the page's meld button does
    (tables/words.py describe_change); every meld of the new table is named (R18)."""
    st = _state_after("classic_r18_rearrange.json", 5)  # seat 1 may take 6d (R18d)
    v = seat_view(st, 0)
    texts = [Text.from_markup(choice_text(v, a)).plain for a in v.legal]
    assert texts == [shown(t) for t in [
        "Splits 3h 4h 5h 6h into 3h 4h 5h and 6c 6d 6h",
        "turn the stock (let 6d die)",
    ]]
    st.play(v.legal[0])
    after = seat_view(st, 0)
    assert event_text(v, v.legal[0], after, 0) == shown(
        "You melded 6d with 6c from your hand: your table is now 3h 4h 5h / 6c 6d 6h")
    assert event_text(v, v.legal[0], seat_view(st, 1), 1) == shown(
        "Player 1 melded 6d with 6c from their hand: their table is now 3h 4h 5h / 6c 6d 6h")


def test_r19_force_back_and_the_forced_meld_decision_in_words():
    st = _state_after("aa_force_back.json", 7)  # seat 2 may force 7h back
    v2 = seat_view(st, 1)
    assert [Text.from_markup(choice_text(v2, a)).plain for a in v2.legal] == [shown(t) for t in [
        "force 7h back onto Player 1, who turned and refused it (they must meld it)",
        "turn the stock (let 7h die)",
    ]]
    st.play("force")
    v1 = seat_view(st, 0)
    assert event_text(v2, 0, v1, 0) == shown("Player 2 forced 7h back onto you: you must meld it")
    assert v1.decision == "meld" and v1.forced >= 0
    assert [Text.from_markup(choice_text(v1, a)).plain for a in v1.legal] == [shown(t) for t in [
        "Splits 3h 4h 5h 6h into 3h 4h 5h and 6h 7h Jh",
        "7h joins 3h 4h 5h 6h",
        "7h Jh join 3h 4h 5h 6h",
    ]]


@pytest.mark.parametrize("rules", ["anglo-american", "classic", "pagat"])
def test_play_every_profile_to_the_end_with_scripted_input(rules):
    res = runner.invoke(app, ["play", "--bot", "random", "--rules", rules, "--deals", "2", "--seed", "11"],
                        input="1\n" * 600)
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())  # Rich wraps at the console width
    assert "Traceback" not in out
    name = "anglo-american" if rules == "pagat" else rules
    title = {"anglo-american": "Anglo-American (Pagat)", "classic": "Classic"}[name]  # the profile by its name
    assert f"({title} rules:" in out and "drawn at random" in out
    assert "Deal 2 is over" in out
    if name == "classic":
        assert "stakes (base 1, doubled after tablas)" in out and "next stake" in out
    if rules in ("anglo-american", "pagat"):  # first to 3: two deals cannot end it, and no verdict is given
        assert "Stopped after 2 deals, before anyone won 3" in out and "won the match" not in out
    else:  # classic plays for stakes, which have no end (R20): where it stands, and the balance
        assert "After 2 deals" in out and "(a match of this format has no end)" in out and "balance" in out
        assert "won the match" not in out
        assert "Press Enter for deal 2" in out  # a pause between the deals


def test_play_shows_r18_tables_and_the_forced_decision_somewhere_in_random_deals():
    seen_table = seen_forced = False
    for seed in range(40):
        res = runner.invoke(app, ["play", "--bot", "random", "--rules", "anglo-american", "--deals", "1",
                                  "--seed", str(seed)], input="1\n" * 300)
        assert res.exit_code == 0, res.output
        out = " ".join(res.output.split())
        seen_table |= "-> your table [" in out
        seen_forced |= "was forced on you: choose your new table" in out
        if seen_table and seen_forced:
            break
    assert seen_table and seen_forced


# ------------------------------------------------------------------ issue 9: the terminal table
def _plain(res) -> str:
    return " ".join(res.output.split())


def test_the_first_turn_is_yours_and_the_screen_shows_progress_dead_cards_and_the_bot_by_name():
    res = runner.invoke(app, ["play", "--bot", "greedy", "--deals", "1", "--seed", "3"], input="1\nh\nq\n")
    assert res.exit_code == 0, res.output
    out = _plain(res)
    first = out.index("Your choices:")
    assert "1) turn the top card of the stock" in out[first:first + 80]  # not played for you
    assert "Greedy bot's table (0 of 11 melded)" in out and "Your table (0 of 11 melded)" in out
    assert "Dead cards (0): ♣: – · ♦: – · ♥: – · ♠: –" in out
    assert "This deal so far (public history)" in out and "1. You turned" in out
    assert "Player 2" not in out  # the bot is named as on the page


@pytest.mark.parametrize("rules, title, section", [
    ("gameweave", "Gameweave", "Forcing."), ("anglo-american", "Anglo-American (Pagat)", "Forcing back."),
    ("classic", "Classic", "Stakes."),
])
def test_help_and_question_mark_show_the_profile_rules_glossary_and_tips(rules, title, section):
    for word in ("?", "help"):
        res = runner.invoke(app, ["play", "--rules", rules, "--seed", "2"], input=f"{word}\nq\n")
        assert res.exit_code == 0, res.output
        out = _plain(res)
        assert f"How to play: {title}" in out and section in out
        assert "tablas: A tied deal" in out and "Tips for a first deal" in out
        assert "cannot read" not in out


def test_r20_anglo_american_first_to_match_saves_a_record_that_replays(tmp_path):
    from gameweave.engine import MatchRecord

    path = tmp_path / "m.json"
    res = runner.invoke(app, ["play", "--bot", "random", "--rules", "anglo-american", "--format", "first_to",
                              "--target", "2", "--seed", "4", "--record", str(path)], input="1\n" * 6000)
    assert res.exit_code == 0, res.output
    out = _plain(res)
    assert "first to 2 won deals" in out and "won the match" in out
    rec = MatchRecord.from_dict(__import__("json").loads(path.read_text(encoding="utf-8")))
    match, finals = rec.replay()
    assert match.is_over and max(match.wins) == 2 and all(st.is_over for st in finals)
    assert f"saved to {path}" in out.replace(" ", "") or "saved to" in out


def test_r20_classic_stakes_options_and_the_balance_and_a_default_record_folder(tmp_path):
    res = runner.invoke(app, ["play", "--bot", "random", "--rules", "classic", "--stake", "2", "--tablas-stake",
                              "carry", "--deals", "2", "--seed", "6"], input="1\n" * 4000)
    assert res.exit_code == 0, res.output
    out = _plain(res)
    assert "stakes (base 2, carried after tablas)" in out
    assert "(balance " in out and "this deal's stake" in out
    saved = list((tmp_path / "data" / "records").glob("play-*.json"))
    assert len(saved) == 1 and "saved to" in out


@pytest.mark.parametrize("argv, words", [
    (["--rules", "gameweave", "--format", "stakes"], "do not offer the 'stakes' format"),
    (["--rules", "anglo-american", "--stake", "2"], "'stake' belongs to a stakes match"),
    (["--to", "2", "--target", "3"], "--to N is --format first_to --target N"),
])
def test_match_options_the_profile_does_not_offer_are_one_error_line(argv, words):
    res = runner.invoke(app, ["play", *argv])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output


def _asker(lines, lang: str = "en"):
    import io

    from rich.console import Console

    from gameweave.cli.play import Asker

    buf = io.StringIO()
    feed = iter(lines)

    def read(prompt):
        buf.write(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return Asker(Console(file=buf, width=200, highlight=False), read, "Search bot", lang=lang), buf


def _danger_position():
    """A position of a random deal where the seat to act has a choice that gives the
    opponent eleven (R16)."""
    from gameweave.tables import seat_choices

    for d in deals("gameweave", 200, "random"):  # deal i: seed i, played by random.Random(i)
        cs = seat_choices(d.view)
        if any(c.gives_eleven for c in cs) and not all(c.gives_eleven for c in cs):
            return d.view, cs
    raise AssertionError("no position found")


def test_r16_a_move_that_gives_eleven_asks_first_and_others_do_not():
    view, choices = _danger_position()
    k = next(i for i, c in enumerate(choices, 1) if c.gives_eleven)
    safe = next(i for i, c in enumerate(choices, 1) if not c.gives_eleven)
    asker, buf = _asker([str(k), "n", str(safe)])
    assert asker.ask(view) == choices[safe - 1].action
    text = buf.getvalue()
    assert "hands the deal to Search bot" in text and text.count("hands the deal") == 1
    asker, buf = _asker([str(k), "y"])
    assert asker.ask(view) == choices[k - 1].action
    asker, buf = _asker([str(k), str(k)])  # the same number again plays it too
    assert asker.ask(view) == choices[k - 1].action
    asker, buf = _asker([str(safe)])
    assert asker.ask(view) == choices[safe - 1].action and "hands the deal" not in buf.getvalue()


def _r18b_view():
    from gameweave.engine import CARD_NAMES, parse_cards

    mine = parse_cards("Ac Ad Ah As 2d 3d 4d 5d 7d Jd")
    top = CARD_NAMES.index("6d")
    rest = [c for c in range(40) if c not in mine and c != top]
    deck = [x for i in range(10) for x in (mine[i], rest[i])] + [top] + rest[10:]
    st = GameState.new(deck, rules="classic")
    st.play("turn")
    return seat_view(st, 0)


def test_r18b_the_chooser_stays_short_at_the_128_choice_position():
    """RULES R18b: 128 tables; the list shows the common ones, typed hand cards narrow
    the rest to a few, and any table is reached in at most three inputs."""
    from gameweave.engine import mask_of, parse_cards
    from gameweave.tables import seat_choices

    view = _r18b_view()
    choices = seat_choices(view)
    assert sum(c.kind == "table" for c in choices) == 128
    asker, buf = _asker(["Ac Ad Ah 4d 5d", "1"])
    a = asker.ask(view)
    got = next(c for c in choices if c.action == a)
    assert got.uses == mask_of(parse_cards("Ac Ad Ah 4d 5d"))
    shown = [ln for ln in buf.getvalue().splitlines() if ln.strip()[:3].strip(") ").isdigit()]
    assert len(shown) <= 40  # the first list: common tables and the other choices, not 128
    # every one of the 128 tables: at most three inputs (cards, then a number among few)
    for c in choices:
        if c.kind != "table":
            continue
        fits = [x for x in choices if x.kind == "table" and x.uses == c.uses]
        assert len(fits) <= 8
        lines = [format_cards(c.uses) or "-"] + ([str(fits.index(c) + 1)] if len(fits) > 1 else [])
        asker, _ = _asker(lines)
        assert asker.ask(view) == c.action
    # a common case is one input: a new meld of 4d 5d 6d is in the first list
    asker, buf = _asker([])
    first, hidden = asker.entries(view, choices)
    assert hidden > 0 and any(c.text == "meld 4d 5d 6d" for c in first)


def test_r18b_through_the_command_from_a_test_deck_in_three_inputs(tmp_path):
    """``play --test-decks``: the 128-choice position (RULES R18b) met in the terminal and
    melded by typing the hand cards, then a number: turn, cards, pick."""
    path = _r18b_deck_file(tmp_path)
    seed = next(s for s in range(100) if random.Random(s).randrange(2) == 0)  # seat 1 opens (drawn, R9)
    res = runner.invoke(app, ["play", "--rules", "classic", "--bot", "random", "--seed", str(seed),
                              "--test-decks", str(path), "--no-record"], input="1\nAc Ad Ah 4d 5d\n1\nq\n")
    assert res.exit_code == 0, res.output
    out = _plain(res)
    assert shown("Your hand: Ac Ad Ah As 2d 3d 4d 5d 7d Jd") in out
    assert "113 other tables that use exactly those" in out
    assert shown("You melded 6d with Ac Ad Ah 4d 5d from your hand") in out
    bad = tmp_path / "bad.txt"
    bad.write_text("Ac\n", encoding="utf-8")
    res = runner.invoke(app, ["play", "--test-decks", str(bad)])
    assert res.exit_code == 2 and "line 1 is not a deck order" in res.output


def _r18b_deck_file(tmp_path):
    """A test-deck file whose first deal is the 128-choice position (RULES R18b): seat 1
    holds Ac Ad Ah As 2d 3d 4d 5d 7d Jd and turns 6d."""
    from gameweave.engine import CARD_NAMES, parse_cards
    from gameweave.tables import deck_text

    mine = parse_cards("Ac Ad Ah As 2d 3d 4d 5d 7d Jd")
    top = CARD_NAMES.index("6d")
    rest = [c for c in range(40) if c not in mine and c != top]
    deck = [x for i in range(10) for x in (mine[i], rest[i])] + [top] + rest[10:]
    path = tmp_path / "decks.txt"
    path.write_text("# R18b\n" + deck_text(deck) + "\n", encoding="utf-8")
    return path


WHAT_CHANGES = {
    "en": {"new": "New sequence 4d 5d 6d", "two": "New sequence Ad 2d 3d · new sequence 4d 5d 6d 7d",
           "adding": "Tables that add Ad 2d 3d 4d 5d 7d:", "melded": "You melded 6d with Ad 2d 3d 4d 5d 7d",
           "old": "meld 6d, with", "joins": "7h joins 3h 4h 5h 6h", "splits": "Splits 3h 4h 5h 6h into 3h 4h 5h and 6h 7h Jh"},
    "es": {"new": "Corrida nueva 4d 5d 6d", "two": "Corrida nueva Ad 2d 3d · corrida nueva 4d 5d 6d 7d",
           "adding": "Mesas que agregan Ad 2d 3d 4d 5d 7d:", "melded": "Bajaste 6d con Ad 2d 3d 4d 5d 7d",
           "old": "bajar 6d, con", "joins": "7h se une a 3h 4h 5h 6h", "splits": "Separa 3h 4h 5h 6h en 3h 4h 5h y 6h 7h Jh"},
}
"""What the terminal says of meld choices (issue 19: the page's words, describe_change)."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_meld_choices_say_what_changes_as_the_page_does_from_a_test_deck(tmp_path, lang):
    """issue 19: in the R18b position the terminal's meld choices, the first list and the
    tables that add typed hand cards, are worded by what they change on the table, as
    the page's buttons (tables/words.py describe_change), never "meld 6d, with ...";
    picking one melds that table (R18b)."""
    words = WHAT_CHANGES[lang]
    seed = next(s for s in range(100) if random.Random(s).randrange(2) == 0)  # seat 1 opens (drawn, R9)
    res = runner.invoke(app, ["play", "--lang", lang, "--rules", "classic", "--bot", "random", "--seed", str(seed),
                              "--test-decks", str(_r18b_deck_file(tmp_path)), "--no-record"],
                        input="1\nAd 2d 3d 4d 5d 7d\n2\nq\n")
    assert res.exit_code == 0, res.output
    out = _plain(res)
    assert re.search(r"\d+\) " + re.escape(shown(words["new"])) + " ", out)  # 4d 5d 6d alone: a common table
    after = out[out.index(shown(words["adding"])):]
    assert f"2) {shown(words['two'])}" in after  # the picked table, said as the page says it
    assert shown(words["melded"]) in after and shown("4d 5d 6d 7d") in after.split(shown(words["melded"]))[1]
    assert shown(words["old"]) not in out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_forced_meld_is_chosen_by_what_it_changes_with_scripted_input(lang):
    """R18e, R19: the card forced back must be melded; the terminal lists the three
    tables by what they change (a split, a meld grown) in the run's language, and the
    number typed plays that table."""
    st = _state_after("aa_force_back.json", 7)
    st.play("force")
    view = seat_view(st, 0)
    words = WHAT_CHANGES[lang]
    asker, buf = _asker(["2"], lang)
    picked = asker.ask(view)
    out = " ".join(buf.getvalue().split())
    assert f"1) {shown(words['splits'])}" in out and f"2) {shown(words['joins'])} " in out
    assert picked == view.legal[1] and "-> " not in out.split("2) ")[1].split("3) ")[0]
    st.play(picked)  # the table the words said: 7h joins the run
    assert seat_view(st, 0).melds[0] == (mask_of(parse_cards("3h 4h 5h 6h 7h")),)


def _english_terminal_words() -> list[str]:
    """The English terminal messages that differ from the Spanish ones, without their
    parameters (long enough to be unambiguous)."""
    import re

    from gameweave.i18n import messages

    en, es = messages("en"), messages("es")
    out = []
    for key, text in en.items():
        if key.startswith(("terminal.", "help.", "tips.")) and text != es[key]:
            for part in re.split(r"\{[a-z_]+\}", text):
                part = part.strip(" .:;,()")
                if len(part) >= 12 and not part.startswith("gameweave"):  # a command stays a command
                    out.append(part)
    return out


def test_terminal_play_in_spanish_with_scripted_input_and_a_name():
    script = "?\nh\nzz\n" + "1\n" * 400
    res = runner.invoke(app, ["play", "--lang", "es", "--name", "  Ana ", "--bot", "greedy", "--deals", "1",
                              "--seed", "3"], input=script)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Traceback" not in out
    assert "Ana (jugador 1) contra" in out and "Bot voraz" in out  # the page's name for the bot
    assert "Tus cartas:" in out and "Monte:" in out and "Tus opciones:" in out and "Cartas muertas" in out
    assert "Cómo se juega" in out and "Palabras del juego" in out and "corrida" in out  # ? in Spanish
    assert "Esta mano hasta ahora" in out  # h
    assert "Terminó la mano 1" in out and "Cuenta: tú" in out
    flat = " ".join(out.split())
    assert "Tras 1 mano" in flat and "(una partida así no tiene final)" in flat  # a tally has no end (R20)
    leaked = [w for w in _english_terminal_words() if w in out]
    assert not leaked, leaked[:5]


def test_terminal_spanish_from_the_locale_and_typed_actions():
    res = runner.invoke(app, ["play", "--bot", "greedy", "--deals", "1", "--seed", "3"], input="turn\nrefuse\nq\n",
                        env={"LANG": "es_MX.UTF-8"})
    assert res.exit_code == 0, res.output
    assert "Rechazaste 4♠" in res.output and "Te levantaste de la mesa." in res.output
    res = runner.invoke(app, ["play", "--lang", "fr"])
    assert res.exit_code == 2 and "es or en" in res.output
    res = runner.invoke(app, ["play", "--name", "x" * 25])
    assert res.exit_code == 2 and "--name" in res.output


def test_hint_shows_each_choice_win_chance_and_level_picks_the_opponent():
    """Issue 11: ``hint`` at a choice lists each choice's win chance from the seat's view;
    ``--level`` names the opponent by level; one shown choice is "type 1", not "1 to 1"."""
    res = runner.invoke(app, ["play", "--level", "beginner", "--deals", "1", "--seed", "4", "--no-record"],
                        input="hint\n7\n" + "1\n" * 400)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Win chance of each choice, a tablas counting half (the master level's estimate" in out
    assert "% to win (wins " in out and "% counting half)" in out
    assert "1 to 1" not in out
    bad = runner.invoke(app, ["play", "--level", "grandmaster", "--no-record"], input="q\n")
    assert bad.exit_code == 2 and "--level must be one of random, beginner" in bad.output
    from gameweave.cli.play import _opponent

    # the page's levels, Random first, name the same opponents here
    assert [_opponent(None, lv) for lv in ("Random", "master")] == ["random", "master"]


def test_cards_are_written_with_suit_symbols_in_every_language_and_letters_on_an_ascii_console():
    import io

    from rich.console import Console

    from gameweave.cli import play as play_mod

    assert play_mod._prints_suits(Console(file=io.TextIOWrapper(io.BytesIO(), encoding="utf-8")))
    assert not play_mod._prints_suits(Console(file=io.TextIOWrapper(io.BytesIO(), encoding="ascii")))
    try:
        play_mod.SYMBOLS[0] = False
        assert play_mod._plain(0b1011) == "Ac Ad As" and play_mod.dead_grid(1).startswith("[green]c[/]: A")
    finally:
        play_mod.SYMBOLS[0] = True
    assert play_mod._plain(0b1011) == "A♣ A♦ A♠" and play_mod.dead_grid(1).startswith("[green]♣[/]: A")
    res = runner.invoke(app, ["play", "--lang", "es", "--bot", "greedy", "--deals", "1", "--seed", "3"], input="q\n")
    hand = next(line for line in res.output.splitlines() if line.startswith("Tus cartas"))
    assert any(sym in hand for sym in "♣♦♥♠") and not re.search(r"\b[A2-7JQK][cdhs]\b", hand)


def test_level_and_bot_together_are_refused():
    res = runner.invoke(app, ["play", "--level", "master", "--bot", "greedy", "--no-record"], input="q\n")
    assert res.exit_code == 2 and "give --bot or --level, not both" in res.output


def test_spanish_verbs_and_words_can_be_typed():
    """The choices read ``descartar A♦`` in Spanish, so that is what a person types; the
    §VII verbs still work, and ``ayuda`` / ``historial`` / ``salir`` are understood."""
    from gameweave.cli import play as play_mod

    try:
        play_mod.LANG[0] = "es"
        assert play_mod._notation("descartar K♠") == "throw K♠"
        assert play_mod._notation("Bajar 6d") == "meld 6d"
        assert play_mod._notation("voltear") == "turn" and play_mod._notation("voltear del monte") == "turn"
        assert play_mod._notation("rechazar") == "refuse" and play_mod._notation("throw Ks") == "throw Ks"
    finally:
        play_mod.LANG[0] = "en"
    res = runner.invoke(app, ["play", "--lang", "es", "--bot", "greedy", "--deals", "1", "--seed", "3", "--no-record"],
                        input="ayuda\nhistorial\nvoltear\n" + "salir\n")
    assert res.exit_code == 0, res.output
    assert "no entiendo" not in res.output and "Te levantaste de la mesa." in res.output


def test_r3_a_card_that_is_none_is_named_in_spanish_too():
    """In Spanish, ``throw Zz`` and ``descartar Zz`` say that Zz is not a card (R3), as
    English does; a line with no verb of the game is still "not understood"."""
    res = runner.invoke(app, ["play", "--lang", "es", "--bot", "random", "--to", "1", "--seed", "5", "--no-record"],
                        input="throw Zz\ndescartar Qx\nzz\nsalir\n")
    assert res.exit_code == 0, res.output
    assert "'Zz' no es una carta" in res.output and "'Qx' no es una carta" in res.output
    assert "no entiendo 'zz'" in res.output


def test_play_names_the_default_bot_and_the_profile_as_the_page_does():
    """The default opponent is the page's default (the intermediate level, by its page
    name), and the profile is named in the run's language (Spanish: "Clásico", not the
    profile's key)."""
    res = runner.invoke(app, ["play", "--lang", "es", "--rules", "classic", "--deals", "1", "--seed", "3",
                              "--no-record"], input="q\n")
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    assert "contra Bot intermedio" in flat and "Mano 1 · Clásico" in flat
    assert "classic" not in flat
    res = runner.invoke(app, ["play", "--rules", "classic", "--deals", "1", "--seed", "3", "--no-record"],
                        input="q\n")
    flat = " ".join(res.output.split())
    assert "against Intermediate bot" in flat and "Deal 1 · Classic rules" in flat


def test_play_pauses_between_deals_and_q_there_leaves():
    from rich.console import Console

    from gameweave.cli.terminal.asker import Quit
    from gameweave.cli.terminal.match import pause
    from gameweave.cli.terminal.screen import Terminal

    res = runner.invoke(app, ["play", "--bot", "random", "--deals", "2", "--seed", "4", "--no-record"],
                        input="1\n" * 1000)
    out = res.output
    assert out.count("Press Enter for deal 2") == 1 and "Press Enter for deal 3" not in out
    before, after = out.split("Press Enter for deal 2", 1)
    assert "Deal 1 is over" in before and "Deal 2 is over" in after and "Deal 1 is over" not in after
    for typed, leaves in (("", False), ("1", False), ("q", True), ("salir", True)):
        con = Console(file=__import__("io").StringIO())
        con.input = lambda prompt="", typed=typed: typed  # type: ignore[method-assign]
        tty = Terminal(con, "es")
        if leaves:
            with pytest.raises(Quit):
                pause(tty, 2)
        else:
            pause(tty, 2)


def test_play_checks_the_record_path_before_the_match(tmp_path):
    """A --record that cannot be written is said at once (exit 2), not after the match."""
    for bad, says in ((tmp_path, "is a directory"), (tmp_path / "f.txt" / "x.json", "is not a folder")):
        (tmp_path / "f.txt").write_text("x")
        res = runner.invoke(app, ["play", "--bot", "random", "--deals", "1", "--seed", "3", "--record", str(bad)],
                            input="1\n" * 400)
        assert res.exit_code == 2, res.output
        assert says in res.output and "Your choices:" not in res.output
    ok = tmp_path / "new" / "folder" / "m.json"
    res = runner.invoke(app, ["play", "--bot", "random", "--deals", "1", "--seed", "3", "--record", str(ok)],
                        input="1\n" * 400)
    assert res.exit_code == 0, res.output
    assert ok.exists()


def test_digits_of_other_scripts_are_no_choice_not_a_crash():
    """A superscript or circled digit (``str.isdigit`` says yes, ``int`` says no) is
    told like any other text that is not a choice, and play goes on."""
    script = "²\n①\n٣\n" + "1\n" * 400
    res = runner.invoke(app, ["play", "--bot", "random", "--deals", "1", "--seed", "5", "--no-record"], input=script)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output and "invalid literal" not in res.output
    assert "cannot read '²'" in res.output
    assert "deal" in res.output.lower()


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux's /proc")
def test_a_record_path_nothing_can_be_written_to_is_refused_before_play_and_a_failed_save_is_exit_1(monkeypatch):
    """``/proc`` tells root it is writable (permission bits): the check tries a file
    instead, so play does not start; and where saving fails anyway at the end, the exit
    status says so (1), after the one error line."""
    from gameweave.cli.terminal import record as record_mod

    res = runner.invoke(app, ["play", "--level", "random", "--deals", "1", "--record", "/proc/gw.json"], input="1\n" * 400)
    assert res.exit_code == 2 and "cannot write in /proc" in res.output
    assert "deal" not in res.output.lower().split("cannot write")[0]  # said before any deal
    monkeypatch.setattr("gameweave.cli.play.record_problem", lambda path: None)
    res = runner.invoke(app, ["play", "--level", "random", "--deals", "1", "--seed", "2", "--record", "/proc/gw.json"],
                        input="1\n" * 400)
    assert res.exit_code == 1, res.output
    assert "cannot save the record to /proc/gw.json" in res.output
    assert record_mod.record_problem(Path("/proc/gw.json")) is not None


def test_a_pasted_page_is_not_echoed_whole_and_the_intro_names_this_match_s_goal():
    """A 100,000-character line is told as unreadable with a cut of it, not all of it;
    the first lines say this match's goal (first to 1), not the profile's usual one."""
    script = "x" * 100_000 + "\n" + "1\n" * 600
    res = runner.invoke(app, ["play", "--rules", "anglo-american", "--to", "1", "--level", "random", "--seed", "3",
                              "--no-record"], input=script)
    assert res.exit_code == 0, res.output
    assert 150 < res.output.count("x") < 1000  # the line's cut (the console wraps it), not the line
    intro = _plain(res).split("won deal")[0]
    assert "first to 1" in intro and "first to 3" not in intro

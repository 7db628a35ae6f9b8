"""The narrator (issue 18, ``tables/words.py``): one per language, built from structured
choices (:class:`~gameweave.tables.Choice`) and public events
(:class:`~gameweave.engine.PublicEvent`), every sentence a catalog message (``words.*``).

tests/records/classic_r18_rearrange.json, aa_force_back.json, won.json: as described in
test_records_profiles.py and test_replay_cli.py.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from gameweave.engine import GameRecord, GameState, parse_cards, public_history, seat_view
from gameweave.engine.cards import mask_of
from gameweave.i18n import LANGUAGES, messages
from gameweave.tables import choice_of, seat_choices
from gameweave.tables.words import (
    LETTERS, SYMBOLS, Look, decision_words, describe_change, describe_choice, describe_event, history_lines, is_set,
    seat_name, symbol_cards, typed_notation,
)
from deals import at_random, deals, play_out

RECORDS = Path(__file__).parent / "records"


def _state_after(name: str, steps: int) -> GameState:
    rec = GameRecord.from_dict(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions[:steps]:
        st.play(text)
    return st


def _words(st: GameState, seat: int, lang: str, **kw) -> list[str]:
    v = seat_view(st, seat)
    return [describe_choice(c, v, lang, **kw) for c in seat_choices(v)]


def test_r5_r6_is_set_tells_a_set_from_a_sequence():
    assert is_set(mask_of(parse_cards("7c 7d 7h")))
    assert is_set(mask_of(parse_cards("Ac Ad Ah As")))
    assert not is_set(mask_of(parse_cards("3h 4h 5h")))
    assert not is_set(mask_of(parse_cards("7h Jh Qh Kh")))


def test_cards_are_written_with_suit_symbols_or_section_vii_letters():
    mask = mask_of(parse_cards("Ac Ad As"))
    assert symbol_cards(mask) == SYMBOLS.cards(mask) == "A♣ A♦ A♠"
    assert LETTERS.cards(mask) == "Ac Ad As"
    assert LETTERS.table([mask_of(parse_cards("3h 4h 5h")), mask_of(parse_cards("6c 6d 6h"))]) == "3h 4h 5h / 6c 6d 6h"


def test_r18_a_whole_table_choice_in_both_languages():
    st = _state_after("classic_r18_rearrange.json", 5)  # seat 1 may take 6d (R18d)
    assert _words(st, 0, "en", look=LETTERS) == [
        "meld 6d, with 6c from your hand -> your table [3h 4h 5h] [6c 6d 6h]",
        "turn the stock (let 6d die)",
    ]
    assert _words(st, 0, "es") == [
        "bajar 6♦, con 6♣ de tu mano -> tu mesa [3♥ 4♥ 5♥] [6♣ 6♦ 6♥]",
        "voltear del monte (dejar morir 6♦)",
    ]


def test_r19_force_back_and_r18e_the_forced_meld_in_both_languages():
    st = _state_after("aa_force_back.json", 7)  # seat 2 may force 7h back
    assert _words(st, 1, "en", look=LETTERS)[0] == (
        "force 7h back onto Player 1, who turned and refused it (they must meld it)")
    assert _words(st, 1, "es", opp="Ana")[0] == (
        "regresarle forzada 7♥ a Ana, que la volteó y la rechazó (tiene que bajarla)")
    before = seat_view(st, 1)
    st.play("force")
    ev = seat_view(st, 0).history[-1]
    assert describe_event(ev, 0, "en", look=LETTERS) == "Player 2 forced 7h back onto you: you must meld it"
    assert describe_event(ev, 1, "es", opp="Ana") == "Le regresaste forzada 7♥ a Ana: tiene que bajarla"
    assert describe_event(ev, None, "en", look=LETTERS) == (
        "seat 2: force (7h goes back onto seat 1, who must meld it)")
    assert describe_event(ev, None, "es", look=LETTERS) == (
        "jugador 2: force (7h le regresa forzada al jugador 1, que tiene que bajarla)")
    assert before.decision == "take_or_turn"
    assert decision_words(before.decision, "en") == "take or turn"
    assert decision_words(before.decision, "es") == "tomar o voltear" and decision_words(None) == ""


def _gameweave_positions(n: int = 60):
    """(view, choices) at every decision of ``n`` random gameweave deals."""
    for d in deals("gameweave", n, at_random(random.Random(5))):
        yield d.view, seat_choices(d.view)


def _m(text: str) -> int:
    return mask_of(parse_cards(text))


def test_r12_r18_what_a_meld_changes_in_both_languages():
    """issue 19: a meld button says what changes: a meld grown, a meld split, a new meld;
    melds kept as they were are not named."""
    grown = describe_change([_m("4d 5d"), _m("Kc Kd Kh")], [_m("4d 5d 6d"), _m("Kc Kd Kh")])
    assert grown == "6♦ joins 4♦ 5♦"
    assert describe_change([_m("4d 5d 6d")], [_m("4d 5d 6d 7d Jd")]) == "7♦ J♦ join 4♦ 5♦ 6♦"
    split = [_m("3s 4s 5s 6s")], [_m("3s 4s 5s"), _m("6s 7s Js")]
    assert describe_change(*split) == "Splits 3♠ 4♠ 5♠ 6♠ into 3♠ 4♠ 5♠ and 6♠ 7♠ J♠"
    assert describe_change(*split, lang="es") == "Separa 3♠ 4♠ 5♠ 6♠ en 3♠ 4♠ 5♠ y 6♠ 7♠ J♠"
    assert describe_change([], [_m("7c 7d 7h")]) == "New set 7♣ 7♦ 7♥"
    assert describe_change([], [_m("7c 7d 7h")], lang="es") == "Tercia nueva 7♣ 7♦ 7♥"
    both = describe_change([], [_m("Ac Ah As"), _m("4d 5d 6d")], lang="es")
    assert both == "Tercia nueva A♣ A♥ A♠ · corrida nueva 4♦ 5♦ 6♦"
    assert describe_change([_m("3h 4h 5h"), _m("7h Jh Qh")], [_m("3h 4h 5h 6h 7h Jh Qh")]) == \
        "6♥ joins 3♥ 4♥ 5♥ and 7♥ J♥ Q♥"


def test_r12_r15_meld_and_force_choices_name_the_resulting_meld():
    onto = new = forced = 0
    for v, choices in _gameweave_positions():
        for c in choices:
            text = describe_choice(c, v, "en", look=LETTERS)
            if c.kind == "meld":
                meld = next(m for m in c.melds if m >> c.card & 1)
                assert text.split(" (eleven")[0].endswith(LETTERS.cards(meld)), text
                onto += "onto your meld" in text
                if "new " in text:
                    new += 1
                    assert ("new set" in text) == is_set(meld), text
            elif c.force:
                n = v.melds[v.opponent].index(c.force) + 1
                assert f"force it onto Player {v.opponent + 1}'s meld {n} {LETTERS.cards(c.force)}" in text, text
                forced += 1
    assert onto and new and forced


def test_r16_a_move_that_gives_eleven_is_warned_and_one_that_wins_is_noted():
    warned = won = 0
    for v, choices in _gameweave_positions(200):
        for c in choices:
            text = describe_choice(c, v, "es", opp="Ana", look=Look(good=lambda s: f"<{s}>", bad=lambda s: f"!{s}!"))
            assert ("!(le da once a Ana: gana)!" in text) == c.gives_eleven, text
            warned += c.gives_eleven
            if c.is_meld and sum(m.bit_count() for m in c.melds) >= 11:
                assert text.endswith("<(once: ganas)>"), text
                won += 1
            bare = describe_choice(c, v, "es", opp="Ana", notes=False)
            assert "R16" not in bare
        if warned and won:
            break
    assert warned and won


def test_every_event_of_random_deals_is_told_in_every_language_from_the_catalog():
    """Every kind of event, to both seats and as the log: no key or parameter is left
    unfilled, and the last event of a finished deal says how it ended (R16, R17)."""
    seen_end = set()
    for rules in ("gameweave", "anglo-american", "classic"):
        rng = random.Random(rules)
        for d in range(25):
            st = play_out(GameState.new(seed=d, rules=rules), at_random(rng))
            events = public_history(st)
            for lang in LANGUAGES:
                for me in (0, 1, None):
                    lines = history_lines(events, st.status, me, lang, opp="Ana")
                    assert len(lines) == len(events)
                    for line in lines:
                        assert "words." not in line and not re.search(r"\{[a-z_]+\}", line), line
                    if lang == "en" and me is None:
                        assert lines[-1].endswith(("the deal is won)", "tablas)", "tablas"))
                        seen_end.add(st.status)
    assert seen_end == {"won", "tablas"}


def test_r21_the_words_are_the_same_whatever_the_hidden_stock_order():
    """Two deals that differ only in the order of the unturned stock are told alike:
    every event to both seats and every choice of the seat to act."""
    rec = GameRecord.from_dict(json.loads((RECORDS / "won.json").read_text(encoding="utf-8")))
    deck = list(rec.deck)
    deck[-1], deck[-2] = deck[-2], deck[-1]  # the bottom of the stock: never turned in this deal
    told = []
    for order in (rec.deck, deck):
        st = GameState.new(list(order), rules=rec.rules, opener=rec.opener)
        lines = []
        for text in rec.actions[:-1]:
            st.play(text)
            for seat in (0, 1):
                v = seat_view(st, seat)
                lines += [describe_event(e, seat, "es") for e in v.history[-1:]]
                lines += [describe_choice(c, v, "es") for c in seat_choices(v)]
        told.append(lines)
    assert told[0] == told[1] and len(told[0]) > 20


@pytest.mark.parametrize("typed, lang, notation", [
    ("descartar K♠", "es", "throw K♠"), ("Bajar 6d", "es", "meld 6d"), ("voltear", "es", "turn"),
    ("voltear del monte", "es", "turn"), ("regresar forzada", "es", "force"), ("rechazar force 2", "es", "refuse force 2"),
    ("throw Ks", "es", "throw Ks"), ("turn the stock", "en", "turn"), ("descartar K♠", "en", "descartar K♠"),
])
def test_typed_verbs_of_the_game_become_the_section_vii_verbs(typed, lang, notation):
    assert typed_notation(typed, lang) == notation


def test_the_narrator_keys_are_in_both_languages_and_the_seat_names_differ():
    for lang in LANGUAGES:
        keys = [k for k in messages(lang) if k.startswith("words.")]
        assert len(keys) > 60
    assert seat_name(1, "en") == "Player 2" and seat_name(0, "es") == "Jugador 1"


def test_a_choice_of_any_kind_has_words():
    """Each kind of :class:`Choice` (meld, table, turn, refuse, throw, force) is told."""
    kinds = set()
    for name, steps, seat in (("classic_r18_rearrange.json", 5, 0), ("aa_force_back.json", 7, 1)):
        st = _state_after(name, steps)
        v = seat_view(st, seat)
        for a in v.legal:
            c = choice_of(v, a)
            kinds.add(c.kind)
            assert describe_choice(c, v, "es")
    for v, choices in _gameweave_positions(5):
        for c in choices:
            kinds.add(c.kind)
            assert describe_choice(c, v, "en")
    assert kinds == {"meld", "table", "turn", "refuse", "throw", "force"}

"""The guided first deal (issue 19): its fixed deck and script play, under the engine, to
a deal won by seat 1 with its eleventh card (R16); every step's move is legal where the
guide asks for it; the guide (a scripted bot, from its view only) plays its part; the
words name only cards seat 1 sees (R21); and a guided deal over the wire, created by
``POST /api/tutorial``, is guided by ``GET /api/matches/{id}/tutorial`` to the won deal."""

from __future__ import annotations

import re

import pytest

from gameweave.engine import (
    GAMEWEAVE, GameState, format_action, mask_names, parse_action, seat_view,
)
from gameweave.i18n import LANGUAGES, messages
from gameweave.tables.tutorial import (
    GUIDE, GUIDE_TOTAL, TUTORIAL_ACTIONS, TUTORIAL_DECK, TUTORIAL_PERSON, guide_script, is_tutorial,
    new_tutorial, tutorial_bot, tutorial_guide,
)


def _replay(n: int) -> GameState:
    st = GameState.new(TUTORIAL_DECK, rules=GAMEWEAVE)
    for a in TUTORIAL_ACTIONS[:n]:
        st.play(a)
    return st


def test_the_script_plays_to_a_deal_won_by_seat_1_with_its_eleventh_card():
    st = GameState.new(TUTORIAL_DECK, rules=GAMEWEAVE)
    assert len(set(TUTORIAL_DECK)) == 40
    for a in TUTORIAL_ACTIONS:
        assert a in st.legal_texts(), (a, st.legal_texts())  # every move legal (the engine's checked path)
        assert format_action(parse_action(a, GAMEWEAVE)) == a  # canonical: the page's data-action text
        st.play(a)
    assert st.status == "won" and st.winner == TUTORIAL_PERSON
    assert st.table_counts[TUTORIAL_PERSON] == 11  # R16: eleven melded, no throw
    kinds = [a.split()[0] for a in TUTORIAL_ACTIONS]
    assert {"turn", "refuse", "meld", "throw"} <= set(kinds)
    assert any("force" in a for a in TUTORIAL_ACTIONS)  # a force (R15)


def test_the_guide_asks_for_seat_1_moves_only_where_seat_1_decides_and_each_is_the_script():
    moves = 0
    for at, steps in GUIDE.items():
        st = _replay(at)
        if at == len(TUTORIAL_ACTIONS):
            assert st.is_over and all(s.action is None for s in steps)
            continue
        assert st.to_act == TUTORIAL_PERSON, at
        acting = [s for s in steps if s.action is not None]
        assert len(acting) == 1 and steps[-1] is acting[0], at  # explanations first, then the move
        assert acting[0].action == TUTORIAL_ACTIONS[at]
        moves += 1
    person = [i for i in range(len(TUTORIAL_ACTIONS)) if i not in guide_script()]
    assert sorted(a for a in GUIDE if a < len(TUTORIAL_ACTIONS)) == person
    assert moves == len(person) and GUIDE_TOTAL == sum(len(s) for s in GUIDE.values())


def test_the_scripted_guide_plays_its_part_from_its_view_only():
    st = GameState.new(TUTORIAL_DECK, rules=GAMEWEAVE)
    bot = tutorial_bot(seed=1)
    for i, a in enumerate(TUTORIAL_ACTIONS):
        if st.to_act != TUTORIAL_PERSON:
            chosen = bot.choose(seat_view(st, st.to_act))
            assert format_action(chosen) == a, i
        st.play(a)
    assert st.winner == TUTORIAL_PERSON


def test_the_guide_falls_back_to_a_legal_move_off_the_script():
    st = GameState.new(TUTORIAL_DECK, rules=GAMEWEAVE)
    st.play("turn")
    st.play("refuse")
    st.play("turn")
    st.play("refuse")  # not the script (it melds Qc): the guide is now off it
    st.play("turn")
    st.play("refuse")
    view = seat_view(st, st.to_act)
    assert st.to_act != TUTORIAL_PERSON
    assert tutorial_bot(seed=3).choose(view) in view.legal


def _visible(st: GameState) -> set[str]:
    v = seat_view(st, TUTORIAL_PERSON)
    seen = v.hand | v.table | v.dead
    for c in (v.centre, v.forced):
        if c >= 0:
            seen |= 1 << c
    return set(mask_names(seen))


def test_every_card_the_guide_names_is_one_seat_1_sees_there():
    """R21: the guide's words never hold the opponent's hand or the stock order."""
    for at, steps in GUIDE.items():
        seen = _visible(_replay(at))
        for s in steps:
            for v in s.params.values():
                cards = [v] if isinstance(v, str) else list(v)
                assert set(cards) <= seen, (at, s.key, set(cards) - seen)


def test_every_step_has_words_in_both_languages_with_its_parameters():
    for lang in LANGUAGES:
        cat = messages(lang)
        for steps in GUIDE.values():
            for s in steps:
                assert s.key in cat, (lang, s.key)
                assert set(re.findall(r"\{(\w+)\}", cat[s.key])) == set(s.params), (lang, s.key)


def test_tutorial_guide_reads_a_table_and_never_answers_ahead_of_it():
    table, _token = new_tutorial("Ana")
    assert is_tutorial(table) and table.test and table.target == 1
    g = tutorial_guide(table)
    assert g["at"] == 0 and g["on_script"] and not g["finished"]
    assert [s["action"] for s in g["steps"]] == [None, None, "turn"]
    assert [s["n"] for s in g["steps"]] == [1, 2, 3] and g["total"] == GUIDE_TOTAL
    assert tutorial_guide(table, 5)["at"] == 0  # clamped to now: no future step
    for a in TUTORIAL_ACTIONS:
        table.apply_action(table.state.to_act, parse_action(a, GAMEWEAVE))
    g = tutorial_guide(table)
    assert g["finished"] and g["steps"][0]["key"] == "tutorial.step.done"
    assert tutorial_guide(table, 5)["steps"][-1]["action"] == "meld Kc Kd Kh"
    assert tutorial_guide(table, 5)["steps"][-1]["params"] == {"card": "Kh", "cards": ["Kc", "Kd"]}


def test_tutorial_guide_off_the_script_and_for_other_matches():
    from gameweave.tables import Table, TableError

    table, _ = new_tutorial()
    table.apply_action(0, parse_action("turn", GAMEWEAVE))
    table.apply_action(0, parse_action("refuse", GAMEWEAVE))
    table.apply_action(1, parse_action("turn", GAMEWEAVE))
    table.apply_action(1, parse_action("refuse", GAMEWEAVE))
    g = tutorial_guide(table)
    assert not g["on_script"] and g["steps"] == []
    assert tutorial_guide(table, 2)["on_script"]
    with pytest.raises(TableError) as info:
        tutorial_guide(table, -1)
    assert info.value.code == "malformed"
    other, _ = Table.create(opponent="bot", bot="greedy", format="tally", target=3, deck=TUTORIAL_DECK, salt="00")
    with pytest.raises(TableError) as info:
        tutorial_guide(other)
    assert info.value.code == "not_a_tutorial"


def test_a_guided_deal_over_the_wire_is_guided_to_its_won_end(table_server, ws_seat, tmp_path):
    """POST /api/tutorial, then seat 1 plays each step's move over the WebSocket while the
    guide (the server's scripted bot) plays its own; GET .../tutorial answers each point;
    the deal ends won by seat 1, and the match with it (first to one)."""
    client = table_server(f"sqlite:///{tmp_path / 'g.db'}")
    r = client.post("/api/tutorial", json={"name": "Ana"})
    assert r.status_code == 201, r.text
    m = r.json()
    auth = {"Authorization": f"Bearer {m['token']}"}
    seat = ws_seat(client, m["match_id"], 1, m["token"])
    f = seat.state
    assert f["match"]["opponent"] == {"kind": "bot", "bot": "tutorial"} and f["match"]["test"]
    moves = 0
    while True:
        at = len(f["view"]["history"])
        g = client.get(f"/api/matches/{m['match_id']}/tutorial", params={"at": at}, headers=auth)
        assert g.status_code == 200, g.text
        g = g.json()
        assert g["at"] == at and g["on_script"], g
        if g["finished"]:
            break
        acting = [s for s in g["steps"] if s["action"]]
        if f["view"]["to_act"] == 1 and f["view"]["status"] == "playing":
            assert len(acting) == 1 and acting[0]["action"] in f["view"]["legal"], (at, g)
            seat.act(acting[0]["action"])
            moves += 1
        else:
            assert not acting
        f = seat.recv_state()
    assert f["view"]["status"] == "won" and f["view"]["winner"] == 1 and f["match"]["over"]
    assert f["progress"]["melded"]["1"] == 11 and moves == 10
    # the guide's rematch is a new guided deal
    r = client.post(f"/api/matches/{m['match_id']}/rematch", headers=auth)
    assert r.status_code == 201, r.text
    again = r.json()
    g = client.get(f"/api/matches/{again['match_id']}/tutorial",
                   headers={"Authorization": f"Bearer {again['token']}"}).json()
    assert g["at"] == 0 and g["on_script"]


def test_the_tutorial_routes_refuse_what_they_should(table_server, tmp_path):
    client = table_server(f"sqlite:///{tmp_path / 'g.db'}")
    assert client.post("/api/tutorial", json={"name": "x" * 30}).json()["error"]["code"] == "bad_name"
    assert client.post("/api/tutorial", json={"colour": "red"}).status_code == 422
    assert client.post("/api/tutorial").status_code == 201  # no body: no name
    r = client.post("/api/matches", json={"opponent": "bot"}).json()
    g = client.get(f"/api/matches/{r['match_id']}/tutorial", headers={"Authorization": f"Bearer {r['token']}"})
    assert g.status_code == 409 and g.json()["error"]["code"] == "not_a_tutorial"
    assert client.get(f"/api/matches/{r['match_id']}/tutorial").status_code == 401
    assert "tutorial" not in client.get("/api/bots").json()["bots"]


def test_a_guided_deal_goes_on_after_a_restart(table_server, ws_seat, tmp_path):
    """The guide is rebuilt by its stored name (``tutorial``) on a restarted server and
    plays its script on from where the deal was."""
    url = f"sqlite:///{tmp_path / 'g.db'}"
    client = table_server(url)
    m = client.post("/api/tutorial").json()
    seat = ws_seat(client, m["match_id"], 1, m["token"])
    seat.act("turn")
    seat.recv_state()
    seat.close()
    client.__exit__(None, None, None)
    again = table_server(url)
    seat = ws_seat(again, m["match_id"], 1, m["token"])
    f = seat.state
    assert len(f["view"]["history"]) == 1 and f["view"]["to_act"] == 1
    seat.act("refuse")
    while len(f["view"]["history"]) < 5:  # the guide's three moves, by the new server's bot
        f = seat.recv_state()
    assert [e["seat"] for e in f["view"]["history"]] == [1, 1, 2, 2, 2]
    g = again.get(f"/api/matches/{m['match_id']}/tutorial", headers={"Authorization": f"Bearer {m['token']}"}).json()
    assert g["on_script"] and g["at"] == 5 and g["steps"][-1]["action"] == "meld Kc Kd Kh"

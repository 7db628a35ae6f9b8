"""Action ids on the wire (PROTOCOL §4.1, §4.3): every entry of a state frame's
``choices`` carries its ``id``, the engine's action int; a seat may send that id back as
``action`` (what the page does) or the §VII text; either is checked by the same order of
checks (§4.2), and text is read under the match's profile (§V)."""

from __future__ import annotations

import pytest

from gameweave.engine import find_profile, parse_action


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_choices_carry_ids_and_an_id_plays_like_its_text(db_url, table_server, ws_seat, friend_match, rules):
    client = table_server(db_url)
    m1, m2 = friend_match(client, rules=rules)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s2 = ws_seat(client, m1["match_id"], 2, m2["token"])
    s1.recv_state()  # seat 2 connected
    profile = find_profile(rules)
    for _ in range(12):  # a dozen decisions, each sent as an id
        seat = s1 if s1.state["view"]["to_act"] == 1 else s2
        other = s2 if seat is s1 else s1
        choices = seat.state["choices"]
        assert choices and [c["action"] for c in choices] == seat.state["view"]["legal"]
        for c in choices:  # the id is the action the text names, under the match's profile
            assert type(c["id"]) is int and parse_action(c["action"], profile) == c["id"]
        pick = choices[-1]
        v = seat.state["version"]
        seat.act(pick["id"])
        f, g = seat.recv_state(), other.recv_state()
        assert f["version"] == g["version"] == v + 1
        assert f["view"]["history"][-1]["action"] == pick["action"]
        if f["view"]["status"] != "playing":
            break


def test_an_id_that_is_not_a_choice_is_illegal_and_a_non_action_is_malformed(db_url, table_server, ws_seat,
                                                                           friend_match):
    client = table_server(db_url)
    m1, m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    ws_seat(client, m1["match_id"], 2, m2["token"])
    s1.recv_state()
    v = s1.state["version"]
    legal = {c["id"] for c in s1.state["choices"]}
    throw = parse_action("throw Ks")
    assert throw not in legal  # seat 1 must turn first
    for bad, code in ((throw, "illegal"), (123456789, "illegal"), (-5, "illegal"),
                      (None, "malformed"), (True, "malformed"), ([1], "malformed"), (1.5, "malformed")):
        s1.send({"type": "action", "action": bad, "version": v})
        err = s1.recv()
        assert err["type"] == "error" and err["code"] == code, (bad, err)
    # nothing changed: the id of turn still plays
    s1.act(next(c["id"] for c in s1.state["choices"] if c["action"] == "turn"))
    assert s1.recv_state()["version"] == v + 1

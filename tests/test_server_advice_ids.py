"""Hints and analyses carry action ids beside the §VII text (additive): each hint estimate
and the best action have the ``id`` of the state frame's ``choices`` (the action int a
client sends back); each analysed decision has ``played_id`` and ``best_id``."""

from __future__ import annotations

from test_server_advice import DECK_A, _auth


def test_hint_estimates_carry_the_ids_of_the_choices(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'h.db'}", decks=[DECK_A])
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    s1.act("turn")
    frame = s1.recv_state()
    ids = {c["action"]: c["id"] for c in frame["choices"]}
    body = client.get(f"/api/matches/{m['match_id']}/hint", headers=_auth(m["token"])).json()
    assert {e["action"]: e["id"] for e in body["estimates"]} == ids
    assert body["best_id"] == ids[body["best"]] == body["estimates"][0]["id"]


def test_analysed_decisions_carry_the_played_and_best_ids(tmp_path, table_server, friend_match, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'a.db'}", decks=[DECK_A])
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    s1.act("turn")
    frame = s1.recv_state()
    ids = {c["action"]: c["id"] for c in frame["choices"]}
    s1.act(frame["choices"][-1]["id"])  # a decision with two choices, sent by its id
    s1.recv_state()
    s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
    s1.recv_state()
    body = client.get(f"/api/matches/{mid}/deals/1/analysis", headers=_auth(m2["token"])).json()
    (d,) = body["decisions"]
    assert d["played_id"] == ids[d["played"]] == frame["choices"][-1]["id"]
    assert d["best_id"] == ids[d["best"]] == d["best_choice"]["id"]

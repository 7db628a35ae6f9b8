"""Matches of the anglo-american and classic profiles on the table server (RULES §V):
the optional ``rules`` of ``POST /api/matches``, a first opener drawn and stored (R9,
R20), R18 actions over the wire, a restart that replays the stored log under the match's
profile, and the record download that ``gameweave replay`` reads."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from gameweave.cli import app as cli_app
from gameweave.engine import GameState, shuffled_deck

from test_server_restart import play_some, same_view


def _first_opener_seat(frame: dict) -> int:
    return frame["view"]["opener"]


@pytest.mark.parametrize("rules", ["anglo-american", "classic"])
def test_a_profile_match_plays_restarts_and_its_download_replays(db_url, table_server, ws_seat, friend_match,
                                                                 rules, tmp_path):
    deck = shuffled_deck(5)
    client = table_server(db_url, decks=[deck])
    m1, m2 = friend_match(client, rules=rules, format="first_to", target=1)
    mid = m1["match_id"]
    seats = {1: ws_seat(client, mid, 1, m1["token"]), 2: ws_seat(client, mid, 2, m2["token"])}
    seats[1].recv_state()
    frame = seats[1].state
    assert frame["match"]["rules"] == rules and frame["view"]["rules"] == rules
    opener = _first_opener_seat(frame)
    assert opener in (1, 2)  # drawn at random (R20), stored
    rng = random.Random(3)
    played = play_some(seats, rng, 14)
    before = {s: seats[s].state for s in (1, 2)}
    for s in (1, 2):
        seats[s].close()
    client.__exit__(None, None, None)

    client2 = table_server(db_url)  # the stored log replays under the match's profile
    seats = {1: ws_seat(client2, mid, 1, m1["token"]), 2: ws_seat(client2, mid, 2, m2["token"])}
    seats[1].recv_state()
    for s in (1, 2):
        same_view(seats[s].state, before[s])
    truth = GameState.new(deck, opener=opener - 1, rules=rules)
    truth.play_all(played)
    rest = play_some(seats, rng, 400)
    truth.play_all(rest)
    assert seats[1].state["view"]["status"] == truth.status != "playing"
    r = client2.get(f"/api/matches/{mid}/deals/1/record", headers={"Authorization": f"Bearer {m1['token']}"})
    download = r.json()
    assert download["record"]["rules"] == rules and download["record"]["actions"] == played + rest
    path = tmp_path / "download.json"
    path.write_text(json.dumps(download), encoding="utf-8")
    res = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["status"] == truth.status
    # the replay endpoint's history is the view's event objects
    r = client2.get(f"/api/matches/{mid}/deals/1/replay", headers={"Authorization": f"Bearer {m1['token']}"})
    hist = r.json()["history"]
    assert hist == seats[1].state["view"]["history"]
    assert {"seat", "action", "kind", "card", "died", "forced", "meld", "table", "from_hand"} <= set(hist[0])


def test_an_unknown_profile_is_refused_as_malformed(db_url, table_server):
    client = table_server(db_url)
    r = client.post("/api/matches", json={"opponent": "friend", "rules": "poker"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"


def test_profile_names_are_case_insensitive_over_http_too(db_url, table_server):
    """RULES §V: names are case-insensitive and pagat is an alias of anglo-american."""
    client = table_server(db_url)
    r = client.post("/api/matches", json={"opponent": "friend", "rules": " PAGAT "})
    assert r.status_code == 201, r.text
    mid, token = r.json()["match_id"], r.json()["token"]
    r = client.get(f"/api/matches/{mid}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["rules"] == "anglo-american"
    r = client.post("/api/matches", json={"opponent": "friend", "rules": "Classic"})
    assert r.status_code == 201, r.text

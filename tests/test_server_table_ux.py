"""Issue 9's wire (PROTOCOL §3, §4.3): the profiles the lobby offers, stakes matches and
their checks (R20), choices and progress in the state frame (R16, R21), help, rematch,
the replay's seats and deals, and test decks (``--test-decks``)."""

from __future__ import annotations

import pytest

from gameweave.engine import CARD_NAMES, parse_cards, shuffled_deck
from gameweave.tables import deck_text, help_data


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_profiles_list_each_profile_with_its_formats_and_stakes(db_url, table_server):
    client = table_server(db_url)
    got = client.get("/api/profiles").json()["profiles"]
    assert [p["name"] for p in got] == ["gameweave", "anglo-american", "classic"]
    by = {p["name"]: p for p in got}
    assert by["gameweave"]["rearranging"] is False and "stakes" not in by["gameweave"]["formats"]
    assert by["anglo-american"]["force_back"] is True and by["anglo-american"]["default_format"] == "first_to"
    assert by["anglo-american"]["default_target"] == 3
    assert by["classic"]["default_format"] == "stakes" and by["classic"]["formats"][0] == "stakes"
    assert by["classic"]["stake"]["tablas_stake"] == ["double", "carry"]
    assert by["gameweave"]["stake"] is None
    for p in got:
        assert p["title"] == help_data()["profiles"][p["name"]]["title"]
        assert p["summary"] and "\n" not in p["summary"]


def test_r20_a_classic_stakes_match_carries_its_stake_through_frames_summaries_and_restart(
        db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url)
    m1, m2 = friend_match(client, rules="classic", format="stakes", stake=5, tablas_stake="carry")
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    want = {"points": {"1": 0, "2": 0}, "current_stake": 5, "base": 5, "tablas_stake": "carry"}
    assert s1.state["match"]["stakes"] == want and s1.state["match"]["test"] is False
    r = client.post("/api/my-matches", json={"seats": [{"match_id": m1["match_id"], "token": m2["token"]}]})
    summary = r.json()["matches"][0]
    assert summary["stakes"] == want and summary["created_at"] and summary["opponent"]["kind"] == "person"
    s1.close()
    client.__exit__(None, None, None)
    again = table_server(db_url)  # the stake is stored with the match
    frame = again.get(f"/api/matches/{m1['match_id']}/view", headers=_auth(m1["token"])).json()
    assert frame["match"]["stakes"] == want


@pytest.mark.parametrize("body, words", [
    ({"rules": "gameweave", "format": "stakes"}, "do not offer the 'stakes' format"),
    ({"rules": "anglo-american", "format": "stakes"}, "do not offer the 'stakes' format"),
    ({"rules": "classic", "format": "first_to", "stake": 2}, "'stake' belongs to a stakes match"),
    ({"rules": "gameweave", "tablas_stake": "carry"}, "'tablas_stake' belongs to a stakes match"),
])
def test_r20_options_a_profile_does_not_offer_are_refused_in_words(db_url, table_server, body, words):
    client = table_server(db_url)
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "bad_option" and words in err["message"]


@pytest.mark.parametrize("body", [{"stake": 0, "rules": "classic"}, {"tablas_stake": "triple", "rules": "classic"},
                                  {"format": None}, {"stake": "2", "rules": "classic"}])
def test_badly_typed_stakes_are_malformed(db_url, table_server, body):
    r = table_server(db_url).post("/api/matches", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"


def test_defaults_follow_the_profile(db_url, table_server):
    client = table_server(db_url)
    for rules, fmt in (("gameweave", "tally"), ("anglo-american", "first_to"), ("classic", "stakes")):
        m = client.post("/api/matches", json={"rules": rules}).json()
        frame = client.get(f"/api/matches/{m['match_id']}/view", headers=_auth(m["token"])).json()
        assert frame["match"]["format"] == fmt
        assert (frame["match"]["stakes"] is None) == (fmt != "stakes")


@pytest.mark.timeout(60)
def test_r21_frame_choices_follow_legal_and_progress_counts(db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url, decks=[shuffled_deck(4)])
    m1, m2 = friend_match(client, rules="anglo-american")
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s2 = ws_seat(client, m1["match_id"], 2, m2["token"])
    s1.recv_state()  # seat 2 connected
    import random

    rng = random.Random(2)
    for _ in range(60):
        for s in (s1, s2):
            frame = s.state
            assert [c["action"] for c in frame["choices"]] == frame["view"]["legal"]
            assert frame["progress"]["melded"] == frame["view"]["table_counts"]
        if s1.state["view"]["status"] != "playing":
            break
        actor = s1 if s1.state["view"]["to_act"] == 1 else s2
        other = s2 if actor is s1 else s1
        assert other.state["choices"] == []
        actor.act(rng.choice(actor.state["choices"])["action"])
        actor.recv_state()
        other.recv_state()


def test_help_route_serves_the_help_file(db_url, table_server):
    got = table_server(db_url).get("/api/help").json()
    data = help_data()
    assert set(got["profiles"]) == {"gameweave", "anglo-american", "classic"}
    assert got["glossary"] == data["glossary"] and got["tips"] == data["tips"]
    terms = {g["term"] for g in got["glossary"]}
    assert {"meld", "set", "sequence", "live", "dead", "refuse", "force", "tablas"} <= terms


def test_rematch_starts_a_new_match_with_the_same_settings(db_url, table_server, friend_match):
    client = table_server(db_url)
    m1, m2 = friend_match(client, rules="classic", format="stakes", stake=3, tablas_stake="carry")
    r = client.post(f"/api/matches/{m1['match_id']}/rematch", headers=_auth(m2["token"]))
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["match_id"] != m1["match_id"] and new["seat"] == 1 and new["invite_url"].startswith("/join/")
    frame = client.get(f"/api/matches/{new['match_id']}/view", headers=_auth(new["token"])).json()
    assert frame["match"]["rules"] == "classic" and frame["match"]["format"] == "stakes"
    assert frame["match"]["stakes"]["base"] == 3 and frame["match"]["stakes"]["tablas_stake"] == "carry"
    bot = client.post("/api/matches", json={"rules": "anglo-american", "bot": "greedy", "target": 2}).json()
    again = client.post(f"/api/matches/{bot['match_id']}/rematch", headers=_auth(bot["token"])).json()
    frame = client.get(f"/api/matches/{again['match_id']}/view", headers=_auth(again["token"])).json()
    assert frame["match"]["opponent"] == {"kind": "bot", "bot": "greedy"} and frame["match"]["target"] == 2
    assert again["invite_url"] is None
    r = client.post(f"/api/matches/{bot['match_id']}/rematch", headers=_auth("nope"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"


def _deck_for(opener_hand: str, turned: str) -> list[int]:
    mine = parse_cards(opener_hand)
    top = CARD_NAMES.index(turned)
    rest = [c for c in range(40) if c not in mine and c != top]
    deck = []
    for i in range(10):
        deck += [mine[i], rest[i]]
    return deck + [top] + rest[10:]


def test_test_decks_deal_in_turn_then_fair_and_are_marked(db_url, table_server, tmp_path, friend_match):
    """``--test-decks``: the R18b position (turned 6d, hand Ac Ad Ah As 2d 3d 4d 5d 7d Jd)."""
    deck = _deck_for("Ac Ad Ah As 2d 3d 4d 5d 7d Jd", "6d")
    path = tmp_path / "decks.txt"
    path.write_text(f"# the R18b position\n\n{deck_text(deck)}\n", encoding="utf-8")
    from fastapi.testclient import TestClient

    from gameweave.server import create_app

    app = create_app(database_url=db_url, bot_delay=0, test_decks=path)
    with TestClient(app) as client:
        m = client.post("/api/matches", json={"rules": "gameweave", "opponent": "friend"}).json()
        frame = client.get(f"/api/matches/{m['match_id']}/view", headers=_auth(m["token"])).json()
        assert frame["match"]["test"] is True and frame["deal"]["test"] is True
        assert frame["view"]["hand"] == "Ac Ad Ah As 2d 3d 4d 5d 7d Jd".split()
        fair = client.post("/api/matches", json={"rules": "classic"}).json()
        frame = client.get(f"/api/matches/{fair['match_id']}/view", headers=_auth(fair["token"])).json()
        assert frame["match"]["test"] is False


def test_replay_names_seats_and_counts_deals(db_url, table_server, ws_seat):
    import random

    client = table_server(db_url)
    m = client.post("/api/matches", json={"rules": "gameweave", "bot": "random", "format": "first_to",
                                          "target": 2}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    rng = random.Random(1)
    while s1.state["view"]["status"] == "playing":
        if s1.state["view"]["to_act"] == 1:
            s1.act(rng.choice(s1.state["view"]["legal"]))
        s1.recv_state()
    r = client.get(f"/api/matches/{m['match_id']}/deals/1/replay", headers=_auth(m["token"]))
    body = r.json()
    assert body["seats"] == {"1": {"kind": "person", "bot": None, "name": None},
                             "2": {"kind": "bot", "bot": "random", "name": None}}
    assert body["deals"] == 1 and body["test"] is False


def test_openapi_shows_our_error_shape_bearer_auth_and_a_model_for_every_route(db_url, table_server):
    """/docs: every route has a response model, every 4xx/422 is ``{"error": {code, message}}``
    (never FastAPI's ``{"detail"}``), the match routes use the bearer scheme, and no
    Python ``None`` shows in the text."""
    import json

    schema = table_server(db_url).get("/openapi.json").json()
    text = json.dumps(schema)
    assert "HTTPValidationError" not in text and '"detail"' not in text and "None" not in text
    assert schema["components"]["securitySchemes"]["seat token"] == {
        "type": "http", "scheme": "bearer", "description": "The seat token given when the match was created or joined."}
    assert len(schema["paths"]) >= 14
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            ok = [s for s in op["responses"] if s.startswith("2")]
            assert ok, (method, path)
            for status, resp in op["responses"].items():
                ref = resp["content"]["application/json"]["schema"].get("$ref", "")
                assert ref.startswith("#/components/schemas/"), (method, path, status)
                if status.startswith("4"):
                    assert ref.endswith("/ErrorBody"), (method, path, status)
            if path.startswith("/api/matches/{match_id}") and not path.endswith(("/join", "/invite-status")):
                assert op["security"] == [{"seat token": []}], path
                assert "401" in op["responses"]

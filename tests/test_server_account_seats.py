"""Seats that follow the player (issue 20, item 2; PROTOCOL §3.14): a signed-in player's
new seats (create, join, rematch, guided deal) join the account at once, under the
username where no name is given; the account lists its matches and hands a seat's token
to the account's own browser only; another account and a guest get nothing; a
signed-in request from another origin changes nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from gameweave.server.accounts import COOKIE
from gameweave.storage.schema import account_seats, matches

from test_server_accounts import ORIGIN, client

__all__ = ["client"]  # the fixture (light argon2 parameters), used by name


def _account(c, username: str) -> dict:
    """Sign up ``username``; the headers of its browser (cookie and origin).  The
    client's own cookie jar is left empty, so that each call says whose it is."""
    r = c.post("/api/account/sign-up", json={"username": username, "password": "tres tigres tristes"},
               headers=ORIGIN)
    assert r.status_code == 201, r.text
    session = r.cookies[COOKIE]
    c.cookies.clear()
    return {**ORIGIN, "Cookie": f"{COOKIE}={session}"}


def _count(c, table) -> int:
    with c.app_ref.state.hub.store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def test_a_signed_in_players_new_match_joins_the_account_at_once_under_the_username(client):
    ana = _account(client, "Ana")
    made = client.post("/api/matches", json={"opponent": "bot"}, headers=ana).json()
    named = client.post("/api/matches", json={"opponent": "bot", "name": "Anita"}, headers=ana).json()
    me = client.get("/api/account", headers=ana).json()
    assert {(s["match_id"], s["seat"]) for s in me["seats"]} == {(made["match_id"], 1), (named["match_id"], 1)}
    listed = client.get("/api/account/matches", headers=ana).json()["matches"]
    names = {m["match_id"]: m["players"]["1"]["name"] for m in listed}
    assert names == {made["match_id"]: "Ana", named["match_id"]: "Anita"}
    assert all("token" not in m for m in listed)  # the list never carries a secret
    # a guest's match joins no account
    guest = client.post("/api/matches", json={"opponent": "bot"}).json()
    assert guest["match_id"] not in {m["match_id"] for m in client.get("/api/account/matches", headers=ana).json()["matches"]}


def test_join_rematch_and_the_guided_deal_join_the_account_too(client):
    ana, beto = _account(client, "Ana"), _account(client, "Beto")
    made = client.post("/api/matches", json={"opponent": "friend"}, headers=ana).json()
    invite = made["invite_url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/matches/{made['match_id']}/join", json={"invite": invite}, headers=beto).json()
    assert joined["seat"] == 2
    beto_list = client.get("/api/account/matches", headers=beto).json()["matches"]
    assert [(m["match_id"], m["seat"]) for m in beto_list] == [(made["match_id"], 2)]
    assert beto_list[0]["players"]["2"]["name"] == "Beto" and beto_list[0]["players"]["1"]["name"] == "Ana"
    again = client.post(f"/api/matches/{made['match_id']}/rematch",
                        headers={**beto, "Authorization": f"Bearer {joined['token']}"}).json()
    guided = client.post("/api/tutorial", json={}, headers=beto).json()
    held = {(s["match_id"], s["seat"]) for s in client.get("/api/account", headers=beto).json()["seats"]}
    assert held == {(made["match_id"], 2), (again["match_id"], 1), (guided["match_id"], 1)}
    assert {(s["match_id"], s["seat"]) for s in client.get("/api/account", headers=ana).json()["seats"]} == \
        {(made["match_id"], 1)}


def test_taking_a_seat_hands_its_token_to_the_account_and_to_no_one_else(client):
    ana, beto = _account(client, "Ana"), _account(client, "Beto")
    made = client.post("/api/matches", json={"opponent": "bot"}, headers=ana).json()
    mid = made["match_id"]
    r = client.post(f"/api/account/matches/{mid}/take", json={"seat": 1}, headers=ana)
    assert r.status_code == 200
    assert r.json() == {"match_id": mid, "seat": 1, "token": made["token"], "table_url": f"/table/{mid}"}
    # the token is the seat's credential: it reads the seat's view
    view = client.get(f"/api/matches/{mid}/view", headers={"Authorization": f"Bearer {r.json()['token']}"})
    assert view.status_code == 200 and view.json()["seat"] == 1
    # another account: not listed, not taken (404, as if there were no such seat)
    assert client.get("/api/account/matches", headers=beto).json() == {"matches": []}
    for body in ({"seat": 1}, {"seat": 2}):
        r = client.post(f"/api/account/matches/{mid}/take", json=body, headers=beto)
        assert r.status_code == 404 and r.json()["error"]["code"] == "seat_not_held", r.text
        assert made["token"] not in r.text
    # seat 2 of Ana's own bot match is not hers either, nor is a match that does not exist
    for path, body in ((mid, {"seat": 2}), ("0123456789abcdef", {"seat": 1}), ("x" * 40, {"seat": 1})):
        r = client.post(f"/api/account/matches/{path}/take", json=body, headers=ana)
        assert r.status_code == 404 and r.json()["error"]["code"] == "seat_not_held"
    # a guest: 401 for both routes
    r = client.get("/api/account/matches")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = client.post(f"/api/account/matches/{mid}/take", json={"seat": 1}, headers=ORIGIN)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    # a signed-out session is a guest
    client.post("/api/account/sign-out", headers=ana)
    assert client.get("/api/account/matches", headers=ana).status_code == 401
    assert client.post(f"/api/account/matches/{mid}/take", json={"seat": 1}, headers=ana).status_code == 401


def test_one_account_holding_both_seats_of_a_match_takes_either(client):
    ana = _account(client, "Ana")
    made = client.post("/api/matches", json={"opponent": "friend"}, headers=ana).json()
    invite = made["invite_url"].rsplit("/", 1)[1]
    joined = client.post(f"/api/matches/{made['match_id']}/join", json={"invite": invite}, headers=ana).json()
    listed = client.get("/api/account/matches", headers=ana).json()["matches"]
    assert sorted(m["seat"] for m in listed) == [1, 2]
    for seat, token in ((1, made["token"]), (2, joined["token"])):
        r = client.post(f"/api/account/matches/{made['match_id']}/take", json={"seat": seat}, headers=ana)
        assert r.json()["token"] == token
    bad = client.post(f"/api/account/matches/{made['match_id']}/take", json={"seat": 3}, headers=ana)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "malformed"


def test_a_signed_in_change_from_another_origin_changes_nothing(client):
    ana = _account(client, "Ana")
    made = client.post("/api/matches", json={"opponent": "friend"}, headers=ana).json()
    before = (_count(client, matches), _count(client, account_seats))
    invite = made["invite_url"].rsplit("/", 1)[1]
    for origin in ("http://evil.example", "http://testserver:8001"):
        evil = {**ana, "Origin": origin}
        for method, path, body in (("POST", "/api/matches", {"opponent": "bot"}),
                                   ("POST", "/api/tutorial", {}),
                                   ("POST", f"/api/matches/{made['match_id']}/join", {"invite": invite}),
                                   ("POST", f"/api/account/matches/{made['match_id']}/take", {"seat": 1})):
            r = client.request(method, path, json=body, headers=evil)
            assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", (path, r.text)
            assert made["token"] not in r.text
        r = client.post(f"/api/matches/{made['match_id']}/rematch",
                        headers={**evil, "Authorization": f"Bearer {made['token']}"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    # the cookie with neither Origin nor Referer is refused too
    r = client.post("/api/matches", json={"opponent": "bot"}, headers={"Cookie": ana["Cookie"]})
    assert r.status_code == 403
    assert (_count(client, matches), _count(client, account_seats)) == before
    # the invite is still good: nobody joined
    status = client.post(f"/api/matches/{made['match_id']}/invite-status", json={"invite": invite}).json()
    assert status["open"] is True


def test_link_seat_joins_a_seat_once_and_never_moves_it_to_another_account(client):
    """``Accounts.link_seat(row, match_id, seat, token)``: the call every route that makes
    a signed-in player's seat uses (an open table's sit included)."""
    import asyncio

    ana, beto = _account(client, "Ana"), _account(client, "Beto")
    guest = client.post("/api/matches", json={"opponent": "bot"}).json()
    accounts = client.app_ref.state.accounts
    store = accounts.store
    row_ana, row_beto = store.by_key("ana"), store.by_key("beto")
    link = accounts.link_seat
    assert asyncio.run(link(row_ana, guest["match_id"], 1, guest["token"])) is True
    assert asyncio.run(link(row_ana, guest["match_id"], 1, guest["token"])) is False  # already held
    assert asyncio.run(link(row_beto, guest["match_id"], 1, guest["token"])) is False  # stays with Ana
    assert [m["match_id"] for m in client.get("/api/account/matches", headers=ana).json()["matches"]] == \
        [guest["match_id"]]
    assert client.get("/api/account/matches", headers=beto).json() == {"matches": []}

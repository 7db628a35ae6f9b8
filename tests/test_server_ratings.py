"""Ratings through the server (issue 20): a rated deal between two accounts changes both
ratings once and shows in the frames, the leaderboard and the profiles; a casual match
changes nothing; a finished deal's replay is open to anyone from the profile, a live one
is not; nothing private is given; a deleted account's profile is gone and its name is
anonymous in the other's history.

The rated match is made with ``Hub.create(..., rated=True)`` (the open-table and
quick-match routes that make rated matches are another part of issue 20) and its seats
join the accounts at sign-up, as the account routes do."""

from __future__ import annotations

import time

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from gameweave.accounts import Passwords
from gameweave.server import create_app
from gameweave.server.frame_schemas import StateFrame

ORIGIN = {"Origin": "http://testserver"}
LIGHT = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
PASSWORD = "tres tigres tristes"


@pytest.fixture
def app(tmp_path):
    app = create_app(data_dir=tmp_path, bot_delay=0)
    app.state.accounts.passwords = LIGHT
    return app


def _match(c: TestClient, rated: bool) -> tuple[str, str, str]:
    """A friend match made by the hub (rated or not), joined: ``(id, token 1, token 2)``."""
    hub = c.app.state.hub
    table, t1 = c.portal.call(lambda: hub.create("friend", None, "tally", 3, rated=rated))
    j = c.post(f"/api/matches/{table.match_id}/join", json={"invite": table.invite}).json()
    return table.match_id, t1, j["token"]


def _sign_up(c: TestClient, name: str, seats: list[dict]) -> dict:
    """Sign ``name`` up through the running client ``c`` (the app's own event loop: a
    second, unstarted client would run the hub's seat checks on another loop), bringing
    ``seats``; returns the new session's cookies and leaves ``c``'s jar empty."""
    r = c.post("/api/account/sign-up", json={"username": name, "password": PASSWORD, "seats": seats}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    assert len(r.json()["seats"]) == len(seats)  # every seat joined the account
    cookies = dict(r.cookies)
    c.cookies.clear()
    return cookies


def _resign_deal(c: TestClient, mid: str, seat: int, token: str) -> dict:
    with c.websocket_connect(f"/ws/{mid}") as ws:
        ws.send_json({"type": "hello", "seat": seat, "token": token})
        state = ws.receive_json()
        ws.send_json({"type": "resign", "scope": "deal", "version": state["version"]})
        return ws.receive_json()


def _next_deal(c: TestClient, mid: str, seat: int, token: str) -> None:
    with c.websocket_connect(f"/ws/{mid}") as ws:
        ws.send_json({"type": "hello", "seat": seat, "token": token})
        v = ws.receive_json()["version"]
        ws.send_json({"type": "next_deal", "version": v})
        while (f := ws.receive_json())["type"] != "state" or (
                f["version"] == v and not f["match"]["players"][str(seat)]["ready"]):
            assert f["type"] != "error", f


def _wait(check, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while not (got := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return got


def _board(c: TestClient, rules: str = "gameweave") -> list[dict]:
    r = c.get(f"/api/leaderboard?rules={rules}")
    assert r.status_code == 200
    return r.json()["players"]


def test_a_rated_deal_moves_both_ratings_once_and_shows_everywhere(app):
    with TestClient(app) as c:
        mid, t1, t2 = _match(c, rated=True)
        _sign_up(c, "Ana", [{"match_id": mid, "seat": 1, "token": t1}])
        _sign_up(c, "Ben", [{"match_id": mid, "seat": 2, "token": t2}])
        assert _resign_deal(c, mid, 2, t2)["type"] == "state"  # Ben resigns deal 1: a loss
        rows = _wait(lambda: len(_board(c)) == 2 and _board(c))
        assert [(r["username"], r["provisional"], r["won"], r["lost"]) for r in rows] == [
            ("Ana", True, 1, 0), ("Ben", True, 0, 1)]
        assert rows[0]["rating"] > 1500 > rows[1]["rating"] and rows[0]["rank"] == 1
        time.sleep(0.3)
        assert [r["won"] + r["lost"] for r in _board(c)] == [1, 1]  # once
        # the seat's frame carries both ratings (loaded with the table, refreshed after the deal)
        view = c.get(f"/api/matches/{mid}/view", headers={"Authorization": f"Bearer {t1}"}).json()
        StateFrame.model_validate(view)  # the frame's model names the rating's fields
        shown = view["match"]["players"]
        assert shown["1"]["rating"] == {"rules": "gameweave", "rating": rows[0]["rating"], "rd": rows[0]["rd"],
                                        "provisional": True, "ladder": False}
        assert shown["2"]["rating"]["rating"] == rows[1]["rating"]
        # the profile: rating, history with its chart point, counts, streak, the match and its replay
        prof = c.get("/api/players/ana").json()  # names are case-insensitive
        assert prof["username"] == "Ana"
        (g,) = prof["ratings"]
        assert (g["rules"], g["won"], g["lost"], g["streak"], g["provisional"]) == ("gameweave", 1, 0, 1, True)
        assert [h["opponent"] for h in g["history"]] == ["Ben"] and len(g["chart"]["points"]) == 1
        assert g["chart"]["points"][0]["rating"] == g["rating"]
        (m,) = prof["matches"]
        assert m["match_id"] == mid and m["opponent"] == "Ben" and m["rated"] is True
        assert m["deals"][0]["replay"] == f"/replay/{mid}/1?player=Ana&seat=1"
        for secret in (t1, t2, view["match"].get("watch_url", "").rsplit("/", 1)[-1] or t1):
            assert secret not in str(prof)
        # anyone (no token, no cookie) sees the finished deal step by step
        anon = TestClient(app)
        rep = anon.get(f"/api/players/Ana/matches/{mid}/deals/1/replay")
        assert rep.status_code == 200 and len(rep.json()["snapshots"]) == len(rep.json()["history"]) + 1
        # the next deal, while played, reveals nothing
        _next_deal(c, mid, 1, t1)
        _next_deal(c, mid, 2, t2)
        live = anon.get(f"/api/players/Ana/matches/{mid}/deals/2/replay")
        assert live.status_code == 409 and live.json()["error"]["code"] == "deal_not_over"
        deals = c.get("/api/players/Ana").json()["matches"][0]["deals"]
        assert deals[1] == {"number": 2, "status": "playing", "winner": None, "replay": None}
        other = _match(c, rated=False)[0]
        assert anon.get(f"/api/players/Ana/matches/{other}/deals/1/replay").json()["error"]["code"] == "unknown_match"


def test_a_casual_match_between_accounts_changes_no_rating(app):
    with TestClient(app) as c:
        mid, t1, t2 = _match(c, rated=False)
        _sign_up(c, "Ana", [{"match_id": mid, "seat": 1, "token": t1}])
        _sign_up(c, "Ben", [{"match_id": mid, "seat": 2, "token": t2}])
        _resign_deal(c, mid, 2, t2)
        time.sleep(0.5)
        assert _board(c) == []
        assert c.get("/api/players/Ana").json()["ratings"] == []
        assert c.get("/api/players/Ana").json()["matches"][0]["rated"] is False


def test_a_deleted_accounts_profile_is_gone_and_its_name_anonymous(app):
    with TestClient(app) as c:
        mid, t1, t2 = _match(c, rated=True)
        _sign_up(c, "Ana", [{"match_id": mid, "seat": 1, "token": t1}])
        ben = _sign_up(c, "Ben", [{"match_id": mid, "seat": 2, "token": t2}])
        _resign_deal(c, mid, 1, t1)
        _wait(lambda: len(_board(c)) == 2)
        r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=ORIGIN, cookies=ben)
        assert r.status_code == 200, r.text
        gone = c.get("/api/players/Ben")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_player"
        assert [r["username"] for r in _board(c)] == ["Ana"]
        (g,) = c.get("/api/players/Ana").json()["ratings"]
        assert [h["opponent"] for h in g["history"]] == [None]


def test_the_leaderboard_asks_for_a_profile_that_exists_and_lists_the_bot_ladder(app):
    with TestClient(app) as c:
        bad = c.get("/api/leaderboard?rules=nope")
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_option"
        board = c.get("/api/leaderboard?rules=classic").json()
        assert board["rules"] == "classic" and board["provisional_rd"] == 110
        ladder = {b["bot"]: b["rating"] for b in board["bots"]}
        assert ladder["beginner"] < ladder["casual"] < ladder["intermediate"] < ladder["master"]
        assert c.get("/api/bots").json()["ladder"] == ladder
        # a bot match shows the level's ladder rating beside the bot
        m = c.post("/api/matches", json={"opponent": "bot", "bot": "master"}).json()
        view = c.get(f"/api/matches/{m['match_id']}/view", headers={"Authorization": f"Bearer {m['token']}"}).json()
        assert view["match"]["players"]["2"]["rating"]["rating"] == ladder["master"]
        assert view["match"]["players"]["2"]["rating"]["ladder"] is True
        assert view["match"]["players"]["1"]["rating"] is None


def test_a_rated_match_closed_as_abandoned_costs_the_seat_that_did_not_move(app):
    with TestClient(app) as c:
        mid, t1, t2 = _match(c, rated=True)
        _sign_up(c, "Ana", [{"match_id": mid, "seat": 1, "token": t1}])
        _sign_up(c, "Ben", [{"match_id": mid, "seat": 2, "token": t2}])
        hub = c.app.state.hub
        table = c.portal.call(hub.table, mid)
        laggard = table.state.to_act + 1
        assert c.portal.call(lambda: hub.close_abandoned(time.time() + 8 * 86400)) == 1
        rows = _wait(lambda: len(_board(c)) == 2 and _board(c))
        lost = {r["username"]: r["lost"] for r in rows}
        assert lost == {"Ana": int(laggard == 1), "Ben": int(laggard == 2)}
        assert c.portal.call(hub.ratings.sweep) == 0  # applied once: nothing left
        # the profile says the deal was abandoned (not "being played") and offers no replay
        [m] = c.get("/api/players/ana").json()["matches"]
        assert m["deals"] == [{"number": 1, "status": "abandoned", "winner": None, "replay": None}]


def test_a_new_rated_match_shows_the_players_ratings_once_a_seat_attaches(app):
    from gameweave.storage.accounts import AccountStore, SeatLink
    from gameweave.storage.ratings import RatingStore

    with TestClient(app) as c:
        mid, t1, t2 = _match(c, rated=True)
        _sign_up(c, "Ana", [{"match_id": mid, "seat": 1, "token": t1}])
        _sign_up(c, "Ben", [{"match_id": mid, "seat": 2, "token": t2}])
        _resign_deal(c, mid, 2, t2)
        rows = _wait(lambda: len(_board(c)) == 2 and _board(c))
        # a second rated match, its seats joined to the accounts after it was made (as an
        # open table's or the queue's seats are)
        new, n1, n2 = _match(c, rated=True)
        store = c.app.state.hub.store
        acc = AccountStore(store.engine)
        ids = {}
        for seat, (name, token) in enumerate((("ana", n1), ("ben", n2)), 1):
            ids[name] = RatingStore(store.engine).account_of(name)[0]
            assert acc.link_seats(ids[name], [SeatLink(new, seat, token)]) == 1
        with c.websocket_connect(f"/ws/{new}") as ws:
            ws.send_json({"type": "hello", "seat": 1, "token": n1})
            while (f := ws.receive_json())["type"] != "state" or f["match"]["players"]["2"]["rating"] is None:
                pass
        assert f["match"]["players"]["1"]["rating"]["rating"] == rows[0]["rating"]
        assert f["match"]["players"]["2"]["rating"]["rating"] == rows[1]["rating"]
        # the queue's rating_of (issue 20, item 3): the rating, or 1500 before any rated deal
        rs = RatingStore(store.engine)
        assert round(rs.rating_of(ids["ana"], "gameweave")) == rows[0]["rating"]
        assert rs.rating_of(ids["ana"], "classic") == 1500.0

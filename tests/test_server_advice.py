"""Issue 11 items 4-6 over HTTP: a seat's hint on its turn (``GET /api/matches/{id}/hint``)
and the analysis of a finished deal (``GET /api/matches/{id}/deals/{n}/analysis``), both
from the seat's own view only (R21); hints in a friend match only when agreed."""

from __future__ import annotations

import time

from gameweave.engine.cards import parse_cards

ALL = [r + s for r in "A234567JQK" for s in "cdhs"]


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _deck(hand1: str, hand2: str, stock_top: str) -> tuple[int, ...]:
    """A deck order (R8): hand1 to seat 1 (the opener), hand2 to seat 2, the stock from
    ``stock_top`` then the other cards in pack order."""
    h1, h2, top = hand1.split(), hand2.split(), stock_top.split()
    used = set(h1 + h2 + top)
    deal = []
    for x, y in zip(h1, h2):
        deal += [x, y]
    return tuple(parse_cards(" ".join(deal + top + [c for c in ALL if c not in used])))


HAND1 = "Ac 2d 3c Jd Qc Kd Ah 2h 3s 7s"
DECK_A = _deck(HAND1, "5d 5s 4c 6d Jc Qh Kh Ks As 7c", "Qd")  # seat 1 turns Qd: Jd Qd Kd or refuse
DECK_B = _deck(HAND1, "4d 6s 4h 6c Js Qh Kc Qs 4s 7d", "Qd")  # the same for seat 1, not for seat 2


def test_hint_on_your_turn_gives_every_legal_action_best_first(tmp_path, table_server, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'h.db'}", decks=[DECK_A])
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
    mid, token = m["match_id"], m["token"]
    s1 = ws_seat(client, mid, 1, m["token"])
    assert s1.state["match"]["hints"] is True  # a bot match always has hints
    s1.act("turn")
    frame = s1.recv_state()
    legal = frame["view"]["legal"]
    assert len(legal) >= 2
    t0 = time.perf_counter()
    r = client.get(f"/api/matches/{mid}/hint", headers=_auth(token))
    took = time.perf_counter() - t0
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == frame["version"] and body["level"] == "master"
    assert sorted(e["action"] for e in body["estimates"]) == sorted(legal)
    scores = [e["score"] for e in body["estimates"]]
    assert scores == sorted(scores, reverse=True) and body["best"] == body["estimates"][0]["action"]
    for e in body["estimates"]:
        assert abs(e["win"] + e["tablas"] + e["loss"] - 1) < 1e-3
        assert abs(e["score"] - (e["win"] + e["tablas"] / 2)) < 1e-3
    assert took < 10, took
    # no hint without a token, or for a match that does not exist
    assert client.get(f"/api/matches/{mid}/hint").json()["error"]["code"] == "bad_token"
    assert client.get("/api/matches/0000000000000000/hint", headers=_auth(token)).status_code == 404


def test_r21_hints_refuse_the_opponents_turn_and_friend_matches_without_agreement(
        tmp_path, table_server, friend_match, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'f.db'}")
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    assert s1.state["match"]["hints"] is False
    for token in (m1["token"], m2["token"]):
        r = client.get(f"/api/matches/{mid}/hint", headers=_auth(token))
        assert r.status_code == 409 and r.json()["error"]["code"] == "hints_off", r.text
    # agreed when made: the invite says so before joining, the frame says so after
    m = client.post("/api/matches", json={"opponent": "friend", "hints": True}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    st = client.post(f"/api/matches/{m['match_id']}/invite-status", json={"invite": invite}).json()
    assert st == {"open": True, "code": None, "hints": True}
    j = client.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite}).json()
    s = ws_seat(client, m["match_id"], 1, m["token"])
    assert s.state["match"]["hints"] is True
    # seat 1 opens: seat 2 may not ask for a hint on seat 1's turn
    r = client.get(f"/api/matches/{m['match_id']}/hint", headers=_auth(j["token"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn", r.text
    assert client.get(f"/api/matches/{m['match_id']}/hint", headers=_auth(m["token"])).status_code == 200


def test_r21_hints_never_see_hidden_cards(tmp_path, table_server, friend_match, ws_seat):
    """Two tables whose states give seat 1 the same view (the same hand and turned card;
    another opponent hand and stock below) give the same hint numbers."""
    assert DECK_A != DECK_B
    client = table_server(f"sqlite:///{tmp_path / 'v.db'}", decks=[DECK_A, DECK_B])
    answers, views = [], []
    for _ in range(2):
        m1, _m2 = friend_match(client, hints=True)
        s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
        s1.act("turn")
        views.append(s1.recv_state()["view"])
        assert len(views[-1]["legal"]) >= 2
        r = client.get(f"/api/matches/{m1['match_id']}/hint", headers=_auth(m1["token"]))
        assert r.status_code == 200, r.text
        answers.append(r.json())
    assert views[0] == views[1]
    assert answers[0] == answers[1]


def test_analysis_of_a_finished_deal_only(tmp_path, table_server, friend_match, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'a.db'}", decks=[DECK_A])
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    s1 = ws_seat(client, mid, 1, m1["token"])
    r = client.get(f"/api/matches/{mid}/deals/1/analysis", headers=_auth(m1["token"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "deal_not_over"
    assert client.get(f"/api/matches/{mid}/deals/7/analysis",
                      headers=_auth(m1["token"])).json()["error"]["code"] == "unknown_deal"
    s2 = ws_seat(client, mid, 2, m2["token"])
    s1.recv_state()  # seat 2 connected
    s1.act("turn")
    s1.recv_state(), s2.recv_state()
    s1.act(s1.state["view"]["legal"][-1])  # take or refuse: a decision with two choices
    s1.recv_state(), s2.recv_state()
    s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
    s1.recv_state()
    t0 = time.perf_counter()
    r = client.get(f"/api/matches/{mid}/deals/1/analysis", headers=_auth(m2["token"]))
    took = time.perf_counter() - t0
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["deal"] == 1 and body["mistake_drop"] == 0.1 and body["decisions"]
    assert (body["status"], body["winner"]) == ("won", 2)  # seat 1 resigned it (R20)
    assert [(d["seat"], d["step"]) for d in body["decisions"]] == [(1, 2)]  # turn had one choice
    for d in body["decisions"]:
        assert d["best_win_chance"] >= d["played_win_chance"] - 1e-9
        assert d["mistake"] == (d["drop"] >= 0.1 - 1e-9)
        # the best alternative also comes as data, so the page never parses the text
        assert d["best_choice"]["action"] == d["best"] and d["best_choice"]["kind"] in (
            "meld", "table", "turn", "refuse", "throw", "force")
    # cached: the same answer at once
    t1 = time.perf_counter()
    again = client.get(f"/api/matches/{mid}/deals/1/analysis", headers=_auth(m1["token"])).json()
    assert again == body and time.perf_counter() - t1 < took + 0.5


def test_agreed_hints_are_stored_and_kept_by_a_rematch(tmp_path, table_server, friend_match):
    url = f"sqlite:///{tmp_path / 's.db'}"
    client = table_server(url)
    m1, m2 = friend_match(client, hints=True)
    plain, _ = friend_match(client)
    client.__exit__(None, None, None)
    again = table_server(url)  # a restart: the flag comes back from the database
    view = again.get(f"/api/matches/{m1['match_id']}/view", headers=_auth(m2["token"])).json()
    assert view["match"]["hints"] is True
    view = again.get(f"/api/matches/{plain['match_id']}/view", headers=_auth(plain["token"])).json()
    assert view["match"]["hints"] is False
    re = again.post(f"/api/matches/{m1['match_id']}/rematch", headers=_auth(m1["token"])).json()
    invite = re["invite_url"].rsplit("/", 1)[1]
    st = again.post(f"/api/matches/{re['match_id']}/invite-status", json={"invite": invite}).json()
    assert st["hints"] is True


def test_a_slow_hint_does_not_hold_up_the_server(tmp_path, table_server, ws_seat, monkeypatch):
    """The search runs in a worker thread: while a (slowed) hint is computed, other
    requests are answered at once."""
    import threading

    from gameweave.server.routes import advice as route

    real = route.hint
    started = threading.Event()

    def slow(*a, **kw):
        started.set()
        time.sleep(1.5)
        return real(*a, **kw)

    monkeypatch.setattr(route, "hint", slow)
    client = table_server(f"sqlite:///{tmp_path / 't.db'}", decks=[DECK_A])
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
    got = {}
    th = threading.Thread(target=lambda: got.update(r=client.get(f"/api/matches/{m['match_id']}/hint",
                                                                  headers=_auth(m["token"]))))
    th.start()
    assert started.wait(5)
    t0 = time.perf_counter()
    assert client.get("/api/bots").status_code == 200
    assert time.perf_counter() - t0 < 1.0
    th.join(10)
    assert got["r"].status_code == 200, got["r"].text


def test_the_api_and_gameweave_analyze_give_the_same_figures_on_one_record(tmp_path, table_server, ws_seat):
    """Issue 19: the analysis route and ``gameweave analyze --json`` on the deal's
    downloaded record agree to the last decimal (one seed per record and decision, in
    ``analyze_record``), and the route's ``chart`` is ``chart_geometry`` of those figures."""
    import json
    import random

    from typer.testing import CliRunner

    from gameweave.cli import app
    from gameweave.tables.chart import chart_geometry

    client = table_server(f"sqlite:///{tmp_path / 'same.db'}", decks=[DECK_A])
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
    mid, token = m["match_id"], m["token"]
    s1 = ws_seat(client, mid, 1, token)
    rng, moves = random.Random(5), 0
    while s1.state["view"]["status"] == "playing":
        v = s1.state["view"]
        if v["to_act"] == 1 and v["legal"]:  # seat 1's turn: no bot move can make it stale
            if moves == 8:
                s1.send({"type": "resign", "scope": "deal", "version": s1.state["version"]})
            else:
                s1.act(rng.choice(v["legal"]))
                moves += 1
        s1.recv_state()
    body = client.get(f"/api/matches/{mid}/deals/1/analysis", headers=_auth(token)).json()
    download = client.get(f"/api/matches/{mid}/deals/1/record", headers=_auth(token)).json()
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(download))
    res = CliRunner().invoke(app, ["analyze", str(f), "--json"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.stdout)
    assert len(cli["decisions"]) >= 4
    api_decisions = [{k: v for k, v in d.items() if k not in ("played_id", "best_id", "best_choice")}
                     for d in body["decisions"]]
    assert api_decisions == cli["decisions"]
    assert (body["level"], body["seed"], body["mistakes"]) == (cli["level"], cli["seed"], cli["mistakes"])
    assert body["steps"] == len(download["record"]["actions"])
    assert body["chart"] == chart_geometry(cli["decisions"], body["steps"])


def test_an_analysis_asked_for_many_times_at_once_is_computed_once_and_one_deal_at_a_time(monkeypatch):
    """Repeated analysis requests (a guest may send hundreds a second) must not each
    pay seconds of CPU: the same deal asked for by six requests at once is computed
    once, all six get it; two deals are never analysed at the same time; a failed
    computation lets a waiting request try again."""
    import threading

    from gameweave.server.routes import advice

    monkeypatch.setattr(advice, "_cache", type(advice._cache)())
    calls, active, most = [], [0], [0]
    lock = threading.Lock()
    fail_first = {("m", 9)}

    def slow(record):
        with lock:
            calls.append(record["id"])
            active[0] += 1
            most[0] = max(most[0], active[0])
        time.sleep(0.3)
        with lock:
            active[0] -= 1
        if record["id"] == 9 and fail_first:
            fail_first.clear()
            raise RuntimeError("the first try fails")
        return {"for": record["id"]}

    monkeypatch.setattr(advice, "_compute", slow)
    got, errors = [], []

    def ask(n):
        try:
            got.append(advice._analysis(("m", n), {"id": n}))
        except RuntimeError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=ask, args=(n,)) for n in [1] * 6 + [2, 9, 9]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(calls) == [1, 2, 9, 9]  # deal 1 once for six requests; deal 9 again after its failure
    assert most[0] == 1  # one deal at a time
    assert got.count({"for": 1}) == 6 and {"for": 2} in got and {"for": 9} in got
    assert errors == ["the first try fails"]
    assert advice._analysis(("m", 1), {"id": 1}) == {"for": 1} and calls.count(1) == 1  # cached

"""The origin check of the lobby's POST routes for guests (PROTOCOL §3.13): creating and
joining a match, the guided deal, a queue ticket's entry, the seats' summaries and an
invite's status are refused ``403 cross_origin`` before their body is read when the
request names another origin (another host, or another port of this one), signed in or
not; a request that names none (a script, the test client) and a same-origin one work
as before.  The refusal's words fit every route it guards."""

from __future__ import annotations

from fastapi.routing import APIRoute
from sqlalchemy import func, select

from gameweave import i18n
from gameweave.server import deps
from gameweave.server.routes import account, account_matches, advice, lobby, ops, pages, players, tutorial
from gameweave.server.routes import matches as match_routes, open as open_tables
from gameweave.server.accounts import COOKIE
from gameweave.storage.schema import matches

from test_server_accounts import ORIGIN, client

__all__ = ["client"]  # the fixture (light argon2 parameters), used by name

ROUTERS = (account, account_matches, advice, lobby, match_routes, open_tables, ops, pages, players, tutorial)
"""The route modules whose routers the app includes (``server/app.py``)."""

FOREIGN = ("http://evil.example", "http://testserver:8001", "null")
"""Origins that are not the test client's ``http://testserver``."""


def _count(c, table) -> int:
    with c.app_ref.state.hub.store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def _guest_routes(c) -> list[tuple[str, str]]:
    """``(path, a valid JSON body)`` of each guest route the check now covers, for a
    friend match made here and a ticket queued here (both by a same-origin request)."""
    made = c.post("/api/matches", json={"opponent": "friend"}, headers=ORIGIN).json()
    invite = made["invite_url"].rsplit("/", 1)[1]
    ticket = c.post("/api/queue", json={"rated": False}, headers=ORIGIN).json()["ticket"]
    seats = f'{{"seats": [{{"match_id": "{made["match_id"]}", "token": "{made["token"]}"}}]}}'
    return [("/api/matches", '{"opponent": "bot"}'),
            (f"/api/matches/{made['match_id']}/join", f'{{"invite": "{invite}"}}'),
            (f"/api/matches/{made['match_id']}/invite-status", f'{{"invite": "{invite}"}}'),
            ("/api/tutorial", "{}"),
            ("/api/queue/status", f'{{"ticket": "{ticket}"}}'),
            ("/api/my-matches", seats)]


def test_a_guests_cross_site_form_post_is_refused_as_cross_origin_before_its_body_is_read(client):
    routes = _guest_routes(client)
    before = _count(client, matches)
    for path, body in routes:
        for origin in FOREIGN:
            for content in (body, "not json at all", ""):
                r = client.post(path, content=content, headers={"Origin": origin, "Content-Type": "text/plain"})
                assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", (path, origin, r.text)
            r = client.post(path, content=body, headers={"Origin": origin, "Content-Type": "application/json"})
            assert r.status_code == 403, (path, origin, r.text)
        # without an Origin, a Referer naming another origin is refused the same way
        r = client.post(path, content=body, headers={"Referer": "http://testserver:8001/page"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", path
    assert _count(client, matches) == before  # nothing was created, nobody joined
    status = routes[2]
    r = client.post(status[0], content=status[1], headers={"Content-Type": "application/json"})
    assert r.json()["open"] is True, r.text  # the invite is still good


def test_a_guest_request_naming_no_origin_or_this_one_works_as_before(client):
    for headers in ({}, ORIGIN, {"Referer": "http://testserver/table/x"}):
        for path, body in _guest_routes(client):
            r = client.post(path, content=body, headers={**headers, "Content-Type": "application/json"})
            assert r.status_code in (200, 201), (path, headers, r.text)
    # a stale session cookie with no Origin is a guest's request, as before
    client.cookies.set(COOKIE, "no such session")
    for path, body in _guest_routes(client):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (200, 201), (path, r.text)


def test_the_cross_origin_refusal_speaks_of_the_request_not_of_an_account(client):
    """The refusal guards account, lobby and match routes alike: its English message and
    its catalogue words (es, en) say a request from another site was refused."""
    for path in ("/api/matches", "/api/my-matches", "/api/account/sign-in"):
        r = client.post(path, content="{}", headers={"Origin": "http://evil.example", "Content-Type": "text/plain"})
        message = r.json()["error"]["message"]
        assert r.status_code == 403 and "account" not in message and "another site" in message, (path, message)
    en, es = i18n.messages("en")["error.cross_origin"], i18n.messages("es")["error.cross_origin"]
    assert "another site" in en and "refused" in en and "changed" not in en
    assert "otro sitio" in es and "rechaz" in es and "cambió" not in es


def test_every_post_route_checks_the_origin_before_its_body():
    """Each ``POST`` of the HTTP API (every router the app includes) has one of the
    origin dependencies of ``deps.py`` among its route dependencies (solved before the
    body), so none can answer a cross-site form post ``422``."""
    names = ("origin_checked", "origin_checked_signed_in", "origin_checked_if_named", "signed_in_change")
    checks = {getattr(deps, n) for n in names if hasattr(deps, n)}
    posts = [r for module in ROUTERS for r in module.router.routes if isinstance(r, APIRoute) and "POST" in r.methods]
    assert len(posts) >= 19
    for route in posts:
        assert checks & {d.dependency for d in route.dependencies}, route.path

"""HTTP API errors (PROTOCOL §3): wrongly typed fields are refused (strict types), every
validation message reads well for a person, and every error code the server sends is in
PROTOCOL's table."""

from __future__ import annotations

import pytest


@pytest.fixture
def client(db_url, table_server):
    return table_server(db_url)


@pytest.mark.parametrize("body", [
    {"target": "3"}, {"target": True}, {"target": 3.0}, {"target": None},
    {"bot": 5}, {"opponent": True}, {"format": 1},
])
def test_wrongly_typed_fields_get_422_malformed(client, body):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "malformed"


def test_strict_types_in_join_and_my_matches(client, friend_match):
    m1, _ = friend_match(client)
    r = client.post(f"/api/matches/{m1['match_id']}/join", json={"invite": 12345})
    assert r.status_code == 422 and r.json()["error"]["message"] == "'invite' must be a string"
    r = client.post("/api/my-matches", json={"seats": [{"match_id": m1["match_id"], "token": 1}]})
    assert r.status_code == 422 and r.json()["error"]["message"] == "'seats[0].token' must be a string"
    r = client.post("/api/my-matches", json={"seats": {"match_id": m1["match_id"]}})
    assert r.status_code == 422 and r.json()["error"]["message"] == "'seats' must be a list"
    # well-typed bodies still work
    r = client.post("/api/my-matches", json={"seats": [{"match_id": m1["match_id"], "token": m1["token"]}]})
    assert r.status_code == 200 and len(r.json()["matches"]) == 1


@pytest.mark.parametrize("kw, message", [
    ({"content": b"{not json", "headers": {"content-type": "application/json"}}, "the body is not valid JSON"),
    ({"content": b'{"opponent": "bot", "target": NaN}', "headers": {"content-type": "application/json"}},
     "the body is not valid JSON"),  # NaN and Infinity are not JSON (a fresh user's find)
    ({"content": b'{"opponent": "bot", "target": -Infinity}', "headers": {"content-type": "application/json"}},
     "the body is not valid JSON"),
    ({"json": {"opponent": "cat", "name": "NaN"}}, "'opponent' must be one of 'bot' or 'friend'"),  # in a string: JSON
    ({"content": b""}, "the body is missing: send a JSON object (Content-Type: application/json)"),
    ({"json": [1, 2]}, "the body must be a JSON object"),
    ({"content": b"{}", "headers": {"content-type": "text/plain"}},
     "the body must be a JSON object sent with Content-Type: application/json"),
    ({"content": b"{}"}, "the body must be a JSON object sent with Content-Type: application/json"),
    ({"json": {"target": "3"}}, "'target' must be a whole number"),
    ({"json": {"target": 0}}, "'target' must be at least 1"),
    ({"json": {"target": 100}}, "'target' must be at most 99"),
    ({"json": {"opponent": "cat"}}, "'opponent' must be one of 'bot' or 'friend'"),
    ({"json": {"colour": "red"}}, "'colour' is not a field of this request"),
    ({"json": {"bot": "x" * 40}}, "'bot' must be at most 32 characters"),
    ({"json": {"opponent": "friend", "hints": None}}, "'hints' must be true or false"),
    ({"json": {"opponent": "friend", "hints": "yes"}}, "'hints' must be true or false"),
])
def test_validation_messages_read_well_and_leak_no_internals(client, kw, message):
    r = client.post("/api/matches", **kw)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err == {"code": "malformed", "message": message, "params": {}}
    for internal in ("decode", "Input should", "dictionary", "pydantic", "loc", "body."):
        assert internal not in err["message"]


def test_a_name_of_any_length_over_24_is_bad_name_as_protocol_says(client):
    """PROTOCOL §3: a name that is not 1-24 characters is ``bad_name`` (params.max 24),
    however long (the 64 KiB body bounds it), on every route that takes one."""
    long = "n" * 10_000
    r = client.post("/api/matches", json={"opponent": "friend", "name": long})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text
    assert r.json()["error"]["params"] == {"max": 24}
    m = client.post("/api/matches", json={"opponent": "friend"}).json()
    invite = m["invite_url"].rsplit("/", 1)[1]
    r = client.post(f"/api/matches/{m['match_id']}/join", json={"invite": invite, "name": long})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text
    for path in ("/api/tutorial", "/api/queue"):
        r = client.post(path, json={"name": long})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", (path, r.text)


def test_an_empty_string_where_one_is_needed_is_said_so(client):
    r = client.post("/api/queue", json={"browser": ""})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == {"code": "malformed", "message": "'browser' must not be empty", "params": {}}


def test_a_deal_number_that_is_not_a_number_is_explained(client, friend_match):
    m1, _ = friend_match(client)
    r = client.get(f"/api/matches/{m1['match_id']}/deals/two/record",
                   headers={"Authorization": f"Bearer {m1['token']}"})
    assert r.status_code == 422
    assert r.json()["error"] == {"code": "malformed", "message": "the deal number in the address must be a whole number",
                                 "params": {}}


def test_an_unknown_address_is_404_not_found(client):
    for path in ("/api/nothing", "/no/such/page", "/static/no-such-file.js"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.json()["error"]["code"] == "not_found"


def test_a_wrong_method_is_405_method_not_allowed_with_allow(client):
    m = client.post("/api/matches", json={}).json()
    auth = {"Authorization": f"Bearer {m['token']}"}
    r = client.delete(f"/api/matches/{m['match_id']}", headers=auth)
    assert r.status_code == 405 and r.headers["allow"] == "GET"
    assert r.json()["error"] == {"code": "method_not_allowed",
                                 "message": "this address does not take DELETE; it takes GET", "params": {}}
    r = client.get("/api/matches")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed" and "POST" in r.headers["allow"]
    # the match is untouched, and its summary is at GET /api/matches/{id}
    r = client.get(f"/api/matches/{m['match_id']}", headers=auth)
    assert r.status_code == 200 and r.json()["match_id"] == m["match_id"] and r.json()["seat"] == 1
    assert client.get(f"/api/matches/{m['match_id']}").json()["error"]["code"] == "bad_token"


def test_every_error_code_the_server_sends_is_in_the_protocol():
    import re
    from pathlib import Path

    from gameweave.server.app import HTTP_STATUS

    root = Path(__file__).resolve().parent.parent
    src = "".join(p.read_text() for d in ("server", "tables") for p in (root / "src/gameweave" / d).glob("*.py"))
    emitted = set(re.findall(r'(?:TableError|ApiError|_error)\(\s*"([a-z_]+)"', src))
    emitted |= set(re.findall(r'"code": "([a-z_]+)"', src))
    emitted |= set(re.findall(r'code(?:, message)? = "([a-z_]+)"', src))
    emitted |= set(HTTP_STATUS)
    assert {"not_found", "method_not_allowed", "illegal", "stale"} <= emitted
    doc = (root / "docs/PROTOCOL.md").read_text()
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", doc, re.M))
    assert emitted <= documented, sorted(emitted - documented)


def test_the_api_docs_page_needs_no_internet(client):
    """/docs loads Swagger UI from this server, not a CDN: every URL it references is
    local and answers 200."""
    import re

    r = client.get("/docs")
    assert r.status_code == 200 and "SwaggerUIBundle" in r.text
    html = r.text
    assert not re.search(r"(?i)(https?:)?//[a-z0-9.-]+\.[a-z]", html), re.findall(r"(?i)https?://\S+", html)
    refs = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: '([^']+)'", html)
    assert any(u.endswith(".js") for u in refs) and any(u.endswith(".css") for u in refs)
    for url in refs:
        assert url.startswith("/"), url
        got = client.get(url)
        assert got.status_code == 200 and len(got.content) > 100, url
    assert client.get("/openapi.json").json()["info"]["title"] == "Gameweave table server"
    assert client.get("/redoc").status_code == 404  # the CDN-only ReDoc page is off


def test_head_is_answered_as_get_without_a_body(client):
    """Monitors and ``curl -I`` ask with HEAD: pages and the health checks answer it as
    their GET does (status and headers, no body); an address with no GET still 405."""
    for path in ("/", "/account", "/leaderboard", "/api/health", "/api/ready", "/static/table.js"):
        got, head = client.get(path), client.head(path)
        assert got.status_code == 200, path
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-type"] == got.headers["content-type"], path
        assert head.headers.get("content-length") == got.headers.get("content-length"), path
    r = client.head("/api/matches")
    assert r.status_code == 405 and "POST" in r.headers["allow"]

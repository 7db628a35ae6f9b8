"""Accounts (issue 20, item 1): sign-up and sign-in with argon2id, server-side sessions
stored hashed, sign-out here and everywhere, the rate limits with their documented code,
the same answer for a wrong name and a wrong password, the cross-origin check, password
change, deletion, and the seats a browser holds joining the account at sign-up."""

from __future__ import annotations

import hashlib

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from gameweave.accounts import AccountError, Passwords, check_password, normal_username, username_key
from gameweave.server import create_app
from gameweave.server.accounts import COOKIE
from gameweave.storage.schema import accounts, sessions

ORIGIN = {"Origin": "http://testserver"}


LIGHT = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
"""argon2id with light parameters, so that the tests' many sign-ups stay quick (the
server's default is argon2-cffi's recommended 64 MiB, 3 passes)."""


@pytest.fixture
def client(tmp_path):
    app = create_app(data_dir=tmp_path, bot_delay=0)
    app.state.accounts.passwords = LIGHT
    with TestClient(app) as c:
        c.app_ref = app  # type: ignore[attr-defined]
        yield c


def _post(c, path, body=None, **headers):
    return c.post(f"/api/account/{path}", json=body if body is not None else {}, headers={**ORIGIN, **headers})


def test_usernames_are_nfkc_and_case_insensitive_and_passwords_follow_the_rules():
    assert username_key("ＡＮＡ") == username_key("ana") == username_key("Ana")
    assert normal_username("  Ana_1 ") == "Ana_1"
    for good in ("José_2", "аліса", "山田太郎", "やまだ", "김철수"):  # one alphabet each (CJK, kana, hangul count as one)
        assert normal_username(good) == good
    for bad, reason in (("ab", "length"), ("a" * 21, "length"), ("ana maría", "characters"), ("ana!", "characters"),
                        ("\u0430lice", "mixed_scripts")):  # a Cyrillic а before "lice": a look-alike of "alice"
        with pytest.raises(AccountError) as err:
            normal_username(bad)
        assert err.value.code == "bad_username" and err.value.params["reason"] == reason
    for pw, reason in (("short7!", "short"), ("AnaPerez", "username"), ("Password123", "common"),
                       ("contraseña", "common"), ("qwerty123", "common")):
        with pytest.raises(AccountError) as err:
            check_password(pw, "anaperez")
        assert err.value.params["reason"] == reason, pw
    check_password("tres tigres tristes", "anaperez")


def test_sign_up_sets_an_httponly_lax_cookie_and_stores_only_hashes(client):
    r = _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    assert r.status_code == 201, r.text
    assert r.json() == {"signed_in": True, "username": "Ana", "seats": []}
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie
    session_id = client.cookies[COOKIE]
    store = client.app_ref.state.accounts.store
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts)).one()
        kept = conn.execute(select(sessions.c.id_sha256)).scalars().all()
    assert row.password_hash.startswith("$argon2id$") and "tres" not in row.password_hash
    assert kept == [hashlib.sha256(session_id.encode()).hexdigest()] and session_id not in kept
    assert client.get("/api/account").json()["username"] == "Ana"
    # the name is taken in any case and any width
    client.cookies.clear()
    r = _post(client, "sign-up", {"username": "ＡＮＡ", "password": "otra clave larga"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "username_taken"


def test_sign_in_gives_a_new_session_and_the_same_answer_for_a_wrong_name_or_password(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    first = client.cookies[COOKIE]
    client.cookies.clear()
    wrong_pw = _post(client, "sign-in", {"username": "ana", "password": "tres tigres tristeS"})
    wrong_name = _post(client, "sign-in", {"username": "nadie", "password": "tres tigres tristes"})
    assert wrong_pw.status_code == wrong_name.status_code == 401
    assert wrong_pw.json() == wrong_name.json()
    assert wrong_pw.json()["error"]["code"] == "bad_credentials"
    r = _post(client, "sign-in", {"username": "ANA", "password": "tres tigres tristes"})
    assert r.status_code == 200 and r.json()["username"] == "Ana"
    assert client.cookies[COOKIE] != first


def test_sign_out_and_sign_out_everywhere(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    other = TestClient(client.app)
    other.post("/api/account/sign-in", json={"username": "Ana", "password": "tres tigres tristes"}, headers=ORIGIN)
    assert other.get("/api/account").json()["signed_in"]
    r = _post(client, "sign-out")
    assert r.status_code == 200 and client.get("/api/account").json()["signed_in"] is False
    assert other.get("/api/account").json()["signed_in"]  # only this browser's session ended
    _post(client, "sign-in", {"username": "Ana", "password": "tres tigres tristes"})
    r = _post(client, "sign-out-everywhere")
    assert r.json() == {"ok": True, "ended": 2}
    assert other.get("/api/account").json() == {"signed_in": False, "username": None, "seats": []}
    assert other.post("/api/account/sign-out", headers=ORIGIN).json()["error"]["code"] == "not_signed_in"


def test_twenty_wrong_passwords_meet_the_rate_limit_with_its_code(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    client.cookies.clear()
    codes = [_post(client, "sign-in", {"username": "ana", "password": f"wrong guess {i}"}).json()["error"]["code"]
             for i in range(20)]
    assert codes[:10] == ["bad_credentials"] * 10 and set(codes[10:]) == {"rate_limited"}
    r = _post(client, "sign-in", {"username": "ana", "password": "tres tigres tristes"})
    assert r.status_code == 429  # even the right password waits
    assert r.json()["error"]["params"]["retry_after"] > 0 and int(r.headers["retry-after"]) > 0


def _from(c, address: str) -> TestClient:
    """Another browser, at ``address``, on the same server (its own cookie jar)."""
    return TestClient(c.app, client=(address, 50000))


def _sign_in(c, password: str) -> dict:
    return c.post("/api/account/sign-in", json={"username": "ana", "password": password}, headers=ORIGIN).json()


def test_wrong_passwords_from_one_address_do_not_lock_the_account_at_another(client):
    """The per-account limit counts failures per (account, address): someone guessing
    from one address meets the limit there, while the owner, elsewhere, still signs in
    (and still gets ten tries of their own)."""
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    client.cookies.clear()
    codes = [_sign_in(client, f"wrong guess {i}")["error"]["code"] for i in range(20)]
    assert codes[:10] == ["bad_credentials"] * 10 and set(codes[10:]) == {"rate_limited"}
    owner = _from(client, "203.0.113.7")
    assert [_sign_in(owner, f"typo {i}")["error"]["code"] for i in range(9)] == ["bad_credentials"] * 9
    assert _sign_in(owner, "tres tigres tristes")["username"] == "Ana"
    assert _sign_in(client, "tres tigres tristes")["error"]["code"] == "rate_limited"  # still, at the guesser's


def test_failures_spread_over_many_addresses_meet_the_account_cap(client):
    """Over every address together one account takes at most 100 failures in 15
    minutes: ten addresses guessing ten times each (each under its own limit) fill it,
    and then an eleventh address waits too, even with the right password."""
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    for n in range(10):
        guesser = _from(client, f"198.51.100.{n + 1}")
        codes = {_sign_in(guesser, f"guess {n}-{i}")["error"]["code"] for i in range(10)}
        assert codes == {"bad_credentials"}, n
    late = _from(client, "203.0.113.7")
    r = late.post("/api/account/sign-in", json={"username": "ana", "password": "tres tigres tristes"}, headers=ORIGIN)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert r.json()["error"]["params"]["retry_after"] > 0 and int(r.headers["retry-after"]) > 0


def test_sign_ups_from_one_address_are_limited_but_not_below_twenty_an_hour(client):
    codes = [_post(client, "sign-up", {"username": f"user{i}", "password": "tres tigres tristes"}).status_code
             for i in range(21)]
    assert codes[:20] == [201] * 20 and codes[20] == 429


def test_cross_origin_changes_change_nothing(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    for origin in ("http://evil.example", "http://testserver:8001", "null"):
        r = client.post("/api/account/sign-out-everywhere", headers={"Origin": origin})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", origin
        r = client.post("/api/account/password", json={"current": "tres tigres tristes", "new": "otra clave muy larga"},
                        headers={"Origin": origin})
        assert r.status_code == 403
    r = client.post("/api/account/sign-out")  # the cookie with no Origin and no Referer
    assert r.status_code == 403
    assert client.get("/api/account").json()["signed_in"]  # still signed in: nothing changed
    r = client.post("/api/account/sign-in", json={"username": "Ana", "password": "tres tigres tristes"},
                    headers={"Origin": "http://testserver:9999"})
    assert r.status_code == 403  # no sign-in from another origin either


def test_a_cross_site_form_post_is_refused_as_cross_origin_before_its_body_is_read(client):
    """A page on another site can send a "simple" request (``text/plain``, no preflight)
    with the victim's cookie: whatever its body, the answer is ``403 cross_origin``
    (it was ``422`` for a body FastAPI could not read, which said nothing of why)."""
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    evil = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    body = '{"current": "tres tigres tristes", "new": "otra clave muy larga"}'
    for path in ("/api/account/password", "/api/account/delete", "/api/account/sign-in", "/api/open-tables",
                 "/api/queue", "/api/matches", "/api/tutorial", "/api/account/matches/abc/take"):
        for content in (body, "not json at all", ""):
            r = client.post(path, content=content, headers=evil)
            assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin", (path, content, r.text)
    assert client.get("/api/account").json()["signed_in"]


def test_change_password_and_delete_the_account(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    r = _post(client, "password", {"current": "no es esta", "new": "otra clave muy larga"})
    assert r.json()["error"]["code"] == "bad_credentials"
    r = _post(client, "password", {"current": "tres tigres tristes", "new": "Ana"})
    assert r.json()["error"]["code"] == "bad_password"
    assert _post(client, "password", {"current": "tres tigres tristes", "new": "otra clave muy larga"}).status_code == 200
    assert client.get("/api/account").json()["signed_in"]
    assert _post(client, "delete", {"password": "otra clave muy larga"}).status_code == 200
    assert client.get("/api/account").json()["signed_in"] is False
    client.cookies.clear()
    assert _post(client, "sign-in", {"username": "Ana", "password": "otra clave muy larga"}).status_code == 401
    assert _post(client, "sign-up", {"username": "ana", "password": "y otra clave mas"}).status_code == 201


def test_at_sign_up_the_seats_this_browser_holds_join_the_account(client):
    made = client.post("/api/matches", json={"opponent": "bot", "name": "Ana"}).json()
    seats = [{"match_id": made["match_id"], "seat": 1, "token": made["token"]},
             {"match_id": made["match_id"], "seat": 2, "token": made["token"]}]  # not seat 2's token
    r = _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes", "seats": seats})
    assert r.json()["seats"] == [{"match_id": made["match_id"], "seat": 1}]


def test_a_hash_made_with_older_parameters_is_rehashed_at_sign_in(client):
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    store = client.app_ref.state.accounts.store
    before = store.by_key("ana").password_hash
    assert "m=1024" in before
    client.app_ref.state.accounts.passwords = Passwords()  # the server's default parameters
    client.cookies.clear()
    assert _post(client, "sign-in", {"username": "Ana", "password": "tres tigres tristes"}).status_code == 200
    after = store.by_key("ana").password_hash
    assert after != before and after.startswith("$argon2id$") and "m=65536" in after
    assert not Passwords().needs_rehash(after)


def test_twenty_sign_ups_an_hour_from_one_address_and_refused_ones_do_not_count(client):
    """Sign-up is limited to 20 an hour from one address, not below: names or passwords
    the rules refuse are not sign-ups and do not count."""
    for bad in ({"username": "x", "password": "tres tigres tristes"}, {"username": "Ana", "password": "Password123"}):
        assert _post(client, "sign-up", bad).status_code == 422
    for i in range(20):
        client.cookies.clear()
        r = _post(client, "sign-up", {"username": f"ana_{i}", "password": "tres tigres tristes"})
        assert r.status_code == 201, (i, r.text)
    client.cookies.clear()
    r = _post(client, "sign-up", {"username": "ana_20", "password": "tres tigres tristes"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_wrong_current_passwords_meet_the_sign_in_limit_too(client):
    """A signed-in session cannot guess the password through change-password: its
    failures count with the sign-in failures of the account (10 in 15 minutes)."""
    _post(client, "sign-up", {"username": "Ana", "password": "tres tigres tristes"})
    codes = [_post(client, "password", {"current": f"wrong guess {i}", "new": "cuatro tigres tristes"}).json()
             ["error"]["code"] for i in range(12)]
    assert codes[:10] == ["bad_credentials"] * 10 and codes[10:] == ["rate_limited"] * 2
    r = _post(client, "password", {"current": "tres tigres tristes", "new": "cuatro tigres tristes"})
    assert r.status_code == 429  # even the right one waits

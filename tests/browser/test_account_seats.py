"""Seats that follow the player (issue 20, item 2) in Chromium, with two browser contexts
as two devices, phone and desktop, Spanish and English: a signed-in player's live match
made in browser A is listed in browser B's "Your matches" once B signs in, taken there
with a click, and played from B while A's table is replaced (as two tabs); signing out
takes the list and the seat away from B; another account sees none of it.  A guest's
"continue on another device" link says it carries the seat's secret and, opened in
another browser, puts the seat there without the secret reaching the server.
Screenshots go to $GAMEWEAVE_SHOTS (if set)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(240)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
ENABLED = ".board button[data-action]:not([disabled])"
WORDS = {"en": {"elsewhere": "on another device", "secret": "carries your seat's secret"},
         "es": {"elsewhere": "en otro aparato", "secret": "lleva la clave secreta de tu lugar"}}


def _shot(page, name: str) -> None:
    folder = os.environ.get("GAMEWEAVE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _post(page, path: str, body: dict) -> dict:
    """A fetch from the page itself (so it carries the page's Origin and cookie)."""
    return page.evaluate("""([path, body]) => fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body)}).then(async r => ({status: r.status, body: await r.json()}))""", [path, body])


def _account(page, name: str, sign_up: bool) -> None:
    page.goto("/account")
    r = _post(page, f"/api/account/{'sign-up' if sign_up else 'sign-in'}",
              {"username": name, "password": "tres tigres tristes comen"})
    assert r["status"] in (200, 201), r


def _context(new_context, size: str, lang: str):
    return new_context(viewport=PHONE if size == "phone" else DESKTOP, locale="es-MX" if lang == "es" else "en-US")


def _seat_view(page, match_id: str, token: str) -> dict:
    return page.evaluate("""([id, token]) => fetch(`/api/matches/${id}/view`, {headers: {Authorization: `Bearer ${token}`}})
        .then(r => r.json())""", [match_id, token])


@pytest.mark.parametrize("size,lang", [("phone", "es"), ("desktop", "en")])
def test_a_signed_in_seat_follows_the_account_to_a_second_browser(new_context, size, lang):
    name = f"u{uuid.uuid4().hex[:10]}"
    a = _context(new_context, size, lang).new_page()
    _account(a, name, sign_up=True)
    a.goto("/")
    a.click("[data-testid=new-match-bot]")
    a.wait_for_url("**/table/*")
    match_id = a.url.rsplit("/", 1)[1]
    a.wait_for_selector(ENABLED)  # seat 1 opens deal 1: A's socket holds the seat
    token = a.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id)
    version = _seat_view(a, match_id, token)["version"]

    # browser B: signed in, the lobby lists A's live match, marked as held elsewhere
    b = _context(new_context, size, lang).new_page()
    _account(b, name, sign_up=False)
    b.goto("/")
    row = b.locator(f"[data-testid=my-matches] li[data-match='{match_id}']")
    row.wait_for()
    assert row.get_attribute("data-elsewhere") == "true" and WORDS[lang]["elsewhere"] in row.inner_text()
    _shot(b, f"seats-account-list-{size}-{lang}")
    row.locator("a").click()
    b.wait_for_url(f"**/table/{match_id}")
    b.wait_for_selector(ENABLED)
    assert b.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id) == token
    # A's table is replaced, exactly as by a second tab; B plays the move
    a.wait_for_selector("[data-testid=table-page][data-replaced=true]")
    assert a.locator(ENABLED).count() == 0
    # no control of A works any more, the hint's included, and its status line says why
    # instead of a turn its board no longer follows
    assert a.locator("[data-testid=hint]:not([disabled])").count() == 0
    assert a.inner_text("[data-testid=status]") == a.inner_text("#banner").splitlines()[0]
    assert "●" not in a.title() and "●" in b.title()  # seat 1 is to act: B says so, A no longer
    assert "favicon-turn" not in a.evaluate("() => document.querySelector('link[rel~=icon]').href")
    b.locator(ENABLED).first.click()
    b.wait_for_function(f"Number(document.querySelector('[data-testid=table-page]').dataset.version) > {version}")
    assert _seat_view(b, match_id, token)["version"] > version
    _shot(b, f"seats-taken-table-{size}-{lang}")

    # another account sees none of it and cannot take it
    c = _context(new_context, size, lang).new_page()
    _account(c, f"x{uuid.uuid4().hex[:10]}", sign_up=True)
    listed = c.evaluate("() => fetch('/api/account/matches').then(r => r.json())")
    assert listed == {"matches": []}
    # (through the context's own request client, with its cookie: a refusal in the page
    # would be logged as a console error)
    origin = c.url.split("/account")[0]
    took = c.context.request.post(f"{origin}/api/account/matches/{match_id}/take", data={"seat": 1},
                                  headers={"Origin": origin})
    assert took.status == 404 and took.json()["error"]["code"] == "seat_not_held" and token not in took.text()
    c.goto("/")
    c.wait_for_selector("[data-testid=my-matches] p")
    assert c.locator(f"li[data-match='{match_id}']").count() == 0

    # B signs out: the list and the seat leave this browser
    b.goto("/account")
    b.click("[data-testid=sign-out]")
    b.wait_for_selector("[data-testid=sign-in]")
    assert b.evaluate("id => (JSON.parse(localStorage.getItem('gameweave.seats') || '{}'))[id] || null", match_id) is None
    b.goto("/")
    b.wait_for_selector("[data-testid=my-matches] p")
    assert b.locator(f"li[data-match='{match_id}']").count() == 0
    b.goto(f"/table/{match_id}")
    b.wait_for_selector("[data-testid=no-seat]")
    # signed in again, the table's own address takes the account's seat here too
    _account(b, name, sign_up=False)
    b.goto(f"/table/{match_id}")
    b.wait_for_selector("[data-testid=table-page]")
    b.wait_for_selector("[data-testid=hand] .card")
    assert b.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id) == token


@pytest.mark.parametrize("size,lang", [("phone", "en"), ("desktop", "es")])
def test_a_guests_continue_link_puts_the_seat_in_another_browser(new_context, size, lang):
    a = _context(new_context, size, lang).new_page()
    a.goto("/")
    a.click("[data-testid=new-match-bot]")
    a.wait_for_url("**/table/*")
    match_id = a.url.rsplit("/", 1)[1]
    token = a.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id)
    a.goto("/")
    row = a.locator(f"[data-testid=my-matches] li[data-match='{match_id}']")
    row.wait_for()
    assert row.locator("[data-testid=continue-link]").count() == 0  # shown only when asked
    row.locator("[data-testid=continue-elsewhere]").click()
    link = row.locator("[data-testid=continue-link]").input_value()
    assert WORDS[lang]["secret"] in row.locator("[data-testid=continue-secret]").inner_text()
    assert link.endswith(f"/continue/{match_id}#seat=1&token={token}")
    _shot(a, f"seats-continue-link-{size}-{lang}")
    row.locator("[data-testid=continue-elsewhere]").click()  # hidden again
    assert row.locator("[data-testid=continue-link]").count() == 0

    b = _context(new_context, size, lang).new_page()
    sent = []
    b.on("request", lambda r: sent.append((r.url, dict(r.headers))))
    b.goto(link)
    b.wait_for_url(f"**/table/{match_id}")
    b.wait_for_selector(ENABLED)
    assert token not in b.url and "#" not in b.url
    # the secret went to the server only as the seat's credential, never in an address
    assert not [u for u, _ in sent if token in u]
    assert not [h for _, h in sent if token in h.get("referer", "")]
    version = _seat_view(b, match_id, token)["version"]
    b.locator(ENABLED).first.click()
    b.wait_for_function(f"Number(document.querySelector('[data-testid=table-page]').dataset.version) > {version}")
    # a mangled link says so and keeps nothing
    d = _context(new_context, size, lang).new_page()
    d.goto(f"/continue/{match_id}#seat=1&token={'0' * 64}")
    d.wait_for_selector("[data-testid=continue-bad]")
    assert d.evaluate("() => localStorage.getItem('gameweave.seats')") in (None, "{}")
    _shot(d, f"seats-continue-bad-{size}-{lang}")

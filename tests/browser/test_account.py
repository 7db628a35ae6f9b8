"""The account page (issue 20, item 1) in Chromium, phone and desktop, Spanish and
English: sign up from the lobby's link with the seat this browser holds joining the
account, sign out, sign in on a second browser and see the account there; a wrong
password is worded in the page's language.  Screenshots go to $GAMEWEAVE_SHOTS (if set)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(240)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
WORDS = {"en": ("Signed in as", "That username and password do not match an account."),
         "es": ("Sesión iniciada como", "Ese nombre de usuario y esa contraseña no coinciden con ninguna cuenta.")}

FILL_IN = {"en": "Type your username and your password.", "es": "Escribe tu nombre de usuario y tu contraseña."}


def _shot(page, name: str) -> None:
    folder = os.environ.get("GAMEWEAVE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size,lang", [("phone", "es"), ("desktop", "en")])
def test_sign_up_with_this_browsers_seat_then_sign_in_elsewhere(new_context, size, lang):
    viewport = PHONE if size == "phone" else DESKTOP
    locale = "es-MX" if lang == "es" else "en-US"
    signed_in, wrong = WORDS[lang]
    name = f"u{uuid.uuid4().hex[:10]}"
    page = new_context(viewport=viewport, locale=locale).new_page()
    page.goto("/")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    match_id = page.url.rsplit("/", 1)[1]
    page.goto("/")  # the account is reached from the lobby
    page.click("[data-testid=account-link]")
    page.wait_for_selector("[data-testid=sign-up]")
    _shot(page, f"account-signed-out-{size}-{lang}")
    form = page.locator("form", has=page.locator("[data-testid=sign-up]"))
    form.locator("[data-testid=username-input]").fill(name)
    form.locator("[data-testid=password-input]").fill("short")
    form.locator("[data-testid=sign-up]").click()
    assert page.locator("[data-testid=sign-up-error]").inner_text() != ""  # worded, nothing made
    form.locator("[data-testid=password-input]").fill("tres tigres tristes comen")
    form.locator("[data-testid=sign-up]").click()
    page.wait_for_selector("[data-testid=account-name]")
    assert page.inner_text("[data-testid=account-name]") == name and signed_in in page.inner_text("main")
    _shot(page, f"account-signed-in-{size}-{lang}")
    held = page.evaluate("() => fetch('/api/account').then(r => r.json())")
    assert held["seats"] == [{"match_id": match_id, "seat": 1}]  # the browser's seat joined
    cookie_js = page.evaluate("() => document.cookie")
    assert "gameweave_session" not in cookie_js  # HttpOnly: the page cannot read it
    page.click("[data-testid=sign-out]")
    page.wait_for_selector("[data-testid=sign-in]")

    other = new_context(viewport=viewport, locale=locale).new_page()
    other.goto("/account")
    box = other.locator("form", has=other.locator("[data-testid=sign-in]"))
    box.locator("[data-testid=sign-in]").click()  # nothing typed: said so, nothing sent
    other.wait_for_function("() => document.querySelector('[data-testid=sign-in-error]').textContent.length > 0")
    assert other.inner_text("[data-testid=sign-in-error]") == FILL_IN[lang]
    box.locator("[data-testid=username-input]").fill(name.upper())
    box.locator("[data-testid=password-input]").fill("not the password")
    box.locator("[data-testid=sign-in]").click()
    other.wait_for_function("() => document.querySelector('[data-testid=sign-in-error]').textContent.length > 0")
    assert other.inner_text("[data-testid=sign-in-error]") == wrong
    _shot(other, f"account-wrong-password-{size}-{lang}")
    box.locator("[data-testid=password-input]").fill("tres tigres tristes comen")
    box.locator("[data-testid=sign-in]").click()
    other.wait_for_selector("[data-testid=account-name]")
    assert other.inner_text("[data-testid=account-name]") == name
    w = other.evaluate("() => document.documentElement.scrollWidth")
    assert w <= viewport["width"], f"the account page scrolls sideways ({w} px)"

"""Small helpers the browser tests share (one home each): the table's selectors, waiting
for a redraw, clicking a legal action's control, reading the seat's view over HTTP,
screenshots, playing until throws are offered, and the contrast measure of WCAG 2
(4.5:1 is AA for text) in the page.

Imported as ``from page_helpers import ...`` (pytest puts this folder on ``sys.path``)."""

from __future__ import annotations

import random

import pytest

ENABLED = ".board [data-action]:not([disabled])"
"""The table's enabled controls of legal actions (a danger confirmation's is clicked by
:func:`click_action`)."""
RESULT = "[data-testid=result]"
"""The end-of-deal box."""


def version(page) -> str:
    """The state version the table shows (``table-page[data-version]``)."""
    return page.get_attribute("[data-testid=table-page]", "data-version") or ""


def wait_redrawn(page) -> None:
    """Wait until no control is disabled: a click disables every control until the next
    state (or error) frame redraws them."""
    page.wait_for_function("!document.querySelector('[data-action][disabled]')")


def click_action(page, action: str, touch: bool = False) -> None:
    """Click (or, with ``touch``, tap) the control of one legal action, confirm it if
    the page asks (R16), and wait until the page has redrawn."""
    loc = page.locator(f'.board [data-action="{action}"]:not([disabled])')
    loc.tap() if touch else loc.click()
    if page.locator("[data-testid=confirm-danger]").count():
        page.click("[data-testid=confirm-danger] [data-action]")
    wait_redrawn(page)


def legal(page) -> list[str]:
    """The §VII texts of the table's enabled controls."""
    return page.eval_on_selector_all(ENABLED, "els => els.map(e => e.dataset.action)")


def seat_token(page, match_id: str) -> str:
    """This browser's seat token for ``match_id`` (localStorage ``gameweave.seats``)."""
    return page.evaluate(f"JSON.parse(localStorage.getItem('gameweave.seats'))['{match_id}'].token")


def view(page) -> dict:
    """The seat's state frame of the table the page shows, read over HTTP
    (``GET /api/matches/{id}/view`` with this browser's seat token)."""
    match_id = page.url.rstrip("/").split("/")[-1]
    token = seat_token(page, match_id)
    return page.request.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"}).json()


def shot(page, path, viewport=None) -> None:
    """Screenshot the whole page (at ``viewport`` if given), after the short card animation."""
    if viewport:
        page.set_viewport_size(viewport)
    page.wait_for_timeout(250)
    page.screenshot(path=str(path), full_page=True)


def play_until_throw(page, rng: random.Random, touch: bool = False, turns: int = 60) -> list[str]:
    """Play random legal moves (a meld where there is one) until the hand's cards can be
    thrown; returns those throws' §VII texts.  Fails if the deal ends first."""
    for _ in range(turns):
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            pytest.fail("the deal ended before a throw")
        throws = page.eval_on_selector_all(".hand [data-action]:not([disabled])", "els => els.map(e => e.dataset.action)")
        if throws:
            return throws
        actions = legal(page)
        melds = [a for a in actions if a.startswith("meld")]
        click_action(page, rng.choice(melds or actions), touch)
    pytest.fail("no throw came")


CONTRAST_FNS = """
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const bgOf = (el, fallback) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
    }
    return fallback;
  };
  const contrast = (el, fallback) => {
    const a = lum(rgb(getComputedStyle(el).color).slice(0, 3)), b = lum(bgOf(el, fallback));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
"""
"""JavaScript: ``contrast(el, fallback)``, the WCAG 2 contrast ratio of an element's text
colour against the first opaque background behind it (``fallback``, an [r, g, b], where
none is opaque)."""


def contrast_js(body: str) -> str:
    """A function for ``page.evaluate``: :data:`CONTRAST_FNS`, then ``body`` (which
    returns the result)."""
    return "() => {" + CONTRAST_FNS + body + "}"

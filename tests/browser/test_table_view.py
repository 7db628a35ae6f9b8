"""The table in view (issue 19, items 2 and 5), in Chromium at 390x844 and 1366x800, in
English and Spanish: every chip of the score bar and both clocks inside the viewport on
every turn of a clocked deal against the bot (the bar wraps, it never scrolls sideways),
the clocks beside the status line, one stakes chip, "Resign…" only while a deal is played;
the confirm-throws setting; "no such match" for a table the server does not know;
"waiting for X to join" (and no clock) before a friend joins; readable dead-card cells,
own moves and the opponent's told apart in the log, labelled top-bar toggles on a phone,
short rules options in the lobby.  (The card sound and the win effect, on a deal won
from a fixed deck: test_table_effects.py.)

Screenshots go to ``$GAMEWEAVE_SHOTS`` when set (else each test's tmp_path).  Every test
fails on any console error (conftest)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from gameweave.i18n import translate

from page_helpers import (
    ENABLED, RESULT, click_action, contrast_js, legal as _legal, play_until_throw, shot, version as _version,
    wait_redrawn,
)
from test_table_page import take_seat
from test_table_profiles import BIG, PHONE, off_screen

pytestmark = pytest.mark.timeout(300)

CLOCK_HOOKS = ("clock-self", "clock-other")


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ["GAMEWEAVE_SHOTS"]) if os.environ.get("GAMEWEAVE_SHOTS") else tmp_path
    d.mkdir(parents=True, exist_ok=True)
    return d


IN_VIEW_JS = """
(hooks) => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  const check = (el, name) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) { out.push(`${name}: not shown`); return; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) out.push(`${name}: ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  };
  const bar = document.querySelector("[data-testid=score]");
  if (bar.scrollWidth > bar.clientWidth + 1) out.push(`the score bar scrolls: ${bar.scrollWidth} > ${bar.clientWidth}`);
  for (const el of bar.children) if (getComputedStyle(el).display !== "none") check(el, el.textContent.trim().slice(0, 30));
  for (const hook of hooks) {
    const el = document.querySelector(`[data-testid=${hook}]`);
    if (!el) out.push(`${hook}: missing`); else check(el, hook);
  }
  return out;
}
"""


def chips_out_of_view(page, clocked: bool = True) -> list[str]:
    """The score bar's chips and (when ``clocked``) both clocks that are not wholly inside
    the viewport of the page at its top, or missing; [] when all are in view."""
    return page.evaluate(IN_VIEW_JS, list(CLOCK_HOOKS) if clocked else [])


DEAD_CELLS_JS = contrast_js("""
  return [...document.querySelectorAll("[data-testid=dead-cards] .dead-cell, [data-testid=dead-cards] .dead-suit")].map((el) => {
    const r = el.getBoundingClientRect();
    return { text: el.textContent, dead: el.classList.contains("on"), ratio: contrast(el, [31, 94, 61]),
             w: r.width, h: r.height, font: parseFloat(getComputedStyle(el).fontSize) };
  });
""")
"""Each cell of the dead-cards grid: its contrast (against the felt where nothing behind
it is opaque), size and font size."""


def throw_confirm(page) -> None:
    """If the click only selected a card (confirm-throws), press its Throw button."""
    confirm = page.locator(".throw-confirm [data-send]")
    if confirm.count():
        v = _version(page)
        confirm.click()
        page.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'"
                               " || !!document.querySelector('[data-testid=result]')")
    wait_redrawn(page)


def play_one(page, action: str, touch: bool) -> None:
    """Play one legal action by its control: a tap on a touch screen (a throw is then
    confirmed by its Throw button), a click otherwise; a danger confirmation is accepted.
    Playwright scrolls the page to reach a control below the fold (on a 390 px phone with
    many melds the hand could be, once a selected card's Throw button was added, until
    web/table/fit.js: test_table_fold.py), so the page is scrolled back to its top before
    the next turn's one-screen check, which is about the turn's own layout."""
    click_action(page, action, touch)
    throw_confirm(page)
    page.evaluate("scrollTo(0, 0)")


def new_bot_match(page, rules: str, clock: str | None = "60", bot: str = "random") -> None:
    """From the lobby: a match against ``bot`` under ``rules`` (classic for stakes), on
    a clock of ``clock`` seconds, then wait for the table."""
    page.goto("/")
    page.wait_for_selector(f"[data-testid=rules-select] option[value='{rules}']", state="attached")
    page.select_option("[data-testid=rules-select]", rules)
    if rules == "classic":
        page.check("[data-testid=format-stakes]")
    if clock:
        page.select_option("[data-testid=clock-select]", clock)
    page.select_option("[data-testid=bot-select]", bot)
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=hand] .card")


@pytest.mark.parametrize(("size", "locale", "rules"), [
    (PHONE, "en-US", "classic"), (PHONE, "es-MX", "gameweave"), (BIG, "en-US", "gameweave"), (BIG, "es-MX", "classic"),
], ids=["390-en-classic", "390-es-gameweave", "1366-en-gameweave", "1366-es-classic"])
def test_every_chip_and_both_clocks_in_view_on_every_turn_of_a_clocked_deal(new_context, tmp_path, size, locale, rules):
    lang = locale[:2]
    phone = size == PHONE
    shots = shots_dir(tmp_path)
    name = f"{size['width']}-{lang}-{rules}"
    page = new_context(size, locale=locale, has_touch=phone, is_mobile=phone).new_page()
    # the lobby's rules options are short (the profile's name); the summary is below
    page.goto("/")
    page.wait_for_selector("[data-testid=rules-select] option[value=classic]", state="attached")
    options = page.eval_on_selector_all("[data-testid=rules-select] option", "els => els.map(e => e.textContent)")
    assert all(len(o) <= 24 and "—" not in o for o in options), options
    assert page.locator("[data-testid=rules-summary]").is_visible()
    assert page.inner_text("[data-testid=rules-summary]").startswith(options[0])
    # the top bar's toggles are labelled, in view, at every size (a phone of 360 px too)
    for width in (size["width"], 360) if phone else (size["width"],):
        page.set_viewport_size({"width": width, "height": size["height"]})
        for label in (translate("page.sound", lang), translate("page.animations", lang)):
            text = page.locator(".topbar .toggle-text", has_text=label)
            box = text.bounding_box()
            assert box and box["width"] > 20 and box["height"] > 8, (label, box)  # its words, not one icon
            assert box["x"] >= 0 and box["x"] + box["width"] <= width - 2, (width, label, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size(size)
    shot(page, shots / f"lobby-{name}.png")

    new_bot_match(page, rules)
    rng = random.Random(size["width"] + len(rules))
    turns = 0
    while True:
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            break
        page.wait_for_selector("[data-testid=clock-self] [data-running=true]")
        out = chips_out_of_view(page)
        assert not out, (name, turns, out)
        assert not off_screen(page), (name, turns, off_screen(page))
        assert page.locator("[data-testid=resign]").count() == 1
        if rules == "classic":  # one stakes chip, the score said once
            assert page.locator("[data-testid=stakes]").count() == 1
            assert page.locator("[data-testid=score] .score").count() == 0
        if turns == 2:
            shot(page, shots / f"table-{name}.png")
        actions = _legal(page)
        melds = [a for a in actions if a.startswith("meld")]
        play_one(page, rng.choice(melds) if melds and rng.random() < 0.9 else rng.choice(actions), phone)
        turns += 1
        assert turns < 200, "the deal did not end"
    assert turns >= 3
    assert not chips_out_of_view(page, clocked=False), chips_out_of_view(page, clocked=False)
    assert page.locator("[data-testid=clock-self], [data-testid=clock-other]").count() == 0  # nothing is timed now
    # between deals there is nothing to resign; resign returns with the next deal
    assert page.locator("[data-testid=resign]").count() == 0
    if rules == "classic":  # the result says the stakes, not the deals won besides
        assert page.locator(f"{RESULT} .match-line").count() == 0
        assert page.locator("[data-testid=stakes-balance]").count() == 1
    shot(page, shots / f"result-{name}.png")

    # the log tells own moves from the opponent's (a bar and a tint, not only the words)
    styles = page.eval_on_selector_all(
        "[data-testid=log] li.by-me, [data-testid=log] li.by-opp",
        "els => els.map(e => [e.classList.contains('by-me'), getComputedStyle(e).backgroundColor, getComputedStyle(e).borderLeftColor])")
    mine = {tuple(s[1:]) for s in styles if s[0]}
    theirs = {tuple(s[1:]) for s in styles if not s[0]}
    assert mine and theirs and not mine & theirs, styles

    # the dead cards' grid is readable: 4.5:1 for every cell, dead or not, and not tiny
    cells = page.evaluate(DEAD_CELLS_JS)
    assert len(cells) == 44
    low = [c for c in cells if c["ratio"] < 4.5]
    assert not low, low
    assert all(c["font"] >= 12 and c["h"] >= 15 and c["w"] >= 15 for c in cells), cells[:3]


def test_confirm_throws_is_a_remembered_setting(new_context):
    """Off by default with a mouse: a click throws.  Turned on: a click only selects the
    card and its Throw button (data-send) throws it; remembered after a reload.  On a
    touch screen it is on by default; turned off, a tap throws at once."""
    rng = random.Random(19)
    page = new_context(BIG).new_page()
    for attempt in range(3):  # the bot's deck is random: a deal may end before seat 1 can throw
        new_bot_match(page, "gameweave", clock=None)
        box = page.locator("[data-testid=confirm-throws]")
        assert not box.is_checked()
        try:
            throws = play_until_throw(page, rng)
            break
        except pytest.fail.Exception:
            if attempt == 2:
                raise
    v = _version(page)
    page.click(f'.hand [data-action="{throws[0]}"]')
    page.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")
    assert page.locator(".throw-confirm").count() == 0

    box.check()
    page.reload()
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.locator("[data-testid=confirm-throws]").is_checked()
    assert page.evaluate("localStorage.getItem('gameweave.confirm_throws')") == "on"
    throws = play_until_throw(page, rng)
    v = _version(page)
    page.click(f'.hand [data-action="{throws[0]}"]')
    confirm = page.locator(f'.throw-confirm [data-send="{throws[0]}"]')
    confirm.wait_for()
    assert _version(page) == v  # nothing was sent
    assert page.locator(f'.hand [data-action="{throws[0]}"].selected').count() == 1
    assert not off_screen(page), off_screen(page)
    confirm.click()
    page.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")

    touch = new_context(PHONE, has_touch=True, is_mobile=True).new_page()
    new_bot_match(touch, "gameweave", clock=None)
    assert touch.locator("[data-testid=confirm-throws]").is_checked()
    touch.locator("[data-testid=confirm-throws]").uncheck()
    throws = play_until_throw(touch, rng, touch=True)
    v = _version(touch)
    touch.tap(f'.hand [data-action="{throws[0]}"]')
    touch.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")
    assert touch.locator(".throw-confirm").count() == 0


@pytest.mark.parametrize("locale", ["en-US", "es-MX"])
def test_an_unknown_table_says_no_such_match(new_context, locale):
    """/table/<id> the server does not know: "no such match", not "no seat"; a match that
    exists but whose seat this browser lacks: "no seat"."""
    lang = locale[:2]
    page = new_context(PHONE, locale=locale).new_page()
    for mid in ("unknown", "0123456789abcdef"):
        page.goto(f"/table/{mid}")
        page.wait_for_selector("[data-testid=no-match]")
        assert translate("page.no_match.title", lang) in page.inner_text("main")
        assert page.locator("[data-testid=no-seat]").count() == 0
    made = page.request.post("/api/matches", data={"opponent": "bot", "bot": "random"}).json()
    page.goto(f"/table/{made['match_id']}")
    page.wait_for_selector("[data-testid=no-seat]")
    assert translate("page.no_seat.title", lang) in page.inner_text("main")


@pytest.mark.parametrize("locale", ["en-US", "es-MX"])
def test_an_unknown_match_s_replay_says_no_such_match(new_context, locale):
    """/replay/<id>/1 of a match the server does not know: 404 and "no such match", not
    "no seat"; of a match that exists but whose seat this browser lacks: 200, "no seat"."""
    lang = locale[:2]
    page = new_context(PHONE, locale=locale).new_page()
    res = page.goto("/replay/0123456789abcdef/1")
    assert res.status == 404
    page.wait_for_selector("[data-testid=no-match]")
    assert translate("page.no_match.title", lang) in page.inner_text("main")
    assert page.locator("[data-testid=no-seat]").count() == 0
    made = page.request.post("/api/matches", data={"opponent": "bot", "bot": "random"}).json()
    res = page.goto(f"/replay/{made['match_id']}/1")
    assert res.status == 200
    page.wait_for_selector("[data-testid=no-seat]")
    assert translate("page.replay.no_seat", lang) in page.inner_text("main")


def test_before_the_friend_joins_the_table_waits_for_them(new_context, tmp_path):
    """A clocked friend match: until seat 2 joins, the status says "Waiting for Player 2
    to join" (never that they are deciding), and no clock is shown; once they join, both
    clocks run as usual."""
    shots = shots_dir(tmp_path)
    rng = random.Random(2)
    p1 = new_context(PHONE).new_page()
    p1.goto("/")
    p1.select_option("[data-testid=clock-select]", "60")
    p1.click("[data-testid=new-match-friend]")
    url = p1.locator("[data-testid=invite-link]").input_value()
    p1.click("[data-testid=go-to-table]")
    p1.wait_for_selector("[data-testid=hand] .card")
    assert p1.locator("[data-testid=clock-self], [data-testid=clock-other], [data-testid=clock-1]").count() == 0
    # seat 1 opens (R9) and plays until it is seat 2's decision
    for _ in range(10):
        page_root = p1.locator("[data-testid=table-page]")
        if page_root.get_attribute("data-my-turn") != "true":
            break
        p1.wait_for_selector(ENABLED)
        actions = _legal(p1)
        passive = [a for a in actions if a in ("refuse", "turn")]
        play_one(p1, passive[0] if passive else rng.choice(actions), False)
    status = p1.inner_text("[data-testid=status]")
    assert status == translate("page.table.waiting_join", "en", who="Player 2"), status
    assert "deciding" not in status and "choosing" not in status
    assert p1.locator("[data-testid=clock-self], [data-testid=clock-other]").count() == 0
    assert p1.locator("[data-testid=invite-link]").count() == 1
    shot(p1, shots / "waiting-join-390.png")

    p2 = new_context(PHONE).new_page()
    take_seat(p2, url, "Bob")
    p2.wait_for_selector("[data-testid=hand] .card")
    p1.wait_for_selector("[data-testid=clock-other] [data-running=true]")
    assert "Bob" in p1.inner_text("[data-testid=status]")
    assert translate("page.table.waiting_join", "en", who="Bob") != p1.inner_text("[data-testid=status]")
    for page in (p1, p2):
        assert not chips_out_of_view(page), chips_out_of_view(page)


def test_a_24_letter_name_breaks_and_never_widens_the_phone_page(new_context):
    """A name of 24 letters with no space (the longest allowed) wraps or is cut with an
    ellipsis at the table on a 390 px phone: the page never scrolls sideways."""
    host = new_context(BIG).new_page()
    host.goto("/")
    made = host.evaluate("""() => fetch('/api/matches', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({opponent: 'friend', name: 'W'.repeat(24)})}).then(r => r.json())""")
    guest = new_context(PHONE, locale="es-MX").new_page()
    guest.goto(made["invite_url"])
    guest.fill("[data-testid=name-input]", "M" * 24)
    guest.click("[data-testid=join-seat]")
    guest.wait_for_selector("[data-testid=hand] .card")
    assert "W" * 10 in guest.inner_text("[data-testid=status]")
    assert guest.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert not off_screen(guest), off_screen(guest)

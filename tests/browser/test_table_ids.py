"""The page sends action ids (PROTOCOL §4.1): each control of the table carries its
choice's §VII text in ``data-action`` (what tests and hints find it by), and a click sends
``{"type": "action", "action": <the choice's id>, "version": v}``, never the text: from a
plain button, from a touch screen's throw confirmation (R13; the card comes from the
choice's data, not from its text) and from the danger confirmation (R16)."""

from __future__ import annotations

import json
import random

import pytest

from gameweave.engine.conformance import build_deck

from page_helpers import (
    ENABLED, RESULT, legal as _legal, play_until_throw, version as _version, view as _view, wait_redrawn as _wait_redrawn,
)
from test_table_page import _choose, take_seat
from test_table_profiles import BIG, DANGER_1, DANGER_2, DANGER_STOCK, PHONE

pytestmark = pytest.mark.timeout(240)


def sent_frames(page) -> list[dict]:
    """The frames `page` sends over its WebSockets from now on (a list that fills up)."""
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(json.loads(payload))))
    return frames


def actions_sent(frames: list[dict]) -> list[dict]:
    return [f for f in frames if f.get("type") == "action"]


def _choice_ids(page) -> tuple[str, dict[str, int], list[dict]]:
    """(version, {§VII text: id}, choices) of the seat's view, read over HTTP once it is
    the version the page shows."""
    for _ in range(50):
        frame = _view(page)
        if str(frame["version"]) == _version(page):
            return str(frame["version"]), {c["action"]: c["id"] for c in frame["choices"]}, frame["choices"]
        page.wait_for_timeout(100)
    pytest.fail("the page never showed the server's version")


def test_a_click_sends_the_choice_id_never_its_text(new_context):
    rng = random.Random(7)
    page = new_context(BIG).new_page()
    frames = sent_frames(page)
    page.goto("/")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_selector("[data-testid=hand] .card")
    clicks = 0
    while clicks < 12:
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            break
        version, ids, _ = _choice_ids(page)
        action = _choose(_legal(page), rng)
        before = len(actions_sent(frames))
        page.locator(f'.board [data-action="{action}"]:not([disabled])').click()
        if page.locator("[data-testid=confirm-danger]").count():
            page.click("[data-testid=confirm-danger] [data-action]")
        _wait_redrawn(page)
        sent = actions_sent(frames)[before:]
        assert sent == [{"type": "action", "action": ids[action], "version": int(version)}], (action, sent)
        clicks += 1
    assert clicks >= 3
    assert all(isinstance(f["action"], int) for f in actions_sent(frames))


def test_a_touch_throw_sends_the_id_of_the_card_selected(new_context):
    """A tap selects the card (nothing is sent); the confirmation sends the id of the plain
    throw of that card (R13)."""
    rng = random.Random(3)
    page = new_context(PHONE, has_touch=True).new_page()
    frames = sent_frames(page)
    page.goto("/")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_selector("[data-testid=hand] .card")
    throws = play_until_throw(page, rng)
    version, _, choices = _choice_ids(page)
    card = page.get_attribute(f'.hand [data-action="{throws[0]}"]', "data-card")
    (plain,) = [c for c in choices if c["kind"] == "throw" and c["card"] == card and not c["force"]]
    before = len(actions_sent(frames))
    page.tap(f'.hand [data-action="{throws[0]}"]')
    confirm = page.locator(f'.throw-confirm [data-send="{throws[0]}"]')
    confirm.wait_for()
    assert len(actions_sent(frames)) == before  # selected only
    confirm.tap()
    page.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{version}'")
    assert actions_sent(frames)[before:] == [{"type": "action", "action": plain["id"], "version": int(version)}]


def test_r16_the_danger_confirmation_sends_the_choice_id(new_context, live_server):
    """The confirmation's button sends the id of the move it confirms (R16)."""
    live_server.decks.push(build_deck(DANGER_1, DANGER_2, DANGER_STOCK))
    p1 = new_context(BIG).new_page()
    frames = sent_frames(p1)
    p1.goto("/")
    p1.click("[data-testid=new-match-friend]")
    url = p1.locator("[data-testid=invite-link]").input_value()
    p1.click("[data-testid=go-to-table]")
    p1.wait_for_selector("[data-testid=hand] .card")
    p2 = new_context(PHONE).new_page()
    take_seat(p2, url)
    p2.wait_for_selector("[data-testid=hand] .card")

    def step(page, action):
        page.wait_for_selector(f'.board [data-action="{action}"]:not([disabled])')
        page.click(f'.board [data-action="{action}"]')
        _wait_redrawn(page)

    for meld, throw in (("meld 5c 5d 5h", "throw Jc"), ("meld Kc Kd Kh", "throw 7d"),
                        ("meld Ah 2h 3h 4h", "throw Qs")):
        step(p1, "turn")
        step(p1, "refuse")
        step(p2, meld)
        step(p2, throw)
    step(p1, "turn")  # 5s: refusing it, or forcing it, gives seat 2 the deal
    version, ids, _ = _choice_ids(p1)
    before = len(actions_sent(frames))
    p1.click('.board [data-action="refuse force 2"]')
    p1.locator("[data-testid=confirm-danger]").wait_for()
    assert len(actions_sent(frames)) == before  # nothing is sent before the confirmation
    p1.click('[data-testid=confirm-danger] [data-action="refuse force 2"]')
    p1.wait_for_selector(RESULT)
    assert actions_sent(frames)[before:] == [{"type": "action", "action": ids["refuse force 2"], "version": int(version)}]
    assert all(isinstance(f["action"], int) for f in actions_sent(frames))

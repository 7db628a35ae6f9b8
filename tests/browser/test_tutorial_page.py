"""The guided first deal in Chromium (issue 19): from ``tutorial-start`` (the lobby's
banner for a first-time visitor, or the help) to the eleventh card, at 390x844 (a touch
phone) and 1366x800, in English and in Spanish.  At every step either the step's move is
the only enabled ``data-action`` of the table, or ``tutorial-next`` goes on; the deal
ends won by the person; the banner is gone afterwards.  The help shows the pictures of
a set, a sequence, 6-7-J and a force.

Screenshots go to /tmp/shots-tutorial/ (``<lang>-<size>-<moment>.png``)."""

from __future__ import annotations

from pathlib import Path

import pytest

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
SHOTS = Path("/tmp/shots-tutorial")
GUIDE = "[data-testid=tutorial]"
ENABLED = ".board [data-action]:not([disabled]), .board [data-send]:not([disabled])"

pytestmark = pytest.mark.timeout(240)

WORDS = {
    "en": {"start": "Play the guided deal", "won": "You won the deal", "finish": "Back to the lobby"},
    "es": {"start": "Jugar la mano guiada", "won": "Ganaste la mano", "finish": "Volver a la sala"},
}


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _enabled(page) -> list[str]:
    return page.eval_on_selector_all(ENABLED, "els => els.map(e => e.dataset.action || e.dataset.send || e.outerHTML.slice(0, 200))")


def _in_view(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return bool(box) and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["390", "1366"])
def test_the_guided_deal_runs_from_tutorial_start_to_its_eleventh_card(new_context, lang, size):
    phone = size == "390"
    options = {"has_touch": True, "is_mobile": True} if phone else {}
    ctx = new_context(viewport=PHONE if phone else DESKTOP, locale="es-MX" if lang == "es" else "en-US", **options)
    page = ctx.new_page()
    page.goto("/")
    words = WORDS[lang]
    name = f"{lang}-{size}"
    if phone:  # a first-time visitor: the lobby's banner
        page.wait_for_selector("[data-testid=tutorial-banner] [data-testid=tutorial-start]")
        _shot(page, f"{name}-lobby")
        start = page.locator("[data-testid=tutorial-banner] [data-testid=tutorial-start]")
    else:  # from the help, with its pictures
        page.click("[data-testid=open-help]")
        page.wait_for_selector("[data-testid=help] [data-testid=help-pictures] .card")
        pictures = page.eval_on_selector_all("[data-testid=help-pictures] [data-picture]",
                                             "els => els.map(e => [e.dataset.picture, e.querySelectorAll('.card').length])")
        assert pictures == [["set", 3], ["sequence", 4], ["seven_jack", 3], ["force", 4]]
        _shot(page, f"{name}-help")
        start = page.locator("[data-testid=help] [data-testid=tutorial-start]")
    assert start.inner_text().strip() == words["start"]
    start.click()
    page.wait_for_selector(GUIDE)
    page.wait_for_url("**/table/*")
    seen: set[str] = set()
    moves = 0
    last = ""
    for _ in range(60):
        page.wait_for_function(
            f"() => {{ const g = document.querySelector('{GUIDE}');"
            f" return g && g.dataset.state === 'step' && g.dataset.n !== '{last}'; }}")
        guide = page.locator(GUIDE)
        step = guide.get_attribute("data-step")
        action = guide.get_attribute("data-move")
        last = guide.get_attribute("data-n")
        text = page.locator("[data-testid=tutorial-step]").inner_text()
        assert text and "tutorial." not in text and "{" not in text, text
        assert "(R" not in text
        seen.add(step)
        assert _in_view(page, GUIDE), step
        if step in ("tutorial.step.welcome", "tutorial.step.force", "tutorial.step.win", "tutorial.step.done"):
            _shot(page, f"{name}-{step.rsplit('.', 1)[1]}")
        if action:
            assert _enabled(page) == [action], (step, _enabled(page))  # the step's move alone
            assert not page.locator("[data-testid=tutorial-next]").is_visible()
            page.locator(f'.board [data-action="{action}"]:not([disabled])').click()
            send = page.locator(f'.board [data-send="{action}"]')
            if send.count():  # a touch screen: the throw is confirmed (the card and its confirmation)
                assert set(_enabled(page)) == {action}
                send.click()
            moves += 1
        else:
            assert _enabled(page) == [], (step, _enabled(page))
            nxt = page.locator("[data-testid=tutorial-next]")
            if step == "tutorial.step.done":
                assert page.get_attribute("[data-testid=table-page]", "data-status") == "won"
                assert words["won"] in text
                assert nxt.inner_text().strip() == words["finish"]
                assert page.locator("[data-testid=hand]").get_attribute("aria-label")  # the table still shown
                nxt.click()
                break
            nxt.click()
    else:
        pytest.fail("the guided deal did not end")
    assert moves == 10
    assert {"tutorial.step.take", "tutorial.step.turn", "tutorial.step.refuse", "tutorial.step.force",
            "tutorial.step.win"} <= seen
    page.wait_for_selector("[data-testid=new-match-bot]")  # back in the lobby
    assert page.locator("[data-testid=tutorial-banner]").count() == 0  # done: no banner any more
    page.click("[data-testid=open-help]")
    page.wait_for_selector("[data-testid=help] [data-testid=tutorial-start]")  # still offered in the help


def test_the_banner_goes_once_dismissed(new_context):
    page = new_context(viewport=DESKTOP).new_page()
    page.goto("/")
    page.click("[data-testid=tutorial-banner] [data-testid=tutorial-dismiss]")
    assert page.locator("[data-testid=tutorial-banner]").count() == 0
    page.reload()
    page.wait_for_selector("[data-testid=new-match-bot]")
    assert page.locator("[data-testid=tutorial-banner]").count() == 0

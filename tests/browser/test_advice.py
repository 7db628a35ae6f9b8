"""Issue 11 in Chromium: the hint at the table (each choice's win chance, the best one
marked, only on your turn) against the random bot, and the Analyse control of a finished
deal's replay (each decision's chance of what was played and of the best alternative).
Fails on any console error (the ``new_context`` fixture)."""

from __future__ import annotations

import time

import pytest

from gameweave.engine.cards import parse_cards
from gameweave.i18n import translate

from page_helpers import seat_token as _seat_token, view as _view
from test_table_profiles import start_bot_match

pytestmark = pytest.mark.timeout(120)

ALL = [r + s for r in "A234567JQK" for s in "cdhs"]


def _deck(hand1: str, hand2: str, stock_top: str) -> tuple[int, ...]:
    h1, h2, top = hand1.split(), hand2.split(), stock_top.split()
    used = set(h1 + h2 + top)
    deal = [c for pair in zip(h1, h2) for c in pair]
    return tuple(parse_cards(" ".join(deal + top + [c for c in ALL if c not in used])))


# seat 1 turns Qd: it may meld Jd Qd Kd or refuse it
DECK = _deck("Ac 2d 3c Jd Qc Kd Ah 2h 3s 7s", "5d 5s 4c 6d Jc Qh Kh Ks As 7c", "Qd")


def test_hint_on_your_turn_then_analyse_the_replay(new_context, live_server):
    t0 = time.perf_counter()
    page = new_context().new_page()
    match_id = start_bot_match(page, live_server, "gameweave", DECK)
    page.click('.board [data-action="turn"]')
    page.wait_for_selector('.board button[data-action="refuse"]:not([disabled])')
    legal = _view(page)["view"]["legal"]
    assert len(legal) >= 2 and "refuse" in legal
    # the hint: a value next to every choice, the best one marked
    page.click("[data-testid=hint]")
    page.wait_for_function(f"document.querySelectorAll('[data-testid=hint-value]').length === {len(legal)}")
    values = page.eval_on_selector_all(
        "[data-testid=hint-value]", "els => els.map(e => [e.dataset.action, Number(e.dataset.win), e.dataset.best])")
    assert sorted(a for a, _w, _b in values) == sorted(legal)
    assert all(0 <= w <= 1 for _a, w, _b in values)
    assert [b for *_x, b in values].count("true") == 1
    best = max(values, key=lambda x: x[1])
    assert dict((a, b) for a, _w, b in values)[best[0]] == "true"
    assert page.locator(f'.board button[data-action="{legal[0]}"] [data-testid=hint-value]').count() == 1
    # play a choice: the values go, and on the bot's turn there is no hint control
    page.click('.board button[data-action="refuse"]')
    page.wait_for_function("!document.querySelector('[data-testid=hint-value]')")
    # end the deal (resign it: it counts as lost, R20) and open its replay
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-deal]")
    page.click("[data-testid=resign-confirm]")
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=replay-moves] li[data-step='1']")
    # the move list ends as the table's does: with how the deal ended (here, the resign)
    assert page.locator("[data-testid=replay-moves] li").last.inner_text().endswith("You resigned the deal.")
    page.click("[data-testid=analyze]")
    page.wait_for_selector("[data-testid=analysis-value]")
    got = page.eval_on_selector_all(
        "[data-testid=analysis-value]", "els => els.map(e => [Number(e.dataset.step), Number(e.dataset.playedWin), Number(e.dataset.bestWin)])")
    assert got and all(b >= p for _s, p, b in got)
    token = _seat_token(page, match_id)
    analysis = page.request.get(f"/api/matches/{match_id}/deals/1/analysis",
                                headers={"Authorization": f"Bearer {token}"}).json()
    assert [d["step"] for d in analysis["decisions"]] == [s for s, _p, _b in got]
    mistakes = [d["step"] for d in analysis["decisions"] if d["mistake"]]
    assert page.locator("[data-testid=mistake]").count() == len(mistakes)
    assert time.perf_counter() - t0 < 30


@pytest.mark.parametrize("agreed", [True, False])
def test_friend_match_hints_only_when_agreed_and_the_invite_says_so(new_context, live_server, agreed):
    p1 = new_context().new_page()
    p1.goto("/")
    if agreed:
        p1.check("[data-testid=hints-check]")
    p1.click("[data-testid=new-match-friend]")
    invite = p1.locator("[data-testid=invite-link]")
    invite.wait_for()
    url = invite.input_value()
    p1.click("[data-testid=go-to-table]")
    p1.wait_for_selector("[data-testid=hand] .card")
    p2 = new_context().new_page()
    p2.goto(url)
    p2.wait_for_selector("[data-testid=join-seat]")
    assert p2.locator("[data-testid=join-hints]").count() == (1 if agreed else 0)
    assert p2.title() == translate("page.title.join", "en")  # not "your table": no seat yet
    if agreed:  # news for the friend, not a warning: not drawn in the alarm's colour
        colours = p2.locator("[data-testid=join-hints]").evaluate("e => getComputedStyle(e).backgroundColor")
        alarm = p1.evaluate("() => { const n = document.querySelector('[data-testid=forced-notice]');"
                            " return n ? getComputedStyle(n).backgroundColor : null; }")
        assert colours != alarm and colours == "rgb(238, 246, 239)", (colours, alarm)
    p2.click("[data-testid=join-seat]")
    p2.wait_for_selector("[data-testid=hand] .card")
    # seat 1 opens: a hint control for seat 1 only when agreed, never for seat 2 now
    p1.wait_for_selector('.board button[data-action="turn"]:not([disabled])')
    assert p1.locator("[data-testid=hint]").count() == (1 if agreed else 0)
    assert p2.locator("[data-testid=hint]").count() == 0

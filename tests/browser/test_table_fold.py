"""One screen at the fold (docs/BROWSER.md "The table"), in Chromium: two positions an
outside tester found below the fold, each reached by a friend match dealt from a fixed
deck (the moves found by the engine) with a 60 s clock and hints (the clocks beside the
status line and the hint button take height too):

* the R18 chooser open (anglo-american, classic: ten ways or more to meld the live card)
  while the opponent has two melds on the table: at 1366x800 the bottom of the hand sat
  at about 813 px;
* on a 390x844 phone, a card selected to throw adds its Throw button to the choices (here
  with several throw-and-force choices): the hand went below the fold.

Each is checked at 1366x800, 390x844 and 1920x1080, in English and Spanish: the score bar,
the status, both tables, the centre, the choices (the chooser's first table, the Throw
button) and the whole hand inside the viewport of the page at its top.  Screenshots go to
``$GAMEWEAVE_SHOTS`` when set (else the test's tmp_path).  Fails on any console error.
"""

from __future__ import annotations

import pytest

from gameweave.engine.state import GameState, shuffled_deck

from page_helpers import click_action, wait_redrawn
from test_table_page import seat_one_opens
from test_table_profiles import BIG, PHONE, off_screen
from test_table_view import shots_dir

pytestmark = pytest.mark.timeout(300)

LARGE = {"width": 1920, "height": 1080}
CHOOSER_FROM = 9  # web/table/choices.js: from this many meld choices the page shows the chooser


def moves_to(seed: int, rules: str, stop) -> tuple[tuple[int, ...], list[tuple[int, str]]]:
    """A deck (shuffled from ``seed``) and the moves of both seats (seat index, action)
    up to the first position where ``stop(state, legal texts)`` holds: each seat melds the
    first meld offered while the page lists them as buttons, else takes the first move
    that melds and forces nothing."""
    deck = shuffled_deck(seed)
    st = GameState.new(deck, rules=rules, opener=0)
    moves = []
    while not st.is_over:
        texts = st.legal_texts()
        if stop(st, texts):
            return deck, moves
        melds = [a for a in texts if a.startswith("meld")]
        a = melds[0] if melds and len(melds) < CHOOSER_FROM else next(
            (a for a in texts if not a.startswith("meld") and "force" not in a), texts[0])
        moves.append((st.to_act, a))
        st.play(a)
    pytest.fail(f"seed {seed} never reached the position")


def chooser_with_opponent_melds(st: GameState, texts: list[str]) -> bool:
    return st.to_act == 0 and sum(a.startswith("meld") for a in texts) >= CHOOSER_FROM and len(st.melds[1]) >= 2


def throw_with_forces(st: GameState, texts: list[str]) -> bool:
    return (st.to_act == 0 and st.decision == "throw" and min(len(st.melds[0]), len(st.melds[1])) >= 2
            and any("force" in a for a in texts))


def play_to(new_context, live_server, rules: str, deck, moves, size, locale: str, phone: bool):
    """Seat 1's page (``size``, ``locale``; a touch phone when ``phone``) at the position
    the ``moves`` reach from ``deck``, in a clocked friend match with hints whose seat 2
    is played from a second page."""
    me = new_context(size, locale=locale, has_touch=phone, is_mobile=phone).new_page()
    me.goto("/")
    friend = new_context(BIG).new_page()
    seat_one_opens(me, friend, live_server, deck, rules=rules, clock=60, hints=True)
    for seat, action in moves:
        page = me if seat == 0 else friend
        page.wait_for_selector(f'.board [data-action="{action}"]:not([disabled])')
        click_action(page, action, touch=phone and page is me)
        if page is me and me.locator(".throw-confirm [data-send]").count():
            me.locator(".throw-confirm [data-send]").tap()
            wait_redrawn(me)
        me.evaluate("scrollTo(0, 0)")  # (a tap on a control below the fold scrolls; the check is of the position reached)
    return me


def below_the_fold(page, *selectors: str) -> list[str]:
    """:func:`off_screen` (the table's parts, the page not scrolled), and the score bar
    and each of ``selectors`` (the first match each) wholly inside the viewport, after the
    page has redrawn for its size (a resize is handled before the next frame)."""
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    out = off_screen(page)
    vp = page.viewport_size
    for sel in ("[data-testid=score]", *selectors):
        loc = page.locator(sel)
        if not loc.count():
            out.append(f"{sel}: missing")
            continue
        box = loc.first.bounding_box()
        if box["y"] < 0 or box["y"] + box["height"] > vp["height"] + 0.5 or box["x"] + box["width"] > vp["width"] + 0.5:
            out.append(f"{sel}: {box}")
    return out


@pytest.mark.parametrize(("rules", "locale"), [("anglo-american", "en-US"), ("anglo-american", "es-MX"), ("classic", "es-MX")])
def test_the_r18_chooser_with_the_opponents_melds_fits_one_screen(new_context, live_server, tmp_path, rules, locale):
    """Finding 1: at 1366x800 the R18 chooser's list leaves the hand on screen when the
    opponent has melds on the table; the list scrolls in its box, its first table in view."""
    deck, moves = moves_to(24, rules, chooser_with_opponent_melds)
    me = play_to(new_context, live_server, rules, deck, moves, BIG, locale, phone=False)
    me.wait_for_selector("[data-testid=chooser] [data-action]")
    assert me.locator("[data-testid=table-2] .meld").count() >= 2
    first = "[data-testid=chooser] .chooser-tables [data-action]"
    for size in (BIG, PHONE, LARGE, BIG):
        me.set_viewport_size(size)
        name = f"fold-chooser-{rules}-{locale[:2]}-{size['width']}"
        out = below_the_fold(me, first, "[data-testid=hint]")
        me.screenshot(path=str(shots_dir(tmp_path) / f"{name}.png"))  # the viewport: what is in view
        assert not out, (name, out)
    # the list scrolls inside its box: its last table is reached there, the page stays put
    me.locator(first).last.scroll_into_view_if_needed()
    assert me.evaluate("scrollY") == 0


@pytest.mark.parametrize(("rules", "locale", "seed"), [
    ("anglo-american", "es-MX", 98), ("classic", "en-US", 98), ("gameweave", "es-MX", 143), ("gameweave", "en-US", 143),
])
def test_the_throw_button_of_a_selected_card_stays_on_one_screen(new_context, live_server, tmp_path, rules, locale, seed):
    """Finding 2: on a 390x844 phone a tap selects a card to throw and adds its Throw
    button (and Keep it) to the choices: the button, the throw-and-force choices' box and
    the whole hand stay in view; so at 1366x800 and 1920x1080."""
    deck, moves = moves_to(seed, rules, throw_with_forces)
    me = play_to(new_context, live_server, rules, deck, moves, PHONE, locale, phone=True)
    me.wait_for_selector(".hand [data-action]:not([disabled])")
    assert me.locator(".board .force-choice").count() >= 1
    assert not below_the_fold(me), below_the_fold(me)  # before the tap: the card tapped is in view
    card = me.locator(".hand [data-action]:not([disabled])").last
    action = card.get_attribute("data-action")
    card.tap()
    confirm = me.locator(f'.throw-confirm [data-send="{action}"]')
    confirm.wait_for()
    for size in (PHONE, BIG, LARGE, PHONE):
        me.set_viewport_size(size)
        name = f"fold-throw-{rules}-{locale[:2]}-{size['width']}"
        out = below_the_fold(me, ".throw-confirm [data-send]", "[data-testid=hint]", ".board .force-choice")
        me.screenshot(path=str(shots_dir(tmp_path) / f"{name}.png"))  # the viewport: what is in view
        assert not out, (name, out)
    v = me.get_attribute("[data-testid=table-page]", "data-version")
    confirm.tap()
    me.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")

"""Winning and choosing (issue 19, item 1), in Chromium at 390x844 and 1366x800, in English
and Spanish: the classic profile's 128-choice position (R18b: hand ``Ac Ad Ah As 2d 3d 4d
5d 7d Jd``, turned ``6d``, dealt from a fixed deck as ``serve --test-decks`` deals it).

* R16, R18f: a table of eleven exists, so one ``win-now`` button comes first, the status
  says the seat can win, and one click wins the deal;
* R18b: equivalent tables (the same cards on the table) are one button, each says what it
  changes, and picking cards narrows to the tables that use at least them (those the
  picks lead to first, then the largest): a table of ten cards is on screen after two
  picks, and melded with the third click;
* R18b: every table of the 128 (88 once equivalent ones are one) lies in view after at
  most two picks, three clicks with the click on the table: walked pick set by pick set.

Screenshots go to /tmp/shots-choose/ (looked at by hand).  Fails on any console error.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from gameweave.engine.conformance import build_deck

from page_helpers import RESULT, click_action as _click_action, shot, view as _view, wait_redrawn as _wait_redrawn
from test_table_profiles import BIG, PHONE, R18B_HAND, R18B_OTHER, off_screen, start_bot_match

pytestmark = pytest.mark.timeout(240)

SHOTS = Path("/tmp/shots-choose")
SIZES = {"390": PHONE, "1366": BIG}
LANGS = {"en": "en-US", "es": "es-MX"}
WORDS = {
    "en": {"can_win": "You can win now", "win": "Meld and win", "won": "You won the deal", "joins": " join"},
    "es": {"can_win": "Puedes ganar ya", "win": "Bajar y ganar", "won": "Ganaste la mano", "joins": " se une"},
}


def _open(new_context, live_server, size: str, lang: str):
    page = new_context(SIZES[size], locale=LANGS[lang]).new_page()
    start_bot_match(page, live_server, "classic", build_deck(R18B_HAND, R18B_OTHER, "6d"))
    page.wait_for_selector(f"html[data-catalog={lang}]", state="attached")
    _click_action(page, "turn")
    page.wait_for_selector("[data-testid=chooser]")
    return page


def _table_cards(text: str) -> list[str]:
    return sorted(text.removeprefix("meld ").replace("/", " ").split())


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["390", "1366"])
def test_r16_r18f_the_128_choice_position_shows_win_now_and_wins_in_one_click(new_context, live_server, size, lang):
    page = _open(new_context, live_server, size, lang)
    frame = _view(page)
    legal = frame["view"]["legal"]
    assert len(legal) == 129  # 128 tables and refuse (R18b)
    wins = [a for a in legal if a.startswith("meld") and len(_table_cards(a)) == 11]
    assert len(wins) > 1  # several partitions of the eleven cards: shown as one
    win = page.locator("[data-testid=win-now]")
    assert win.count() == 1 and win.is_visible()
    assert win.get_attribute("data-action") in wins
    assert WORDS[lang]["win"] in win.inner_text()
    # above everything else the seat can do: the first control of the choices
    first = page.eval_on_selector(".actions [data-action]", "e => e.dataset.testid")
    assert first == "win-now"
    assert WORDS[lang]["can_win"] in page.inner_text("[data-testid=status]")
    # no other control melds eleven cards: the winning tables are one button
    offered = page.eval_on_selector_all(".board button[data-action^=meld]", "els => els.map(e => e.dataset.action)")
    assert [a for a in offered if len(_table_cards(a)) == 11] == [win.get_attribute("data-action")]
    SHOTS.mkdir(exist_ok=True)
    shot(page, SHOTS / f"win-now-{size}-{lang}.png")
    assert not off_screen(page), off_screen(page)
    win.click()  # the one click
    page.wait_for_selector(RESULT)
    frame = _view(page)
    assert frame["view"]["status"] == "won" and frame["view"]["winner"] == 1
    assert WORDS[lang]["won"] in page.inner_text(RESULT)
    shot(page, SHOTS / f"won-{size}-{lang}.png")


def _visible_in_list(page, action: str) -> bool:
    """The table's button lies wholly inside the chooser's scrolling list as it stands
    (no scrolling needed) and inside the viewport."""
    return page.evaluate(
        """(a) => {
          const b = [...document.querySelectorAll('.chooser-tables [data-action]')].find((e) => e.dataset.action === a);
          if (!b) return false;
          const r = b.getBoundingClientRect(), box = b.closest('.chooser-tables').getBoundingClientRect();
          return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= innerHeight && r.right <= innerWidth;
        }""", action)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["390", "1366"])
def test_r18b_a_ten_card_repartition_in_three_clicks(new_context, live_server, size, lang):
    """R18b: the table Ad Ah As / 2d 3d 4d 5d 6d 7d Jd (ten cards, Ac kept) is reached by
    two picks and melded by the third click; the chooser's tables use at least the picks,
    after the two the picks lead to largest first, and each says what it changes."""
    page = _open(new_context, live_server, size, lang)
    target_cards = sorted("Ad Ah As 2d 3d 4d 5d 6d 7d Jd".split())
    frame = _view(page)
    same = [a for a in frame["view"]["legal"] if a.startswith("meld") and _table_cards(a) == target_cards]
    assert len(same) > 1  # several partitions of the same cards: one button stands for them
    uses = [c for c in target_cards if c != "6d"]
    reached = None
    for picks in itertools.combinations(uses, 2):
        for c in picks:
            page.click(f"[data-pick='{c}']")
        shown = page.eval_on_selector_all(".chooser-tables [data-action]", "els => els.map(e => e.dataset.action)")
        # every table shown uses at least the picked cards: one of just those first, the
        # (at most two) tables the picks lead to, then the largest first
        assert all(set(picks) <= set(_table_cards(a)) for a in shown)
        sizes = [len(_table_cards(a)) for a in shown if _table_cards(a) != sorted([*picks, "6d"])][2:]
        assert sizes == sorted(sizes, reverse=True), (picks, shown)
        hit = next((a for a in shown if _table_cards(a) == target_cards), None)
        if hit and _visible_in_list(page, hit):
            reached = (picks, hit)
            break
        page.click("[data-clear=picks]")
    assert reached, "no two picks bring the table into view"
    picks, action = reached
    button = page.locator(f'.chooser [data-action="{action}"]')
    label = button.locator(".choice-label").inner_text()
    assert WORDS[lang]["win"] not in label and label.strip()
    shot(page, SHOTS / f"chooser-{size}-{lang}.png")
    assert not off_screen(page), off_screen(page)
    _click_action(page, action)  # the third click
    assert page.get_attribute("[data-testid=meld-count-1]", "data-count") == "10"
    _wait_redrawn(page)


def test_r18b_hint_entries_play_their_move_and_the_hinted_table_is_offered(new_context, live_server):
    """issue 11/19: with every hand card picked no table but the win is listed; the hint
    then puts its value on win-now and lists the best other tables as buttons that play
    them (data-action); clicking one melds that table."""
    page = _open(new_context, live_server, "1366", "en")
    for c in R18B_HAND.split():
        page.click(f"[data-pick='{c}']")
    assert page.locator(".chooser-tables [data-action]").count() == 0
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=win-now] [data-testid=hint-value]", timeout=60000)
    entries = page.eval_on_selector_all(".hint-list button[data-action]", "els => els.map(e => e.dataset.action)")
    assert entries and all(a.startswith("meld") for a in entries)
    legal = _view(page)["view"]["legal"]
    assert set(entries) <= set(legal)
    best = page.get_attribute("[data-testid=hint-value][data-best=true]", "data-action")
    assert best in legal
    target = entries[0]
    page.click(f'.hint-list button[data-action="{target}"]')
    page.wait_for_function(f"document.querySelector('[data-testid=meld-count-1]').dataset.count === '{len(_table_cards(target))}'")


IN_VIEW_JS = """() => [...document.querySelectorAll('.actions .chooser-tables [data-action], .actions [data-testid=win-now]')]
  .filter((b) => {
    const r = b.getBoundingClientRect(), list = b.closest('.chooser-tables');
    const box = list ? list.getBoundingClientRect() : r;
    return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.top >= 0
      && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  }).map((b) => b.dataset.action)"""
"""The meld buttons (the chooser's tables and win-now) wholly in view as the page stands:
inside the chooser's scrolling list without scrolling it, and inside the viewport."""


def _reach(page) -> dict[tuple[str, ...], int]:
    """The fewest clicks that meld each table of the chooser, walking every pick set of
    at most two hand cards: {table's cards: picks + the click on the table}.  A pick is
    clicked on and off again, so the walk takes about 110 clicks."""
    best: dict[tuple[str, ...], int] = {}

    def seen(n_picks: int) -> None:
        for a in page.evaluate(IN_VIEW_JS):
            key = tuple(_table_cards(a))
            best[key] = min(best.get(key, 99), n_picks + 1)

    picks = page.eval_on_selector_all("[data-pick]", "els => els.map(e => e.dataset.pick)")
    seen(0)
    for i, first in enumerate(picks):
        page.click(f"[data-pick='{first}']")
        seen(1)
        for second in picks[i + 1:]:
            page.click(f"[data-pick='{second}']")
            seen(2)
            page.click(f"[data-pick='{second}']")
        page.click(f"[data-pick='{first}']")
    assert page.locator("[data-pick][aria-pressed=true]").count() == 0
    return best


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["390", "1366"])
def test_r18b_every_table_of_the_128_is_at_most_three_clicks_away(new_context, live_server, size, lang):
    """R18b: the 128 legal melds make 88 tables (partitions of the same cards are one
    button); each is in view, without scrolling, after at most two picks: three clicks
    with the one on the table (the win, R16, one click).  Prints the worst case and how
    many tables need one, two and three clicks."""
    page = _open(new_context, live_server, size, lang)
    legal = [a for a in _view(page)["view"]["legal"] if a.startswith("meld")]
    assert len(legal) == 128
    tables = {tuple(_table_cards(a)) for a in legal}
    assert len(tables) == 88
    best = _reach(page)
    assert set(best) <= tables
    missing = sorted(tables - set(best), key=len)
    counts = {n: sum(1 for c in best.values() if c == n) for n in (1, 2, 3)}
    worst = max(best.values(), default=0)
    print(f"\nR18b at {size} px, {lang}: {len(best)} of {len(tables)} tables within three clicks"
          f" (1: {counts[1]}, 2: {counts[2]}, 3: {counts[3]}; worst {worst}); beyond: {len(missing)}")
    assert not missing, [" ".join(m) for m in missing]
    assert worst <= 3
    assert best[tuple(sorted(R18B_HAND.split() + ["6d"]))] == 1  # the win: win-now

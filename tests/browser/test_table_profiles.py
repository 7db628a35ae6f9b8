"""The table in every profile (RULES §V), in Chromium: whole deals against the random bot
from the lobby's rules chooser, the R18 chooser at the 128-choice position (R18b), the
danger confirmation before a move that publicly gives the opponent eleven (R16), the
table on one screen at 1366x800 and 390x844, help from the lobby and the table, the
match-end screen and its rematch, the lobby's "First to" check, remembered settings and
"Your matches", and the replay page's move list, autoplay, dead pile and deal links.

Hand-built positions are dealt from fixed deck orders (the ``DeckQueue`` of conftest, as
``gameweave serve --test-decks`` deals them).  Every test fails on a console error.
"""

from __future__ import annotations

import random
import time

import pytest

from gameweave.engine.conformance import build_deck

from page_helpers import seat_token as _seat_token, view as _view, wait_redrawn as _wait_redrawn
from test_table_page import (
    created_where_seat_one_opens, seat_one_opens, take_seat,
    ENABLED, RESULT, _choose, _click_action, _legal, _version, check_deal_end, play_until_result, shot,
    shown_choices,
)

pytestmark = pytest.mark.timeout(240)

BIG = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
DESKTOP_SIZE = {"width": 1280, "height": 900}

# R18b: seat 1 turns 6d onto an empty table holding these: 128 tables (+ refuse)
R18B_HAND = "Ac Ad Ah As 2d 3d 4d 5d 7d Jd"
R18B_OTHER = "2c 2h 2s 3c 3h 3s 4c 4h 4s 5c"

# The parts of the table that must be on screen during a turn
ONE_SCREEN = ("table-1", "table-2", "live-card", "stock", "dead-cards", "hand", "actions", "status", "open-help")


def start_bot_match(page, live_server, rules: str, deck: tuple[int, ...], **fields) -> str:
    """Create a match against the random bot dealt from ``deck`` in which seat 1 opens
    (profiles that draw the first opener, R9/§V, are asked again until seat 1 is drawn),
    keep its seat in this browser and open its table; returns the match id."""
    page.goto("/")
    made = created_where_seat_one_opens(page, live_server, deck, opponent="bot", bot="random", rules=rules, **fields)
    page.evaluate(
        "([id, seat, token]) => { const all = JSON.parse(localStorage.getItem('gameweave.seats') || '{}');"
        " all[id] = {seat, token, opponent: 'bot', created: Date.now()};"
        " localStorage.setItem('gameweave.seats', JSON.stringify(all)); }",
        [made["match_id"], made["seat"], made["token"]],
    )
    page.goto(f"/table/{made['match_id']}")
    page.wait_for_selector("[data-testid=hand] .card")
    return made["match_id"]


def off_screen(page) -> list[str]:
    """The parts of the table (ONE_SCREEN) not wholly inside the viewport of the page
    scrolled to its top: [] when everything fits.  (The move log may lie below on a
    phone; it is not needed to play a turn.)"""
    vp = page.viewport_size
    out = []
    if page.evaluate("scrollY > 0 || scrollX > 0"):
        out.append("the page was scrolled")
    if page.evaluate("document.documentElement.scrollWidth > innerWidth"):
        out.append("the page is wider than the screen")
    for hook in ONE_SCREEN:
        loc = page.locator(f"[data-testid={hook}]")
        if not loc.count() or not loc.first.is_visible():
            continue
        box = loc.first.bounding_box()
        if box["y"] < 0 or box["y"] + box["height"] > vp["height"] + 0.5 or box["x"] + box["width"] > vp["width"] + 0.5:
            out.append(f"{hook}: {box}")
    return out


def play_turns(page, rng, n: int) -> None:
    for _ in range(n):
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            return
        _click_action(page, _choose(_legal(page), rng))


# ------------------------------------------------------------------ every profile


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_a_whole_deal_in_every_profile_from_the_lobby(new_context, rules, tmp_path):
    """§V: the lobby offers the profile by name with its line and its formats; the table
    names the rules; a deal against the random bot is played to its result."""
    page = new_context(BIG).new_page()
    page.goto("/")
    page.wait_for_selector(f"[data-testid=rules-select] option[value='{rules}']", state="attached")
    names = page.eval_on_selector_all("[data-testid=rules-select] option", "els => els.map(e => e.value)")
    assert names == ["gameweave", "anglo-american", "classic"]
    page.select_option("[data-testid=rules-select]", rules)
    formats = {f: page.locator(f"[data-testid=format-{f}]").is_visible() for f in ("first_to", "tally", "stakes")}
    assert formats["stakes"] == (rules == "classic")  # only classic plays for stakes (R20)
    if rules == "classic":
        page.check("[data-testid=format-stakes]")
        page.fill("[data-testid=stake]", "2")
        page.select_option("[data-testid=tablas-stake]", "carry")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.get_attribute("[data-testid=rules-name]", "data-rules") == rules
    page.wait_for_selector(f"{ENABLED}, {RESULT}")
    frame = _view(page)  # (the bot may have opened: the first opener is drawn, §V)
    if str(frame["version"]) == _version(page):
        for s in (1, 2):
            n = sum(len(m) for m in frame["view"]["melds"][str(s)])
            assert page.get_attribute(f"[data-testid=meld-count-{s}]", "data-count") == str(n)
    assert page.locator("[data-testid=dead-cards]").is_visible()
    if rules == "classic":
        frame = _view(page)
        assert frame["match"]["stakes"]["base"] == 2 and frame["match"]["stakes"]["tablas_stake"] == "carry"
        assert "next deal pays 2" in page.inner_text("[data-testid=stakes]")
    rng = random.Random({"gameweave": 1, "anglo-american": 2, "classic": 3}[rules])
    play_until_result(page, rng, check_controls=True)
    check_deal_end(page)
    frame = _view(page)
    # the counts shown are the cards each seat has on its table (R16)
    for s in (1, 2):
        n = sum(len(m) for m in frame["view"]["melds"][str(s)])
        assert page.get_attribute(f"[data-testid=meld-count-{s}]", "data-count") == str(n)
    if rules == "classic" and frame["view"]["status"] == "won":
        pts = frame["match"]["stakes"]["points"]
        assert sorted(pts.values()) == [0, 2]  # the loser paid the stake of 2 (R20)
        assert page.locator("[data-testid=stakes-balance]").count() == 1
    shot(page, tmp_path / f"result-{rules}.png")


def test_r18b_the_128_choice_position_melds_in_three_clicks(new_context, live_server, tmp_path):
    """R18b: turned 6d, empty table, 128 tables.  The winning tables are one button
    (win-now, R16); the chooser marks the hand cards that may be added and lists the other
    tables; picking 7d and Jd puts the table of just those first, drawn as
    the table it makes: three clicks.  The deal then goes on to its result."""
    page = new_context(BIG).new_page()
    start_bot_match(page, live_server, "anglo-american", build_deck(R18B_HAND, R18B_OTHER, "6d"))
    t0 = time.perf_counter()
    _click_action(page, "turn")  # click 1 ... the turn itself is the deal's first move
    page.wait_for_selector("[data-testid=chooser]")
    shown_in = time.perf_counter() - t0
    frame = _view(page)
    assert len(frame["view"]["legal"]) == 129
    # a hand-built deck, as serve --test-decks deals it: a test match, no fair-shuffle claim
    assert frame["match"]["test"] is True
    assert page.get_attribute("[data-testid=table-page]", "data-test-deal") == "true"
    assert page.locator(".scorebar .chip.test").inner_text() == "test deck"
    picks = page.eval_on_selector_all("[data-pick]", "els => els.map(e => e.dataset.pick)")
    assert sorted(picks) == sorted(R18B_HAND.split())  # every hand card lies in some table
    # eleven can be melded: one button wins (R16); the other tables, one per set of cards
    # on the table, are listed before any pick; refuse stays one tap
    assert page.locator("[data-testid=win-now]").count() == 1
    distinct = [a for a in shown_choices(frame["choices"]) if a.startswith("meld")]
    assert page.locator(".chooser [data-action]").count() == len(distinct) - 1
    assert page.locator('.board [data-action="refuse"]').count() == 1
    assert not off_screen(page), off_screen(page)
    clicks = 0
    page.click("[data-pick='7d']")
    clicks += 1
    assert page.get_attribute("[data-pick='7d']", "aria-pressed") == "true"
    page.click("[data-pick='Jd']")
    clicks += 1
    offered = page.eval_on_selector_all(".chooser [data-action]", "els => els.map(e => e.dataset.action)")
    assert offered[0] == "meld 6d 7d Jd"  # the table of just the picks, then those using more
    assert all("7d" in a and "Jd" in a for a in offered)
    assert page.locator('.chooser [data-action="meld 6d 7d Jd"] .card').count() == 3  # drawn as the table it makes
    shot(page, tmp_path / "r18b-chooser-1366.png")
    page.set_viewport_size(PHONE)
    assert not off_screen(page), off_screen(page)
    shot(page, tmp_path / "r18b-chooser-390.png", PHONE)
    page.set_viewport_size(BIG)
    _click_action(page, "meld 6d 7d Jd")
    clicks += 1
    assert clicks <= 3
    assert page.locator("[data-testid=table-1] .meld").count() == 1
    assert page.get_attribute("[data-testid=meld-count-1]", "data-count") == "3"
    # a pick that no table uses exactly offers none but says how many use more cards
    print(f"\nR18b: 128 tables; the chooser showed {shown_in * 1000:.0f} ms after 'turn' was clicked; melded in {clicks} clicks")
    play_until_result(page, random.Random(18))
    check_deal_end(page)


def test_r18_picks_narrow_to_the_tables_that_use_at_least_those(new_context, live_server):
    """R18b: a pick leaves the tables that use at least the picked cards, after the (at
    most two) tables the pick leads to largest first;
    picking Ac Ah As 4d 5d puts the table of just those (the three aces and 6d's run)
    first; every hand card picked leaves only the win (R18f), one button above the
    chooser; clearing the picks resets."""
    page = new_context(BIG).new_page()
    start_bot_match(page, live_server, "classic", build_deck(R18B_HAND, R18B_OTHER, "6d"))
    _click_action(page, "turn")
    page.wait_for_selector("[data-testid=chooser]")
    page.click("[data-pick='Ac']")
    offered = page.eval_on_selector_all(".chooser [data-action]", "els => els.map(e => e.dataset.action)")
    assert offered and all("Ac" in a for a in offered)
    sizes = [len(a.replace("/", " ").split()) - 1 for a in offered][2:]
    assert sizes == sorted(sizes, reverse=True)
    assert "tables use A♣" in page.inner_text("[data-testid=chooser]")
    for c in ("Ah", "As", "4d", "5d"):
        page.click(f"[data-pick='{c}']")
    offered = page.eval_on_selector_all(".chooser [data-action]", "els => els.map(e => e.dataset.action)")
    assert offered[0] == "meld Ac Ah As / 4d 5d 6d"
    page.click("[data-clear=picks]")
    assert page.locator("[data-pick][aria-pressed=true]").count() == 0
    # every hand card picked: only the tables of eleven cards use them all, and they win
    # (R18f): one button, above the chooser; still one screen
    for c in R18B_HAND.split():
        page.click(f"[data-pick='{c}']")
    assert page.locator(".chooser [data-action]").count() == 0
    assert "No table uses all of" in page.inner_text("[data-testid=chooser]")
    win = page.get_attribute("[data-testid=win-now]", "data-action")
    assert len(win.replace("/", " ").split()) - 1 == 11
    assert "Meld and win" in page.inner_text("[data-testid=win-now]")
    for size in (BIG, PHONE):
        page.set_viewport_size(size)
        assert not off_screen(page), (size, off_screen(page))
    page.set_viewport_size(BIG)
    page.click("[data-clear=picks]")
    # 4d 5d with 6d is one new meld: one table
    page.click("[data-pick='4d']")
    page.click("[data-pick='5d']")
    _click_action(page, "meld 4d 5d 6d")
    assert page.get_attribute("[data-testid=meld-count-1]", "data-count") == "3"


# ------------------------------------------------------------------ danger (R16)

# Gameweave, seat 1 opens (R9).  Seat 2 takes 5c, Kc and Ah, melding seven hand cards, and
# throws its other three: ten on its table, none in hand.  Seat 1 then turns 5s, which
# fits seat 2's set of fives: refusing it, or forcing it, hands seat 2 the deal.
DANGER_1 = "Ac 2d 3s 4d 6h 7c Jd Qh 6s 2s"
DANGER_2 = "5d 5h Kd Kh 2h 3h 4h Jc 7d Qs"
DANGER_STOCK = "5c Kc Ah 5s"


def test_r16_the_danger_confirmation_before_handing_over_the_deal(new_context, live_server, tmp_path):
    live_server.decks.push(build_deck(DANGER_1, DANGER_2, DANGER_STOCK))
    p1 = new_context(BIG).new_page()
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
        # nothing public gives seat 2 eleven yet: no confirmation
        assert page.locator("[data-testid=confirm-danger]").count() == 0, action
        _wait_redrawn(page)

    for meld, throw in (("meld 5c 5d 5h", "throw Jc"), ("meld Kc Kd Kh", "throw 7d"),
                        ("meld Ah 2h 3h 4h", "throw Qs")):
        step(p1, "turn")  # (after the first round: let seat 2's thrown card die first)
        step(p1, "refuse")
        p2.wait_for_selector(f'.board [data-action="{meld}"]:not([disabled])')
        assert not off_screen(p2), off_screen(p2)  # a phone, with melds on both tables
        step(p2, meld)
        step(p2, throw)
    # seat 2: ten on the table, none in hand (public)
    p1.wait_for_selector("[data-testid=one-from-eleven][data-seat='2']")
    assert p1.get_attribute("[data-testid=meld-count-2]", "data-count") == "10"
    assert "10 of 11 melded" in p1.inner_text("[data-testid=meld-count-2]")
    assert p2.locator("[data-testid=one-from-eleven][data-seat='2']").count() == 1
    step(p1, "turn")  # 5s
    assert sorted(_legal(p1)) == ["refuse", "refuse force 2"]
    assert not off_screen(p1), off_screen(p1)
    # both moves are marked on their buttons before any confirmation
    assert p1.locator(".board .choice.danger").count() == 2
    p1.click('.board [data-action="refuse"]')
    dlg = p1.locator("[data-testid=confirm-danger]")
    dlg.wait_for()
    assert "10 cards on the table and none in hand" in dlg.inner_text()
    assert p1.get_attribute("[data-testid=confirm-danger] button[data-action]", "data-action") == "refuse"
    shot(p1, tmp_path / "danger-1366.png")
    p1.click("[data-testid=cancel-danger]")
    assert p1.locator("[data-testid=confirm-danger]").count() == 0
    assert sorted(_legal(p1)) == ["refuse", "refuse force 2"]  # nothing was sent
    v = _version(p1)
    p1.click('.board [data-action="refuse force 2"]')
    dlg.wait_for()
    assert "completes eleven" in dlg.inner_text()
    p1.click('[data-testid=confirm-danger] [data-action="refuse force 2"]')
    p1.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")
    p1.wait_for_selector(RESULT)
    assert "won the deal" in p1.inner_text(RESULT)
    p2.wait_for_selector(RESULT)
    assert "You won the deal" in p2.inner_text(RESULT)


# ------------------------------------------------------------------ one screen


def test_the_table_fits_one_screen_at_both_sizes(new_context, live_server, tmp_path):
    """During a turn the tables, centre, dead cards, hand and choices are all inside the
    viewport at 1366x800 and 390x844, and the page does not scroll."""
    rng = random.Random(7)
    for size, name in ((BIG, "1366"), (PHONE, "390")):
        page = new_context(size).new_page()
        page.goto("/")
        page.select_option("[data-testid=bot-select]", "random")
        page.click("[data-testid=new-match-bot]")
        page.wait_for_selector("[data-testid=hand] .card")
        checked = 0
        for _ in range(30):
            page.wait_for_selector(f"{ENABLED}, {RESULT}")
            if page.locator(RESULT).count():
                break
            assert not off_screen(page), (name, off_screen(page))
            # the focus is on a choice when the turn is ours (never back on <body>)
            assert page.evaluate("!!document.activeElement.closest('.board [data-action], .board [data-pick]')"), (checked, page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))
            checked += 1
            _click_action(page, _choose(_legal(page), rng))
        assert checked >= 3
        shot(page, tmp_path / f"table-{name}.png")


def _crowded_anglo_american_moves(seed: int, tables: int, hand: int) -> tuple[tuple[int, ...], list[tuple[int, str]], list[str]]:
    """A deck of anglo-american (shuffled from ``seed``) and the moves of both seats
    (seat index, action) that reach a turn of the opener with ``tables`` melds or more
    on each table, at least ``hand`` cards in its hand and four meld choices or more
    (each seat melds the first table offered, else takes the first move that forces
    nothing); and the actions offered then."""
    from gameweave.engine.state import GameState, shuffled_deck

    CHOOSER_FROM = 9  # table.js: from this many meld choices the page shows the chooser

    deck = shuffled_deck(seed)
    st = GameState.new(deck, rules="anglo-american", opener=0)
    moves = []
    while True:
        texts = st.legal_texts()
        melds = [a for a in texts if a.startswith("meld")]
        if (st.to_act == 0 and 4 <= len(melds) < CHOOSER_FROM and min(len(st.melds[0]), len(st.melds[1])) >= tables
                and st.hand_count(0) >= hand):
            return deck, moves, texts
        # meld while the page lists the choices as buttons (not the R18 chooser)
        a = melds[0] if melds and len(melds) < CHOOSER_FROM else next(
            (a for a in texts if not a.startswith("meld") and "force" not in a), texts[0])
        moves.append((st.to_act, a))
        st.play(a)


@pytest.mark.parametrize("size", ["390", "1366"])
@pytest.mark.parametrize(("seed", "tables", "hand"), [(166, 3, 0), (45, 2, 4)], ids=["3-melds-5-wins", "4-cards-6-melds"])
def test_a_crowded_anglo_american_turn_fits_one_screen(new_context, live_server, tmp_path, seed, tables, hand, size):
    """390x844 and 1366x800, a deal of two people dealt from a fixed deck: three melds on
    both tables and five winning meld choices (and a force), or two melds each, four cards
    in hand and six meld choices; still the tables, centre, dead cards, hand and choices
    all fit (on a wide screen the choices wrap side by side, each on one line)."""
    deck, moves, offered = _crowded_anglo_american_moves(seed, tables, hand)
    me = new_context(PHONE if size == "390" else BIG).new_page()
    me.goto("/")
    friend = new_context(DESKTOP_SIZE).new_page()
    seat_one_opens(me, friend, live_server, deck, rules="anglo-american")
    for seat, action in moves:
        page = me if seat == 0 else friend
        page.wait_for_selector(f'.board [data-action="{action}"]:not([disabled])')
        _click_action(page, action)
    shown = shown_choices(_view(me)["choices"])  # equivalent tables as one, the win as one
    me.wait_for_selector(f'.board [data-action="{shown[0]}"]:not([disabled])')
    assert sorted(_legal(me)) == sorted(shown)
    assert me.locator("[data-testid=table-1] .meld").count() >= tables
    assert me.locator("[data-testid=table-2] .meld").count() >= tables
    assert me.locator("[data-testid=hand] .card").count() >= hand
    # (five tables of eleven there: one win-now button, R16)
    assert me.locator(".board .meld-choice").count() == len([a for a in shown if a.startswith("meld")]) >= 1
    shot(me, tmp_path / f"crowded-{size}.png")
    assert not off_screen(me), off_screen(me)
    # every meld choice can be read and reached: none is squeezed under another
    boxes = me.eval_on_selector_all(".board .meld-choice", "els => els.map(e => [e.offsetTop, e.offsetHeight])")
    for (top, height), (next_top, _) in zip(boxes, boxes[1:]):
        assert next_top >= top + height, boxes


# ------------------------------------------------------------------ help, lobby


def test_help_opens_from_the_lobby_and_the_table(new_context):
    page = new_context(BIG).new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=rules-select] option[value=classic]", state="attached")
    page.select_option("[data-testid=rules-select]", "classic")
    page.click("[data-testid=open-help]")
    help_ = page.locator("[data-testid=help]")
    help_.wait_for()
    page.wait_for_selector("[data-testid=help-rules][data-rules=classic]")
    text = help_.inner_text()
    for word in ("meld", "set", "sequence", "live", "dead", "refuse", "force", "tablas"):
        assert word in text.lower(), word
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=help]", state="detached")
    page.select_option("[data-testid=rules-select]", "anglo-american")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_selector("[data-testid=hand] .card")
    page.click("[data-testid=rules-name]")
    page.wait_for_selector("[data-testid=help-rules][data-rules=anglo-american]")
    page.click("[data-testid=close-help]")
    page.wait_for_selector("[data-testid=help]", state="detached")
    # focus went back to the control that opened it
    assert page.evaluate("document.activeElement.dataset.testid") == "rules-name"


def test_the_lobby_checks_first_to_in_words_and_remembers(new_context):
    page = new_context(BIG).new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=rules-select] option[value=classic]", state="attached")
    page.select_option("[data-testid=rules-select]", "anglo-american")  # first to 3 by default
    assert page.is_checked("[data-testid=format-first_to]")
    for bad, words in (("0", "at least 1"), ("2.5", "not a whole number"), ("1000", "more than the 99"), ("", "Enter")):
        page.fill("[data-testid=target]", bad)
        page.click("[data-testid=new-match-bot]")
        problem = page.locator("[data-testid=target-problem]")
        problem.wait_for()
        assert words in problem.inner_text(), (bad, problem.inner_text())
        assert page.url.endswith("/")  # nothing was sent, nothing clamped
        assert page.input_value("[data-testid=target]") == bad
    page.fill("[data-testid=target]", "2")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    page.goto("/")
    page.wait_for_selector("[data-testid=my-matches] li")
    assert page.input_value("[data-testid=rules-select]") == "anglo-american"
    assert page.input_value("[data-testid=target]") == "2"
    assert page.input_value("[data-testid=bot-select]") == "random"
    item = page.locator("[data-testid=my-matches] li").first
    text = item.inner_text()
    assert "Random bot" in text and "Anglo-American (Pagat)" in text and "first to 2" in text
    assert item.locator("time").count() == 1
    n = page.locator("[data-testid=my-matches] li").count()
    item.locator("[data-testid=remove-match]").click()
    page.wait_for_function(f"document.querySelectorAll('[data-testid=my-matches] li').length === {n - 1}")


# ------------------------------------------------------------------ match end, replay


def test_match_end_rematch_and_the_replay(new_context, tmp_path):
    """R20: a first-to-1 match ends with its deal; the match-end screen names the winner
    and every deal; rematch starts a new match with the same settings.  The replay names
    the seats, lists the moves (clickable), autoplays, shows the dead pile and links
    every deal."""
    rng = random.Random(29)
    page = new_context(BIG).new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=rules-select] option[value=classic]", state="attached")
    page.select_option("[data-testid=rules-select]", "gameweave")
    assert page.is_checked("[data-testid=format-tally]")  # the profile's default (R20)
    page.check("[data-testid=format-first_to]")
    page.fill("[data-testid=target]", "1")
    page.select_option("[data-testid=bot-select]", "intermediate")  # it melds: few deals end in tablas
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    first_id = page.url.rstrip("/").split("/")[-1]
    page.wait_for_selector("[data-testid=hand] .card")
    deals = 0
    while True:
        play_until_result(page, rng)
        deals += 1
        if page.locator("[data-testid=rematch]").count():
            break
        assert deals < 12, "no deal was won"
        page.click("[data-testid=next-deal]")
        page.wait_for_selector(f"[data-testid=table-page][data-deal='{deals + 1}'][data-status=playing]")
    frame = _view(page)
    assert frame["match"]["over"]
    winner = page.inner_text("[data-testid=match-winner]")
    assert "won the match" in winner
    assert page.locator("[data-testid=deal-results] li").count() == deals
    shot(page, tmp_path / "match-end-1366.png")

    # the replay of the last deal: names, moves, autoplay, dead pile, every deal linked
    page.click("[data-testid=replay-link]")
    page.wait_for_url(f"**/replay/*/{deals}")
    page.wait_for_selector("[data-testid=replay-moves] li")
    assert "Intermediate bot" in page.inner_text("main")
    moves = page.locator("[data-testid=replay-moves] li")
    n = moves.count() - 1
    # who let the centre card go: "you" in the middle of a sentence, never "You"
    captions = set()
    for i in range(n + 1):
        moves.nth(i).locator("button").click()
        captions.add(page.inner_text("[data-testid=live-card] .caption"))
    let_go = {c for c in captions if c.startswith("Let go by")}
    assert let_go, captions
    assert not any("by You" in c for c in let_go), let_go
    assert n == len(page.request.get(f"/api/matches/{first_id}/deals/{deals}/replay", headers={
        "Authorization": f"Bearer {_seat_token(page, first_id)}"}).json()["history"])
    assert page.locator("[data-testid=replay-deals] a").count() == deals - 1
    moves.nth(3).locator("button").click()
    assert page.inner_text("[data-testid=replay-step]").startswith(f"Step 3 of {n}")
    page.click("[data-testid=replay-next]")
    assert page.inner_text("[data-testid=replay-step]").startswith(f"Step 4 of {n}")
    page.click("[data-testid=replay-prev]")
    page.click("[data-testid=replay-prev]")
    assert page.inner_text("[data-testid=replay-step]").startswith(f"Step 2 of {n}")
    page.keyboard.press("End")
    dead_end = int(page.get_attribute("[data-testid=dead-cards]", "data-count"))
    assert dead_end == page.locator("[data-testid=dead-cards] .dead-cell.on").count()
    page.keyboard.press("Home")
    assert page.get_attribute("[data-testid=dead-cards]", "data-count") == "0"
    page.click("[data-testid=replay-play]")
    page.wait_for_function("document.querySelector('[data-testid=replay-step]').textContent.startsWith('Step 1 of')")
    page.click("[data-testid=replay-play]")  # pause
    shot(page, tmp_path / "replay-1366.png")

    # rematch: a new match with the same settings
    page.goto(f"/table/{first_id}")
    page.wait_for_selector("[data-testid=rematch]")
    page.click("[data-testid=rematch]")
    page.wait_for_function(f"!location.pathname.endsWith('{first_id}') && location.pathname.startsWith('/table/')")
    page.wait_for_selector("[data-testid=hand] .card")
    again = _view(page)
    assert again["match"]["id"] != first_id
    assert (again["match"]["rules"], again["match"]["format"], again["match"]["target"]) == ("gameweave", "first_to", 1)
    assert again["match"]["opponent"] == {"kind": "bot", "bot": "intermediate"}
    assert not again["match"]["over"]


def test_a_touch_screen_selects_a_card_before_it_is_thrown(new_context):
    """On a touch screen one tap on a hand card only selects it; the confirm button (or a
    second tap) throws it."""
    rng = random.Random(13)
    page = new_context(PHONE, has_touch=True).new_page()
    page.goto("/")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    for _ in range(60):
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            pytest.fail("the deal ended before a throw")
        throws = page.eval_on_selector_all(".hand [data-action]:not([disabled])", "els => els.map(e => e.dataset.action)")
        if throws:
            break
        actions = _legal(page)
        melds = [a for a in actions if a.startswith("meld")]
        _click_action(page, rng.choice(melds) if melds else rng.choice(actions))
    else:
        pytest.fail("no throw came")
    v = _version(page)
    page.tap(f'.hand [data-action="{throws[0]}"]')
    confirm = page.locator(f'.throw-confirm [data-send="{throws[0]}"]')
    confirm.wait_for()
    assert _version(page) == v  # nothing was sent
    assert page.locator(f'.hand [data-action="{throws[0]}"].selected').count() == 1
    assert not off_screen(page), off_screen(page)
    confirm.tap()
    page.wait_for_function(f"document.querySelector('[data-testid=table-page]').dataset.version !== '{v}'")
    assert throws[0].split()[1] not in page.eval_on_selector_all("[data-testid=hand] .card", "els => els.map(e => e.dataset.card)")

"""What a new user met first, in Chromium: the lobby offers the bots by level (issue 11),
its "First to" and stake messages follow the typing, a bad deal number or a bad address
gets a page in the reader's language (not raw JSON, not "NaN"), and the touch-screen
status says "tap".  Every test fails on a console error in a page (conftest)."""

from __future__ import annotations

import pytest

from gameweave.bots import level_names
from gameweave.bots.ladder import ladder_rating

from test_table_page import ENABLED, RESULT, _click_action, _legal

pytestmark = pytest.mark.timeout(240)

PHONE = {"width": 390, "height": 844}


def test_api_bots_lists_random_and_the_levels_and_old_names_still_play(live_server):
    import httpx

    with httpx.Client(base_url=live_server.url) as c:
        ladder = {lv: ladder_rating(lv)["rating"] for lv in level_names()}  # measured ladder (issue 20)
        assert c.get("/api/bots").json() == {"bots": ["random", *level_names()], "ladder": ladder}
        assert level_names() == ["beginner", "casual", "intermediate", "master"]
        for old in ("greedy", "search", "master"):
            r = c.post("/api/matches", json={"opponent": "bot", "bot": old})
            assert r.status_code == 201, (old, r.text)


def test_the_lobby_offers_the_levels_by_name_and_remembers(new_context):
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=bot-select] option[value=master][data-rating]", state="attached")
    opts = page.eval_on_selector_all("[data-testid=bot-select] option", "os => os.map(o => [o.value, o.textContent])")
    assert [v for v, _ in opts] == ["random", "beginner", "casual", "intermediate", "master"]
    labels = dict(opts)
    # each level with its measured ladder rating (issue 20)
    assert labels["beginner"] == f"Beginner · {ladder_rating('beginner')['rating']}"
    assert labels["master"] == f"Master · {ladder_rating('master')['rating']}" and labels["random"] == "Random — plays any legal move"
    assert not any("-" in v or v in ("noisy", "greedy", "search") for v, _ in opts)
    assert page.input_value("[data-testid=bot-select]") == "intermediate"  # nothing remembered yet
    page.select_option("[data-testid=bot-select]", "master")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-testid=hand] .card")
    assert "Master bot" in page.inner_text("main")
    page.goto("/")
    page.wait_for_selector("[data-testid=my-matches] li")
    assert page.input_value("[data-testid=bot-select]") == "master"
    assert "Master bot" in page.inner_text("[data-testid=my-matches]")
    # a choice remembered before the levels ("search") comes back as its level
    page.evaluate("() => { const s = JSON.parse(localStorage.getItem('gameweave.lobby') || '{}');"
                  " s.bot = 'search'; localStorage.setItem('gameweave.lobby', JSON.stringify(s)); }")
    page.reload()
    page.wait_for_selector("[data-testid=my-matches] li")
    assert page.input_value("[data-testid=bot-select]") == "master"


def test_the_lobby_in_spanish_names_the_levels(new_context):
    page = new_context(locale="es-MX").new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=bot-select] option[value=master][data-rating]", state="attached")
    labels = dict(page.eval_on_selector_all("[data-testid=bot-select] option", "os => os.map(o => [o.value, o.textContent])"))
    assert labels["beginner"] == f"Principiante · {ladder_rating('beginner')['rating']}"
    assert labels["master"] == f"Maestro · {ladder_rating('master')['rating']}"


def test_lobby_problem_messages_follow_the_typing(new_context):
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=rules-select] option[value=classic]", state="attached")
    page.check("[data-testid=format-first_to]")
    problem = page.locator("[data-testid=target-problem]")
    page.fill("[data-testid=target]", "abc")
    page.click("[data-testid=new-match-bot]")
    problem.wait_for()
    assert "abc" in problem.inner_text()
    page.fill("[data-testid=target]", "ab")  # still wrong: the message quotes the new text
    assert problem.inner_text().startswith('"ab" is not a whole number'), problem.inner_text()
    page.fill("[data-testid=target]", "5")
    problem.wait_for(state="hidden")
    page.fill("[data-testid=target]", "5x")  # a new problem is shown only by Play again
    assert problem.is_hidden()
    assert page.url.endswith("/")

    # the stake: its message (from the catalog) goes as soon as the stake is valid
    page.fill("[data-testid=target]", "3")
    stakes = page.locator("[data-testid=format-stakes]")
    if not stakes.is_visible():
        for rules in page.eval_on_selector_all("[data-testid=rules-select] option", "os => os.map(o => o.value)"):
            page.select_option("[data-testid=rules-select]", rules)
            if stakes.is_visible():
                break
    stakes.check()
    page.fill("[data-testid=stake]", "0")
    page.click("[data-testid=new-match-bot]")
    problem.wait_for()
    assert problem.inner_text()
    page.fill("[data-testid=stake]", "2")
    problem.wait_for(state="hidden")
    assert page.url.endswith("/")


def test_a_deal_that_is_not_a_number_is_explained(new_context):
    page = new_context().new_page()
    page.goto("/")
    made = page.request.post("/api/matches", data={"opponent": "bot", "bot": "random"}).json()
    page.evaluate(
        "([id, token]) => localStorage.setItem('gameweave.seats', JSON.stringify({[id]: {seat: 1, token, opponent: 'bot', created: Date.now()}}))",
        [made["match_id"], made["token"]],
    )
    page.goto(f"/replay/{made['match_id']}/abc")
    page.wait_for_selector("[data-testid=not-found]")
    text = page.inner_text("main")
    assert "NaN" not in text and "NaN" not in page.title()
    assert "“abc” is not a deal number" in text
    assert page.locator("[data-testid=back-to-lobby]").count() == 1


def _ignore_the_404_line(ctx):
    """A browser logs the 404 of the page itself as a console error; nothing else may be."""
    errors = []
    ctx.on("page", lambda p: p.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None))
    return errors


@pytest.mark.parametrize("path", ["/table/", "/nothing-here", "/table/%3Cscript%3Ealert(1)%3C/script%3E", "/a/b/c/d"])
def test_a_bad_address_shows_the_nothing_here_page(browser, live_server, path):
    ctx = browser.new_context(base_url=live_server.url, locale="en-US")
    errors = _ignore_the_404_line(ctx)
    page = ctx.new_page()
    res = page.goto(path)
    assert res.status == 404
    assert "text/html" in res.headers["content-type"]
    page.wait_for_selector("[data-testid=not-found]")
    assert '"error"' not in page.inner_text("body")
    assert "No such page" in page.inner_text("main")
    page.click("[data-testid=back-to-lobby]")
    page.wait_for_selector("[data-testid=bot-select]")
    assert not errors, errors
    ctx.close()


def test_the_nothing_here_page_in_spanish_and_the_api_keeps_json(browser, live_server):
    import httpx

    ctx = browser.new_context(base_url=live_server.url, locale="es-MX")
    errors = _ignore_the_404_line(ctx)
    page = ctx.new_page()
    assert page.goto("/nada-aqui").status == 404
    page.wait_for_selector("[data-testid=not-found]")
    assert "Esta página no existe" in page.inner_text("main")
    assert not errors, errors
    ctx.close()
    with httpx.Client(base_url=live_server.url) as c:
        for accept in ("text/html", "application/json", "*/*"):
            r = c.get("/api/no-such-route", headers={"Accept": accept})
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = c.get("/nothing-here", headers={"Accept": "application/json"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = c.post("/nothing-here", headers={"Accept": "text/html"})
        assert r.headers["content-type"].startswith("application/json")


def test_a_long_match_id_stays_inside_its_box(new_context, tmp_path):
    page = new_context(PHONE).new_page()
    page.goto("/table/" + "x" * 500)
    page.wait_for_selector("main .panel")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page is wider than the screen"
    for box in page.eval_on_selector_all("main .panel, main .panel *", "els => els.map(e => e.getBoundingClientRect().right)"):
        assert box <= PHONE["width"] + 0.5


def test_a_touch_screen_status_says_tap(new_context):
    page = new_context(PHONE, has_touch=True).new_page()
    page.goto("/")
    page.select_option("[data-testid=bot-select]", "random")
    page.click("[data-testid=new-match-bot]")
    page.wait_for_selector("[data-testid=hand] .card")
    for _ in range(60):
        page.wait_for_selector(f"{ENABLED}, {RESULT}")
        if page.locator(RESULT).count():
            pytest.fail("the deal ended before a throw")
        if page.eval_on_selector_all(".hand [data-action]:not([disabled])", "els => els.length"):
            break
        actions = _legal(page)
        _click_action(page, next((a for a in actions if a.startswith("meld")), actions[0]))
    else:
        pytest.fail("no throw came")
    status = page.inner_text("[data-testid=status]")
    assert "tap a card" in status and "click" not in status, status


@pytest.mark.parametrize("locale", ["en-US", "es-MX"])
def test_a_wrong_watch_link_says_so_once_without_an_empty_table(browser, live_server, locale):
    """Issue 10: a watch link with a wrong key shows the refusal alone (one message, no
    table, no 'your hand'), in the reader's language."""
    import httpx

    from gameweave.i18n import translate

    with httpx.Client(base_url=live_server.url) as c:
        m = c.post("/api/matches", json={"opponent": "friend", "name": "Ana"}).json()
    ctx = browser.new_context(base_url=live_server.url, locale=locale)
    page = ctx.new_page()
    page.goto(f"/watch/{m['match_id']}/{'0' * 32}")
    page.wait_for_selector("[data-testid=not-found]")
    main = page.inner_text("main")
    lang = locale[:2]
    assert translate("error.bad_watch_key", lang).split("{")[0].strip()[:20] in main
    assert page.locator("[data-testid=hand]").count() == 0 and page.locator(".toast.show").count() == 0
    ctx.close()


@pytest.mark.parametrize("locale, account, elsewhere", [("en-US", "Gameweave — your account", "Gameweave — continue a match"),
                                                        ("es-MX", "Gameweave — tu cuenta", "Gameweave — continuar una partida")])
def test_the_account_and_continue_pages_have_their_own_title_in_the_reader_s_language(new_context, locale, account,
                                                                                      elsewhere):
    page = new_context(locale=locale).new_page()
    page.goto("/account")
    page.wait_for_function("t => document.title === t", arg=account)
    page.goto("/continue/0123456789abcdef")
    page.wait_for_function("t => document.title === t", arg=elsewhere)

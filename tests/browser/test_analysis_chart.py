"""Issue 19, "analysis as a picture", in Chromium at a phone's size (390x844) and a
desktop's (1366x800), in English and Spanish: the replay's analysis draws the deal's
win-chance graph (``win-chart``: one ``[data-step]`` dot per decision with ``data-seat``
and ``data-chance`` exactly as the API and ``gameweave analyze --json`` give them),
``next-mistake`` / ``prev-mistake`` and a mistake's dot reach each mistake, the move list
is whole from the start with the current step marked, and the seats are named ("You",
the bot) instead of "player N"; the page, the API and ``gameweave analyze --json`` agree
to the decimal on one record; the match end shows each deal's graph small.

The deal is played by a test socket for seat 1 (random legal moves against the random
bot, then a resign), so the page only shows the replay.  Screenshots go to
``$GAMEWEAVE_SHOTS`` when set (else the test's temporary folder).  Fails on any console
error (the ``new_context`` fixture)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from gameweave.tables.chart import percent

from test_advice import DECK

pytestmark = pytest.mark.timeout(180)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 800}}
LOCALES = {"en": "en-US", "es": "es-MX"}
NAMES = {"en": ("You", "Random bot"), "es": ("Tú", "Bot al azar")}
PLAYER_N = {"en": "player ", "es": "jugador "}


def _shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("GAMEWEAVE_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _bot_match(page, live_server) -> tuple[str, str]:
    """A match against the random bot dealt from DECK (seat 1 opens), its seat kept in
    this browser: (match id, token)."""
    page.goto("/")
    live_server.decks.push(DECK)
    made = page.request.post("/api/matches", data={"opponent": "bot", "bot": "random"}).json()
    page.evaluate(
        "([id, seat, token]) => { const all = JSON.parse(localStorage.getItem('gameweave.seats') || '{}');"
        " all[id] = {seat, token, opponent: 'bot', created: Date.now()};"
        " localStorage.setItem('gameweave.seats', JSON.stringify(all)); }",
        [made["match_id"], made["seat"], made["token"]])
    return made["match_id"], made["token"]


def _play(live_server, match_id: str, token: str, seed: int, moves: int = 12, scope: str = "deal") -> None:
    """Seat 1 plays random legal moves over its socket until ``moves`` are made or the
    deal ends, then resigns (``scope``) if the deal is still on."""
    from websockets.sync.client import connect

    rng = random.Random(seed)
    with connect(live_server.url.replace("http", "ws", 1) + f"/ws/{match_id}") as ws:
        ws.send(json.dumps({"type": "hello", "seat": 1, "token": token}))
        made = 0
        while True:
            frame = json.loads(ws.recv(timeout=20))
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["status"] != "playing" or (frame["match"] or {}).get("over"):
                return
            if view["to_act"] != 1 or not view["legal"]:
                continue  # the bot's turn: its move comes in the next frame
            if made >= moves:  # on seat 1's turn, so that no bot move makes it stale
                ws.send(json.dumps({"type": "resign", "scope": scope, "version": frame["version"]}))
            else:
                ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"]), "version": frame["version"]}))
                made += 1


def _analysis(page, match_id: str, token: str, n: int = 1) -> dict:
    return page.request.get(f"/api/matches/{match_id}/deals/{n}/analysis",
                            headers={"Authorization": f"Bearer {token}"}, timeout=120000).json()


def _points(page, scope: str = "main") -> list[tuple[int, int, float, bool]]:
    """(step, seat, chance, mistake) of each point of the graph(s) under ``scope``."""
    got = page.eval_on_selector_all(
        f"{scope} [data-testid=win-chart] [data-step]",
        "els => els.map(e => [Number(e.dataset.step), Number(e.dataset.seat), e.dataset.chance, e.dataset.mistake === 'true'])")
    return [(step, seat, float(chance), mistake) for step, seat, chance, mistake in got]


def _expected(decisions: list[dict]) -> list[tuple[int, int, float, bool]]:
    return [(d["step"], d["seat"], d["played_win_chance"], d["mistake"]) for d in decisions]


def _current(page) -> int:
    return int(page.get_attribute("[data-testid=replay-moves] li.current", "data-step"))


def _open_analysed_replay(page, match_id: str) -> None:
    page.goto(f"/replay/{match_id}/1")
    page.wait_for_selector("[data-testid=replay-moves] li[data-step='1']")
    page.click("[data-testid=analyze]")
    page.wait_for_selector("[data-testid=win-chart] [data-step]", timeout=120000)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_win_chart_has_a_point_per_decision_and_next_mistake_reaches_each(new_context, live_server, tmp_path,
                                                                              size, lang):
    page = new_context(SIZES[size], locale=LOCALES[lang], has_touch=size == "phone").new_page()
    match_id, token = _bot_match(page, live_server)
    _play(live_server, match_id, token, seed=len(size) * 7 + len(lang))
    page.goto(f"/replay/{match_id}/1")
    page.wait_for_selector("[data-testid=replay-moves] li[data-step='1']")
    # the whole move list from the first step, the current step marked
    history = page.request.get(f"/api/matches/{match_id}/deals/1/replay", headers={"Authorization": f"Bearer {token}"}).json()["history"]
    assert page.locator("[data-testid=replay-moves] li").count() == len(history) + 1
    assert _current(page) == 0
    page.click("[data-testid=analyze]")
    page.wait_for_selector("[data-testid=win-chart] [data-step]", timeout=120000)
    analysis = _analysis(page, match_id, token)
    # one point per decision, both seats, the chance exactly as the API gives it
    assert _points(page) == _expected(analysis["decisions"])
    assert {s for _st, s, _c, _m in _points(page)} == {1, 2}
    assert all(0 <= float(c) <= 1 for _st, _s, c, _m in _points(page))
    # the numbers under the moves are the same figures, rounded as `gameweave analyze` rounds them
    for d in analysis["decisions"]:
        row = page.inner_text(f"[data-testid=analysis-value][data-step='{d['step']}']")
        assert str(percent(d["played_win_chance"])) in row
    # names, not "player N": the summary line and the legend
    you, bot = NAMES[lang]
    said = page.inner_text("[data-testid=analysis-out]")
    assert you in said and bot in said and PLAYER_N[lang] not in said.lower(), said
    legend = page.eval_on_selector_all("[data-testid=win-chart] text.legend", "els => els.map(e => e.textContent)")
    assert legend == [you, bot]
    # next-mistake reaches each mistake in turn, prev-mistake each one back
    mistakes = [d["step"] for d in analysis["decisions"] if d["mistake"]]
    assert page.locator("[data-testid=win-chart] [data-mistake]").count() == len(mistakes)
    if mistakes:
        assert page.is_disabled("[data-testid=prev-mistake]")
        for m in mistakes:
            page.click("[data-testid=next-mistake]")
            assert _current(page) == m
            # the page does not jump away to the move list: the button stays in view
            box = page.locator("[data-testid=next-mistake]").bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= SIZES[size]["height"]
            assert page.get_attribute(f"[data-testid=win-chart] [data-step='{m}']", "class").endswith("current")
        assert page.is_disabled("[data-testid=next-mistake]")
        for m in reversed(mistakes[:-1]):
            page.click("[data-testid=prev-mistake]")
            assert _current(page) == m
        # a mistake's dot is a button to its step
        page.click("[data-testid=replay-first]")
        page.locator(f"[data-testid=win-chart] [data-mistake][data-step='{mistakes[-1]}']").click()
        assert _current(page) == mistakes[-1]
    else:
        page.wait_for_selector("[data-testid=no-mistakes]")
    # the move list stays whole while stepping
    assert page.locator("[data-testid=replay-moves] li").count() == len(history) + 1
    # the graph fits the screen: nothing scrolls sideways
    box = page.locator("[data-testid=win-chart]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"] + 0.5
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.locator("[data-testid=win-chart]").scroll_into_view_if_needed()
    page.screenshot(path=str(_shots(tmp_path) / f"replay-analysis-{size}-{lang}.png"), full_page=True)


def test_the_page_the_api_and_analyze_json_agree_to_the_decimal(new_context, live_server, tmp_path):
    """One record: the page's points and shown percentages, the API's analysis and
    ``gameweave analyze --json`` on the record downloaded from the page."""
    from typer.testing import CliRunner

    from gameweave.cli import app

    page = new_context(SIZES["desktop"], locale="en-US").new_page()
    match_id, token = _bot_match(page, live_server)
    _play(live_server, match_id, token, seed=3)
    _open_analysed_replay(page, match_id)
    with page.expect_download() as got:
        page.click("[data-testid=download-record]")
    record = tmp_path / "deal.json"
    got.value.save_as(record)
    res = CliRunner().invoke(app, ["analyze", str(record), "--json", "--lang", "en"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.stdout)
    assert cli["decisions"]
    assert _points(page) == _expected(cli["decisions"])
    for d in cli["decisions"]:
        row = page.locator(f"[data-testid=analysis-value][data-step='{d['step']}']")
        assert float(row.get_attribute("data-played-win")) == d["played_win_chance"]
        assert float(row.get_attribute("data-best-win")) == d["best_win_chance"]
        text = row.inner_text()
        assert f"{percent(d['played_win_chance'])}%" in text
        if d["mistake"]:
            assert f"−{percent(d['drop'])})" in text
    api = _analysis(page, match_id, token)
    assert [{k: v for k, v in d.items() if k not in ("played_id", "best_id", "best_choice")} for d in api["decisions"]] == cli["decisions"]
    # the terminal's table prints the same whole percentages
    table = CliRunner().invoke(app, ["analyze", str(record), "--lang", "en"]).stdout
    for d in cli["decisions"]:
        assert f"{percent(d['played_win_chance']):3d}%" in table


def test_the_match_end_shows_each_deals_graph_small(new_context, live_server, tmp_path):
    """A resigned match's end lists its deal with the deal's graph, small; a dot opens
    the analysed replay at that step."""
    page = new_context(SIZES["phone"], locale="es-MX", has_touch=True).new_page()
    match_id, token = _bot_match(page, live_server)
    _play(live_server, match_id, token, seed=11, moves=6, scope="match")
    page.goto(f"/table/{match_id}")
    page.wait_for_selector("[data-testid=deal-results] li")
    small = "[data-testid=deal-results] [data-testid=win-chart]"
    page.wait_for_selector(f"{small} [data-step]", timeout=120000)
    analysis = _analysis(page, match_id, token)
    assert page.locator(small).count() == page.locator("[data-testid=deal-results] li").count() == 1
    assert _points(page, "[data-testid=deal-results]") == _expected(analysis["decisions"])
    box = page.locator(small).bounding_box()
    assert box["width"] <= 18 * 16 + 1 and box["x"] + box["width"] <= SIZES["phone"]["width"]
    page.locator(small).scroll_into_view_if_needed()
    page.screenshot(path=str(_shots(tmp_path) / "match-end-phone-es.png"), full_page=True)
    step = analysis["decisions"][-1]["step"]
    page.locator(f"{small} [data-step='{step}']").click()
    page.wait_for_url(f"**/replay/{match_id}/1?analyse=1&step={step}")
    page.wait_for_selector("main [data-testid=win-chart] [data-step]", timeout=120000)
    assert _current(page) == step

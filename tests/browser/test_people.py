"""Playing with people (issue 10) in Chromium: a clocked friend match between a reader of
Spanish and a reader of English, with names, a spectator, quick phrases, a clock timeout
played by the server, each seat's own pace between deals, resigning, the tab title on
your turn and presence going away when the other page closes.

Runs on the people server (conftest.people_server): clocks 10x fast (the 60 s clock is
6 s plus a 3 s bank), presence lost after 3 s of silence, heartbeats every second."""

from __future__ import annotations

import json
import re
import time

import pytest

from gameweave.engine import CARD_NAMES, FULL_MASK
from gameweave.i18n import messages, translate

from test_table_page import take_seat

pytestmark = pytest.mark.timeout(240)

BIG = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][cdhs])(?![A-Za-z0-9])")
NAME_TO_CARD = {n: i for i, n in enumerate(CARD_NAMES)}


def english_on_spanish_page(page) -> list[str]:
    """English catalog texts (without parameters, 8+ characters, different in Spanish)
    that the page shows."""
    en, es = messages("en"), messages("es")
    text = page.inner_text("body")
    return [f"{k}: {v}" for k, v in en.items()
            if "{" not in v and len(v) >= 8 and v != es.get(k) and v in text]


def hidden_from_spectator(table) -> int:
    """What a spectator must not see while the deal is played: both hands and the stock."""
    st = table.state
    stock = 0
    for c in st.deck[st.stock_pos:]:
        stock |= 1 << c
    return (st.hands[0] | st.hands[1] | stock) & FULL_MASK


def seat_of(page) -> int:
    return int(page.get_attribute("[data-testid=table-page]", "data-seat"))


def test_a_clocked_friend_match_in_spanish_and_english_with_a_spectator(people_context, people_server, tmp_path):
    hub = people_server.app.state.hub
    # -- the lobby in Spanish (the browser's language), a name and a 60 s clock
    p1 = people_context(BIG, locale="es-MX").new_page()
    p1.goto("/")
    p1.wait_for_selector("html[data-catalog=es]", state="attached")
    assert p1.get_attribute("html", "lang") == "es"
    switch = p1.locator("[data-testid=lang-switch]")
    assert switch.input_value() == "es"
    assert switch.locator("option").evaluate_all("os => os.map(o => o.value)") == ["es", "en"]
    assert translate("page.lobby.invite_friend", "es") in p1.inner_text("main")
    assert not english_on_spanish_page(p1), english_on_spanish_page(p1)
    p1.fill("[data-testid=name-input]", "  Ana  ")
    p1.select_option("[data-testid=clock-select]", "60")
    p1.click("[data-testid=new-match-friend]")
    url = p1.locator("[data-testid=invite-link]").input_value()
    match_id = url.rstrip("/").split("/")[-2]
    p1.click("[data-testid=go-to-table]")
    p1.wait_for_selector("[data-testid=hand] .card")

    # -- the friend reads English, joins by the invite with a name that looks like markup
    p2 = people_context(PHONE, locale="en-US").new_page()
    take_seat(p2, url, "Bob <b>x</b>")
    p2.wait_for_selector("[data-testid=hand] .card")
    assert p2.get_attribute("html", "lang") == "en"
    p1.wait_for_selector("[data-testid=presence-2][data-online=true]")
    p2.wait_for_selector("[data-testid=presence-1][data-online=true]", state="attached")
    # names wherever the seat number was, shown as text (never as markup)
    assert "Bob <b>x</b>" in p1.inner_text(".seat.opp .seat-name")
    assert p1.locator(".seat.opp .seat-name b").count() == 0
    assert p2.inner_text(".seat.opp .seat-name").startswith("Ana")
    assert not english_on_spanish_page(p1), english_on_spanish_page(p1)

    # -- a spectator: live, public only; the raw frames never name a hidden card (R21)
    watch_url = p1.locator("[data-testid=watch-link]").input_value()
    assert "/watch/" in watch_url
    seen, leaks = [], []

    def on_frame(payload) -> None:
        raw = payload if isinstance(payload, str) else payload.decode()
        frame = json.loads(raw)
        if frame.get("type") != "state":
            return
        seen.append(frame)
        view = frame["view"]
        assert view["seat"] is None and view["legal"] == [] and view["hand"] == []
        table = hub.tables[match_id]
        if view["status"] == "playing" and frame["deal"]["number"] == table.deal.number:
            # hands and stock only shrink during a deal: what is hidden now was hidden then
            hidden = hidden_from_spectator(table)
            bad = [w for w in CARD_WORD.findall(raw) if hidden >> NAME_TO_CARD[w] & 1]
            if bad or view.get("hands") or frame["deal"]["reveal"]:
                leaks.append((view["status"], bad))

    spec = people_context(BIG, locale="en-US").new_page()
    spec.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    spec.goto(watch_url)
    spec.wait_for_selector("[data-testid=table-page][data-spectator=true]")
    p1.wait_for_selector("[data-testid=spectators][data-count='1']")
    assert spec.locator("[data-testid=hand] [data-card]").count() == 0  # backs only
    assert spec.locator("[data-testid=opponent-hand] [data-card]").count() == 0
    assert "Ana" in spec.inner_text("body") and "Bob <b>x</b>" in spec.inner_text("body")
    assert spec.locator("[data-testid=resign], [data-phrase]").count() == 0

    # -- whose turn: the tab title and favicon say it; both clocks show, the actor's runs
    pages = {1: p1, 2: p2}
    p1.wait_for_selector("[data-testid=table-page][data-my-turn]")
    actor = 1 if p1.get_attribute("[data-testid=table-page]", "data-my-turn") == "true" else 2
    a, b = pages[actor], pages[3 - actor]
    a.wait_for_function("document.title.startsWith('●')")
    assert not b.title().startswith("●")
    assert a.get_attribute("html", "data-turn-icon") == "true"
    assert b.get_attribute("html", "data-turn-icon") == "false"
    clock = b.locator(f"[data-testid=clock-{actor}]")
    first = int(clock.get_attribute("data-seconds"))
    assert 0 < first <= 9  # 6 s to decide + a 3 s bank (clock_scale 0.1)
    b.wait_for_function(f"Number(document.querySelector('[data-testid=clock-{actor}]').dataset.seconds) < {first}")
    assert b.get_attribute(f"[data-testid=clock-{3 - actor}]", "data-running") == "false"

    # -- a quick phrase, shown in the reader's own language
    b.click('[data-phrase="good_luck"]')
    lang_a = "es" if actor == 1 else "en"
    a.wait_for_selector("[data-testid=phrase-shown] [data-phrase=good_luck]")
    assert translate("phrase.good_luck", lang_a) in a.inner_text("[data-testid=phrase-shown]")

    # -- nobody moves: the server plays for the seat at its deadline, then again; after two
    # timeouts in a row the seat is marked away
    log_before = a.locator("[data-testid=log] li.by-me").count()
    a.wait_for_function(f"document.querySelectorAll('[data-testid=log] li.by-me').length > {log_before}", timeout=20000)
    b.wait_for_selector(f"[data-testid=presence-{actor}][data-away=true]", state="attached", timeout=20000)

    # -- resign this deal (it counts as lost): both see the end of the deal
    actor_now = 1 if p1.get_attribute("[data-testid=table-page]", "data-my-turn") == "true" else 2
    r = pages[actor_now]
    other = pages[3 - actor_now]
    r.click("[data-testid=resign]")
    r.wait_for_selector("[data-testid=resign-dialog]")
    assert r.locator("[data-testid=resign-deal]").is_checked()
    r.click("[data-testid=resign-confirm]")
    for page in (p1, p2):
        page.wait_for_selector("[data-testid=result] [data-testid=resigned]")
    score = other.inner_text("[data-testid=score]")
    assert re.search(r"\b1\b", score), score
    # the spectator waits for both seats, by name, in a sentence about two people
    spec.wait_for_selector("[data-testid=waiting-for]:not([hidden])")
    assert spec.inner_text("[data-testid=waiting-for]") == translate(
        "page.waiting.spectator_both", "en", a="Ana", b="Bob <b>x</b>")
    p1.set_viewport_size(BIG)
    p1.screenshot(path=str(tmp_path / "es-deal-over-1366.png"))

    # -- each seat's own pace: the one who moves on waits, by name; the other's end-of-deal
    # screen (result, deck check, replay link) stays until it moves on itself
    p1.click("[data-testid=next-deal]")
    p1.wait_for_selector("[data-testid=waiting-for]:not([hidden])")
    waiting = p1.inner_text("[data-testid=waiting-for]")
    assert "Bob <b>x</b>" in waiting and waiting == translate("page.waiting.for", "es", who="Bob <b>x</b>")
    time.sleep(0.5)
    for sel in ("[data-testid=result]", "[data-testid=deck-check]", "[data-testid=replay-link]", "[data-testid=next-deal]:not([disabled])"):
        assert p2.locator(sel).count() == 1, sel
    p2.wait_for_selector("[data-testid=other-ready]")
    p2.click("[data-testid=next-deal]")
    for page in (p1, p2):
        page.wait_for_selector("[data-testid=table-page][data-deal='2'][data-status=playing]")
    # the finished deal's replay stays reachable from the table
    assert p1.get_attribute("[data-testid=last-deal-replay]", "href") == f"/replay/{match_id}/1"
    p1.screenshot(path=str(tmp_path / "es-table-1366.png"))
    p1.set_viewport_size(PHONE)
    p1.screenshot(path=str(tmp_path / "es-table-390.png"), full_page=True)
    p1.set_viewport_size(BIG)
    assert not english_on_spanish_page(p1), english_on_spanish_page(p1)

    # -- the friend's page closes: seat 2 is offline for seat 1 within a few seconds
    p2.close()
    p1.wait_for_selector("[data-testid=presence-2][data-online=false]", timeout=6000)

    # -- resign the match: the other seat wins it
    p1.click("[data-testid=resign]")
    p1.click("[data-testid=resign-match]")
    p1.click("[data-testid=resign-confirm]")
    p1.wait_for_selector("[data-testid=match-winner]")
    assert p1.inner_text("[data-testid=match-winner]") == translate(
        "page.result.i_resigned.opp", "es", who="Bob <b>x</b>")
    spec.wait_for_selector("[data-testid=match-winner]")

    # the spectator saw the whole match live and never a hidden card
    assert not leaks, leaks
    assert len(seen) >= 5
    assert any(f["view"]["status"] != "playing" and f["view"]["hands"] for f in seen)  # the reveal


def test_the_language_switch_is_remembered(people_context):
    page = people_context(BIG, locale="en-US").new_page()
    page.goto("/")
    page.wait_for_selector("html[data-catalog=en]", state="attached")
    page.select_option("[data-testid=lang-switch]", "es")
    page.wait_for_selector("html[lang=es]", state="attached")
    assert translate("page.lobby.new_match", "es") in page.inner_text("main")
    page.reload()
    page.wait_for_selector("html[data-catalog=es]", state="attached")
    assert page.locator("[data-testid=lang-switch]").input_value() == "es"
    assert not english_on_spanish_page(page), english_on_spanish_page(page)
    # how to play comes in Spanish too (GET /api/help?lang=es)
    page.click("[data-testid=open-help]")
    page.wait_for_selector("[data-testid=help-rules] h3")
    assert translate("page.help.glossary", "es") in page.inner_text("[data-testid=help]")
    assert not english_on_spanish_page(page), english_on_spanish_page(page)
    page.click("[data-testid=close-help]")
    # the turn sound is off until turned on, and remembered
    sound = page.locator("[data-testid=sound-toggle]")
    assert not sound.is_checked()
    sound.check()
    page.reload()
    page.wait_for_selector("html[data-catalog=es]", state="attached")
    assert page.locator("[data-testid=sound-toggle]").is_checked()


def test_presence_follows_the_heartbeat(people_context, people_server):
    """A page whose socket stays open but that stops sending (no heartbeat, no move) is
    shown offline to the other seat within a few seconds (presence timeout 3 s on the
    people server), and online again once it speaks."""
    import httpx

    base = people_server.url
    m1 = httpx.post(f"{base}/api/matches", json={"opponent": "friend", "name": "Ana"}).json()
    mid = m1["match_id"]
    m2 = httpx.post(f"{base}/api/matches/{mid}/join",
                    json={"invite": m1["invite_url"].rsplit("/", 1)[1], "name": "Bob"}).json()
    pages = {}
    for seat, token, beat in ((1, m1["token"], None), (2, m2["token"], 600000)):
        ctx = people_context(BIG, locale="en-US")
        entry = {mid: {"seat": seat, "token": token, "opponent": "friend"}}
        script = f"try {{ localStorage.setItem('gameweave.seats', {json.dumps(json.dumps(entry))});"
        if beat:  # this page falls silent after its hello
            script += f" localStorage.setItem('gameweave.heartbeat_ms', '{beat}');"
        ctx.add_init_script(script + " } catch (e) {}")
        page = ctx.new_page()
        page.goto(f"/table/{mid}")
        page.wait_for_selector("[data-testid=hand] .card")
        pages[seat] = page
    p1, p2 = pages[1], pages[2]
    assert "Bob" in p1.inner_text("[data-testid=presence-2]")
    started = time.monotonic()
    p1.wait_for_selector("[data-testid=presence-2][data-online=false]", timeout=8000)
    silent_for = time.monotonic() - started
    assert p2.locator("[data-testid=presence-1][data-online=true]").count() == 1  # Ana's beats go on
    print(f"seat 2 silent -> shown offline after {silent_for:.1f} s (timeout 3 s, sweep 0.5 s)")
    # it speaks again (a quick phrase is a frame like any other): online again
    p2.click('[data-phrase="hello"]')
    p1.wait_for_selector("[data-testid=presence-2][data-online=true]", timeout=5000)


def test_quick_phrases_can_be_sent_at_once_after_a_page_loads(people_context, people_server):
    """Issue 10's pause between phrases counts from the last phrase sent, not from the
    page's load: a seat that reloads while the other seat is to play can say a phrase at
    once (the buttons stayed greyed out until the next move before)."""
    import httpx

    base = people_server.url
    m1 = httpx.post(f"{base}/api/matches", json={"opponent": "friend", "name": "Ana"}).json()
    mid = m1["match_id"]
    m2 = httpx.post(f"{base}/api/matches/{mid}/join",
                    json={"invite": m1["invite_url"].rsplit("/", 1)[1], "name": "Bob"}).json()
    ctx = people_context(BIG, locale="en-US")
    entry = {mid: {"seat": 2, "token": m2["token"], "opponent": "friend"}}
    ctx.add_init_script(f"try {{ localStorage.setItem('gameweave.seats', {json.dumps(json.dumps(entry))}); }} catch (e) {{}}")
    page = ctx.new_page()
    page.goto(f"/table/{mid}")
    page.wait_for_selector("[data-testid=hand] .card")
    buttons = page.locator("[data-phrase]")
    assert buttons.count() >= 10
    assert page.locator("[data-phrase]:not([disabled])").count() == buttons.count()  # nobody moved: no new frame
    page.click('[data-phrase="hello"]')  # a phrase sent: the pause begins
    page.wait_for_selector("[data-phrase][disabled]", state="attached")

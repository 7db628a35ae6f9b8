"""The page's words (web/words.js) on views of the anglo-american and classic profiles:
the move log from the structured history events (R18 tables, R18e forced cards, R19
forcing back), R18 meld choices as whole tables, forces without a meld number, the
forced ``meld`` decision.  Run in Chromium on the views the server would send."""

from __future__ import annotations

import json
from pathlib import Path

from gameweave.engine import GameRecord, seat_view
from gameweave.tables.choices import seat_choices

RECORDS = Path(__file__).parent.parent / "records"


def _view(name: str, steps: int, seat: int) -> dict:
    """The seat's view after `steps` actions of a record, with the frame's `choices` (as
    the server sends them, gameweave.tables.choices) under "choices"."""
    rec = GameRecord.from_dict(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions[:steps]:
        st.play(text)
    view = seat_view(st, seat)
    return {**view.to_dict(), "choices": [c.to_dict() for c in seat_choices(view)]}


RUN = """async (view) => {
  const w = await import("/static/words.js");
  const names = w.namer(view.seat, "Greedy bot");
  return {
    log: w.logLines(view, names).map((l) => l.text),
    choices: view.choices.map((c) => w.describeChoice(c, view, names)),
    status: w.statusText(view, names, { choices: view.choices }),
    forced: w.forcedOnMe(view),
  };
}"""


def _words(new_context, view: dict) -> dict:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("html[data-catalog=en]", state="attached")  # the catalog is loaded
    return page.evaluate(RUN, view)


def test_r19_force_back_and_the_forced_meld_decision_on_the_page(new_context):
    got = _words(new_context, _view("aa_force_back.json", 8, 0))
    assert got["log"][-1] == "Greedy bot forced 7♥ back onto you: you must meld it."
    assert got["status"] == "7♥ was forced on you: choose how to meld it into your table."
    assert got["forced"] == {"card": "7h", "meld": [], "how": "force", "pending": True}
    first = got["choices"][0]
    assert first["kind"] == "meld" and first["groups"] == [["3h", "4h", "5h"], ["6h", "7h", "Jh"]]
    assert first["label"] == "Splits 3♥ 4♥ 5♥ 6♥ into 3♥ 4♥ 5♥ and 6♥ 7♥ J♥"  # what the table's change is


def test_r19_the_force_back_choice_and_the_log_after_the_forced_meld(new_context):
    got = _words(new_context, _view("aa_force_back.json", 7, 1))
    assert [c["kind"] for c in got["choices"]] == ["force", "turn"]
    assert got["choices"][0]["label"] == "Force 7♥ back onto Greedy bot"
    assert "You may also force it back onto Greedy bot" in got["status"]
    got = _words(new_context, _view("aa_force_back.json", 10, 0))
    assert got["log"][-2] == ("You melded 7♥ (forced on you) with J♥ from your hand: "
                              "your table is now 3♥ 4♥ 5♥ / 6♥ 7♥ J♥.")


def test_r18_a_rearranging_take_and_forces_without_a_number(new_context):
    got = _words(new_context, _view("classic_r18_rearrange.json", 5, 0))
    assert got["choices"][0]["groups"] == [["3h", "4h", "5h"], ["6c", "6d", "6h"]]
    got = _words(new_context, _view("classic_r18_rearrange.json", 7, 0))
    assert got["log"][5] == "You took 6♦ with 6♣ from your hand: your table is now 3♥ 4♥ 5♥ / 6♣ 6♦ 6♥."
    # "throw Ks force" and "refuse force" carry no meld number (R18e)
    view = _view("classic_r18_rearrange.json", 2, 0)
    view["legal"] = ["throw Ks force", "throw Ks"]
    view["melds"]["2"] = [["Kc", "Kd", "Kh"]]
    view["choices"] = [
        {"action": "throw Ks force", "kind": "throw", "card": "Ks", "force": ["Kc", "Kd", "Kh"], "melds": None,
         "uses": [], "gives_eleven": False},
        {"action": "throw Ks", "kind": "throw", "card": "Ks", "force": None, "melds": None, "uses": [],
         "gives_eleven": False},
    ]
    got = _words(new_context, view)
    forced, plain = got["choices"]
    assert forced["kind"] == "throw" and forced["force"] is True and forced["card"] == "Ks"
    assert forced["label"] == "Throw K♠ and force it on Greedy bot (they must meld it)"
    assert forced["target"] == ["Kc", "Kd", "Kh"]
    assert plain.get("force") is None


def _click(page, action: str) -> None:
    page.locator(f'[data-action="{action}"]:not([disabled])').click()
    page.wait_for_function("!document.querySelector('[data-action][disabled]')")


def test_r19_r18e_an_anglo_american_friend_match_in_two_browsers(new_context, live_server):
    """The record aa_force_back.json played on the page: seat of the opener melds 3h-6h,
    turns and refuses 7h; the other forces it back (R19); the forced notice, the forced
    card in the centre, the R18 tables as choices, and the log in words."""
    import httpx

    from gameweave.engine import validate_deck

    rec = json.loads((RECORDS / "aa_force_back.json").read_text(encoding="utf-8"))
    live_server.decks.push(validate_deck(rec["deck"]))
    base = live_server.url
    m1 = httpx.post(f"{base}/api/matches", json={"opponent": "friend", "rules": "anglo-american"}).json()
    mid = m1["match_id"]
    m2 = httpx.post(f"{base}/api/matches/{mid}/join", json={"invite": m1["invite_url"].rsplit("/", 1)[1]}).json()
    view = httpx.get(f"{base}/api/matches/{mid}/view", headers={"Authorization": f"Bearer {m1['token']}"}).json()
    opener = view["view"]["opener"]  # drawn at random (R20): the record's seat 1 is the opener
    tokens = {1: m1["token"], 2: m2["token"]}
    pages = {}
    for seat in (1, 2):
        ctx = new_context()
        entry = {mid: {"seat": seat, "token": tokens[seat], "opponent": "friend"}}
        ctx.add_init_script(f"try {{ localStorage.setItem('gameweave.seats', {json.dumps(json.dumps(entry))}); }} catch (e) {{}}")
        page = ctx.new_page()
        page.goto(f"/table/{mid}")
        page.wait_for_selector("[data-testid=hand] .card")
        pages[seat] = page
    a, b = pages[opener], pages[3 - opener]
    _click(a, "turn")
    meld = a.locator('[data-action="meld 3h 4h 5h 6h"]')
    assert meld.inner_text().startswith("New sequence 3♥ 4♥ 5♥ 6♥")  # one new meld on an empty table
    _click(a, "meld 3h 4h 5h 6h")
    _click(a, "throw Ks")
    b.wait_for_selector('[data-action="turn"]:not([disabled])')
    _click(b, "turn")
    _click(b, "refuse")
    a.wait_for_selector('[data-action="turn"]:not([disabled])')
    _click(a, "turn")
    _click(a, "refuse")
    force = b.locator('[data-action="force"]')
    force.wait_for()
    assert "back onto" in force.inner_text()
    _click(b, "force")
    notice = a.locator("[data-testid=forced-notice]")
    notice.wait_for()
    assert "back onto you" in notice.inner_text()
    # 3h 4h 5h / 6h 7h Jh and 3h-Jh put the same cards on the table: one button (R18)
    a.wait_for_selector('[data-action="meld 3h 4h 5h 6h 7h Jh"]')
    assert "Forced" in a.inner_text("body") and "you must meld it" in a.inner_text("body")
    assert a.locator('[data-action^="meld"]').count() == 2
    # the forced notice and the tables that take the card still fit one screen (issue 9)
    from test_table_profiles import BIG, PHONE, off_screen

    for size in (BIG, PHONE):
        a.set_viewport_size(size)
        assert not off_screen(a), (size, off_screen(a))
    _click(a, "meld 3h 4h 5h 6h 7h Jh")
    _click(a, "throw Jc")
    b.wait_for_function("document.querySelector('[data-testid=log]').innerText.includes('6♥ 7♥ J♥')")
    log = b.inner_text("[data-testid=log]")
    assert "forced 7♥ back onto" in log
    assert "table is now 3♥ 4♥ 5♥ 6♥ 7♥ J♥" in log


def test_r10_the_live_card_is_credited_to_the_seat_that_turned_it_not_to_the_seat_to_act(new_context):
    """After a resign or at the end of a deal the seat to act is not the one that turned the
    live card: the page's caption takes the turner from the last ``turn`` event."""
    rec = GameRecord.from_dict(json.loads((RECORDS / "aa_force_back.json").read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions:
        st.play(text)
        v = seat_view(st, 0).to_dict()
        last = v["history"][-1] if v["history"] else None
        if v["live"] and not v["live_from"] and last and last["kind"] == "turn" and last["card"]:
            break
    else:
        raise AssertionError("no freshly turned card in the record")
    turner = last["seat"]
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("html[data-catalog=en]", state="attached")
    run = 'async (v) => (await import("/static/words.js")).turnerOf(v)'
    assert page.evaluate(run, v) == turner
    assert page.evaluate(run, {**v, "to_act": 3 - turner}) == turner  # as after a resign


def test_r18b_meld_labels_say_what_changes_as_the_python_narrator_does(new_context):
    """issue 19: each meld button of the 128-choice position (R18b) and of a forced meld
    onto a table (R18e) says what changes, in the page's words exactly as the Python
    narrator (tables.words.describe_change) says them; a table of eleven says it wins."""
    from gameweave.engine import GameState
    from gameweave.engine.conformance import build_deck
    from gameweave.tables.words import describe_change

    st = GameState.new(build_deck("Ac Ad Ah As 2d 3d 4d 5d 7d Jd", "2c 2h 2s 3c 3h 3s 4c 4h 4s 5c", "6d"), rules="classic")
    st.play("turn")
    views = [seat_view(st, 0)]
    rec = GameRecord.from_dict(json.loads((RECORDS / "aa_force_back.json").read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions[:8]:
        st.play(text)
    views.append(seat_view(st, 0))
    for view in views:
        choices = [c for c in seat_choices(view) if c.is_meld]
        frame = {**view.to_dict(), "choices": [c.to_dict() for c in choices]}
        got = _words(new_context, frame)["choices"]
        for c, d in zip(choices, got):
            if sum(m.bit_count() for m in c.melds) >= 11:
                assert d["label"] == "Meld and win: eleven cards" and d["wins"]
            else:
                assert d["label"] == describe_change(view.melds[view.seat], c.melds), c.text
                assert not d["wins"]

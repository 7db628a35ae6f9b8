"""The page's words (web/words.js) on views of the anglo-american and classic profiles:
the move log from the structured history events (R18 tables, R18e forced cards, R19
forcing back), R18 meld choices as whole tables, forces without a meld number, the
forced ``meld`` decision.  Run in Chromium on the views the server would send."""

from __future__ import annotations

import json
from pathlib import Path

from gameweave.engine import GameRecord, seat_view

RECORDS = Path(__file__).parent.parent / "records"


def _view(name: str, steps: int, seat: int) -> dict:
    rec = GameRecord.from_dict(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    st = rec.start()
    for text in rec.actions[:steps]:
        st.play(text)
    return seat_view(st, seat).to_dict()


RUN = """async (view) => {
  const w = await import("/static/words.js");
  const names = w.namer(view.seat, "Greedy bot");
  return {
    log: w.logLines(view, names).map((l) => l.text),
    choices: view.legal.map((a) => w.describeAction(a, view, names)),
    status: w.statusText(view, names),
    forced: w.forcedOnMe(view),
  };
}"""


def _words(new_context, view: dict) -> dict:
    page = new_context().new_page()
    page.goto("/")
    return page.evaluate(RUN, view)


def test_r19_force_back_and_the_forced_meld_decision_on_the_page(new_context):
    got = _words(new_context, _view("aa_force_back.json", 8, 0))
    assert got["log"][-1] == "Greedy bot forced 7♥ back onto you: you must meld it."
    assert got["status"] == "7♥ was forced on you: choose how to meld it into your table."
    assert got["forced"] == {"card": "7h", "meld": [], "how": "forced back", "pending": True}
    first = got["choices"][0]
    assert first["kind"] == "meld" and first["groups"] == [["3h", "4h", "5h"], ["6h", "7h", "Jh"]]
    assert first["label"] == "New table, 1 card from your hand"


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
    got = _words(new_context, view)
    forced, plain = got["choices"]
    assert forced["kind"] == "throw" and forced["force"] is True and forced["card"] == "Ks"
    assert forced["label"] == "Throw K♠ and force it on Greedy bot (they must meld it)"
    assert forced["target"] == ["Kc", "Kd", "Kh"]
    assert plain.get("force") is None

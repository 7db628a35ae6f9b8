"""The table's small touches (issue 19, item 5; web/attention.js, web/table/effects.js),
in Chromium, on a won deal that does not depend on chance: the classic profile's
128-choice position (R18b, dealt from a fixed deck as ``serve --test-decks`` deals it),
where seat 1 turns 6d and wins at once with ``win-now`` (R16, R18f).

* the card sound: with the top bar's Sound on, each move starts one soft tone (a
  triangle wave) through WebAudio; with it off, none.  ``AudioContext`` is replaced in the
  page by a recorder (an init script) that counts the oscillators started, with their wave
  and pitch;
* the win effect: the burst of suits (``win-effect``) appears once when this seat wins the
  deal, and not at all when the system asks for reduced motion or the Animations box is
  unticked.

Fails on any console error (conftest)."""

from __future__ import annotations

import pytest

from gameweave.engine.conformance import build_deck

from page_helpers import RESULT, click_action, view
from test_table_profiles import BIG, PHONE, R18B_HAND, R18B_OTHER, start_bot_match

pytestmark = pytest.mark.timeout(240)

AUDIO_RECORDER = """
(() => {
  window.__tones = [];
  class Param {
    constructor() { this.value = 0; }
    setValueAtTime(v) { this.value = v; return this; }
    exponentialRampToValueAtTime() { return this; }
    linearRampToValueAtTime() { return this; }
  }
  class Node { connect(n) { return n; } disconnect() {} }
  class Oscillator extends Node {
    constructor() { super(); this.type = "sine"; this.frequency = new Param(); }
    start() { window.__tones.push({ type: this.type, hz: this.frequency.value }); }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
  class Recorder {
    constructor() { this.currentTime = 0; this.destination = new Node(); this.state = "running"; }
    createOscillator() { return new Oscillator(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = Recorder;
  window.webkitAudioContext = Recorder;
})();
"""
"""An init script: WebAudio replaced by a recorder; ``window.__tones`` lists each
oscillator started ({type, hz})."""

WIN_WATCH = """
window.__wins = 0;
new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
  if (n.dataset && n.dataset.testid === 'win-effect') window.__wins++; })
  .observe(document.body, {childList: true, subtree: true});
"""
"""Counts the win effects added to the table (``window.__wins``): the burst lasts under
two seconds, so it is counted as it comes rather than looked for afterwards."""


def card_tones(page) -> int:
    """How many card sounds (triangle-wave tones) the page has started."""
    return page.evaluate("window.__tones.filter((t) => t.type === 'triangle').length")


def _open(new_context, live_server, sound: bool, size=BIG, **options):
    """A page at the R18b position with WebAudio recorded; the Sound box ticked in the
    lobby's top bar when ``sound``."""
    context = new_context(size, **options)
    context.add_init_script(AUDIO_RECORDER)
    page = context.new_page()
    page.goto("/")
    box = page.locator("[data-testid=sound-toggle]")
    box.wait_for()
    if sound:
        box.check()
        assert page.evaluate("localStorage.getItem('gameweave.sound')") == "on"
        assert page.evaluate("window.__tones") == [{"type": "sine", "hz": 660}]  # ticking it beeps once
    assert box.is_checked() == sound
    start_bot_match(page, live_server, "classic", build_deck(R18B_HAND, R18B_OTHER, "6d"))
    page.evaluate(WIN_WATCH)
    return page


def _turn_and_win(page) -> None:
    """Seat 1 turns 6d (one move), then wins with win-now (another, the last)."""
    click_action(page, "turn")
    page.wait_for_selector("[data-testid=win-now]")
    page.click("[data-testid=win-now]")
    page.wait_for_selector(RESULT)
    frame = view(page)
    assert frame["view"]["status"] == "won" and frame["view"]["winner"] == 1


@pytest.mark.parametrize("size", [PHONE, BIG], ids=["390", "1366"])
def test_with_the_sound_on_each_move_makes_a_card_sound_and_the_win_throws_up_suits(new_context, live_server, size):
    page = _open(new_context, live_server, sound=True, size=size)
    assert card_tones(page) == 0  # nothing was played yet (the turn's beep is a sine)
    click_action(page, "turn")
    page.wait_for_selector("[data-testid=win-now]")
    assert card_tones(page) == 1  # the turn: one soft card sound
    triangle = [t for t in page.evaluate("window.__tones") if t["type"] == "triangle"]
    assert triangle[0]["hz"] == 320  # it glides down from 320 Hz
    assert page.evaluate("window.__wins") == 0
    page.click("[data-testid=win-now]")
    page.wait_for_selector(RESULT)
    assert view(page)["view"]["winner"] == 1
    assert card_tones(page) == 2  # the winning meld: one more
    page.wait_for_function("window.__wins === 1")
    burst = page.locator("[data-testid=win-effect]")
    if burst.count():  # still up (it goes after 1.6 s): over the table, suits in it
        assert burst.locator(".win-suit").count() == 12
    page.wait_for_timeout(2000)
    assert page.locator("[data-testid=win-effect]").count() == 0  # gone again
    assert page.evaluate("window.__wins") == 1


def test_with_the_sound_off_a_move_makes_no_sound(new_context, live_server):
    page = _open(new_context, live_server, sound=False)
    _turn_and_win(page)
    assert page.evaluate("window.__tones") == []
    page.wait_for_function("window.__wins === 1")  # the win effect does not need the sound


def test_the_win_effect_keeps_still_for_reduced_motion(new_context, live_server):
    """The win effect is drawn only with animations on: not when the system asks for
    reduced motion, nor with the Animations box unticked; the deal is won all the same."""
    still = _open(new_context, live_server, sound=False, reduced_motion="reduce")
    assert still.evaluate("import('/static/ui.js').then((m) => m.animationsOn())") is False
    _turn_and_win(still)
    still.wait_for_timeout(300)
    assert still.evaluate("window.__wins") == 0

    unticked = new_context(BIG).new_page()
    unticked.goto("/")
    unticked.wait_for_selector("#motion-toggle")
    unticked.uncheck("#motion-toggle")
    start_bot_match(unticked, live_server, "classic", build_deck(R18B_HAND, R18B_OTHER, "6d"))
    unticked.evaluate(WIN_WATCH)
    _turn_and_win(unticked)
    unticked.wait_for_timeout(300)
    assert unticked.evaluate("window.__wins") == 0

"""Quick match and the tabs of one browser (PROTOCOL §3.16), in Chromium: two tabs that
click Quick match while the network is slow are never paired with each other (the tab's
mark is set before its POST, and the page's browser key makes the server refuse the
pair even when the mark came too late); a seat another tab's write left out of
``gameweave.seats`` is put back; a closed tab is nobody's opponent, a reloaded one
keeps its place.  The queue's ordinary cases are test_open_tables.py."""

from __future__ import annotations

import time

import pytest

from test_open_tables import DESKTOP, _lobby

pytestmark = pytest.mark.timeout(120)

RULES, CLOCK = "gameweave", "30"
"""A queue of these tests alone (the session's server is shared: test_open_tables.py
queues classic and anglo-american with clocks, and gameweave without one)."""


def _choose(page) -> None:
    page.select_option("[data-testid=rules-select]", RULES)
    page.select_option("[data-testid=clock-select]", CLOCK)


def _two_tabs(new_context):
    """Two tabs of one browser on the lobby, the same rules and clock chosen in each."""
    first = _lobby(new_context, DESKTOP, "en-US", name="Ana")
    second = first.context.new_page()
    second.goto("/")
    second.wait_for_selector("[data-testid=open-tables]")
    for page in (first, second):
        _choose(page)
    return first, second


def _ticket(page) -> str:
    return page.evaluate("() => JSON.parse(sessionStorage.getItem('gameweave.queue')).ticket")


def _status(page, ticket: str) -> dict:
    return page.request.post("/api/queue/status", data={"ticket": ticket}).json()


def test_two_tabs_clicking_at_once_on_a_slow_network_are_never_paired_with_each_other(new_context):
    first, second = _two_tabs(new_context)
    held: list = []
    first.route("**/api/queue", lambda route: held.append(route))  # the first tab's POST is slow to go
    posts: list[dict] = []
    second.on("request", lambda r: posts.append(r.post_data_json) if r.method == "POST" and r.url.endswith("/api/queue") else None)
    first.click("[data-testid=quick-match]")
    first.wait_for_function("() => !!localStorage.getItem('gameweave.queue_here')")  # marked before its POST
    deadline = time.monotonic() + 10  # the POST itself follows at once; its interception reaches us a moment later
    while not held and time.monotonic() < deadline:
        first.wait_for_timeout(20)
    assert len(held) == 1
    # the second tab sees the mark a moment after it is written (Chromium passes a tab's
    # localStorage writes to the others' processes); on a busy machine that moment can
    # outlast a click: the case of a mark seen in time is this one, the late one follows
    second.wait_for_function("() => !!localStorage.getItem('gameweave.queue_here')")
    second.click("[data-testid=quick-match]")
    second.wait_for_selector("[data-testid=queue-status]:not(:empty)")
    assert "other tab" in second.inner_text("[data-testid=queue-status]") and posts == []
    # the mark may come too late (tabs see each other's localStorage writes a moment
    # after): then both queue, with this browser's one key, and the server keeps them apart
    second.evaluate("() => localStorage.removeItem('gameweave.queue_here')")
    second.click("[data-testid=quick-match]")
    second.wait_for_function("() => !!sessionStorage.getItem('gameweave.queue')")
    held[0].continue_()
    first.wait_for_function("() => !!sessionStorage.getItem('gameweave.queue')")
    key = first.evaluate("() => localStorage.getItem('gameweave.browser')")
    assert len(key) == 32 and posts[-1]["browser"] == key
    first.wait_for_timeout(1500)  # three pairings go by
    tickets = [_ticket(p) for p in (first, second)]
    assert [_status(first, t)["status"] for t in tickets] == ["waiting", "waiting"]
    cy = _lobby(new_context, DESKTOP, "en-US", name="Cy")  # another browser: it meets the older entry
    _choose(cy)
    cy.click("[data-testid=quick-match]")
    cy.wait_for_url("**/table/*", timeout=5000)
    second.wait_for_url("**/table/*", timeout=5000)  # its POST went first: the older entry
    assert second.url == cy.url and first.url.endswith("/")
    assert _status(first, tickets[0])["status"] == "waiting"
    first.click("[data-testid=cancel-queue]")
    first.wait_for_selector("[data-testid=queue-status]", state="hidden")


def test_the_other_tab_notice_goes_when_that_tab_stops_waiting(new_context):
    first, second = _two_tabs(new_context)
    first.click("[data-testid=quick-match]")
    first.wait_for_function("() => !!sessionStorage.getItem('gameweave.queue')")
    second.click("[data-testid=quick-match]")
    second.wait_for_selector("[data-testid=queue-status]:not(:empty)")
    assert "other tab" in second.inner_text("[data-testid=queue-status]")
    first.click("[data-testid=cancel-queue]")
    second.wait_for_selector("[data-testid=queue-status]", state="hidden")  # nothing left to wait for
    second.click("[data-testid=quick-match]")  # and this tab queues itself now
    second.wait_for_function("() => !!sessionStorage.getItem('gameweave.queue')")
    second.click("[data-testid=cancel-queue]")
    second.wait_for_selector("[data-testid=queue-status]", state="hidden")


def test_a_seat_that_another_tabs_write_left_out_is_put_back(new_context):
    """Two tabs saving a seat at the same moment each write the list as they read it; the
    tab whose new seat the other's write left out puts it back."""
    first = _lobby(new_context, DESKTOP, "en-US")
    second = first.context.new_page()
    second.goto("/")
    second.wait_for_selector("[data-testid=open-tables]")
    first.click("[data-testid=create-open]")
    first.wait_for_url("**/table/*")
    match_id = first.url.rsplit("/", 1)[1]
    token = first.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id)
    second.evaluate("() => localStorage.setItem('gameweave.seats', JSON.stringify({}))")  # a list read before
    second.wait_for_function("id => !!(JSON.parse(localStorage.getItem('gameweave.seats') || '{}')[id])", arg=match_id)
    assert second.evaluate("id => JSON.parse(localStorage.getItem('gameweave.seats'))[id].token", match_id) == token
    first.click("[data-testid=cancel-open]")


def _entry(live_server, ticket: str):
    """The entry as the database has it, read without counting as its player heard from
    (a status request would)."""
    from gameweave.server.lobby import ticket_hash

    return live_server.app.state.lobby.store.entry(ticket_hash(ticket), touch=False)


def test_a_closed_tab_is_nobodys_opponent_a_reloaded_one_keeps_its_place(new_context, live_server):
    """Closing the page closes its lobby socket: the server pairs that entry with nobody
    (and it leaves the queue after LEFT_S).  A reload closes the socket too, follows the
    same ticket again a moment later and keeps its place: it is then paired."""
    from sqlalchemy import select

    from gameweave.server.lobby import ticket_hash
    from gameweave.storage.schema import queue_entries

    ana = _lobby(new_context, DESKTOP, "en-US", name="Ana")
    _choose(ana)
    ana.select_option("[data-testid=rules-select]", "classic")  # a queue of this test alone
    ana.click("[data-testid=quick-match]")
    ana.wait_for_function("() => !!sessionStorage.getItem('gameweave.queue')")
    ghost = _ticket(ana)
    ana.close()  # the tab is closed
    engine = live_server.app.state.lobby.store.engine
    query = select(queue_entries.c.left_at).where(queue_entries.c.ticket_sha256 == ticket_hash(ghost))
    deadline = time.monotonic() + 3
    while True:  # its socket's close reaches the database a moment later
        with engine.connect() as conn:
            if conn.execute(query).scalar() is not None:
                break
        assert time.monotonic() < deadline, "the closed tab's entry was not marked as left"
        time.sleep(0.05)
    bea = _lobby(new_context, DESKTOP, "en-US", name="Bea")
    _choose(bea)
    bea.select_option("[data-testid=rules-select]", "classic")
    bea.click("[data-testid=quick-match]")
    bea.wait_for_timeout(1500)  # three pairings go by: none with the closed tab
    assert bea.url.endswith("/") and _entry(live_server, ghost).status == "waiting"
    bea.reload()  # Bea's reload keeps her place, and she is the one paired next
    bea.wait_for_selector("[data-testid=queue-status]:visible")
    cy = _lobby(new_context, DESKTOP, "en-US", name="Cy")
    _choose(cy)
    cy.select_option("[data-testid=rules-select]", "classic")
    cy.click("[data-testid=quick-match]")
    cy.wait_for_url("**/table/*", timeout=5000)
    bea.wait_for_url("**/table/*", timeout=5000)
    assert bea.url == cy.url and _entry(live_server, ghost).status in ("waiting", "gone")

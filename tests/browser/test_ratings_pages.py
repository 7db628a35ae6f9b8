"""Ratings in the browser (issue 20), phone and desktop, Spanish and English: the lobby's
bot choice with the levels' ladder ratings and its link to the leaderboard; the
leaderboard with a tab per profile and the provisional players marked; a profile with
its rating graph (one [data-point] per rated deal), counts and recent matches; a finished
deal's replay opened from the profile by a visitor with no seat; the table showing each
player's rating beside the name.  Screenshots go to $GAMEWEAVE_SHOTS (if set).

Rated deals are made directly in the server's database (rated matches between two
accounts, resigned deal by deal, then applied as the server applies them): the routes
that create rated matches are another part of issue 20."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from gameweave.engine import shuffled_deck
from gameweave.storage.accounts import AccountStore, SeatLink
from gameweave.storage.ratings import RatingStore
from gameweave.tables import Table, hash_token, new_token

pytestmark = pytest.mark.timeout(240)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}


def _shot(page, name: str) -> None:
    folder = os.environ.get("GAMEWEAVE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def rated(live_server):
    """Three accounts: Ana beats Ben in 4 rated deals of 4 matches (and loses one), Cy
    plays once; returns names, the last match (still in play) and Ana's token there."""
    store = live_server.app.state.hub.store
    acc, rs = AccountStore(store.engine), RatingStore(store.engine)
    tail = uuid.uuid4().hex[:4]
    names = {k: f"{k}{tail}" for k in ("Ana", "Ben", "Cy")}
    ids = {k: acc.create(n, n.lower(), "x").id for k, n in names.items()}
    last = None
    for i, (one, two, loser) in enumerate([("Ana", "Ben", 1), ("Ana", "Ben", 1), ("Ana", "Ben", 0), ("Ana", "Ben", 1),
                                            ("Cy", "Ben", 1), ("Ana", "Cy", None)]):
        table, t1 = Table.create(opponent="friend", bot=None, format="tally", target=3, deck=shuffled_deck(40 + i),
                                 salt="0f" * 16, name=names[one], rated=True)
        store.create(table)
        t2 = new_token()
        store.join(table.match_id, hash_token(t2), names[two])
        table.token_hashes[1], table.names[1] = hash_token(t2), names[two]
        acc.link_seats(ids[one], [SeatLink(table.match_id, 1, t1)])
        acc.link_seats(ids[two], [SeatLink(table.match_id, 2, t2)])
        if loser is not None:
            prev = table.version
            store.resign(table, prev, table.resign(loser, "deal"))
            assert rs.apply_deal(table.match_id, 1)
        last = (table.match_id, t1)
    return {"names": names, "live": last}


@pytest.mark.parametrize("size,lang", [("phone", "es"), ("desktop", "en"), ("phone", "en"), ("desktop", "es")])
def test_leaderboard_profile_replay_and_ratings_beside_names(new_context, rated, size, lang):
    viewport = PHONE if size == "phone" else DESKTOP
    locale = "es-MX" if lang == "es" else "en-US"
    ana, ben = rated["names"]["Ana"], rated["names"]["Ben"]
    page = new_context(viewport=viewport, locale=locale).new_page()
    page.goto("/")
    # the bot choice names each level's ladder rating
    page.wait_for_selector("#bot-select option[data-testid=rating][value=master]", state="attached")
    ladder = page.evaluate("() => fetch('/api/bots').then(r => r.json())")["ladder"]
    assert page.get_attribute("#bot-select option[value=master]", "data-rating") == str(ladder["master"])
    page.click("[data-testid=leaderboard-link]")
    page.wait_for_selector("table[data-testid=leaderboard][data-rules=gameweave]")
    board = page.evaluate("() => fetch('/api/leaderboard?rules=gameweave').then(r => r.json())")
    rows = page.locator("[data-testid=leaderboard-row]")
    assert rows.count() == len(board["players"]) >= 3
    first = board["players"][0]
    assert rows.first.locator("[data-testid=rating]").get_attribute("data-rating") == str(first["rating"])
    provisional = [p["username"] for p in board["players"] if p["provisional"]]
    assert provisional and page.locator("[data-testid=leaderboard-row][data-provisional=true]").count() == len(provisional)
    assert "?" in page.locator("[data-testid=leaderboard-row][data-provisional=true] [data-testid=rating]").first.inner_text()
    profiles = page.evaluate("() => fetch('/api/profiles').then(r => r.json())")["profiles"]
    assert page.locator("[role=tab]").count() == len(profiles) >= 2
    assert page.locator(".bots-ladder [data-testid=rating]").count() == len(ladder)
    _shot(page, f"leaderboard-{size}-{lang}")
    page.click("[role=tab][data-rules=classic]")
    page.wait_for_selector("[data-testid=leaderboard][data-rules=classic]")
    page.click("[role=tab][data-rules=gameweave]")
    page.wait_for_selector("table[data-testid=leaderboard][data-rules=gameweave]")
    # Ana's profile: one chart point per rated deal, her rating, her record
    page.click(f"[data-testid=leaderboard-row] a:text-is('{ana}')")
    page.wait_for_selector("svg[data-testid=profile-chart]")
    prof = page.evaluate(f"() => fetch('/api/players/{ana}').then(r => r.json())")
    (g,) = prof["ratings"]
    assert page.locator("svg[data-testid=profile-chart] [data-point]").count() == g["deals"] == 4
    badge = page.locator(".profile-block [data-testid=rating]")
    assert badge.get_attribute("data-rules") == "gameweave" and badge.get_attribute("data-rating") == str(g["rating"])
    assert "3" in page.inner_text("[data-testid=player-counts]")
    page_text = page.inner_text("main")
    assert rated["live"][1] not in page.content() and ben in page_text
    _shot(page, f"profile-{size}-{lang}")
    # a visitor (this browser holds no seat) watches a finished deal from the profile
    page.locator("[data-testid=profile-replay]").first.click()
    page.wait_for_selector("[data-testid=replay-next]")
    assert page.locator("[data-testid=replay-deals]").count() == 1
    _shot(page, f"profile-replay-{size}-{lang}")
    # the table shows each player's rating beside the name (Ana's live rated match with Cy)
    mid, token = rated["live"]
    seats = json.dumps({mid: {"seat": 1, "token": token, "opponent": "friend"}})
    page.evaluate(f"() => localStorage.setItem('gameweave.seats', {json.dumps(seats)})")
    page.goto(f"/table/{mid}")
    page.wait_for_selector("[data-testid=rating][data-rules=gameweave]")
    shown = page.locator(".rating-chip [data-testid=rating]")
    assert shown.count() == 2
    assert shown.first.get_attribute("data-rating") == str(g["rating"])
    _shot(page, f"table-ratings-{size}-{lang}")
    page.goto("/")
    page.wait_for_selector(f"[data-testid=my-matches] li[data-match='{mid}'] [data-testid=rating]")
    _shot(page, f"lobby-ratings-{size}-{lang}")
    missing = page.request.get("/api/players/nobody-here")
    assert missing.status == 404

"""Reconnect mid-deal gets the exact current view; a server restart on the same database
continues every match identically (same deck, same next decision), bots included."""

from __future__ import annotations

import random

from gameweave.engine import CARD_NAMES, GameState, shuffled_deck


def same_view(a: dict, b: dict) -> None:
    """Two state frames of one seat agree on everything but presence."""
    assert a["version"] == b["version"]
    assert a["view"] == b["view"]
    assert a["deal"] == b["deal"]
    strip = lambda m: {k: v for k, v in m.items() if k != "opponent"}  # noqa: E731
    assert strip(a["match"]) == strip(b["match"])


def play_some(seats: dict, rng: random.Random, n: int) -> list[str]:
    done = []
    for _ in range(n):
        view = seats[1].state["view"]
        if view["status"] != "playing":
            break
        s = view["to_act"]
        action = rng.choice(seats[s].state["view"]["legal"])
        seats[s].act(action)
        seats[1].recv_state(), seats[2].recv_state()
        done.append(action)
    return done


def test_reconnect_mid_deal_gets_the_exact_current_view(db_url, table_server, ws_seat, friend_match):
    client = table_server(db_url)
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    seats = {1: ws_seat(client, mid, 1, m1["token"]), 2: ws_seat(client, mid, 2, m2["token"])}
    seats[1].recv_state()
    play_some(seats, random.Random(5), 9)
    before = {s: seats[s].state for s in (1, 2)}
    seats[1].close()
    gone = seats[2].recv_state()  # seat 2 hears seat 1 left; nothing else changed
    assert gone["match"]["opponent"]["connected"] is False and gone["version"] == before[2]["version"]
    again = ws_seat(client, mid, 1, m1["token"])
    same_view(again.state, before[1])
    assert seats[2].recv_state()["match"]["opponent"]["connected"] is True


def test_restart_on_the_same_database_continues_identically(db_url, table_server, ws_seat, friend_match):
    deck = shuffled_deck(77)
    client = table_server(db_url, decks=[deck])
    m1, m2 = friend_match(client, format="first_to", target=1)
    mid = m1["match_id"]
    seats = {1: ws_seat(client, mid, 1, m1["token"]), 2: ws_seat(client, mid, 2, m2["token"])}
    seats[1].recv_state()
    rng = random.Random(11)
    played = play_some(seats, rng, 12)
    before = {s: seats[s].state for s in (1, 2)}
    assert before[1]["view"]["status"] == "playing"
    for s in (1, 2):
        seats[s].close()
    client.__exit__(None, None, None)  # the server stops

    client2 = table_server(db_url)  # a new server process on the same database
    seats = {1: ws_seat(client2, mid, 1, m1["token"]), 2: ws_seat(client2, mid, 2, m2["token"])}
    seats[1].recv_state()
    for s in (1, 2):
        same_view(seats[s].state, before[s])
    # the same next decision as the engine gives for the same deck and actions
    truth = GameState.new(deck, opener=0)
    truth.play_all(played)
    to_act = truth.to_act + 1
    assert seats[to_act].state["view"]["legal"] == truth.legal_texts()
    # continue to the end: the revealed deck is the one dealt before the restart
    rest = play_some(seats, rng, 400)
    truth.play_all(rest)
    end = seats[1].state
    assert end["view"]["status"] == truth.status != "playing"
    assert end["deal"]["reveal"]["deck"] == " ".join(CARD_NAMES[c] for c in deck)
    r = client2.get(f"/api/matches/{mid}/deals/1/record", headers={"Authorization": f"Bearer {m1['token']}"})
    assert r.json()["record"]["actions"] == played + rest
    assert end["match"]["over"] is (truth.status == "won")


def test_restart_wakes_a_bot_that_was_to_act(db_url, table_server, ws_seat):
    client = table_server(db_url, bot_delay=30.0)  # the bot would wait 30 s: stop first
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    s1.act("turn")
    s1.recv_state()
    s1.act("refuse")
    after = s1.recv_state()
    assert after["view"]["to_act"] == 2  # the bot's decision
    s1.close()
    client.__exit__(None, None, None)

    client2 = table_server(db_url, bot_delay=0.0)
    s1 = ws_seat(client2, m["match_id"], 1, m["token"])
    frame = s1.state
    for _ in range(50):
        if frame["view"]["to_act"] != 2 or frame["view"]["status"] != "playing":
            break
        frame = s1.recv_state()
    assert frame["version"] > after["version"]
    assert frame["view"]["history"][: len(after["view"]["history"])] == after["view"]["history"]
    assert any(h["seat"] == 2 for h in frame["view"]["history"])

"""R21 through the wire: 200 deals between two random clients driven over the WebSocket
protocol; no frame a seat receives before its deal ends names any card of the opponent's
hand or of the stock (checked on the raw text of every frame)."""

from __future__ import annotations

import random
import re

import pytest

from gameweave.engine import CARD_NAMES, FULL_MASK

# a card name as a separate word: ids, tokens, salts and commitments are hex runs, so a
# "2d" inside one is never a word of its own
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][cdhs])(?![A-Za-z0-9])")
NAME_TO_CARD = {n: i for i, n in enumerate(CARD_NAMES)}


def hidden_from(state, seat: int) -> int:
    """40-bit mask of what ``seat`` (0/1) must not see now: opponent's hand + stock."""
    stock = 0
    for c in state.deck[state.stock_pos:]:
        stock |= 1 << c
    return (state.hands[1 - seat] | stock) & FULL_MASK


def leaked(raw: str, hidden: int) -> list[str]:
    return [w for w in CARD_WORD.findall(raw) if hidden >> NAME_TO_CARD[w] & 1]


@pytest.mark.long  # about 27 s alone on a quiet machine: 200 deals over two sockets
def test_r21_200_random_deals_over_websockets_never_show_hidden_cards(table_server, ws_seat, friend_match, tmp_path):
    # clients here are faster than people: lift the per-socket rate limit
    client = table_server(f"sqlite:///{tmp_path / 'leak.db'}", ws_burst=1e6, ws_rate=1e6)
    hub = client.app.state.hub
    rng = random.Random(2126)
    deals_wanted, per_match = 200, 25
    deals_done = frames_checked = 0
    while deals_done < deals_wanted:
        m1, m2 = friend_match(client, format="tally")
        mid = m1["match_id"]
        seats = {0: ws_seat(client, mid, 1, m1["token"])}
        seats[1] = ws_seat(client, mid, 2, m2["token"])
        seats[0].recv_state()  # presence: seat 2 connected
        table = hub.tables[mid]
        for s in (0, 1):
            seats[s].frames.clear()
        for _deal_no in range(per_match):
            while True:
                # check the frames both seats hold now, against the truth at this moment
                for s in (0, 1):
                    for raw in seats[s].frames:
                        if '"status":"playing"' in raw:
                            assert seats[s].state["version"] == table.version
                            bad = leaked(raw, hidden_from(table.state, s))
                            assert not bad, f"seat {s + 1} saw hidden cards {bad}"
                            assert '"reveal":null' in raw and '"opponent_hand":null' in raw
                            frames_checked += 1
                    seats[s].frames.clear()
                view = seats[0].state["view"]
                if view["status"] != "playing":
                    break
                s = view["to_act"] - 1
                seats[s].act(rng.choice(seats[s].state["view"]["legal"]))
                f0, f1 = seats[0].recv(), seats[1].recv()
                assert f0["type"] == f1["type"] == "state", (f0, f1)
            deals_done += 1
            if deals_done >= deals_wanted:
                break
            # both seats move on, in a random order (each seat's own pace, issue 10)
            s = rng.randrange(2)
            for who in (s, 1 - s):
                seats[who].send({"type": "next_deal", "version": seats[who].state["version"]})
                seats[0].recv_state(), seats[1].recv_state()
            # a fresh view from HTTP is checked too
            r = client.get(f"/api/matches/{mid}/view", headers={"Authorization": f"Bearer {m1['token']}"})
            assert not leaked(r.text, hidden_from(table.state, 0))
        for s in (0, 1):
            seats[s].close()
    assert deals_done == 200 and frames_checked > 200 * 20


def test_r21_log_lines_hold_no_cards_tokens_or_invites(table_server, ws_seat, friend_match, tmp_path, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    client = table_server(f"sqlite:///{tmp_path / 'logs.db'}", ws_burst=1e6, ws_rate=1e6)
    m1, m2 = friend_match(client)
    mid = m1["match_id"]
    s1, s2 = ws_seat(client, mid, 1, m1["token"]), ws_seat(client, mid, 2, m2["token"])
    s1.recv_state()
    rng = random.Random(4)
    seats = {1: s1, 2: s2}
    while s1.state["view"]["status"] == "playing":
        s = s1.state["view"]["to_act"]
        seats[s].act(rng.choice(seats[s].state["view"]["legal"]))
        s1.recv_state(), s2.recv_state()
    s2.act("turn")  # a refused action is not logged with its text either
    s2.recv()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "match " + mid in text  # the server does log
    assert not CARD_WORD.findall(text)
    invite = m1["invite_url"].rsplit("/", 1)[1]
    for secret in (m1["token"], m2["token"], invite):
        assert secret not in text


def test_a_socket_that_never_says_hello_is_closed(table_server, tmp_path):
    import pytest
    from starlette.websockets import WebSocketDisconnect

    client = table_server(f"sqlite:///{tmp_path / 'hello.db'}", hello_timeout=0.2)
    m = client.post("/api/matches", json={"opponent": "friend"}).json()
    with client.websocket_connect(f"/ws/{m['match_id']}") as ws:
        assert ws.receive_json()["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4400

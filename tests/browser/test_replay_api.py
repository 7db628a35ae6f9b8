"""The replay endpoint the page's replay view draws from (no browser needed).

R21: both hands appear only for a deal that has ended; while it is played the endpoint
answers 409 deal_not_over.
"""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from gameweave.engine import GameRecord
from gameweave.engine.record import snapshot
from gameweave.server import create_app


def _play_out(client: TestClient, match_id: str, token: str, seed: int = 7) -> dict:
    """Play seat 1 with random legal actions until the deal ends; returns the last frame."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{match_id}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": token})
        while True:
            frame = ws.receive_json()
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["status"] != "playing":
                return frame
            if view["legal"]:
                ws.send_json({"type": "action", "action": rng.choice(view["legal"]), "version": frame["version"]})


def test_r21_replay_only_after_the_deal_and_matches_the_record(tmp_path):
    app = create_app(database_url=f"sqlite:///{tmp_path / 'gw.db'}", bot_delay=0.0)
    with TestClient(app) as client:
        created = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
        mid, token = created["match_id"], created["token"]
        auth = {"Authorization": f"Bearer {token}"}
        early = client.get(f"/api/matches/{mid}/deals/1/replay", headers=auth)
        assert early.status_code == 409
        assert early.json()["error"]["code"] == "deal_not_over"
        assert client.get(f"/api/matches/{mid}/deals/1/replay").status_code == 401
        assert client.get(f"/api/matches/{mid}/deals/1/replay", headers={"Authorization": "Bearer x"}).status_code == 401

        last = _play_out(client, mid, token)
        body = client.get(f"/api/matches/{mid}/deals/1/replay", headers=auth).json()
        record = GameRecord.from_dict(body["record"])
        assert body["record"] == client.get(f"/api/matches/{mid}/deals/1/record", headers=auth).json()["record"]
        assert len(body["snapshots"]) == len(record.actions) + 1
        assert [e["action"] for e in body["history"]] == record.actions
        assert body["history"] == last["view"]["history"]
        # the first snapshot is the deal as dealt (R8), the last the final position
        assert body["snapshots"][0] == snapshot(record.start())
        assert body["snapshots"][-1] == snapshot(record.replay())
        assert body["snapshots"][-1]["status"] == last["view"]["status"] != "playing"
        # who plays each seat (the page names them) and how many deals the match has
        assert body["seats"] == {"1": {"kind": "person", "bot": None, "name": None}, "2": {"kind": "bot", "bot": "random", "name": None}}
        assert body["deals"] == 1
        assert client.get(f"/api/matches/{mid}/deals/9/replay", headers=auth).json()["error"]["code"] == "unknown_deal"

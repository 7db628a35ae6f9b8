"""``POST /api/matches/{id}/invite-status``: the page's pre-check before joining by
invite (no browser needed).  It always answers 200 and never takes the seat."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gameweave.server import create_app


def test_invite_status_says_open_used_wrong_or_unknown(tmp_path):
    app = create_app(database_url=f"sqlite:///{tmp_path / 'gw.db'}", bot_delay=0.0)
    with TestClient(app) as client:
        made = client.post("/api/matches", json={"opponent": "friend"}).json()
        match_id = made["match_id"]
        invite = made["invite_url"].rstrip("/").split("/")[-1]

        def status(mid: str, inv: str) -> dict:
            r = client.post(f"/api/matches/{mid}/invite-status", json={"invite": inv})
            assert r.status_code == 200
            return r.json()

        assert status(match_id, invite) == {"open": True, "code": None, "hints": False}
        assert status(match_id, invite) == {"open": True, "code": None, "hints": False}  # asking takes nothing
        assert status(match_id, "0" * 32) == {"open": False, "code": "bad_invite", "hints": False}
        assert status("0123456789abcdef", invite) == {"open": False, "code": "unknown_match", "hints": False}

        assert client.post(f"/api/matches/{match_id}/join", json={"invite": invite}).status_code == 200
        assert status(match_id, invite) == {"open": False, "code": "already_joined", "hints": False}

        bot = client.post("/api/matches", json={"opponent": "bot", "bot": "random"}).json()
        assert status(bot["match_id"], invite) == {"open": False, "code": "not_a_friend_match", "hints": True}

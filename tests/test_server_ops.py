"""Operable: /metrics (Prometheus text), /api/ready, JSON log lines, one settings object,
and the serve flags for several nodes failing as one plain line."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

from gameweave.engine.conformance import build_deck

DECK = build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s", "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h")


def test_metrics_count_actions_refusals_sockets_and_matches(table_server, tmp_path, friend_match, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'ops.db'}", decks=[DECK])
    m1, _ = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s1.act("turn")
    s1.recv_state()
    s1.act("turn")  # illegal now
    assert s1.recv()["code"] == "illegal"
    client.post("/api/matches", json={"target": "3"})  # 422 malformed
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    node = client.app.state.settings.node_id
    assert f'gameweave_actions_total{{node="{node}"}} 1.0' in text
    assert f'gameweave_refusals_total{{code="illegal",node="{node}"}} 1.0' in text
    assert f'gameweave_refusals_total{{code="malformed",node="{node}"}} 1.0' in text
    assert f'gameweave_sockets{{node="{node}"}} 1.0' in text
    assert f'gameweave_live_matches{{node="{node}"}} 1.0' in text
    assert "gameweave_action_round_trip_seconds_bucket" in text and "gameweave_bot_think_seconds_count" in text


def test_bot_think_time_is_measured(table_server, tmp_path, ws_seat):
    client = table_server(f"sqlite:///{tmp_path / 'ops.db'}", decks=[DECK])
    m = client.post("/api/matches", json={"opponent": "bot", "bot": "greedy"}).json()
    s1 = ws_seat(client, m["match_id"], 1, m["token"])
    for action in ("turn", "meld 4h 5h 6h", "throw Kd"):
        s1.act(action)
        s1.recv_state()
    while s1.state["view"]["to_act"] != 1 and s1.state["view"]["status"] == "playing":
        s1.recv_state()
    text = client.get("/metrics").text
    count = [line for line in text.splitlines() if line.startswith("gameweave_bot_think_seconds_count")]
    assert count and float(count[0].split()[-1]) >= 1


def test_ready_checks_the_database_and_says_redis_is_not_used(table_server, tmp_path):
    client = table_server(f"sqlite:///{tmp_path / 'ops.db'}")
    r = client.get("/api/ready")
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True and body["database"] is True and body["redis"] is None and body["node"]
    assert client.get("/api/health").json() == {"ok": True}


def test_every_api_route_has_a_response_model(table_server, tmp_path):
    client = table_server(f"sqlite:///{tmp_path / 'ops.db'}")
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok and "$ref" in json.dumps(ok), (method, path)


def test_settings_read_the_environment_and_arguments_win(monkeypatch):
    from gameweave.server.settings import Settings

    monkeypatch.setenv("GAMEWEAVE_REDIS_PREFIX", "club")
    monkeypatch.setenv("GAMEWEAVE_BOT_DELAY", "1.5")
    s = Settings(bot_delay=0.2)
    assert s.redis_prefix == "club" and s.bot_delay == 0.2 and s.redis_url is None


def test_json_log_lines_and_one_plain_line_for_a_non_utf8_frame():
    from gameweave.server.logs import ClientMistakeFilter, JsonFormatter

    try:
        b"\xff".decode()
    except UnicodeDecodeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                               "Invalid UTF-8 sequence received from client.", (), exc_info)
    assert ClientMistakeFilter().filter(record)
    line = JsonFormatter(node="a").format(record)
    obj = json.loads(line)
    assert "\n" not in line and obj["level"] == "warning" and obj["node"] == "a"
    assert "not valid UTF-8" in obj["message"] and "error" not in obj


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from gameweave.cli import main; main()", "serve", *args],
                          capture_output=True, text=True, timeout=60)


def test_serve_redis_needs_postgresql_and_a_reachable_redis_in_one_line(tmp_path):
    r = _serve("--port", "0", "--data-dir", str(tmp_path), "--redis-url", "redis://127.0.0.1:6379/0")
    assert r.returncode == 2 and r.stderr.strip().startswith("error: --redis-url needs a shared database")
    r = _serve("--port", "0", "--database-url", "postgresql+psycopg://postgres@127.0.0.1:5432/x",
               "--redis-url", "redis://127.0.0.1:1/0")
    assert r.returncode == 2 and r.stderr.strip().startswith("error: cannot reach Redis at redis://127.0.0.1:1/0")
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = _serve("--port", "0", "--data-dir", str(tmp_path), "--log-format", "yaml")
    assert r.returncode == 2 and "--log-format must be text or json" in r.stderr

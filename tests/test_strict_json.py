"""Strict JSON at every door (a fresh user's finds, issue 18): ``NaN``/``Infinity`` are
not JSON (PROTOCOL §4.2: a frame that is not JSON text is ``malformed`` before any other
check, whichever seat sends it), and a record nested too deep to read is an unreadable
file (exit status 2, one line), not a traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.engine import UnparsableError, parse_json


@pytest.mark.parametrize("text", ["NaN", '{"version": Infinity}', "[-Infinity]", "[" * 100_000 + "]" * 100_000,
                                  "1" * 5000, '{"a": '])
def test_parse_json_refuses_what_is_not_json_text_with_a_reason(text):
    with pytest.raises(UnparsableError, match="^not JSON") as exc:
        parse_json(text)
    assert exc.value.reason == ("json_constant" if "N" in text[:30] or "Infinity" in text else "not_json")
    assert parse_json('{"version": 8, "x": [1.5, null]}') == {"version": 8, "x": [1.5, None]}


@pytest.mark.parametrize("command", [["replay"], ["analyze", "--worlds", "2"], ["verify"]])
@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000, '{"rules": "gameweave", "opener": NaN}'])
def test_a_record_nested_too_deep_or_with_nan_is_one_error_line_and_exit_2(tmp_path, command, body):
    path = tmp_path / "bad.json"
    path.write_text(body, encoding="utf-8")
    res = CliRunner().invoke(app, [*command, str(path)])
    assert res.exit_code == 2, (res.exit_code, res.output[-500:])
    assert res.exception is None or isinstance(res.exception, SystemExit)
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: ") and "not JSON" in line and "Traceback" not in res.output, line


def test_r21_a_frame_with_nan_is_malformed_for_either_seat_and_changes_nothing(tmp_path, table_server, ws_seat,
                                                                               friend_match):
    client = table_server(f"sqlite:///{tmp_path / 'n.db'}")
    m1, m2 = friend_match(client)
    s1 = ws_seat(client, m1["match_id"], 1, m1["token"])
    s2 = ws_seat(client, m1["match_id"], 2, m2["token"])
    version = s1.state["version"]
    for seat in (s1, s2):  # seat 1 has the turn; seat 2 would otherwise hear not_your_turn
        for constant in ("NaN", "Infinity", "-Infinity"):
            seat.ws.send_text(f'{{"type": "action", "action": "turn", "version": {constant}}}')
            err = seat.recv()
            while err["type"] != "error":  # a state frame (the other seat came online) may come first
                err = seat.recv()
            assert (err["type"], err["code"], err["message"]) == ("error", "malformed", "not JSON"), err
    s1.send({"type": "hello", "seat": 1, "token": m1["token"]})
    f = s1.recv()
    while f["type"] != "state":
        f = s1.recv()
    assert f["version"] == version and f["view"]["history"] == []  # nothing moved

"""``gameweave replay FILE [--json] [--trace]`` on hand-written records (RULES §VII).

tests/records/won.json — one record: seat 2 wins with 7h Jh Qh Kh (R16); its last action
is written ``MELD kh qh jh 7♥`` (case, order and suit symbols are free, R3).
tests/records/several.jsonl — five records, one per line:
  1. the forcing chain (R15), ending with seat 1 to take_or_turn Ks where only ``turn``
     is legal;
  2. an illegal action at step 4 (``throw 6h``: seat 2 does not hold it) with more after;
  3. a line that is not JSON;
  4. seat 2 opens and turns 5h: meld_or_refuse with six sequences (R12);
  5. both seats turn and refuse until the stock is gone, then ``turn``: tablas (R17).
"""

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from gameweave.cli import app

RECORDS = Path(__file__).parent / "records"
WON = RECORDS / "won.json"
SEVERAL = RECORDS / "several.jsonl"
KEYS = {"status", "winner", "to_act", "decision", "live", "live_from", "stock", "seats", "legal"}


def cli(*args: str):
    """Run the CLI in-process; returns the click Result (stdout, stderr, exit_code)."""
    return CliRunner().invoke(app, ["replay", *map(str, args)])


def objects(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ------------------------------------------------------------------ --json


def test_replay_json_prints_the_final_state_of_a_won_deal():
    res = cli(WON, "--json")
    assert res.exit_code == 0, res.output
    [obj] = objects(res.stdout)
    assert set(obj) == KEYS
    assert obj == {
        "status": "won", "winner": 2, "to_act": None, "decision": None,
        "live": None, "live_from": None, "stock": 17,
        "seats": {
            "1": {"hand": ["2d", "3h", "5s", "6c", "6s", "Jc", "Jd", "Qc", "Qs", "Kd"], "melds": []},
            "2": {"hand": [], "melds": [["2c", "3c", "4c"], ["4d", "5d", "6d", "7d"], ["7h", "Jh", "Qh", "Kh"]]},
        },
        "legal": [],
    }


def test_replay_json_several_records_reports_good_ones_and_names_bad_ones():
    res = cli(SEVERAL, "--json")
    assert res.exit_code == 2
    objs = objects(res.stdout)
    assert len(objs) == 3  # records 1, 4 and 5; the ones after the bad records still come
    assert all(set(o) == KEYS for o in objs)
    chain, turned, tablas = objs
    # R13/R10: a live card from the opponent -> take_or_turn even if only 'turn' is legal
    assert chain == {
        "status": "playing", "winner": None, "to_act": 1, "decision": "take_or_turn",
        "live": "Ks", "live_from": 2, "stock": 19,
        "seats": {
            "1": {"hand": ["Ad", "2s", "3d", "Jd", "Qs", "Kd"], "melds": [["4h", "5h", "6h", "7h"]]},
            "2": {"hand": ["6d", "7d", "7s", "Js", "Qh"], "melds": [["2c", "3c", "4c", "5c", "6c"]]},
        },
        "legal": ["turn"],
    }
    # a turned card awaiting meld_or_refuse is 'live' with live_from null
    assert (turned["to_act"], turned["decision"], turned["live"], turned["live_from"]) == (
        2, "meld_or_refuse", "5h", None)
    assert turned["legal"] == [
        "meld 3h 4h 5h", "meld 3h 4h 5h 6h", "meld 3h 4h 5h 6h 7h",
        "meld 4h 5h 6h", "meld 4h 5h 6h 7h", "meld 5h 6h 7h", "refuse",
    ]
    assert turned["seats"]["2"]["hand"] == ["2c", "3d", "3h", "4h", "6h", "7h", "Jd", "Qc", "Kc", "Ks"]
    assert tablas == {
        "status": "tablas", "winner": None, "to_act": None, "decision": None,
        "live": None, "live_from": None, "stock": 0,
        "seats": {
            "1": {"hand": ["Ac", "2s", "3d", "4h", "5c", "6d", "7h", "Jc", "Kc", "Kd"], "melds": []},
            "2": {"hand": ["Ad", "Ah", "2c", "2d", "3c", "3h", "4c", "4d", "5d", "5h"], "melds": []},
        },
        "legal": [],
    }
    errors = res.stderr.strip().splitlines()
    assert len(errors) == 2
    assert "record 2" in errors[0] and "step 4" in errors[0] and "throw 6h" in errors[0]
    assert "not in seat 2's hand" in errors[0]
    assert "record 3" in errors[1] and "not JSON" in errors[1]
    assert "Traceback" not in res.output


# ------------------------------------------------------------------ --trace


def test_replay_json_trace_prints_one_object_before_every_action_plus_the_final_one():
    res = cli(WON, "--json", "--trace")
    assert res.exit_code == 0, res.output
    objs = objects(res.stdout)
    assert len(objs) == 11 + 1
    assert all(set(o) == KEYS for o in objs)
    first, turned, refused, melded = objs[:4]
    assert (first["decision"], first["to_act"], first["stock"], first["live"], first["legal"]) == (
        "turn", 1, 20, None, ["turn"])
    assert (turned["decision"], turned["live"], turned["live_from"], turned["stock"]) == (
        "meld_or_refuse", "4c", None, 19)
    assert turned["legal"] == ["refuse"]
    assert (refused["decision"], refused["to_act"], refused["live"], refused["live_from"]) == (
        "take_or_turn", 2, "4c", 1)
    assert refused["legal"] == ["meld 2c 3c 4c", "turn"]
    assert (melded["decision"], melded["to_act"], melded["live"]) == ("throw", 2, None)
    assert objs[-2]["legal"] == ["meld 7h Jh Qh", "meld 7h Jh Qh Kh", "turn"]
    assert objs[-1]["status"] == "won" and objs[-1]["winner"] == 2


def test_replay_trace_bad_record_prints_states_up_to_the_bad_step():
    res = cli(SEVERAL, "--json", "--trace")
    assert res.exit_code == 2
    objs = objects(res.stdout)
    # record 1: 9 actions + final; record 2: 4 states before its steps 1-4, no final;
    # record 4: 1 + final; record 5: 41 + final
    assert len(objs) == (9 + 1) + 4 + (1 + 1) + (41 + 1)
    assert objs[13]["decision"] == "throw" and objs[13]["to_act"] == 2


def test_replay_text_trace_shows_each_step_in_words():
    res = cli(WON, "--trace")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "seat 1 turns 4c" in out
    assert "seat 2: meld 2c 3c 4c" in out
    assert "seat 2 won with eleven melded cards" in out


def test_replay_text_mode_summarises_each_record():
    res = cli(SEVERAL)
    assert res.exit_code == 2
    assert res.stdout.count("Record ") == 4  # record 3 could not be read at all
    assert "tablas" in res.stdout
    assert "still playing: seat 1 to take or turn, Ks in the centre (let go by seat 2)" in res.stdout


# ------------------------------------------------------------------ errors


def test_replay_exit_status_2_and_no_traceback_in_a_real_process():
    proc = subprocess.run(
        [sys.executable, "-c", "from gameweave.cli import main; main()", "replay", str(SEVERAL), "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert len(objects(proc.stdout)) == 3
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: record ") for line in lines)
    assert "Traceback" not in proc.stderr


def test_replay_unknown_profile_is_one_error_line(tmp_path):
    rec = json.loads(WON.read_text(encoding="utf-8"))
    rec["rules"] = "poker"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    res = cli(path, "--json")
    assert res.exit_code == 2
    assert res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: record 1") and "unknown rule profile 'poker'" in line
    assert "Traceback" not in res.output


def test_replay_a_gameweave_record_under_pagat_stops_where_r18_differs(tmp_path):
    # pagat = anglo-american: "meld 4d 5d 6d 7d" is there a whole table (R18), which
    # would drop seat 2's meld 2c 3c 4c: one error line naming the step and the rule
    rec = json.loads(WON.read_text(encoding="utf-8"))
    rec["rules"] = "pagat"
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    res = cli(path, "--json")
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: record 1, step 7, action 'meld 4d 5d 6d 7d': not one of the ways seat 2 can meld 7d (R18")


def test_replay_missing_file_is_a_usage_error():
    res = cli(RECORDS / "no-such-file.json")
    assert res.exit_code == 2
    assert "Traceback" not in res.output

"""``gameweave analyze FILE`` (issue 11): the win chance of each decision of a recorded
deal and of the best alternative, mistakes marked, ``--json``/``--out``, ``--rules`` for
records that name none; every estimate from the deciding seat's view only (R21).

tests/records/won.json: seat 2 wins with 7h Jh Qh Kh (R16) after five decisions.
tests/records/classic_stakes_match.json: a classic match record (analysed deal by deal).
"""

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from gameweave.bots.advice import analyze_record
from gameweave.cli import app
from gameweave.engine import GameState, format_action, load_records, seat_view
from gameweave.engine.record import GameRecord
from gameweave.bots import make_bot

RECORDS = Path(__file__).parent / "records"
WON = RECORDS / "won.json"
MATCH = RECORDS / "classic_stakes_match.json"


def cli(*args: str):
    return CliRunner().invoke(app, ["analyze", *map(str, args)])


def test_analyze_prints_each_decision_with_win_chances():
    res = cli(WON, "--worlds", "32")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert "won by seat 2" in lines[0]
    rows = [ln for ln in lines if re.match(r"^\s+\d+\s+[12]\s", ln)]
    rec = load_records(WON.read_text())[0]
    a = analyze_record(rec, worlds=32)
    assert len(rows) == len(a.decisions) == 5
    for row, d in zip(rows, a.decisions):
        assert format_action(d.played.action) in row
        assert f"{100 * d.played.score:5.1f}%" in row
        assert ("mistake" in row) == d.mistake
    assert lines[-1].startswith("analysed 5 decisions in ")


def test_analyze_json_matches_the_library_and_out_file(tmp_path):
    out = tmp_path / "a.json"
    res = cli(WON, "--json", "--worlds", "32", "--seed", "3", "--out", out)
    assert res.exit_code == 0, res.output
    objs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert len(objs) == 1
    d = objs[0]
    rec = load_records(WON.read_text())[0]
    lib = analyze_record(rec, worlds=32, seed=3).to_dict()
    for key in ("rules", "status", "winner", "decisions", "mistakes"):
        assert d[key] == lib[key]
    assert d["winner"] == 2
    for x in d["decisions"]:
        assert x["best_win_chance"] >= x["played_win_chance"]
        assert x["mistake"] == (x["drop"] >= 0.1 - 1e-9)
        assert x["samples"] == 32
    saved = json.loads(out.read_text())
    assert [s["decisions"] for s in saved] == [d["decisions"]]


def test_analyze_one_seat_and_a_match_record():
    res = cli(MATCH, "--json", "--worlds", "8", "--seat", "1")
    assert res.exit_code == 0, res.output
    objs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert len(objs) > 1 and all(o["rules"] == "classic" for o in objs)
    assert all(x["seat"] == 1 for o in objs for x in o["decisions"])


def test_analyze_rules_for_records_that_name_none(tmp_path):
    st = GameState.new(seed=4, rules="classic")
    g = make_bot("greedy", seed=1)
    decisions = 0
    while decisions < 6:
        v = seat_view(st, st.to_act)
        decisions += len(v.legal) > 1
        st.apply(g.choose(v))
    assert not st.is_over
    obj = GameRecord.from_state(st).to_dict()
    del obj["rules"]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(obj))
    res = cli(f, "--json", "--worlds", "8", "--rules", "classic")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["rules"] == "classic" and d["status"] == "playing" and d["decisions"]
    # without --rules the record is read as gameweave, where its actions are illegal
    bad = cli(f, "--worlds", "8")
    assert bad.exit_code == 2 and "error:" in bad.stderr


def test_analyze_errors_are_one_line(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("not json")
    res = cli(f)
    assert res.exit_code == 2 and res.stderr.startswith("error: record 1: cannot read it")
    res = cli(WON, "--level", "grandmaster")
    assert res.exit_code == 2 and "unknown level" in res.stderr
    res = cli(WON, "--rules", "mexican")
    assert res.exit_code == 2 and "Traceback" not in res.output

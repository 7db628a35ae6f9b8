"""``gameweave analyze FILE`` (issue 11): the win chance of each decision of a recorded
deal and of the best alternative, mistakes marked, ``--json``/``--out``, ``--rules`` for
records that name none; every estimate from the deciding seat's view only (R21).

tests/records/won.json: seat 2 wins with 7h Jh Qh Kh (R16) after five decisions.
tests/records/classic_stakes_match.json: a classic match record (analysed deal by deal).

Issue 19: chances are shown as whole percentages rounded as the page rounds them
(``tables.chart.percent``), and ``--svg FILE`` writes the win-chance graph the page draws
(placed by ``tables.chart.chart_geometry``).
"""

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from gameweave.bots.advice import analyze_record
from gameweave.cli import app
from gameweave.engine import GameState, format_action, load_records, seat_view
from gameweave.engine.record import GameRecord
from gameweave.i18n import translate
from gameweave.bots import make_bot
from gameweave.tables.chart import GAP, PLOT, chart_geometry, percent

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
    # the words under each decision are the deciding seat's ("you"): a legend says so once
    assert lines[2].strip() == translate("analyze.you_legend", "en")
    rows = [ln for ln in lines if re.match(r"^\s+\d+\s+[12]\s", ln)]
    rec = load_records(WON.read_text())[0]
    a = analyze_record(rec, worlds=32)
    assert len(rows) == len(a.decisions) == 5
    for row, d in zip(rows, a.decisions):
        assert format_action(d.played.action) in row
        assert f"{percent(round(d.played.score, 4)):3d}%" in row  # as the page rounds it
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
    assert "decisions" not in res.stdout  # no total of nothing analysed
    res = cli(WON, "--level", "grandmaster")
    assert res.exit_code == 2 and "unknown level" in res.stderr
    res = cli(WON, "--rules", "mexican")
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_percent_rounds_half_up_on_the_four_decimals_the_json_gives():
    assert [percent(x) for x in (0.0, 0.004, 0.005, 0.5549, 0.555, 0.1249, 0.125, 0.9951, 1.0)] == [
        0, 0, 1, 55, 56, 12, 13, 100, 100]


SVG = "{http://www.w3.org/2000/svg}"


def _charts(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return [e for e in root.iter(f"{SVG}svg") if e.get("data-testid") == "win-chart"]


def test_analyze_svg_writes_the_graph_of_the_json(tmp_path):
    """One ``[data-step]`` dot per decision, with the deciding seat and its chance exactly
    as ``--json`` gives it, at the place ``chart_geometry`` gives; mistakes marked."""
    svg = tmp_path / "won.svg"
    res = cli(WON, "--json", "--worlds", "32", "--svg", svg)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    (chart,) = _charts(svg)
    assert "record 1" in chart.get("aria-label")
    dots = chart.findall(f"{SVG}circle[@data-step]")
    assert [(int(c.get("data-step")), int(c.get("data-seat")), float(c.get("data-chance")), c.get("data-mistake") == "true")
            for c in dots] == [(x["step"], x["seat"], x["played_win_chance"], x["mistake"]) for x in d["decisions"]]
    # written as the page writes it (JavaScript's String(x)): a sure win is "1"
    assert any(c.get("data-chance") == "1" for c in dots) and not any(c.get("data-chance").endswith(".0") for c in dots)
    geometry = chart_geometry(d["decisions"], len(load_records(WON.read_text())[0].actions))
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in dots] == [(p["x"], p["y"]) for p in geometry["points"]]
    for c in dots:  # up by the chance: 100 % at the top of the plot, 0 % at its bottom
        chance = float(c.get("data-chance"))
        assert abs(float(c.get("cy")) - (PLOT["bottom"] - chance * (PLOT["bottom"] - PLOT["top"]))) < 0.06
        assert f"{percent(chance)}%" in c.find(f"{SVG}title").text
    legend = [t.text for t in chart.findall(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["seat 1", "seat 2"]


def test_analyze_svg_of_a_match_has_a_graph_per_deal_in_the_language(tmp_path):
    svg = tmp_path / "m.svg"
    res = cli(MATCH, "--json", "--worlds", "4", "--svg", svg, "--lang", "es")
    assert res.exit_code == 0, res.output
    objs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    charts = _charts(svg)
    assert len(charts) == len(objs) > 1
    for chart, o in zip(charts, objs):
        assert len(chart.findall(f"{SVG}circle[@data-step]")) == len(o["decisions"])
        assert [t.text for t in chart.findall(f"{SVG}text") if t.get("class") == "legend"] == ["jugador 1", "jugador 2"]
    # stacked one under the other
    assert [float(c.get("y")) for c in charts] == [i * (float(charts[0].get("height")) + GAP) for i in range(len(charts))]
    # each says which deal it is
    assert [next(t.text for t in c.findall(f"{SVG}text") if t.get("class") == "caption") for c in charts] == [
        f"registro 1, mano {i}" for i in range(1, len(charts) + 1)]


def test_analyze_svg_unwritable_is_one_line(tmp_path):
    res = cli(WON, "--worlds", "4", "--svg", tmp_path / "no" / "such" / "dir.svg")
    assert res.exit_code == 2 and res.stderr.startswith("error: cannot write") and "Traceback" not in res.output
    assert res.stdout == ""  # said before the analysis, not after it


def test_the_same_record_gives_the_same_figures_whatever_else_is_analysed():
    """Issue 19: a decision's figures depend on the record and the decision only (its seed
    comes from the base seed and the deciding seat's view), not on the seats or the other
    deals analysed with it."""
    rec = load_records(WON.read_text())[0]
    both = analyze_record(rec, worlds=16).to_dict()["decisions"]
    seat2 = analyze_record(rec, worlds=16, seats=(1,)).to_dict()["decisions"]
    assert [x for x in both if x["seat"] == 2] == seat2
    assert analyze_record(rec, worlds=16).to_dict()["decisions"] == both

"""Hand-written records of the anglo-american and classic profiles (RULES §V, §VII) and
``--rules`` on every command.

The records (decks built with ``gameweave.engine.conformance.build_deck``):

tests/records/classic_r18_rearrange.json — seed 004's example (R18): seat 1 holds
  ``3h 4h 5h 6c``, turns ``6h`` and melds ``3h 4h 5h 6h``, throws ``Ks``; seat 2 turns
  ``6d`` and refuses it; seat 1 takes it: ``meld 3h 4h 5h / 6c 6d 6h`` (written in another
  order in the file: melds and cards in any order, §VII), then throws ``Qd``.
tests/records/aa_force_back.json — R19 and R18e: seat 1 melds ``3h 4h 5h 6h`` as above,
  later turns ``7h`` and refuses it; seat 2 forces it back (``force``); seat 1 must meld
  it (decision ``meld``, nothing live) and adds ``Jh`` from its hand:
  ``meld 3h 4h 5h / 6h 7h Jh``; then throws ``Jc``.
tests/records/classic_forced_win.json — R18e/R18f: seat 2 throws ``7h`` and forces it
  (``throw 7h force``, no meld number) onto seat 1's ``3h 4h 5h 6h``; seat 1 melds it
  with every hand card, ``meld Ac Ad Ah / 2s 3s 4s / 3h 4h 5h 6h 7h``: eleven, won.
tests/records/classic_stakes_match.json — a classic stakes match (R20, doubled after
  tablas): seat 2 opens deal 1 (drawn); deals 1 and 2 are tablas (every turned card
  refused), deal 3 seat 1 wins (seat 2 turns ``As`` and refuses it; seat 1 melds it with
  its whole hand): stakes 1, 2, 4; seat 1 wins 4.
tests/records/aa_first_to_3_match.json — anglo-american first to 3 (R20): seat 1 wins
  deals 1, 4 and 5, seat 2 deal 2, deal 3 tablas; the match ends at once with 3 to 1.
tests/records/classic_download.json — deal 3 of the stakes match as the table's download
  button gives it: ``{"record", "salt", "commitment", "result"}``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.engine import read_record

TITLES = {"gameweave": "Gameweave", "anglo-american": "Anglo-American (Pagat)", "classic": "Classic"}
"""The profiles as people read their names (the catalog's profile.<name>.title, English)."""

RECORDS = Path(__file__).parent / "records"
R18 = RECORDS / "classic_r18_rearrange.json"
BACK = RECORDS / "aa_force_back.json"
STAKES = RECORDS / "classic_stakes_match.json"
FIRST_TO = RECORDS / "aa_first_to_3_match.json"
DOWNLOAD = RECORDS / "classic_download.json"
FORCED_WIN = RECORDS / "classic_forced_win.json"
KEYS = {"status", "winner", "to_act", "decision", "live", "live_from", "stock", "seats", "legal"}
WIN = "meld Ac Ad Ah As / 2s 3s 4s 5s / Jd Qd Kd"

runner = CliRunner()


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def objects(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def write(tmp_path, obj, name="rec.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


# ------------------------------------------------------------------ R18: seed 004's example


def test_r18_classic_record_rearranges_into_two_melds():
    res = cli("replay", R18, "--json", "--trace")
    assert res.exit_code == 0, res.output
    objs = objects(res.stdout)
    assert len(objs) == 7 + 1 and all(set(o) == KEYS for o in objs)
    # before step 2: seat 1 turned 6h; every partition is a choice (R18b): 3h..6h, or 4h 5h 6h
    assert objs[1]["legal"] == ["meld 3h 4h 5h 6h", "meld 4h 5h 6h", "refuse"]
    # before step 6: seat 2 refused 6d; seat 1 may take it only by the new table (R18d)
    take = objs[5]
    assert (take["decision"], take["to_act"], take["live"], take["live_from"]) == ("take_or_turn", 1, "6d", 2)
    assert take["legal"] == ["meld 3h 4h 5h / 6c 6d 6h", "turn"]
    final = objs[-1]
    assert final["seats"]["1"]["melds"] == [["3h", "4h", "5h"], ["6c", "6d", "6h"]]
    assert final["seats"]["1"]["hand"] == ["Ac", "2d", "7s", "Jc"]
    assert (final["decision"], final["to_act"], final["live"], final["live_from"]) == ("take_or_turn", 2, "Qd", 1)


def test_r18_text_trace_names_the_whole_table_and_the_hand_card():
    res = cli("replay", R18, "--trace")
    assert res.exit_code == 0, res.output
    assert "seat 1: meld 3h 4h 5h / 6c 6d 6h (melds 6d; 6c from hand; table 3h 4h 5h / 6c 6d 6h)" in res.stdout
    assert "Seat 1: hand Ac 2d 7s Jc; melds (6 cards): [3h 4h 5h]  [6c 6d 6h]" in res.stdout
    assert "Result: still playing: seat 2 to take or turn, Qd in the centre (let go by seat 1)" in res.stdout


# ------------------------------------------------------------------ R19 and the forced 'meld'


def test_r19_force_back_then_the_forced_seat_decides_meld_with_a_hand_card():
    res = cli("replay", BACK, "--json", "--trace")
    assert res.exit_code == 0, res.output
    objs = objects(res.stdout)
    assert len(objs) == 10 + 1 and all(set(o) == KEYS for o in objs)
    # before step 8: seat 1 turned and refused 7h, which fits its table alone: force beside turn
    assert (objs[7]["decision"], objs[7]["to_act"], objs[7]["live"], objs[7]["live_from"]) == (
        "take_or_turn", 2, "7h", 1)
    assert objs[7]["legal"] == ["force", "turn"]
    # before step 9: decision 'meld' for seat 1, nothing live (R18e); hand cards allowed (R18a)
    forced = objs[8]
    assert (forced["decision"], forced["to_act"], forced["live"], forced["live_from"]) == ("meld", 1, None, None)
    assert forced["legal"] == ["meld 3h 4h 5h / 6h 7h Jh", "meld 3h 4h 5h 6h 7h", "meld 3h 4h 5h 6h 7h Jh"]
    final = objs[-1]
    assert final["seats"]["1"]["melds"] == [["3h", "4h", "5h"], ["6h", "7h", "Jh"]]
    assert final["seats"]["1"]["hand"] == ["Ac", "2d", "5c", "Qd"]
    assert (final["decision"], final["to_act"], final["live"]) == ("take_or_turn", 2, "Jc")


def test_r19_text_trace_tells_the_force_back_and_the_forced_meld():
    res = cli("replay", BACK, "--trace")
    assert res.exit_code == 0, res.output
    assert "8. seat 2: force (7h goes back onto seat 1, who must meld it)" in res.stdout
    assert "9. seat 1: meld 3h 4h 5h / 6h 7h Jh (melds the forced 7h; Jh from hand; table 3h 4h 5h / 6h 7h Jh)" in res.stdout


def test_r18e_a_forced_card_cannot_be_refused_and_force_numbers_do_not_parse(tmp_path):
    rec = json.loads(BACK.read_text(encoding="utf-8"))
    rec["actions"] = rec["actions"][:8] + ["refuse"]
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: record 1, step 9, action 'refuse': ")
    rec["actions"] = rec["actions"][:6] + ["refuse force 1"]
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: record 1, step 7, action 'refuse force 1': cannot read")


def test_r19_force_is_gameweave_unparsable(tmp_path):
    rec = json.loads(BACK.read_text(encoding="utf-8"))
    del rec["rules"]  # a record that names no profile is gameweave
    rec["actions"] = ["turn", "meld 3h 4h 5h 6h", "throw Ks", "turn", "refuse", "turn", "refuse", "force"]
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert "step 8, action 'force'" in line and "anglo-american" in line


def test_r18e_r18f_a_forced_card_melded_with_every_hand_card_wins():
    res = cli("replay", FORCED_WIN, "--json", "--trace")
    assert res.exit_code == 0, res.output
    objs = objects(res.stdout)
    # seat 2 may throw 7h plainly or force it; a force names no meld number (R18e)
    assert "throw 7h" in objs[5]["legal"] and "throw 7h force" in objs[5]["legal"]
    assert not any(a.startswith("throw 7h force ") for a in objs[5]["legal"])
    forced = objs[6]
    assert (forced["decision"], forced["to_act"], forced["live"]) == ("meld", 1, None)
    # 3h..7h is the only partition of the table plus 7h; hand melds may come along (R18a)
    assert forced["legal"] == [
        "meld 3h 4h 5h 6h 7h", "meld Ac Ad Ah / 3h 4h 5h 6h 7h",
        "meld Ac Ad Ah / 2s 3s 4s / 3h 4h 5h 6h 7h", "meld 2s 3s 4s / 3h 4h 5h 6h 7h",
    ]
    final = objs[-1]
    assert (final["status"], final["winner"]) == ("won", 1)
    assert final["seats"]["1"] == {"hand": [], "melds": [["Ac", "Ad", "Ah"], ["2s", "3s", "4s"],
                                                         ["3h", "4h", "5h", "6h", "7h"]]}
    res = cli("replay", FORCED_WIN, "--trace")
    assert "6. seat 2: throw 7h force (7h forced on seat 1, who must meld it)" in res.stdout
    assert "  Result: seat 1 won with eleven melded cards" in res.stdout


# ------------------------------------------------------------------ R20: match records


def test_r20_stakes_match_record_doubles_over_two_tablas_then_pays_four():
    res = cli("replay", STAKES)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("Record 1 — Classic match (stakes, base 1, doubled after tablas), seat 2 opens deal 1, 3 deals\n")
    assert "  Deal 1 — seat 2 opens, 40 actions, stake 1\n" in out
    assert "  Deal 2 — seat 1 opens, 40 actions, stake 2\n" in out
    assert "  Deal 3 — seat 2 opens, 3 actions, stake 4\n" in out
    assert out.count("Result: tablas (the stock ran out)") == 2
    assert "    Stake: 1 unpaid (tablas); next stake 2 (doubled)\n" in out
    assert "    Stake: 2 unpaid (tablas); next stake 4 (doubled)\n" in out
    assert "    Result: seat 1 won with eleven melded cards\n" in out
    assert "    Stake: seat 1 wins 4; next stake 1\n" in out
    assert out.endswith(
        "  Match (stakes, base 1, doubled after tablas): seat 1 won 1, seat 2 won 0, tablas 2\n"
        "  Stakes: seat 1 won 4, seat 2 won 0 (seat 1 is 4 up); next stake 1\n"
    )


def test_r20_stakes_match_record_as_json():
    res = cli("replay", STAKES, "--json")
    assert res.exit_code == 0, res.output
    *deals, match = objects(res.stdout)
    assert [d["status"] for d in deals] == ["tablas", "tablas", "won"]
    assert all(set(d) == KEYS for d in deals)
    assert match == {"match": {
        "rules": "classic", "first_opener": 2,
        "options": {"match": "stakes", "target": 3, "stake": 1, "tablas_stake": "double"},
        "results": [None, None, 1], "stakes": [1, 2, 4], "wins": {"1": 1, "2": 0}, "tablas": 2,
        "points": {"1": 4, "2": 0}, "next_stake": 1, "over": False, "winner": None,
    }}


def test_r20_carry_instead_of_double_gives_stakes_1_2_3(tmp_path):
    rec = json.loads(STAKES.read_text(encoding="utf-8"))
    rec["options"]["tablas_stake"] = "carry"
    res = cli("replay", write(tmp_path, rec), "--json")
    assert res.exit_code == 0, res.output
    match = objects(res.stdout)[-1]["match"]
    assert match["stakes"] == [1, 2, 3] and match["points"] == {"1": 3, "2": 0}


def test_r20_first_to_3_match_record_ends_at_once():
    res = cli("replay", FIRST_TO)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("Record 1 — Anglo-American (Pagat) match (first to 3), seat 1 opens deal 1, 5 deals\n")
    openers = re.findall(r"  Deal (\d) — seat (\d) opens", out)
    assert openers == [("1", "1"), ("2", "2"), ("3", "1"), ("4", "2"), ("5", "1")]  # R9
    results = re.findall(r"    Result: (.*)\n", out)
    assert results == [
        "seat 1 won with eleven melded cards", "seat 2 won with eleven melded cards",
        "tablas (the stock ran out)", "seat 1 won with eleven melded cards",
        "seat 1 won with eleven melded cards",
    ]
    assert out.endswith(
        "  Match (first to 3): seat 1 won 3, seat 2 won 1, tablas 1\n"
        "  Match result: seat 1 wins the match, 3 to 1\n"
    )
    res = cli("replay", FIRST_TO, "--json")
    match = objects(res.stdout)[-1]["match"]
    assert (match["over"], match["winner"], match["wins"], match["results"]) == (
        True, 1, {"1": 3, "2": 1}, [1, 2, None, 1, 1])


def test_r20_a_deal_after_the_match_is_over_is_an_error(tmp_path):
    rec = json.loads(FIRST_TO.read_text(encoding="utf-8"))
    rec["deals"].append(rec["deals"][1])
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line == "error: record 1, deal 6: the match was already over (R20: seat 1 won it)"


def test_match_record_an_unfinished_deal_before_the_last_is_an_error(tmp_path):
    rec = json.loads(STAKES.read_text(encoding="utf-8"))
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:5]
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line == "error: record 1, deal 1: the deal is not finished, but another deal follows it (§VII)"


def test_match_record_a_bad_step_names_the_deal(tmp_path):
    rec = json.loads(FIRST_TO.read_text(encoding="utf-8"))
    rec["deals"][3]["actions"][2] = "meld 2s 3s 4s"
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: record 1, deal 4, step 3, action 'meld 2s 3s 4s': a meld must contain As")


def test_match_record_verifies_with_its_count():
    res = cli("verify", STAKES)
    assert res.exit_code == 0, res.output
    assert "replay OK: classic match, 3 deals" in res.stdout
    assert "Stakes: seat 1 won 4, seat 2 won 0 (seat 1 is 4 up); next stake 1" in res.stdout


# ------------------------------------------------------------------ the download button's file


def test_the_download_wrapper_replays_and_verifies():
    res = cli("replay", DOWNLOAD, "--json")
    assert res.exit_code == 0, res.output
    [final] = objects(res.stdout)
    assert final["status"] == "won" and final["winner"] == 1
    assert final["seats"]["1"]["melds"] == [["Ac", "Ad", "Ah", "As"], ["2s", "3s", "4s", "5s"], ["Jd", "Qd", "Kd"]]
    res = cli("verify", DOWNLOAD)
    assert res.exit_code == 0, res.output
    assert "commitment OK" in res.stdout and "seat 1 won (classic rules) (as the file's result says)" in res.stdout


def test_the_records_are_what_the_engine_reads():
    # every hand-written record reads as the kind of record it claims to be
    for path, kind in ((R18, "GameRecord"), (BACK, "GameRecord"), (FORCED_WIN, "GameRecord"), (STAKES, "MatchRecord"),
                       (FIRST_TO, "MatchRecord"), (DOWNLOAD, "GameRecord")):
        assert type(read_record(json.loads(path.read_text(encoding="utf-8")))).__name__ == kind


# ------------------------------------------------------------------ --rules and options


def test_rules_option_gives_the_profile_of_a_record_that_names_none(tmp_path):
    rec = json.loads(R18.read_text(encoding="utf-8"))
    del rec["rules"]
    path = write(tmp_path, rec)
    assert cli("replay", path).exit_code == 2  # gameweave: '/' is unparsable there
    res = cli("replay", path, "--rules", "classic")
    assert res.exit_code == 0, res.output
    assert "Record 1 — Classic, seat 1 opens, 7 actions" in res.stdout
    res = cli("replay", path, "--rules", "PAGAT")  # case-insensitive alias (§V)
    assert res.exit_code == 0 and "Anglo-American (Pagat)" in res.stdout


def test_rules_option_that_contradicts_the_record_is_an_error():
    res = cli("replay", R18, "--rules", "anglo-american")
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line == "error: record 1: cannot read it: it is a classic record, not anglo-american (--rules)"


@pytest.mark.parametrize("args", [
    ["replay", str(R18)], ["verify", str(DOWNLOAD)], ["demo", "--seed", "1"],
    ["conformance", "--deals", "1"], ["bench", "--deals", "1", "--reps", "5"], ["play", "--seed", "1"],
])
def test_an_unknown_profile_is_one_line_and_exit_2_on_every_command(args):
    res = runner.invoke(app, [*args, "--rules", "poker"])
    assert res.exit_code == 2, res.output
    assert res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert line == ("error: unknown rule profile 'poker' "
                    "(known: gameweave, anglo-american, classic; pagat = anglo-american)")


@pytest.mark.parametrize("options, says", [
    ({"tablas_stake": "triple"}, "tablas_stake must be one of double, carry, not 'triple'"),
    ({"match": "first_to", "target": 0}, "target must be a whole number from 1 to 99, not 0"),
])
def test_bad_match_options_in_a_record_are_one_line_and_exit_2(tmp_path, options, says):
    rec = json.loads(STAKES.read_text(encoding="utf-8"))
    rec["options"].update(options)
    res = cli("replay", write(tmp_path, rec))
    assert res.exit_code == 2
    assert res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert line == f"error: record 1: cannot read it: {says}"
    res = cli("verify", write(tmp_path, rec))
    assert res.exit_code == 2
    [line] = res.stderr.strip().splitlines()
    assert line == f"error: not a match record: {says}"


@pytest.mark.parametrize("cmd", [["demo", "--seed", "1"], ["play", "--seed", "1"]])
@pytest.mark.parametrize("option, says", [
    ("tablas_stake=triple", "tablas_stake must be one of double, carry, not 'triple'"),
    ("target=0", "target must be a whole number from 1 to 99, not 0"),
    ("stakes", "--option takes key=value"),
])
def test_bad_option_values_on_the_command_line_are_one_line_and_exit_2(cmd, option, says):
    res = runner.invoke(app, [*cmd, "--rules", "classic", "--option", option])
    assert res.exit_code == 2, res.output
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("error: ") and says in line


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_demo_in_every_profile_prints_a_record_that_replays(tmp_path, rules):
    for deals in ("1", "3"):
        res = cli("demo", "--seed", "4", "--rules", rules, "--deals", deals)
        assert res.exit_code == 0, res.output
        assert f"{TITLES[rules]} rules" in res.stdout  # the profile by its name
        record = res.stdout.rsplit("Record: ", 1)[1]
        path = tmp_path / "demo.json"
        path.write_text(record, encoding="utf-8")
        again = cli("replay", path)
        assert again.exit_code == 0, again.output
        if deals == "3":
            assert f"— {TITLES[rules]} match" in again.stdout


@pytest.mark.parametrize("rules", ["anglo-american", "classic"])
def test_conformance_and_bench_take_rules(rules):
    res = cli("conformance", "--rules", rules, "--deals", "20", "--seed", "3")
    assert res.exit_code == 0, res.output
    counts = json.loads(res.stdout)
    assert counts["rules"] == rules and counts["deals"] == 20
    res = cli("bench", "--rules", rules, "--deals", "5", "--reps", "5")
    assert res.exit_code == 0, res.output
    assert f"({rules} rules)" in res.stdout

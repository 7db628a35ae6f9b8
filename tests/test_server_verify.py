"""`gameweave verify FILE` on record downloads (PROTOCOL §3.6, §6): a good one passes; a
wrong salt, a cut-short record, a wrong stated result or an illegal action fail (exit 1)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from gameweave.cli import app as cli_app
from gameweave.engine import GameRecord, GameState
from gameweave.tables import commitment


def _download(seed: int) -> dict:
    """A record download (as ``Table.record``) of a whole deal played by random legal actions."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    st = GameState.new(deck=deck, opener=0)
    while st.status == "playing":
        st.apply(rng.choice(st.legal_actions()))
    salt = f"{rng.getrandbits(128):032x}"
    return {
        "record": GameRecord.from_state(st).to_dict(),
        "salt": salt,
        "commitment": commitment(deck, salt),
        "result": {"status": st.status, "winner": st.winner + 1 if st.winner >= 0 else None},
    }


def _verify(tmp_path, obj: dict):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(obj))
    return CliRunner().invoke(cli_app, ["verify", str(path)])


@pytest.fixture(scope="module")
def won():
    """A download of a deal that a seat won (R16)."""
    for seed in range(200):
        d = _download(seed)
        if d["result"]["status"] == "won":
            return d
    raise AssertionError("no won deal in 200 seeds")


def test_a_finished_deal_download_verifies(tmp_path, won):
    res = _verify(tmp_path, won)
    assert res.exit_code == 0, res.output
    assert "commitment OK" in res.output and f"seat {won['result']['winner']} won" in res.output


def test_a_cut_short_record_fails_unfinished(tmp_path, won):
    cut = json.loads(json.dumps(won))
    cut["record"]["actions"] = cut["record"]["actions"][:10]
    res = _verify(tmp_path, cut)
    assert res.exit_code == 1, res.output
    assert "FAILED" in res.output and "cut short" in res.output and "replay OK" not in res.output


def test_a_stated_result_that_differs_from_the_replay_fails(tmp_path, won):
    other = 3 - won["result"]["winner"]
    for wrong in ({"status": "won", "winner": other}, {"status": "tablas", "winner": None}, "won"):
        bad = {**won, "result": wrong}
        res = _verify(tmp_path, bad)
        assert res.exit_code == 1, (wrong, res.output)
        assert "FAILED" in res.output and "replays to" in res.output


def test_a_wrong_salt_or_an_illegal_action_fails(tmp_path, won):
    res = _verify(tmp_path, {**won, "salt": ("1" if won["salt"][0] == "0" else "0") + won["salt"][1:]})
    assert res.exit_code == 1 and "commitment" in res.output
    bad = json.loads(json.dumps(won))
    bad["record"]["actions"][1] = "meld Ah Ad Ac Kd"
    res = _verify(tmp_path, bad)
    assert res.exit_code == 1 and "does not replay" in res.output


def test_a_bare_record_with_salt_and_commitment_options_verifies(tmp_path, won):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(won["record"]))
    res = CliRunner().invoke(cli_app, ["verify", str(path), "--salt", won["salt"], "--commitment", won["commitment"]])
    assert res.exit_code == 0, res.output


def test_a_commitment_that_is_no_sha256_is_unreadable_not_a_failed_check(tmp_path, won):
    """A commitment must be 64 hexadecimal digits: anything else is exit 2, one line."""
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(won["record"]))
    res = CliRunner().invoke(cli_app, ["verify", str(path), "--salt", won["salt"], "--commitment", "11"])
    assert res.exit_code == 2 and "64 hexadecimal digits" in res.output and "FAILED" not in res.output


def test_a_match_record_without_commitments_says_the_shuffle_was_not_checked(tmp_path):
    """R20 match record from the demo: the replay is checked, and the output says that
    no shuffle could be."""
    out = CliRunner().invoke(cli_app, ["demo", "--rules", "classic", "--deals", "2", "--seed", "4", "--record-only"])
    assert out.exit_code == 0, out.output
    path = tmp_path / "match.json"
    path.write_text(out.stdout)
    res = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert res.exit_code == 0, res.output
    assert "replay OK: classic match, 2 deals" in res.output
    assert "only the replay was checked, not the shuffle" in res.output


def test_a_deal_record_without_salt_is_checked_as_a_match_record_is(tmp_path, won):
    """A bare deal record with neither salt nor commitment: the replay is checked (exit 0)
    and the output says the shuffle was not; one of the two alone is a usage error (2)."""
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(won["record"]))
    res = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert res.exit_code == 0, res.output
    assert "only the replay was checked, not the shuffle" in res.output and "replay OK" in res.output
    res = CliRunner().invoke(cli_app, ["verify", str(path), "--salt", won["salt"]])
    assert res.exit_code == 2 and "both the salt and the commitment" in res.output
    bad = dict(won["record"], actions=won["record"]["actions"][:3])
    path.write_text(json.dumps(bad))
    res = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert res.exit_code == 1 and "FAILED" in res.output


def test_r20_a_resigned_deal_download_verifies_to_where_the_seat_resigned(tmp_path, won):
    """A deal resigned after 3 actions (PROTOCOL §3.6: ``result.resigned``) replays to
    there, and counts as won by the other seat (R20)."""
    resigned = json.loads(json.dumps(won))
    resigned["record"]["actions"] = resigned["record"]["actions"][:3]
    resigned["result"] = {"status": "won", "winner": 1, "resigned": 2}
    res = _verify(tmp_path, resigned)
    assert res.exit_code == 0, res.output
    assert "commitment OK" in res.output and "seat 1 won (seat 2 resigned after 3 actions)" in res.output
    resigned["result"]["winner"] = 2  # the resigning seat cannot be the winner
    res = _verify(tmp_path, resigned)
    assert res.exit_code == 1 and "FAILED" in res.output, res.output


def test_r20_replay_of_a_resigned_deal_download_says_who_resigned(tmp_path, won):
    """``gameweave replay`` of a download whose deal a seat resigned tells the deal as won
    by the other seat (R20), not as a deal still being played."""
    resigned = json.loads(json.dumps(won))
    resigned["record"]["actions"] = resigned["record"]["actions"][:3]
    resigned["result"] = {"status": "won", "winner": 1, "resigned": 2}
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(resigned))
    res = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert "Result: seat 1 won (seat 2 resigned)" in res.output and "still playing" not in res.output
    res = CliRunner().invoke(cli_app, ["replay", "--lang", "es", str(path)])
    assert "ganó el jugador 1 (el jugador 2 se rindió)" in res.output
    path.write_text(json.dumps(won))  # played to its end: told as before
    res = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert "resigned" not in res.output and "won with eleven melded cards" in res.output

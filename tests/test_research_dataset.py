"""``gameweave dataset`` (issue 21): self-play deals as a match record that replays, as
arrays that are the research layer's own encodings of those deals, byte-identical from a
seed, and with a manifest; without numpy the records are still written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gameweave.cli import app
from gameweave.engine import PROFILE_NAMES, MatchRecord
from gameweave.research import dataset as ds

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install -e '.[research]'")

runner = CliRunner()


def _run(out: Path, *args: str) -> str:
    res = runner.invoke(app, ["dataset", "--out", str(out), *args])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_dataset_records_replay_and_verify(tmp_path: Path, rules: str) -> None:
    out = tmp_path / "d"
    _run(out, "--bots", "greedy,random", "--deals", "6", "--seed", "4", "--rules", rules)
    obj = json.loads((out / ds.RECORDS).read_text())
    rec = MatchRecord.from_dict(obj)
    match, finals = rec.replay()
    assert len(finals) == 6 and all(st.is_over for st in finals)
    manifest = json.loads((out / ds.MANIFEST).read_text())
    counts = manifest["counts"]
    assert counts["deals"] == 6 and counts["actions"] == sum(len(st.history) for st in finals)
    assert counts["wins"] == {"1": match.wins[0], "2": match.wins[1]} and counts["tablas"] == match.tablas
    assert manifest["rules"] == rec.rules and manifest["seed"] == 4 and manifest["format"] == ds.FORMAT
    assert manifest["bots"]["1"]["name"] == "greedy" and manifest["bots"]["2"]["name"] == "random"
    assert [d.opener for d in rec.deals] == [(rec.first_opener + i) % 2 for i in range(6)]  # R9
    res = runner.invoke(app, ["verify", str(out / ds.RECORDS)])
    assert res.exit_code == 0 and "replay OK" in res.output, res.output


def test_issue21_same_seed_byte_identical_files_other_seed_other_deals(tmp_path: Path) -> None:
    args = ("--bots", "search,greedy", "--opt1", "iterations=8", "--deals", "3", "--rules", "classic")
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        _run(tmp_path / name, *args, "--seed", seed)
    for f in (ds.RECORDS, ds.ARRAYS, ds.MANIFEST):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    assert (tmp_path / "a" / ds.RECORDS).read_bytes() != (tmp_path / "c" / ds.RECORDS).read_bytes()
    import zipfile

    with zipfile.ZipFile(tmp_path / "a" / ds.ARRAYS) as zf:  # no clock in the archive
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    manifest = json.loads((tmp_path / "a" / ds.MANIFEST).read_text())
    import hashlib

    for f, meta in manifest["files"].items():
        assert hashlib.sha256((tmp_path / "a" / f).read_bytes()).hexdigest() == meta["sha256"]


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_issue21_dataset_arrays_are_the_encodings_of_the_recorded_deals(tmp_path: Path, rules: str) -> None:
    """Replaying each row's id on a research Deal dealt from the record's deck (turned
    cards taken from that deck) rebuilds every deal of the record, and each row's
    observation and mask are the reference encoder's (encode_array, legal ids) there."""
    from gameweave.research.deal import Deal
    from gameweave.research.observer import encode_array

    out = tmp_path / "d"
    _run(out, "--bots", "greedy,random", "--deals", "5", "--seed", "2", "--rules", rules)
    rec = MatchRecord.from_dict(json.loads((out / ds.RECORDS).read_text()))
    finals = rec.replay()[1]
    with np.load(out / ds.ARRAYS) as z:
        arr = {k: z[k] for k in z.files}
    assert set(arr) == set(ds.ARRAY_LAYOUT)
    n = len(arr["actions"])
    assert arr["observations"].shape == (n, 783) and arr["action_masks"].shape == (n, 473)
    assert (arr["action_masks"][np.arange(n), arr["actions"]] == 1).all()
    assert list(np.unique(arr["deal"])) == list(range(5))
    for d, (grec, final) in enumerate(zip(rec.deals, finals)):
        deal = Deal(rules, grec.opener)
        for c in grec.deck[:20]:
            deal.apply(c)
        for r in np.flatnonzero(arr["deal"] == d):
            seat = int(arr["seat"][r])
            assert deal.current_player() == seat
            assert np.array_equal(arr["observations"][r], encode_array(deal, seat, True))
            assert list(np.flatnonzero(arr["action_masks"][r])) == deal.legal_actions()
            deal.apply(int(arr["actions"][r]))
            if deal.turning:
                deal.apply(grec.deck[deal.state.stock_pos])
        assert deal.is_terminal() and deal.state.history == final.history
        rows = arr["deal"] == d
        for seat in (0, 1):
            mine = rows & (arr["seat"] == seat)
            ret = deal.returns()[seat]
            assert arr["rewards"][mine].sum() == ret and (arr["returns"][mine] == ret).all()
            assert arr["dones"][mine].sum() == 1 and arr["dones"][np.flatnonzero(mine)[-1]]


def test_issue21_without_numpy_records_are_written_and_the_command_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(ds, "numpy_or_none", lambda: None)
    out = _run(tmp_path / "d", "--bots", "random,random", "--deals", "2")
    assert "arrays: numpy is not installed" in out
    manifest = json.loads((tmp_path / "d" / ds.MANIFEST).read_text())
    assert manifest["arrays"] is None and manifest["arrays_note"] == ds.NO_NUMPY
    assert not (tmp_path / "d" / ds.ARRAYS).exists() and set(manifest["files"]) == {ds.RECORDS}
    assert len(MatchRecord.from_dict(json.loads((tmp_path / "d" / ds.RECORDS).read_text())).replay()[1]) == 2


def test_issue21_dataset_errors_are_one_line_and_status_2(tmp_path: Path) -> None:
    for args in (["--bots", "nobody,greedy"], ["--bots", "a,b,c"], ["--rules", "poker"],
                 ["--bots", "greedy,greedy", "--opt1", "nokey"], ["--bots", "greedy,search", "--opt2", "bogus=1"]):
        res = runner.invoke(app, ["dataset", "--out", str(tmp_path / "x"), *args])
        assert res.exit_code == 2, (args, res.output)
        assert res.output.strip().startswith("error:") and len(res.output.strip().splitlines()) == 1, res.output
    assert not (tmp_path / "x").exists()


def test_issue21_the_native_core_changes_no_byte(tmp_path: Path) -> None:
    """The same dataset with the native core (the searches' playouts in C) and without it
    (GAMEWEAVE_NO_NATIVE=1, fresh processes): identical files."""
    import os
    import subprocess
    import sys

    from gameweave.engine import native

    if not native.AVAILABLE:
        pytest.skip("the native core is not built (no C compiler) or GAMEWEAVE_NO_NATIVE is set")
    for flag in ("0", "1"):
        env = {**os.environ, "GAMEWEAVE_NO_NATIVE": flag}
        code = ("from gameweave.cli import app; app(['dataset', '--bots', 'search,greedy', '--opt1', 'iterations=30', "
                f"'--deals', '3', '--seed', '5', '--out', {str(tmp_path / flag)!r}])")
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    for f in (ds.RECORDS, ds.ARRAYS, ds.MANIFEST):
        assert (tmp_path / "0" / f).read_bytes() == (tmp_path / "1" / f).read_bytes(), f

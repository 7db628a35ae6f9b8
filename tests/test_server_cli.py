"""`gameweave serve` starts a server on a fresh data directory and says where it is."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_prints_the_url_and_database_and_answers(tmp_path):
    port = _free_port()
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--port", str(port),
         "--data-dir", str(data), "--bot-delay", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.time() + 30
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                if r.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.time() < deadline, "the server did not answer in 30 s"
            time.sleep(0.2)
        m = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={"opponent": "bot"}).json()
        assert len(m["token"]) == 64
        assert (data / "gameweave.db").is_file()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert f"http://127.0.0.1:{port}/" in out
    assert f"Database: {(data / 'gameweave.db').resolve()}" in out
    assert m["token"] not in out  # tokens are never logged


def test_serve_with_an_unreachable_database_says_so_without_a_traceback():
    from typer.testing import CliRunner

    from gameweave.cli import app

    res = CliRunner().invoke(app, ["serve", "--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"])
    assert res.exit_code == 2
    assert "cannot open the database" in res.output and "Traceback" not in res.output


def test_serve_on_a_port_in_use_says_so_in_one_line_with_status_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        res = subprocess.run(
            [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--port", str(port),
             "--data-dir", str(tmp_path / "data")],
            capture_output=True, text=True, timeout=60,
        )
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert res.stdout == ""  # no "open http://…" banner
    assert res.stderr.strip().splitlines() == [
        f"error: port {port} on 127.0.0.1 is already in use (try --port {port + 1})"
    ]
    assert not (tmp_path / "data").exists()  # checked before the database is opened

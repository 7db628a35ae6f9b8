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
        said = []
        while not said or "open http://" not in said[-1]:
            said.append(proc.stdout.readline())
            assert said[-1], "".join(said)  # the banner comes before anything else can fail
        # the port takes connections from the banner on: a browser that opens the address at
        # once waits for the start-up to end instead of being refused (a fresh user's find)
        r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=30)
        assert r.status_code == 200
        m = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={"opponent": "bot"}).json()
        assert len(m["token"]) == 64
        assert (data / "gameweave.db").is_file()
    finally:
        proc.terminate()
        out = proc.stdout.read()  # through the same buffered reader as the banner's lines
        proc.wait(timeout=15)
    out = "".join(said) + out
    assert f"http://127.0.0.1:{port}/" in out
    assert f"Database: {(data / 'gameweave.db').resolve()}" in out
    assert m["token"] not in out  # tokens are never logged


def test_serve_with_an_unreachable_database_says_so_without_a_traceback():
    from typer.testing import CliRunner

    from gameweave.cli import app

    # on a free port: the check must not stop at a port in use first
    res = CliRunner().invoke(app, ["serve", "--port", str(_free_port()),
                                   "--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"])
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


def test_serve_test_decks_says_so_deals_them_and_marks_the_match(tmp_path):
    """``serve --test-decks FILE``: the R18b position (turned 6d) dealt from a file."""
    from gameweave.engine import CARD_NAMES, parse_cards
    from gameweave.tables import deck_text

    mine = parse_cards("Ac Ad Ah As 2d 3d 4d 5d 7d Jd")
    top = CARD_NAMES.index("6d")
    rest = [c for c in range(40) if c not in mine and c != top]
    deck = [x for i in range(10) for x in (mine[i], rest[i])] + [top] + rest[10:]
    decks = tmp_path / "decks.txt"
    decks.write_text(f"# one position\n{deck_text(deck)}\n", encoding="utf-8")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--port", str(port),
         "--data-dir", str(tmp_path / "data"), "--bot-delay", "0", "--test-decks", str(decks)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.time() + 30
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.time() < deadline, "the server did not answer in 30 s"
            time.sleep(0.2)
        m = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={"rules": "gameweave", "opponent": "friend"}).json()
        frame = httpx.get(f"http://127.0.0.1:{port}/api/matches/{m['match_id']}/view",
                          headers={"Authorization": f"Bearer {m['token']}"}).json()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert "TEST DECKS: the first 1 deal comes in the order of" in out
    assert frame["match"]["test"] is True and frame["deal"]["test"] is True
    assert frame["view"]["hand"] == "Ac Ad Ah As 2d 3d 4d 5d 7d Jd".split()  # seat 1 opens (R9)


def test_serve_test_decks_with_a_bad_line_names_it(tmp_path):
    decks = tmp_path / "decks.txt"
    decks.write_text("# fine\nAc 2c 3c\n", encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--port", str(_free_port()),
         "--data-dir", str(tmp_path / "data"), "--test-decks", str(decks)],
        capture_output=True, text=True, timeout=60,
    )
    assert res.returncode == 2
    assert "line 2 is not a deck order of the 40 cards" in res.stderr and "Traceback" not in res.stderr


def test_a_sent_x_forwarded_for_does_not_dodge_the_per_address_limits(tmp_path):
    """The per-address limits count the connection's peer (DEPLOY: no X-Forwarded-For is
    believed unless GAMEWEAVE_FORWARDED_ALLOW_IPS names the proxy): after 20 sign-up
    attempts from one address the 21st is refused, whatever address the header claims."""
    import httpx

    from nodes import Node

    node = Node(tmp_path / "node.log", "--data-dir", str(tmp_path)).wait_ready()
    try:
        origin = {"Origin": node.url}
        codes = [httpx.post(f"{node.url}/api/account/sign-up", headers=origin,
                            json={"username": f"ana_{i}", "password": "tres tigres tristes"}).status_code
                 for i in range(20)]
        assert set(codes) == {201}  # 20 sign-ups an hour per address
        for forged in ("10.9.9.9", "203.0.113.7, 10.1.1.1"):
            r = httpx.post(f"{node.url}/api/account/sign-up", headers={**origin, "X-Forwarded-For": forged},
                           json={"username": "ana_forwarded", "password": "tres tigres tristes"})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
    finally:
        node.stop()

"""``gameweave serve`` (the table server) and ``gameweave verify`` (check a deal's fair
shuffle and replay its record)."""

from __future__ import annotations

import errno
import json
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from .app import app

if TYPE_CHECKING:
    from ..server.settings import Settings


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port to listen on."),
    database_url: str | None = typer.Option(
        None, "--database-url", envvar="GAMEWEAVE_DATABASE_URL",
        help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host:5432/db (default: SQLite in the data directory).",
    ),
    data_dir: Path | None = typer.Option(
        None, "--data-dir", help="Directory of the SQLite file (default: $GAMEWEAVE_DATA or ~/.local/share/gameweave).",
    ),
    redis_url: str | None = typer.Option(
        None, "--redis-url", envvar="GAMEWEAVE_REDIS_URL",
        help="redis://host:6379/0: share the matches with every node on the same database and Redis "
             "(needs PostgreSQL; see docs/DEPLOY.md).",
    ),
    redis_prefix: str = typer.Option(
        "gameweave", "--redis-prefix", envvar="GAMEWEAVE_REDIS_PREFIX",
        help="Prefix of every Redis key and channel (deployments may share one Redis).",
    ),
    node_id: str | None = typer.Option(None, "--node-id", envvar="GAMEWEAVE_NODE_ID",
                                          help="This node's name in logs, metrics and Redis (default: random)."),
    bot_delay: float = typer.Option(0.6, "--bot-delay", min=0.0, max=30.0, help="Pause before each bot action, in seconds."),
    log_level: str = typer.Option("info", "--log-level", help="Log level (debug, info, warning, error)."),
    log_format: str = typer.Option("text", "--log-format", envvar="GAMEWEAVE_LOG_FORMAT",
                                   help="text (one plain line each) or json (one JSON object a line)."),
    test_decks: Path | None = typer.Option(
        None, "--test-decks", envvar="GAMEWEAVE_TEST_DECKS", dir_okay=False,
        help="A file of deck orders, one 40-card deck a line (blank and # lines ignored), dealt in turn "
             "before fair shuffles, to replay a position. Matches dealt from it are marked as test matches.",
    ),
    abandon_after_days: float | None = typer.Option(
        None, "--abandon-after-days", envvar="GAMEWEAVE_ABANDON_AFTER_DAYS", min=0.001,
        help="Close a match with no move for this many days as abandoned (default 7).",
    ),
) -> None:
    """Start the table server: matches against bots or friends, in the browser."""
    settings = _settings(database_url=database_url, data_dir=data_dir, redis_url=redis_url,
                         redis_prefix=redis_prefix, node_id=node_id, bot_delay=bot_delay,
                         log_format=log_format, test_decks=test_decks, abandon_after_days=abandon_after_days)
    sock = _listen_socket(host, port)  # before anything is printed: a taken port is one line
    port = sock.getsockname()[1]
    application = _open_app(settings, sock)
    _say_where(application, settings, host, port)
    _run(application, settings, sock, host, port, log_level)


def _settings(**values: Any) -> Settings:
    """The server's :class:`Settings` from the command's options (``None``: not given, so
    the environment's or the default); exits with status 2 and one ``error: …`` line when
    one is not valid, or when Redis is asked for without PostgreSQL or does not answer."""
    from pydantic import ValidationError

    from ..server.settings import Settings

    if values["log_format"] not in ("text", "json"):
        typer.echo(f"error: --log-format must be text or json, not {values['log_format'][:20]!r}", err=True)
        raise typer.Exit(2)
    try:
        settings = Settings(**{k: v for k, v in values.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        typer.echo(f"error: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}", err=True)
        raise typer.Exit(2) from None
    if settings.redis_url:
        if not (settings.database_url or "").startswith("postgresql"):
            typer.echo("error: --redis-url needs a shared database: give --database-url postgresql+psycopg://…", err=True)
            raise typer.Exit(2)
        _check_redis(settings.redis_url)
    return settings


def _open_app(settings: Settings, sock: socket.socket) -> Any:
    """The ASGI app (its database opened); on a bad test-deck file or a database that
    cannot be opened, closes ``sock`` and exits with status 2 and one ``error: …`` line."""
    from ..server import create_app
    from ..storage import StorageError
    from ..tables import TestDeckError

    try:
        return create_app(settings=settings)
    except TestDeckError as exc:
        message = exc.message
    except (StorageError, OSError) as exc:
        message = f"cannot open the database: {exc}"
    except Exception as exc:  # e.g. an unreachable PostgreSQL server
        message = f"cannot open the database: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    sock.close()
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _say_where(application: Any, settings: Settings, host: str, port: int) -> None:
    """Print the address, the database, test decks and Redis sharing (stdout)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else (f"[{host}]" if ":" in host else host)
    typer.echo(f"Gameweave table server: open http://{shown}:{port}/  (API docs: /docs)")
    typer.echo(f"Database: {application.state.database}")
    decks = application.state.test_decks
    if decks is not None:
        typer.echo(f"TEST DECKS: the first {decks.left} deal{'s come' if decks.left != 1 else ' comes'} in the order of "
                   f"{settings.test_decks}, not shuffled; those matches are marked as test matches "
                   "(no fair-shuffle claim). Do not use this for real play.")
    if settings.redis_url:
        typer.echo(f"Node {settings.node_id}: sharing matches through Redis (prefix {settings.redis_prefix!r})")


def _run(application: Any, settings: Settings, sock: socket.socket, host: str, port: int, log_level: str) -> None:
    """Serve ``application`` on ``sock`` under uvicorn until SIGTERM/SIGINT.  WebSockets
    use :func:`~gameweave.server.transport.protocol_class` (a close frame even to a client
    that does not read, 1008 for one that answers no ping, 1001 at shutdown), 1 MiB
    frames at most, no compression.  What is loaded by then (modules, the app, its
    routes and models: about half the objects a busy server holds) is frozen out of the
    garbage collector's walks (``gc.freeze``): a full collection over 200 live matches
    then pauses the loop about half as long."""
    import gc

    import uvicorn

    from ..server.logs import log_config
    from ..server.transport import protocol_class

    config = uvicorn.Config(
        application, host=host, port=port, log_level=log_level,
        log_config=log_config(settings.log_format, log_level, settings.node_id),
        ws=protocol_class() or "auto", ws_max_size=1024 * 1024, ws_per_message_deflate=False,
        ws_ping_interval=settings.ws_ping_interval_s, ws_ping_timeout=settings.ws_ping_timeout_s, access_log=False,
        # X-Forwarded-For only from the proxies named (uvicorn trusts 127.0.0.1 by default)
        proxy_headers=bool(settings.forwarded_allow_ips), forwarded_allow_ips=settings.forwarded_allow_ips or "",
    )
    server = uvicorn.Server(config)
    gc.collect()
    gc.freeze()
    server.run(sockets=[sock])


def _check_redis(url: str) -> None:
    """Exit with status 2 and one ``error: …`` line if Redis does not answer at ``url``."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError, OSError) as exc:
        typer.echo(f"error: cannot reach Redis at {url}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", err=True)
        raise typer.Exit(2) from None


def _listen_socket(host: str, port: int) -> socket.socket:
    """Bind the server's TCP socket (as uvicorn would: ``SO_REUSEADDR``, IPv6 when ``host``
    holds a colon) so that a port already in use is told in one line before start-up.

    Returns the bound socket, listening already (the address is printed before the
    start-up ends; connections made meanwhile wait in the backlog), which uvicorn
    serves.  Exits with status 2 and one
    ``error: …`` line when the port is taken, not permitted, or the address is not here.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)  # from now on: a browser that connects during start-up waits, not refused
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else port - 1
            message = f"port {port} on {host} is already in use (try --port {other})"
        elif exc.errno == errno.EACCES:
            message = f"no permission to listen on port {port} on {host} (try a port above 1023, e.g. --port 8000)"
        elif exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
            message = f"cannot listen on {host}: it is not an address of this machine (try --host 127.0.0.1)"
        else:
            message = f"cannot listen on port {port} on {host}: {exc.strerror or exc}"
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None
    sock.set_inheritable(True)
    return sock


@app.command()
def verify(
    file: Path = typer.Argument(..., exists=True, dir_okay=False,
                                help="A record download (JSON with record, salt, commitment), a deal record or a match record."),
    salt: str | None = typer.Option(None, help="The salt, if the file holds only the §VII record."),
    commitment: str | None = typer.Option(None, help="The commitment, if the file holds only the §VII record."),
    rules: str | None = typer.Option(None, "--rules", help="Rule profile (§V) of a record that names none."),
) -> None:
    """Check a deal's fair shuffle: sha256(deck + " " + salt) equals the commitment given
    when the deal started, the record replays under the rules to the end of the deal (or,
    for a download whose result says a seat resigned, to where it resigned: R20), and the
    file's stated result (if any) is the one the replay gives.

    A match record (§VII) is replayed deal by deal and counted (R20); a deal of it that
    carries ``salt`` and ``commitment`` has them checked too.

    A record with neither salt nor commitment (a deal or a match record) has only its
    replay checked, and says so.

    Exit status 0 when all hold, 1 when a check fails (one ``FAILED: …`` line), 2 when the
    file cannot be read or is not a record, or when only one of salt and commitment is
    given."""
    from ..engine import GameRecord, GameweaveError, MatchRecord, UnparsableError, parse_json
    from .common import error, profile_or_exit, read_records, resigned_seat

    profile = profile_or_exit(rules)
    try:
        text = file.read_text(encoding="utf-8")
        obj = parse_json(text)
    except (OSError, UnicodeDecodeError, UnparsableError) as exc:
        typer.echo(f"error: cannot read {file}: {exc}", err=True)
        raise typer.Exit(2) from None
    [rec] = read_records(json.dumps(obj), profile) if not isinstance(obj, list) else [None]
    if rec is None:
        error("verify takes one record (a JSON object), not a list", 2)
    if isinstance(rec, GameweaveError):
        what = "match record" if isinstance(obj, dict) and "deals" in obj else "game record"
        error(f"not a {what}: {rec}", 2)
    if isinstance(rec, MatchRecord):
        _verify_match(rec, obj)
        return
    assert isinstance(rec, GameRecord)
    if isinstance(obj, dict) and "record" in obj:
        salt = salt or obj.get("salt")
        commitment = commitment or obj.get("commitment")
    _check_salted(rec, salt, commitment)
    try:
        state = rec.replay()
    except GameweaveError as exc:
        typer.echo(f"FAILED: the record does not replay: {exc}", err=True)
        raise typer.Exit(1) from None
    stated = obj.get("result") if isinstance(obj, dict) and "record" in obj else None
    resigned = resigned_seat(obj)
    if not state.is_over and resigned is not None:
        state.concede(resigned - 1)  # R20: a resigned deal counts as won by the other seat
        result = f"seat {state.winner + 1} won (seat {resigned} resigned after {len(rec.actions)} actions)"
    elif state.status == "won":
        result = f"seat {state.winner + 1} won"
    elif state.status == "tablas":
        result = "tablas"
    else:
        typer.echo(
            f"FAILED: the record is cut short: after its {len(rec.actions)} actions the deal has not ended "
            "(a record download is always of a finished deal)", err=True,
        )
        raise typer.Exit(1)
    replayed = {"status": state.status, "winner": state.winner + 1 if state.status == "won" else None}
    if stated is not None:
        if not isinstance(stated, dict) or {k: stated.get(k) for k in ("status", "winner")} != replayed:
            typer.echo(f"FAILED: the file says the deal ended {_result_text(stated)}, "
                       f"but the record replays to {result}", err=True)
            raise typer.Exit(1)
    typer.echo(f"replay OK: {len(rec.actions)} actions, {result} ({rec.rules} rules)"
               + ("" if stated is None else " (as the file's result says)"))


def _check_salted(rec: Any, salt: object, commitment: object) -> None:
    """The commitment check of a deal record given both ``salt`` and ``commitment``; with
    neither, as for a match record, only the replay is checked (said so); with one
    alone, a usage error (exit 2)."""
    if isinstance(salt, str) != isinstance(commitment, str):
        typer.echo("error: give both the salt and the commitment (in the file, or --salt/--commitment), "
                   "or neither to check only the replay", err=True)
        raise typer.Exit(2)
    if isinstance(salt, str) and isinstance(commitment, str):
        _check_commitment(rec, salt, commitment)
    else:
        typer.echo("no salt and commitment: only the replay was checked, not the shuffle")


def _check_commitment(rec: Any, salt: str, commitment: str, label: str = "") -> None:
    """Print ``commitment OK`` or fail (exit 1) when sha256(deck + " " + salt) differs."""
    from ..tables import commitment as commit_of, deck_text

    given = commitment.strip().lower()
    if len(given) != 64 or any(ch not in "0123456789abcdef" for ch in given):
        typer.echo(f"error: {label}a commitment is 64 hexadecimal digits (a SHA-256), not {commitment[:80]!r}", err=True)
        raise typer.Exit(2)
    want = commit_of(deck_text(rec.deck), salt)
    if want != given:
        typer.echo(f"FAILED: {label}the deck order and salt do not match the commitment", err=True)
        typer.echo(f"  sha256(deck + ' ' + salt) = {want}", err=True)
        typer.echo(f"  commitment               = {commitment}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{label}commitment OK: sha256(deck + ' ' + salt) = {want}")


def _verify_match(rec: Any, obj: dict[str, Any]) -> None:
    """Verify a match record (§VII, R20): each deal's commitment where the deal carries
    one, the replay of every deal, and the match's count."""
    from ..engine import GameweaveError, ReplayError
    from .replay import match_result_lines

    raw = obj.get("deals", [])
    checked = 0
    for i, d in enumerate(rec.deals, 1):
        dobj = raw[i - 1] if i - 1 < len(raw) and isinstance(raw[i - 1], dict) else {}
        if isinstance(dobj.get("salt"), str) and isinstance(dobj.get("commitment"), str):
            _check_commitment(d, dobj["salt"], dobj["commitment"], f"deal {i}: ")
            checked += 1
    try:
        match, finals = rec.replay()
    except ReplayError as exc:
        typer.echo(f"FAILED: deal {exc.deal} does not replay: {exc}", err=True)
        raise typer.Exit(1) from None
    except GameweaveError as exc:
        typer.echo(f"FAILED: {exc}", err=True)
        raise typer.Exit(1) from None
    last = finals[-1] if finals else None
    open_note = "" if last is None or last.is_over else f"; deal {len(finals)} is still being played"
    typer.echo(f"replay OK: {rec.rules} match, {len(finals)} deal{'s' if len(finals) != 1 else ''}{open_note}")
    if checked == 0:
        typer.echo("no deal carries a salt and a commitment: only the replay was checked, not the shuffle")
    elif checked < len(rec.deals):
        typer.echo(f"shuffle checked for {checked} of {len(rec.deals)} deals: the others carry no salt and "
                   "commitment, so only their replay was checked")
    for line in match_result_lines(match, ""):
        typer.echo(line)


def _result_text(stated: object) -> str:
    """A stated ``result`` object (``{"status": "won", "winner": 1}``) in words, for a message."""
    if isinstance(stated, dict):
        if stated.get("status") == "won":
            return f"with seat {stated.get('winner')} winning"
        if stated.get("status") == "tablas":
            return "in tablas"
    return f"as {json.dumps(stated)[:80]}"

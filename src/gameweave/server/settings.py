"""One settings object for the table server, read from flags and the environment.

Every knob of ``gameweave serve`` and :func:`~gameweave.server.create_app` lives in
:class:`Settings` (pydantic-settings).  Environment variables are the field names in
upper case with the prefix ``GAMEWEAVE_`` (``GAMEWEAVE_DATABASE_URL``,
``GAMEWEAVE_REDIS_URL``, ``GAMEWEAVE_REDIS_PREFIX`` …); flags given to ``gameweave
serve`` win over the environment.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

MAX_FRAME = 64 * 1024
"""Largest accepted WebSocket text frame and HTTP body, in bytes (64 KiB)."""


class Settings(BaseSettings):
    """The table server's configuration (see docs/DEPLOY.md for the multi-node ones).

    Attributes:
        database_url: SQLAlchemy URL; default an SQLite file in ``data_dir``.
        data_dir: directory of the default SQLite file.
        redis_url: ``redis://host:port/db``; when set the node shares its matches with
            every other node on the same database and Redis (fan-out, bot leases).
        redis_prefix: prefix of every Redis key and channel (deployments and test runs
            may share one Redis).
        node_id: this node's name in Redis and in logs (default: random hex).
        bot_delay: pause before each bot action, seconds.
        http_burst, http_rate: HTTP requests per client address (burst, per second).
        ws_burst, ws_rate: WebSocket frames per socket (burst, per second).
        hello_timeout: seconds a socket has to say ``hello``.
        idle_evict_s: a table with no socket, no bot to move and no use for this many
            seconds leaves memory (it reloads from the database on the next use).
        bot_lease_s: lifetime of a node's lease on a match's bot seat (Redis); renewed
            while the node lives, taken over by another node once it expires.
        log_format: ``text`` (one plain line each) or ``json`` (one JSON object a line).
        test_decks: a file of deck orders (one 40-card deck a line, §VII deck text) to
            deal in turn before fair shuffles (:class:`~gameweave.tables.TestDecks`);
            every match dealt from it is marked ``test`` (no fair-shuffle claim).  Off
            (None) by default.
        presence_timeout_s: a seat is online while its socket is open and heard from
            within this many seconds (the page's heartbeat comes every 5 s).
        presence_sweep_s: how often the server looks for seats gone silent.
        clock_scale: multiplies the clocks' seconds (a test setting: 0.02 makes a 60 s
            clock 1.2 s); 1 in play.
        abandon_after_days: a match with no move for this many days is closed as
            abandoned (checked on load and by a sweep).
        phrase_interval_s: least seconds between two quick phrases of one seat.
        ws_ping_interval_s, ws_ping_timeout_s: ``gameweave serve`` pings every socket
            this often; one that has not answered within the timeout does not read and
            is closed with 1008 "client too slow" (PROTOCOL §4.4).
        session_idle_days: a signed-in session unused for this many days has expired
            (issue 20); the cookie is kept by the browser as long.
        cookie_secure: mark the session cookie ``Secure`` (only sent over https): set it
            when the server is reached through https (a TLS-terminating proxy).
        open_away_s: an open table whose creator has been away from it (seat 1 not
            connected on any node) this many seconds leaves the lobbies (issue 20).
        forwarded_allow_ips: the proxies (comma-separated addresses, as uvicorn's
            ``forwarded_allow_ips``) whose ``X-Forwarded-For`` names the client; unset,
            no such header is believed and a client's address is the connection's peer
            (the per-address limits cannot be dodged by sending the header).
    """

    model_config = SettingsConfigDict(env_prefix="GAMEWEAVE_", extra="ignore")

    database_url: str | None = None
    data_dir: Path | None = None
    redis_url: str | None = None
    redis_prefix: str = Field("gameweave", min_length=1, max_length=64)
    node_id: str = Field(default_factory=lambda: secrets.token_hex(4), min_length=1, max_length=64)
    bot_delay: float = Field(0.6, ge=0.0, le=30.0)
    http_burst: float = 600
    http_rate: float = 300.0
    ws_burst: float = 120
    ws_rate: float = 60.0
    hello_timeout: float = 10.0
    idle_evict_s: float = Field(300.0, gt=0)
    bot_lease_s: float = Field(5.0, ge=1.0, le=60.0)
    log_format: Literal["text", "json"] = "text"
    test_decks: Path | None = None
    presence_timeout_s: float = Field(12.0, gt=0)
    presence_sweep_s: float = Field(2.0, gt=0)
    clock_scale: float = Field(1.0, gt=0, le=1.0)
    abandon_after_days: float = Field(7.0, gt=0)
    phrase_interval_s: float = Field(3.0, ge=0)
    ws_ping_interval_s: float = Field(20.0, gt=0)
    ws_ping_timeout_s: float = Field(20.0, gt=0)
    session_idle_days: float = Field(30.0, gt=0, le=400)
    open_away_s: float = Field(60.0, gt=0)
    cookie_secure: bool = False
    forwarded_allow_ips: str | None = None


__all__ = ["MAX_FRAME", "Settings"]

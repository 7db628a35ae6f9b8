"""Helpers for tests that run real ``gameweave serve`` processes on loopback ports."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

PG_ENV, REDIS_ENV = "GAMEWEAVE_TEST_DATABASE_URL", "GAMEWEAVE_TEST_REDIS_URL"
"""The variables naming the PostgreSQL and Redis servers the several-node tests use."""

NEEDS_NODES = [
    pytest.mark.skipif(not (os.environ.get(PG_ENV) and os.environ.get(REDIS_ENV)),
                       reason=f"several-node tests need {PG_ENV} and {REDIS_ENV} (CI sets both)"),
    pytest.mark.nodes,
]
"""``pytestmark`` of a several-node test module: skipped without both servers (CI and
GAMEWEAVE_REQUIRE_* runs set them), marked ``nodes``."""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Node:
    """One ``gameweave serve`` subprocess; its stderr goes to ``log`` (a file)."""

    def __init__(self, log: Path, *args: str, env: dict | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log = log
        self._err = open(log, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from gameweave.cli import main; main()", "serve", "--port", str(self.port), *args],
            stdout=subprocess.DEVNULL, stderr=self._err, env={**os.environ, **(env or {})},
        )

    def wait_ready(self, timeout: float = 40) -> Node:
        """Wait until ``/api/ready`` answers 200 (fails the test after ``timeout`` s)."""
        deadline = time.time() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the node exited ({self.proc.returncode}): {self.stderr()}")
            try:
                if httpx.get(self.url + "/api/ready", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.time() > deadline:
                raise AssertionError(f"the node did not become ready in {timeout} s: {self.stderr()}")
            time.sleep(0.1)

    def stderr(self) -> str:
        """Everything the node wrote to stderr so far."""
        if not self._err.closed:
            self._err.flush()
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL (no clean-up: the lease and sockets just vanish)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not exit in 10 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._err.close()


class Cluster:
    """Several :class:`Node` processes on one database and one Redis prefix (a fresh
    ``gwtest-<hex>``).  :meth:`start` adds ready nodes; :meth:`close` stops them all,
    deletes the prefix's keys and fails the test if any node logged a traceback."""

    def __init__(self, logs: Path, database_url: str, redis_url: str):
        self.logs, self.database_url, self.redis_url = logs, database_url, redis_url
        self.prefix = f"gwtest-{uuid.uuid4().hex[:10]}"
        self.started: list[Node] = []

    def start(self, n: int, bot_delay: float = 0.05, start_together: bool = True, redis_url: str | None = None,
              env: dict | None = None) -> list[Node]:
        """``n`` more nodes (``redis_url`` default: the cluster's), ready; started at once
        unless ``start_together`` is False (then each is ready before the next starts)."""
        nodes = []
        for _ in range(n):
            i = len(self.started)
            node = Node(self.logs / f"node{i}.log", "--database-url", self.database_url,
                        "--redis-url", redis_url or self.redis_url, "--redis-prefix", self.prefix,
                        "--node-id", f"n{i}", "--bot-delay", str(bot_delay), env=env)
            self.started.append(node)
            nodes.append(node)
            if not start_together:
                node.wait_ready()
        return [node.wait_ready() for node in nodes]

    def close(self) -> None:
        """Stop every node, delete the prefix's keys, check the logs."""
        import redis

        for node in self.started:
            node.stop()
        r = redis.Redis.from_url(self.redis_url)
        for key in r.scan_iter(f"{self.prefix}:*"):
            r.delete(key)
        r.close()
        for node in self.started:
            log = node.stderr()
            assert "Traceback" not in log, log

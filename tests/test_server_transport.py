"""The WebSocket protocol ``gameweave serve`` gives uvicorn (server/transport.py) builds on
uvicorn's sans-I/O protocol's internals: this pins every name it uses, so that a uvicorn
release that renames one fails here, by name, instead of at a client's close (PROTOCOL §4.4)."""

from __future__ import annotations

import inspect

import pytest

from gameweave.server.transport import protocol_class

METHODS = ("connection_made", "send", "keepalive_timeout", "shutdown", "stop_keepalive")
ATTRIBUTES = ("writable", "handshake_complete", "disconnected", "pong_timer", "pending_ping_payload",
              "close_sent", "transport", "client", "ping_timeout", "queue", "conn", "read_paused", "close_timer",
              "loop", "close_timeout")


def test_uvicorn_has_the_sans_io_protocol_and_every_name_the_override_uses() -> None:
    cls = protocol_class()
    assert cls is not None, "uvicorn has no websockets_sansio_impl: PROTOCOL §4.4's close codes would be lost"
    base = cls.__mro__[1]
    for name in METHODS:
        assert callable(getattr(base, name, None)), f"uvicorn's protocol has no method {name}"
    source = inspect.getsource(base)
    missing = [a for a in ATTRIBUTES if f"self.{a}" not in source]
    assert not missing, f"uvicorn's protocol no longer sets {missing}"


@pytest.mark.parametrize("name", METHODS[1:4])
def test_the_override_replaces_the_methods_it_means_to(name: str) -> None:
    cls = protocol_class()
    assert cls is not None
    assert name in vars(cls), f"{name} is not overridden"

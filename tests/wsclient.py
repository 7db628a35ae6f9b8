"""Test clients of the table server's WebSocket (PROTOCOL §4), for tests/conftest.py's
``ws_seat`` fixture and the spectator tests."""

from __future__ import annotations


class WsClient:
    """A test client of one WebSocket (Starlette TestClient) that says ``hello`` with
    the given fields and keeps every raw frame it receives (``frames``) and the last
    state frame (``state``)."""

    def __init__(self, client, match_id: str, hello: dict):
        self.client = client
        self.match_id = match_id
        self.frames: list[str] = []
        self.state: dict | None = None
        self._cm = client.websocket_connect(f"/ws/{match_id}")
        self.ws = self._cm.__enter__()
        self.ws.send_json({"type": "hello", **hello})

    def recv(self) -> dict:
        """The next frame (as an object); the raw text is kept in ``frames``."""
        import json

        text = self.ws.receive_text()
        self.frames.append(text)
        obj = json.loads(text)
        if obj.get("type") == "state":
            self.state = obj
        return obj

    def close(self) -> None:
        try:
            self._cm.__exit__(None, None, None)
        except Exception:
            pass


class WsSeat(WsClient):
    """One seat's socket: hello with its seat and token, and the first state frame read."""

    def __init__(self, client, match_id: str, seat: int, token: str):
        super().__init__(client, match_id, {"seat": seat, "token": token})
        self.seat = seat
        self.token = token
        first = self.recv()
        assert first["type"] == "state", first

    def recv_state(self) -> dict:
        """The next frame, which must be a state frame."""
        obj = self.recv()
        assert obj["type"] == "state", obj
        return obj

    def send(self, obj: dict) -> None:
        self.ws.send_json(obj)

    def act(self, action: str, version: int | None = None) -> None:
        """Send an action with the last state version (or ``version``)."""
        v = self.state["version"] if version is None else version
        self.ws.send_json({"type": "action", "action": action, "version": v})

"""The table server: FastAPI app factory :func:`create_app` (lobby over HTTP JSON, play
over one WebSocket per seat, the static page).  Protocol: docs/PROTOCOL.md."""

from .app import WEB_DIR, create_app
from .hub import MAX_FRAME, Hub

__all__ = ["Hub", "MAX_FRAME", "WEB_DIR", "create_app"]

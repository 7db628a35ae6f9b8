"""Logging of a node: one plain line per event (``text``) or one JSON object per line
(``json``), for the ``gameweave.*`` and ``uvicorn.*`` loggers alike; library tracebacks
for client mistakes are turned into one plain line."""

from __future__ import annotations

import json
import logging
import time
from typing import Any


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", "node"}`` on one line (exceptions as one
    ``"error"`` field with the exception's type, never a multi-line traceback)."""

    def __init__(self, node: str = ""):
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if self.node:
            out["node"] = self.node
        if record.exc_info and record.exc_info[0] is not None:
            out["error"] = record.exc_info[0].__name__
        return json.dumps(out, ensure_ascii=False)


UTF8_LINE = "websocket: a text frame was not valid UTF-8; closed the socket (1007)"
"""The one plain line logged for a text frame that is not valid UTF-8 (PROTOCOL §4.4)."""
UTF8_CLOSING_LINE = "websocket: a text frame was not valid UTF-8 as the client closed; dropped it"
"""The same when the client's close frame came with it (no 1007 can follow a close)."""


class ClientMistakeFilter(logging.Filter):
    """Turns uvicorn's traceback for a WebSocket text frame that is not valid UTF-8
    (uvicorn answers it by closing with 1007) into one plain line without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and "Invalid UTF-8" in str(record.msg):
            record.msg = UTF8_LINE
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def log_config(fmt: str = "text", level: str = "info", node: str = "") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` dict for uvicorn's ``log_config``: the
    ``gameweave``, ``uvicorn`` and ``uvicorn.error`` loggers on stderr, as text lines or
    JSON lines."""
    level = level.upper()
    formatter: dict[str, Any]
    if fmt == "json":
        formatter = {"()": "gameweave.server.logs.JsonFormatter", "node": node}
    else:
        formatter = {"format": "%(levelname)s: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"mistakes": {"()": "gameweave.server.logs.ClientMistakeFilter"}},
        "formatters": {"default": formatter},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                                "formatter": "default", "filters": ["mistakes"]}},
        "loggers": {
            "gameweave": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.error": {"handlers": ["stderr"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


__all__ = ["ClientMistakeFilter", "JsonFormatter", "log_config"]

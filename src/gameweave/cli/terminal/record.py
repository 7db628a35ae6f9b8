"""The record of a terminal match: the finished deals saved as a §VII match record, which
``gameweave replay`` and ``gameweave verify`` read.  An unfinished deal is never written
(R21: its stock is still secret)."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from rich.markup import escape

from ...engine import GameRecord, GameState, Match, MatchRecord
from ..common import error
from .screen import Terminal


def record_path(record: Path | None) -> Path:
    """``--record FILE``, else a new file in ``<data dir>/records`` (``$GAMEWEAVE_DATA``)."""
    if record is not None:
        return record
    from ...storage import default_data_dir

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return default_data_dir() / "records" / f"play-{stamp}.json"


def record_problem(path: Path) -> str | None:
    """Why a record could not be written to ``path`` at the end of the match, checked
    before it starts (nothing is left behind): ``None`` if it can, else the reason (a
    folder, a folder that cannot be made or written to, a file that cannot be
    overwritten).  Where the file does not exist yet, a file is made and removed in the
    nearest folder that exists (permission bits alone do not tell: ``/proc`` says
    writable to root)."""
    if path.is_dir():
        return f"{path} is a folder; give a file name"
    if path.exists():
        return None if os.access(path, os.W_OK) else f"{path} cannot be overwritten"
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a folder"
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".gameweave-", suffix=".probe"):
            pass
    except OSError:
        return f"cannot write in {parent}"
    return None


def save_record(tty: Terminal, path: Path, match: Match, finished: list[GameState]) -> bool:
    """Write the finished deals as a §VII match record and say where (or that no deal
    was finished); a file that cannot be written is one error line and False."""
    if not finished:
        tty.con.print(tty.t("no_record"))
        return True
    rec = MatchRecord(rules=match.rules.name, first_opener=match.first_opener, options=dict(match.options),
                      deals=[GameRecord.from_state(st) for st in finished])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rec.to_dict()) + "\n", encoding="utf-8")
    except OSError as exc:
        error(f"cannot save the record to {path}: {exc.strerror or exc}")
        return False
    tty.con.print(tty.t("record_saved", deals=tty.n(len(finished), "finished_deal"), path=escape(str(path))))
    return True


__all__ = ["record_path", "record_problem", "save_record"]

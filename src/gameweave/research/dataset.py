"""Self-play datasets (issue 21): N deals of a bot pair as a match record and as arrays.

:func:`play_dataset` plays ``deals`` deals between two bots by name (bot 1 in seat 1,
bot 2 in seat 2, the opener alternating by R9) and returns them as one §VII
:class:`~gameweave.engine.MatchRecord` (a running tally, R20: it never ends early) and,
when numpy is installed (the ``[research]`` extra), as per-decision arrays made by the
research layer's encoders.  :func:`write_dataset` writes them to a folder:

* ``records.json`` — the match record (one JSON object), which ``gameweave verify`` and
  ``gameweave replay`` read and :meth:`MatchRecord.replay` replays;
* ``arrays.npz`` — one row per research decision (a dense id of
  :mod:`gameweave.research.ids`; an R18 table is its ``meld M`` steps then ``done``, a
  force with several targets the force then ``onto M``; chance is not a row):

  ==================  ==============  =====================================================
  name                shape, dtype    meaning
  ==================  ==============  =====================================================
  ``observations``    (n, 783) f4     the acting seat's information-state tensor
                                      (:class:`~gameweave.research.observer.SeatEncoder`)
  ``action_masks``    (n, 473) i1     1 for the legal ids of that decision
  ``actions``         (n,) i2         the id played
  ``rewards``         (n,) f4         the deal's return for the acting seat (+1 won, -1
                                      lost, 0 tablas) on that seat's last row of the deal,
                                      else 0: a seat's rewards in a deal sum to its return
  ``returns``         (n,) f4         the deal's return for the acting seat, on every row
  ``dones``           (n,) bool       the acting seat's last row of the deal
  ``seat``            (n,) i1         the acting seat index (0 = seat 1)
  ``deal``            (n,) i4         the deal's index in ``records.json`` (0-based)
  ==================  ==============  =====================================================

* ``manifest.json`` — format, gameweave version, profile, seed, the bots (names and
  options, per seat), the counts (deals, actions, rows, wins per seat, tablas), each
  file's size and SHA-256, and the arrays' layout (or why they were not written).

**Reproducible**: deal ``i``'s deck is ``shuffled_deck(f"dataset:{seed}:{i}")``, the
first opener is seat 1 or (profiles that draw it) ``Random(f"dataset:{seed}:opener")``,
each bot's seed derives from ``seed`` and its seat, and bots are pure functions of
(seed, view) (docs/BOTS.md); the npz is written with fixed zip timestamps, so the same
arguments give byte-identical files (tests/test_research_dataset.py).  Whether the
native core is built changes the speed only: the searches' playouts are the same in C
(docs/ENGINE.md).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..bots import make_bot
from ..engine import GameRecord, Match, MatchRecord, find_profile, seat_view, shuffled_deck
from .deal import Deal

FORMAT = "gameweave-dataset"
FORMAT_VERSION = 1
RECORDS = "records.json"
ARRAYS = "arrays.npz"
MANIFEST = "manifest.json"
NO_NUMPY = "numpy is not installed (pip install -e '.[research]'): arrays.npz not written"
"""The manifest's ``arrays_note`` (and the command's line) when the arrays cannot be made."""

ARRAY_LAYOUT = {
    "observations": ("float32", "(n, 783)"), "action_masks": ("int8", "(n, 473)"), "actions": ("int16", "(n,)"),
    "rewards": ("float32", "(n,)"), "returns": ("float32", "(n,)"), "dones": ("bool", "(n,)"),
    "seat": ("int8", "(n,)"), "deal": ("int32", "(n,)"),
}
"""Each array of ``arrays.npz``: (dtype, shape), n = rows (decisions)."""

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def numpy_or_none() -> Any:
    """The numpy module, or None when it is not installed (then no arrays are made)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in seat index ``seat`` (0/1) of a dataset seeded ``seed``."""
    return (seed * 1_000_003 + 7919 * (seat + 1)) & 0x7FFFFFFF


def dataset_deck(seed: int, deal: int) -> tuple[int, ...]:
    """Deck order (R8) of deal ``deal`` (0-based) of a dataset seeded ``seed``."""
    return shuffled_deck(f"dataset:{seed}:{deal}")


@dataclass
class _Rows:
    """The arrays' rows as Python lists until :meth:`arrays` stacks them."""

    obs: list[Any] = field(default_factory=list)
    masks: list[Any] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    dones: list[bool] = field(default_factory=list)

    def end_deal(self, first_row: int, result: list[float]) -> None:
        """Set the returns and last-row flags of the rows of the deal that began at ``first_row``."""
        last: dict[int, int] = {}
        for r in range(first_row, len(self.actions)):
            self.returns.append(result[self.seats[r]])
            self.dones.append(False)
            last[self.seats[r]] = r
        for r in last.values():
            self.dones[r] = True

    def arrays(self, np: Any) -> dict[str, Any]:
        """The npz arrays (see the module docstring for names, shapes and dtypes)."""
        n = len(self.actions)
        returns = np.asarray(self.returns, np.float32)
        dones = np.asarray(self.dones, np.bool_)
        return {
            "observations": np.stack(self.obs) if n else np.zeros((0, 783), np.float32),
            "action_masks": np.stack(self.masks) if n else np.zeros((0, 473), np.int8),
            "actions": np.asarray(self.actions, np.int16),
            "rewards": np.where(dones, returns, np.float32(0)).astype(np.float32),
            "returns": returns,
            "dones": dones,
            "seat": np.asarray(self.seats, np.int8),
            "deal": np.asarray(self.deals, np.int32),
        }


@dataclass
class Dataset:
    """What :func:`play_dataset` returns: ``record`` (the match record), ``arrays`` (name ->
    numpy array, or None without numpy or when not asked), ``actions`` (engine actions in
    all deals), ``wins`` (won deals per seat index) and ``tablas``."""

    record: MatchRecord
    arrays: dict[str, Any] | None
    actions: int
    wins: tuple[int, int]
    tablas: int


def _decide(bot: Any, st: Any, seat: int) -> int:
    view = seat_view(st, seat)
    a = view.legal[0] if len(view.legal) == 1 else bot.choose(view)
    if a not in view.legal:
        raise RuntimeError(f"the bot in seat {seat + 1} chose an illegal action {a!r}")
    return int(a)


def _play_deal(st: Any, bots: list[Any], rows: _Rows | None, encoders: Any, index: int) -> None:
    """Play one deal on ``st``; with ``rows``, mirror it on a research :class:`Deal` and
    keep a row per dense id (the deck's own stock cards are the chance outcomes)."""
    deal: Deal | None = None
    if rows is not None:
        deal = Deal(st.rules, st.opener)
        for c in st.deck[:20]:
            deal.apply(c)
    while not st.is_over:
        seat = st.to_act
        a = _decide(bots[seat], st, seat)
        if deal is not None and rows is not None:
            enc = encoders[seat]
            for aid in deal.ids_of(a):
                rows.obs.append(enc.encode(deal))
                rows.masks.append(enc.mask(deal))
                rows.actions.append(aid)
                rows.seats.append(seat)
                rows.deals.append(index)
                deal.apply(aid)
            if deal.turning:
                deal.apply(st.deck[st.stock_pos])  # the card this deck turns
        st.apply(a)
    if deal is not None and (deal.state is None or deal.state.history != st.history):
        raise AssertionError(f"deal {index + 1}: the research deal left the engine's")  # pragma: no cover


def play_dataset(bots: tuple[str, str], deals: int, *, rules: str = "gameweave", seed: int = 0,
                 options: tuple[dict[str, Any], dict[str, Any]] = ({}, {}), arrays: bool = True,
                 progress: Callable[[int], None] | None = None) -> Dataset:
    """Play ``deals`` deals of ``bots[0]`` (seat 1) against ``bots[1]`` (seat 2) under the
    profile ``rules`` (§V), reproducibly from ``seed`` (module docstring).

    ``options`` are each bot's options (:func:`~gameweave.bots.make_bot`); ``arrays``
    False (or numpy missing) skips the arrays; ``progress(k)`` is called after each deal.
    Cost: the bots' decisions plus, with arrays, about 3.3 KB of memory per row (an
    observation is 783 float32) and one encoding per row.  Raises :class:`ValueError`
    for an unknown bot, a bad bot option (:class:`TypeError` from its constructor) or
    ``deals`` < 1, :class:`~gameweave.engine.UnknownProfileError` for an unknown profile
    and :class:`RuntimeError` if a bot answers an illegal action.
    """
    if deals < 1:
        raise ValueError("deals must be at least 1")
    profile = find_profile(rules)
    players = [make_bot(bots[s], seed=bot_seed(seed, s), **options[s]) for s in (0, 1)]
    first = random.Random(f"dataset:{seed}:opener").randrange(2) if profile.first_opener == "random" else 0
    match = Match(rules=profile, format="tally", first_opener=first)
    np = numpy_or_none() if arrays else None
    rows = _Rows() if np is not None else None
    encoders = None
    if rows is not None:
        from .observer import SeatEncoder

        encoders = (SeatEncoder(0), SeatEncoder(1))
    records: list[GameRecord] = []
    n_actions = 0
    for i in range(deals):
        st = match.new_deal(dataset_deck(seed, i))
        start = len(rows.actions) if rows is not None else 0
        _play_deal(st, players, rows, encoders, i)
        if rows is not None:
            result = [0.0, 0.0] if st.winner < 0 else [1.0 if s == st.winner else -1.0 for s in (0, 1)]
            rows.end_deal(start, result)
        match.count(st)
        n_actions += len(st.history)
        records.append(GameRecord.from_state(st))
        if progress:
            progress(i + 1)
    record = MatchRecord(rules=profile.name, first_opener=first, options=match.options, deals=records)
    wins = (match.wins[0], match.wins[1])
    return Dataset(record, rows.arrays(np) if rows is not None else None, n_actions, wins, match.tablas)


def npz_bytes(arrays: dict[str, Any]) -> bytes:
    """An ``.npz`` (what :func:`numpy.savez_compressed` writes, readable by
    :func:`numpy.load`) whose bytes depend on the arrays only: the entries in the given
    order, each with the same fixed timestamp (numpy's own writer stamps the current time)."""
    import numpy as np

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue())
    return out.getvalue()


def _file(path: Path, data: bytes) -> dict[str, Any]:
    path.write_bytes(data)
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_dataset(out: Path | str, bots: tuple[str, str], deals: int, *, rules: str = "gameweave", seed: int = 0,
                  options: tuple[dict[str, Any], dict[str, Any]] = ({}, {}), arrays: bool = True,
                  progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play (:func:`play_dataset`, same arguments and errors) and write ``records.json``,
    ``arrays.npz`` (when made) and ``manifest.json`` into the folder ``out`` (made if
    missing; files of those names are replaced).  Returns the manifest (a dict).
    Raises :class:`OSError` if the folder cannot be written."""
    data = play_dataset(bots, deals, rules=rules, seed=seed, options=options, arrays=arrays, progress=progress)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    obj = data.record.to_dict()
    for d in obj["deals"]:
        d.pop("rules", None)  # as `gameweave demo --record-only` writes a match record
    files = {RECORDS: _file(folder / RECORDS, (json.dumps(obj, ensure_ascii=False) + "\n").encode())}
    rows = 0
    if data.arrays is not None:
        files[ARRAYS] = _file(folder / ARRAYS, npz_bytes(data.arrays))
        rows = len(data.arrays["actions"])
    manifest: dict[str, Any] = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "gameweave": __version__,
        "rules": data.record.rules, "seed": seed,
        "bots": {str(s + 1): {"name": bots[s], "options": dict(options[s]), "seed": bot_seed(seed, s)} for s in (0, 1)},
        "first_opener": data.record.first_opener + 1, "match": data.record.options,
        "counts": {"deals": deals, "actions": data.actions, "rows": rows,
                   "wins": {"1": data.wins[0], "2": data.wins[1]}, "tablas": data.tablas},
        "files": files,
        "arrays": {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in data.arrays.items()}
        if data.arrays is not None else None,
    }
    if data.arrays is None:
        manifest["arrays_note"] = NO_NUMPY if arrays else "not asked for (--no-arrays)"
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return manifest


__all__ = ["ARRAYS", "ARRAY_LAYOUT", "Dataset", "FORMAT", "FORMAT_VERSION", "MANIFEST", "NO_NUMPY", "RECORDS",
           "bot_seed", "dataset_deck", "npz_bytes", "numpy_or_none", "play_dataset", "write_dataset"]

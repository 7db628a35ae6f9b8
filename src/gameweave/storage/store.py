"""Persistence of tables: SQLite by default, PostgreSQL by URL (SQLAlchemy 2, Alembic).

The action log is the record: a table is rebuilt by dealing each stored deck order
(R8) with its opener (R9) and replaying the stored action ints (no text is parsed: an
int means the same action in every profile), so a restarted server continues every
match exactly where it was.  Every write is one transaction; the server commits an
accepted action before it announces it.  Nothing here is async: the server calls every
method through its database threads (``gameweave.server.database``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, TypeVar
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, insert, select, text, update
from sqlalchemy.engine import Connection, Engine

from ..engine import Match, validate_deck
from ..tables import DealInfo, Table, deck_text
from .ratings import of_match as ratings_of_match
from .schema import actions, deals, matches
from .checkpoint import WalCheckpointer
from .commits import ActionRow, Committer, DealWrites, action_row, bump_version, ms
from .errors import StorageError
from .times import _iso, _now

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The packaged Alembic migrations."""

T = TypeVar("T")


def _deal_row(match_id: str, d: DealInfo, now: datetime) -> dict[str, Any]:
    """A deal's row (column -> value) as stored when it is dealt."""
    return {"match_id": match_id, "number": d.number, "opener": d.state.opener, "deck": deck_text(d.deck),
            "salt": d.salt, "commitment": d.commitment, "status": d.state.status,
            "winner": d.state.winner if d.state.winner >= 0 else None, "created_at": now, "test": d.test,
            "resigned": d.resigned}


def default_data_dir() -> Path:
    """``$GAMEWEAVE_DATA``, else ``$XDG_DATA_HOME/gameweave``, else ``~/.local/share/gameweave``."""
    env = os.environ.get("GAMEWEAVE_DATA")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "gameweave"


def sqlite_url(path: Path | str) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{Path(path).resolve()}"


def resolve_url(database_url: str | None, data_dir: Path | str | None) -> str:
    """The database URL to use: ``database_url`` if given, else ``gameweave.db`` in
    ``data_dir`` (default :func:`default_data_dir`), which is created if missing."""
    if database_url:
        return database_url
    directory = Path(data_dir).expanduser() if data_dir else default_data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return sqlite_url(directory / "gameweave.db")


def make_engine(url: str, *, autocheckpoint: bool = True) -> Engine:
    """A SQLAlchemy engine; SQLite gets WAL, NORMAL sync and foreign keys, and with
    ``autocheckpoint=False`` no checkpoint inside its commits (``wal_autocheckpoint=0``:
    a :class:`~gameweave.storage.checkpoint.WalCheckpointer` does them instead)."""
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            if not autocheckpoint:
                cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return eng
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


MIGRATION_LOCK = 0x67770001
"""PostgreSQL advisory-lock key held around the migrations (nodes starting together on a
fresh database run them one after the other; the later ones find nothing to do)."""


def migrate(engine: Engine) -> None:
    """Bring the schema up to date (Alembic ``upgrade head`` with the packaged migrations).

    On PostgreSQL the upgrade runs inside a transaction holding the advisory lock
    :data:`MIGRATION_LOCK` (``pg_advisory_xact_lock``), so several nodes may start at
    once on a fresh database.  On SQLite the foreign keys are off while it runs (and on
    again after): Alembic's batch steps rebuild a table by dropping the old one, which
    would otherwise delete every deal and action of every match (``ON DELETE CASCADE``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:  # a batch step rebuilds a table: with foreign keys on, its drop would cascade
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        with conn.begin():
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            conn.commit()


@dataclass(frozen=True)
class MatchHead:
    """What changes in a match row without a new action or deal, and its version: enough
    for a node to see whether its copy is current (several nodes)."""

    version: int
    ready: int
    token2_sha256: str | None
    name2: str | None


@dataclass(frozen=True)
class DealRow:
    """One stored deal, as :meth:`Store.deal` reads it (the deck order is secret until
    the deal ends: it never leaves the server)."""

    number: int
    deck: tuple[int, ...]
    salt: str
    commitment: str
    test: bool


class Store:
    """Tables in a database.

    ``Store(url)`` connects and runs the migrations.  ``url`` is a SQLAlchemy URL
    (``sqlite:///path.db``, ``postgresql+psycopg://user@host:5432/db``).  With
    ``background_checkpoint=True`` (the server's store) an SQLite file's log is copied
    back by a :class:`~gameweave.storage.checkpoint.WalCheckpointer` thread instead of
    inside the commits (no commit then waits for a checkpoint); other databases ignore it.
    """

    def __init__(self, url: str, *, run_migrations: bool = True, background_checkpoint: bool = False):
        self.url = url
        sqlite_file = url.startswith("sqlite") and ":memory:" not in url
        self.engine = make_engine(url, autocheckpoint=not (background_checkpoint and sqlite_file))
        self._writers = threading.local()  # the connection each committing thread keeps
        self._held: list[Connection] = []
        self._held_lock = threading.Lock()
        self._committer = Committer.for_dialect(self.engine.dialect)
        self._deal_writes = DealWrites(self.engine.dialect)
        if run_migrations:
            migrate(self.engine)
        self.checkpointer: WalCheckpointer | None = None
        if background_checkpoint and sqlite_file:
            self.checkpointer = WalCheckpointer(str(self.engine.url.database))

    @property
    def description(self) -> str:
        """Where the data lives, without any password: the SQLite path, or the URL."""
        u = self.engine.url
        if u.get_backend_name() == "sqlite":
            return str(u.database)
        return u.render_as_string(hide_password=True)

    def close(self) -> None:
        """Release the kept writer connections and the connection pool (call it once the
        threads that commit are done)."""
        with self._held_lock:
            held, self._held = self._held, []
        for conn in held:
            conn.close()
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.engine.dispose()

    def _writer(self) -> Connection:
        """This thread's kept connection for :meth:`commit_actions`: the group commit runs
        one transaction after another on one thread, so it keeps one connection instead
        of taking one from the pool each time (on PostgreSQL that saves the pool's ping
        and its rollback on return: two round trips of the five or so a commit makes)."""
        conn: Connection | None = getattr(self._writers, "conn", None)
        if conn is None or conn.closed or conn.invalidated:
            conn = self.engine.connect()
            self._writers.conn = conn
            with self._held_lock:
                self._held.append(conn)
        return conn

    def _drop_writer(self) -> None:
        conn: Connection | None = getattr(self._writers, "conn", None)
        self._writers.conn = None
        if conn is not None:
            with self._held_lock:
                if conn in self._held:
                    self._held.remove(conn)
            conn.invalidate()
            conn.close()

    # ------------------------------------------------------------------ writes
    def create(self, table: Table) -> None:
        """Insert a new match and its first deal."""
        now = _now()
        with self.engine.begin() as conn:
            self.insert_new(conn, table, now)
        table.created_at = _iso(now)

    def insert_new(self, conn: Connection, table: Table, now: datetime) -> None:
        """Insert a new match and its deals on ``conn`` (inside the caller's transaction:
        the queue pairs two players and creates their match in one, issue 20)."""
        conn.execute(
            insert(matches).values(
                id=table.match_id, created_at=now, rules=table.rules, format=table.format,
                target=table.target, first_opener=table.match.first_opener,
                opponent=table.opponent, bot=table.bot, invite=table.invite,
                token1_sha256=table.token_hashes[0], token2_sha256=table.token_hashes[1],
                version=table.version, stake=table.match.stake, tablas_stake=table.match.tablas_stake,
                name1=table.names[0], name2=table.names[1], clock=table.clock,
                bank1_ms=ms(table.bank[0]), bank2_ms=ms(table.bank[1]), watch_key=table.watch_key,
                last_move_at=now, hints=table.hints, rated=table.rated,
            )
        )
        for d in table.deals:
            self._insert_deal(conn, table.match_id, d, now)

    @staticmethod
    def _insert_deal(conn, match_id: str, d: DealInfo, now: datetime) -> None:
        conn.execute(insert(deals).values(**_deal_row(match_id, d, now)))

    def join(self, match_id: str, token_sha256: str, name: str | None = None) -> bool:
        """Give seat 2 (named ``name``, or None) to the holder of ``token_sha256``; False
        if it was already taken."""
        with self.engine.begin() as conn:
            res = conn.execute(
                update(matches)
                .where(matches.c.id == match_id, matches.c.token2_sha256.is_(None))
                .values(token2_sha256=token_sha256, name2=name)
            )
            return res.rowcount == 1

    def mark_ready(self, match_id: str, seat: int) -> int:
        """Store that ``seat`` (0/1) moved on from the finished deal (issue 10), in one
        atomic update (two nodes marking both seats at once both count); returns the
        mask of ready seats after it (bit 0 seat 1, bit 1 seat 2).  On this thread's kept
        connection, as the group commit (:class:`~.commits.DealWrites`)."""
        return self._on_writer(lambda raw: self._deal_writes.mark_ready(raw, match_id, seat))

    def resign(self, table: Table, prev_version: int, deal_number: int | None) -> None:
        """Commit a resignation already applied to ``table``: the deal ``deal_number``
        (if one was resigned) is won by the other seat, the match's ``resigned`` seat and
        version.  Raises :class:`StorageError` if another writer moved the version first."""
        with self.engine.begin() as conn:
            bump_version(conn, table, prev_version)
            conn.execute(update(matches).where(matches.c.id == table.match_id).values(resigned=table.resigned))
            if deal_number is not None:
                d = table.deals[deal_number - 1]
                conn.execute(update(deals).where(deals.c.match_id == table.match_id, deals.c.number == deal_number)
                             .values(status="won", winner=d.winner, resigned=d.resigned))

    def abandon(self, match_id: str, seat: int | None = None) -> None:
        """Close a match as abandoned (no move for too long); ``seat`` (0/1) is the seat
        whose decision was pending in the deal in play (it loses that deal for the
        ratings, issue 20), None between deals."""
        with self.engine.begin() as conn:
            conn.execute(update(matches).where(matches.c.id == match_id).values(abandoned=True, abandoned_by=seat))

    def quiet_matches(self, before: datetime) -> list[str]:
        """Ids of matches not resigned nor abandoned whose last move (or creation) is
        older than ``before``: candidates to close as abandoned (the caller checks that
        the match is not over)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id, matches.c.last_move_at, matches.c.created_at)
                .where(matches.c.abandoned.is_(False), matches.c.resigned.is_(None))
            ).all()
        out = []
        for mid, last, created in rows:
            t = last or created
            if t is not None and t.tzinfo is None:
                t = t.replace(tzinfo=UTC)
            if t is not None and t < before:
                out.append(mid)
        return out

    def add_action(self, table: Table, seat: int, action: int | str, seq: int, prev_version: int) -> None:
        """Commit one accepted action (already applied to ``table``): append it to the
        deal's log as step ``seq`` (1-based), store the new version and the deal's result.
        ``action`` is the action int (§VII text is read under the deal's profile, §V).

        Raises :class:`StorageError` if another writer got there first (the version or
        the step is taken).
        """
        a = table.state.parse(action) if isinstance(action, str) else action
        err = self.commit_actions([action_row(table, seat, a, seq, prev_version)])[0]
        if err is not None:
            raise err

    def commit_actions(self, rows: list[ActionRow]) -> list[StorageError | None]:
        """Commit several accepted actions (of different matches) in **one** transaction
        (a group commit), on this thread's kept connection (:meth:`_writer`); returns,
        per row, None if it was stored or the :class:`StorageError` saying another writer
        stored that step first (that row wrote nothing; the others are committed).  Any
        other database failure raises and stores none of them; a connection the database
        closed (a restart) is replaced and the batch tried once more on a new one.  The
        statements run on the driver's own connection (:class:`~.commits.Committer`)."""
        return self._on_writer(lambda raw: self._committer.commit(raw, rows))

    def _on_writer(self, work: Callable[[Any], T]) -> T:
        """``work(raw)`` on this thread's kept connection's driver connection
        (:meth:`_writer`); a connection the database closed (a restart) is replaced and
        ``work`` tried once more on a new one.  The driver's errors propagate."""
        for attempt in (1, 2):
            raw = self._writer().connection.dbapi_connection
            try:
                return work(raw)
            except self._committer.dbapi.IntegrityError:
                raise
            except self._committer.dbapi.Error as exc:
                lost = self.engine.dialect.is_disconnect(exc, raw, None)
                self._drop_writer()
                if attempt == 2 or not lost:
                    raise
        raise AssertionError("unreachable")

    def add_deal(self, table: Table, prev_version: int) -> None:
        """Commit the table's new current deal (already added to ``table``) and version,
        the seats' ready marks cleared, in one transaction on this thread's kept
        connection (:class:`~.commits.DealWrites`).  Raises :class:`StorageError` if
        another writer got there first (nothing written)."""
        row = _deal_row(table.match_id, table.deal, _now())
        try:
            done = self._on_writer(lambda raw: self._deal_writes.add_deal(raw, table, prev_version, row))
        except self._committer.dbapi.IntegrityError as exc:
            raise StorageError(f"match {table.match_id}: deal {table.deal.number} is already stored") from exc
        if not done:
            raise StorageError(f"match {table.match_id}: version {prev_version} is no longer current")

    # ------------------------------------------------------------------ reads
    def load(self, match_id: str) -> Table | None:
        """Rebuild a table from its rows by replaying every deal's action log, or None
        if there is no such match.  Raises :class:`StorageError` if a stored log does not
        replay (a corrupted database)."""
        with self.engine.connect() as conn:
            m = conn.execute(select(matches).where(matches.c.id == match_id)).mappings().first()
            if m is None:
                return None
            deal_rows = conn.execute(
                select(deals).where(deals.c.match_id == match_id).order_by(deals.c.number)
            ).mappings().all()
            act_rows = conn.execute(
                select(actions.c.deal_number, actions.c.seq, actions.c.action)
                .where(actions.c.match_id == match_id)
                .order_by(actions.c.deal_number, actions.c.seq)
            ).all()
            shown = [r.shown() if r is not None else None for r in ratings_of_match(conn, match_id)]
        by_deal: dict[int, list[int]] = {}
        for number, _seq, action in act_rows:
            by_deal.setdefault(number, []).append(action)
        match = Match(rules=m["rules"], format=m["format"], target=m["target"], first_opener=m["first_opener"],
                      stake=m["stake"], tablas_stake=m["tablas_stake"])
        table = Table(
            match_id=m["id"], rules=m["rules"], format=m["format"], target=m["target"],
            opponent=m["opponent"], bot=m["bot"], invite=m["invite"],
            token_hashes=[m["token1_sha256"], m["token2_sha256"]], version=m["version"],
            match=match, created_at=_iso(m["created_at"]),
            names=[m["name1"], m["name2"]], clock=m["clock"], bank=[m["bank1_ms"] / 1000, m["bank2_ms"] / 1000],
            watch_key=m["watch_key"] or "", resigned=m["resigned"], abandoned=bool(m["abandoned"]),
            hints=bool(m["hints"]), rated=bool(m["rated"]),
        )
        last = m["last_move_at"] or m["created_at"]
        if last is not None and last.tzinfo is None:
            last = last.replace(tzinfo=UTC)
        table.last_move_at = last.timestamp() if last is not None else 0.0
        for row in deal_rows:
            state = match.new_deal(validate_deck(row["deck"]))
            if state.opener != row["opener"]:
                raise StorageError(f"match {match_id} deal {row['number']}: stored opener disagrees with R9")
            for step, a in enumerate(by_deal.get(row["number"], []), 1):
                where = f"match {match_id} deal {row['number']} step {step}: stored log does not replay"
                if type(a) is not int:
                    raise StorageError(f"{where}: {str(a)[:40]!r} is not an action int")
                if a not in state.legal_actions():
                    raise StorageError(f"{where}: action {a} is not legal")
                state.apply(a)
            info = DealInfo(row["number"], state.deck, row["salt"], row["commitment"], state,
                            bool(row["test"]), row["resigned"])
            table.deals.append(info)
            if state.is_over:
                match.count(state)
            elif info.resigned is not None:
                match.count_result(1 - info.resigned)
        table.ready = [bool(m["ready"] & 1), bool(m["ready"] & 2)]
        table.ratings = shown
        return table

    def heads(self, match_ids: Iterable[str]) -> dict[str, MatchHead]:
        """The :class:`MatchHead` of each existing match among ``match_ids`` (one query;
        a node checks its copies with it after Redis came back)."""
        ids = list(match_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id, matches.c.version, matches.c.ready, matches.c.token2_sha256, matches.c.name2)
                .where(matches.c.id.in_(ids))
            ).all()
        return {r[0]: MatchHead(r[1], r[2], r[3], r[4]) for r in rows}

    def deal(self, match_id: str, number: int) -> DealRow | None:
        """Deal ``number`` (1-based) of a match as stored, or None: how a node learns a
        deal another node dealt (the deck order never travels over Redis)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(deals).where(deals.c.match_id == match_id, deals.c.number == number)
                               ).mappings().first()
        if row is None:
            return None
        return DealRow(row["number"], tuple(validate_deck(row["deck"])), row["salt"], row["commitment"],
                       bool(row["test"]))

    def match_ids(self) -> list[str]:
        """Every match id, oldest first."""
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(matches.c.id).order_by(matches.c.created_at))]

    def bot_matches_in_play(self) -> list[str]:
        """Ids of matches against a bot whose current deal is still being played (the
        server wakes their bots at start)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id)
                .join(deals, deals.c.match_id == matches.c.id)
                .where(matches.c.opponent == "bot", deals.c.status == "playing")
                .distinct()
            ).all()
        return [r[0] for r in rows]

    def count_actions(self, match_id: str) -> int:
        """Stored actions of a match (all deals)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(actions.c.seq).where(actions.c.match_id == match_id)).all())


__all__ = ["ActionRow", "DealRow", "MIGRATIONS", "MatchHead", "Store", "action_row", "StorageError", "default_data_dir",
           "migrate", "resolve_url", "sqlite_url"]


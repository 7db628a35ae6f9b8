"""Storage: Alembic migrations, the action log as the record, and rebuilding a table by
replay — on SQLite always, and on PostgreSQL when GAMEWEAVE_TEST_DATABASE_URL is set."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest
from sqlalchemy import inspect, select, text

from nodes import PG_ENV

from gameweave.engine import format_action, shuffled_deck
from gameweave.storage import Store, StorageError, resolve_url
from gameweave.storage.schema import actions, matches
from gameweave.tables import Table, hash_token


def _new_table(store: Store, seed: int = 1, fmt: str = "tally") -> tuple[Table, str]:
    table, token = Table.create(opponent="friend", bot=None, format=fmt, target=3,
                                deck=shuffled_deck(seed), salt="0f" * 16)
    store.create(table)
    return table, token


def _play(store: Store, table: Table, tokens: list[str], rng: random.Random, n: int) -> None:
    for _ in range(n):
        st = table.state
        if st.is_over:
            return
        seat = st.to_act
        a = rng.choice(st.legal_actions())
        prev = table.version
        checked = table.check_action(seat, tokens[seat], format_action(a), prev)
        seq = len(st.history) + 1
        table.apply_action(seat, checked)
        store.add_action(table, seat, format_action(a), seq, prev)


def test_migrations_create_the_schema_and_run_again_harmlessly(db_url):
    store = Store(db_url)
    Store(db_url).close()  # a second start migrates nothing and breaks nothing
    names = set(inspect(store.engine).get_table_names())
    assert {"matches", "deals", "actions", "alembic_version"} <= names
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0012"
    store.close()


def test_the_action_log_rebuilds_the_identical_table_across_deals(db_url):
    store = Store(db_url)
    table, tok1 = _new_table(store, seed=3)
    tok2 = "seat-two-token"
    assert store.join(table.match_id, hash_token(tok2))
    assert not store.join(table.match_id, hash_token("another"))  # seat 2 is taken
    table.token_hashes[1] = hash_token(tok2)
    rng = random.Random(8)
    _play(store, table, [tok1, tok2], rng, 500)  # the whole first deal
    assert table.state.is_over
    prev = table.version
    table.add_deal(shuffled_deck(4), "1e" * 16)
    store.add_deal(table, prev)
    _play(store, table, [tok1, tok2], rng, 9)
    back = store.load(table.match_id)
    assert back.version == table.version and len(back.deals) == 2
    for d0, d1 in zip(table.deals, back.deals):
        assert (d0.deck, d0.salt, d0.commitment) == (d1.deck, d1.salt, d1.commitment)
        s0, s1 = d0.state, d1.state
        assert (s0.hands, s0.melds, s0.history, s0.opener, s0.status) == (s1.hands, s1.melds, s1.history, s1.opener, s1.status)
    assert back.match.results == table.match.results and back.deals[1].state.opener == 1  # R9
    assert back.token_ok(0, tok1) and back.token_ok(1, tok2) and not back.token_ok(1, tok1)
    assert store.load("no-such-match") is None
    store.close()


def test_moving_on_marks_each_seat_once_and_a_new_deal_is_stored_once(db_url):
    store = Store(db_url)
    table, tok1 = _new_table(store, seed=3)
    assert store.join(table.match_id, hash_token("two"))
    table.token_hashes[1] = hash_token("two")
    _play(store, table, [tok1, "two"], random.Random(8), 500)
    assert table.state.is_over
    assert store.mark_ready(table.match_id, 1) == 2  # seat 2 moved on: bit 1
    assert store.mark_ready(table.match_id, 1) == 2  # again: the same mark
    assert store.mark_ready(table.match_id, 0) == 3  # both seats
    assert store.mark_ready("no-such-match", 0) == 0
    prev = table.version
    table.add_deal(shuffled_deck(4), "1e" * 16)
    store.add_deal(table, prev)
    with store.engine.connect() as conn:
        row = conn.execute(select(matches.c.version, matches.c.ready).where(matches.c.id == table.match_id)).one()
    assert (row.version, row.ready) == (table.version, 0)  # the marks cleared with the new deal
    with pytest.raises(StorageError):  # a second writer from the same version stores nothing
        store.add_deal(table, prev)
    back = store.load(table.match_id)
    assert back.version == table.version and len(back.deals) == 2 and back.deals[1].deck == table.deal.deck
    store.close()


def test_seat_tokens_are_stored_only_as_hashes(db_url):
    store = Store(db_url)
    table, tok1 = _new_table(store)
    with store.engine.connect() as conn:
        row = conn.execute(select(matches).where(matches.c.id == table.match_id)).mappings().one()
    assert tok1 not in [str(v) for v in row.values()]
    assert row["token1_sha256"] == hash_token(tok1)
    store.close()


def test_a_rated_match_is_stored_rated_and_a_bot_match_cannot_be(db_url):
    store = Store(db_url)
    rated, _ = Table.create(opponent="friend", bot=None, format="tally", target=3, deck=shuffled_deck(2),
                            salt="0f" * 16, rated=True)
    casual, _ = _new_table(store)
    store.create(rated)
    assert store.load(rated.match_id).rated is True
    assert store.load(casual.match_id).rated is False
    with pytest.raises(ValueError):
        Table.create(opponent="bot", bot="random", format="tally", target=3, deck=shuffled_deck(2),
                     salt="0f" * 16, rated=True)
    store.close()


def test_a_stale_writer_is_refused_and_nothing_is_written(db_url):
    store = Store(db_url)
    table, tok1 = _new_table(store)
    prev = table.version
    a = table.check_action(0, tok1, "turn", prev)
    table.apply_action(0, a)
    with pytest.raises(StorageError):
        store.add_action(table, 0, "turn", 1, prev - 1)  # wrong expected version
    assert store.count_actions(table.match_id) == 0
    store.add_action(table, 0, "turn", 1, prev)
    assert store.count_actions(table.match_id) == 1
    store.close()


def test_a_group_commit_stores_every_row_but_the_ones_another_writer_took(db_url):
    """One batch of three matches' actions (the server's group commit): a row whose
    version moved and a row whose step is already stored each get their StorageError
    and write nothing; the third row is stored all the same (SQLite: one statement after
    another; PostgreSQL: one pipelined round trip, then row by row after the conflict)."""
    from gameweave.storage.commits import action_row

    store = Store(db_url)
    tables = [_new_table(store, seed=s) for s in (1, 2, 3)]
    rows = []
    for table, tok in tables:
        prev = table.version
        table.apply_action(0, table.check_action(0, tok, "turn", prev))
        rows.append(action_row(table, 0, table.state.history[-1], 1, prev))
    store.commit_actions([rows[2]])  # "another writer" stored match 3's step first
    moved = dataclasses.replace(rows[0], prev_version=rows[0].prev_version - 1)
    assert [e is None for e in store.commit_actions([moved, rows[1]])] == [False, True]
    retaken = dataclasses.replace(rows[2], prev_version=rows[2].version, version=rows[2].version + 1)
    answers = store.commit_actions([retaken, rows[0]])  # step 1 of match 3 is taken: the batch fails ...
    assert isinstance(answers[0], StorageError) and answers[1] is None  # ... and is stored row by row
    assert [store.count_actions(t.match_id) for t, _ in tables] == [1, 1, 1]
    assert [store.load(t.match_id).version for t, _ in tables] == [t.version for t, _ in tables]
    store.close()


def test_a_pipelined_batch_that_fails_writes_nothing_and_leaves_the_connection_as_it_was(pg_database_url):
    """PostgreSQL's group commit sends a batch with no BEGIN/COMMIT: the statements up to
    the pipeline's Sync are one implicit transaction.  A batch whose second row breaks a
    constraint stores neither row (the first is not committed alone), and the writer's
    connection comes back out of autocommit, ready for the next batch."""
    from gameweave.storage.commits import action_row

    store = Store(pg_database_url)
    tables = [_new_table(store, seed=s) for s in (5, 6)]
    rows = []
    for table, tok in tables:
        prev = table.version
        table.apply_action(0, table.check_action(0, tok, "turn", prev))
        rows.append(action_row(table, 0, table.state.history[-1], 1, prev))
    store.commit_actions([rows[1]])
    taken = dataclasses.replace(rows[1], prev_version=rows[1].version, version=rows[1].version + 1)
    dbapi = store._committer.dbapi
    with pytest.raises(dbapi.IntegrityError):  # step 1 of match 2 is stored already
        store._on_writer(lambda raw: store._committer.store(raw, [rows[0], taken]))
    raw = store._writer().connection.dbapi_connection
    raw.rollback()
    assert raw.autocommit is False
    assert [store.count_actions(t.match_id) for t, _ in tables] == [0, 1]  # match 1's row went with the batch
    assert store.commit_actions([rows[0]]) == [None]
    assert [store.count_actions(t.match_id) for t, _ in tables] == [1, 1]
    store.close()


def test_a_log_that_does_not_replay_is_a_storage_error(db_url):
    store = Store(db_url)
    table, _tok = _new_table(store)
    with store.engine.begin() as conn:
        conn.execute(actions.insert().values(match_id=table.match_id, deal_number=1, seq=1, seat=0,
                                             action=table.state.parse("throw Ks"),  # the log holds action ints
                                             created_at=__import__("datetime").datetime.now()))
    with pytest.raises(StorageError, match="does not replay"):
        store.load(table.match_id)
    store.close()


def test_default_database_is_sqlite_in_the_data_dir(tmp_path, monkeypatch):
    url = resolve_url(None, tmp_path / "data")
    assert url == f"sqlite:///{(tmp_path / 'data' / 'gameweave.db').resolve()}"
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv("GAMEWEAVE_DATA", str(tmp_path / "env"))
    assert resolve_url(None, None).endswith("/env/gameweave.db")
    assert resolve_url("postgresql+psycopg://u@h/db", None) == "postgresql+psycopg://u@h/db"
    store = Store(resolve_url(None, None))
    assert store.description.endswith("gameweave.db")
    store.close()


def test_migration_0002_upgrades_a_0001_database_with_matches_in_it(db_url):
    """A match stored before stakes and test decks (schema 0001) loads after the upgrade
    with the defaults: stake 1, tablas doubling (R20), no test deal."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from gameweave.engine import shuffled_deck
    from gameweave.storage.store import MIGRATIONS
    from gameweave.tables import Table, deck_text

    eng = create_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    table, _tok = Table.create(opponent="friend", bot=None, format="first_to", target=2, deck=shuffled_deck(3),
                               salt="ab" * 16)
    d = table.deal
    with eng.begin() as conn:
        conn.execute(text(
            "INSERT INTO matches (id, created_at, rules, format, target, first_opener, opponent, bot, invite, "
            "token1_sha256, token2_sha256, version) VALUES (:id, CURRENT_TIMESTAMP, 'gameweave', 'first_to', 2, 0, "
            "'friend', NULL, :inv, :t1, NULL, 1)"), {"id": table.match_id, "inv": table.invite,
                                                     "t1": table.token_hashes[0]})
        conn.execute(text(
            "INSERT INTO deals (match_id, number, opener, deck, salt, commitment, status, winner, created_at) "
            "VALUES (:id, 1, 0, :deck, :salt, :c, 'playing', NULL, CURRENT_TIMESTAMP)"),
            {"id": table.match_id, "deck": deck_text(d.deck), "salt": d.salt, "c": d.commitment})
    eng.dispose()
    store = Store(db_url)
    loaded = store.load(table.match_id)
    assert loaded is not None and loaded.match.stake == 1 and loaded.match.tablas_stake == "double"
    from gameweave.server.frames import stakes

    assert loaded.test is False and stakes(loaded) is None and loaded.target == 2
    store.close()


@pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"needs PostgreSQL ({PG_ENV}; CI sets it)")
def test_the_group_commit_keeps_its_connection_and_replaces_one_the_database_closed(pg_database_url):
    """The group commit keeps one connection on its thread (no pool ping per commit);
    when PostgreSQL ends that session (a restart, an administrator), the next commit
    goes through on a new connection instead of failing."""
    from sqlalchemy import create_engine

    store = Store(pg_database_url)
    table, tok1 = _new_table(store)
    tok2 = "seat-two-token"
    assert store.join(table.match_id, hash_token(tok2))
    table.token_hashes[1] = hash_token(tok2)
    rng = random.Random(4)
    _play(store, table, [tok1, tok2], rng, 1)
    kept = store._writer()
    _play(store, table, [tok1, tok2], rng, 1)
    assert store._writer() is kept  # the same connection, commit after commit
    pid = kept.connection.dbapi_connection.info.backend_pid
    admin = create_engine(pg_database_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar() is True
    admin.dispose()
    _play(store, table, [tok1, tok2], rng, 1)  # stored on a new connection, not refused
    assert store._writer() is not kept
    assert store.count_actions(table.match_id) == 3
    assert store.load(table.match_id).version == table.version
    store.close()


def test_sqlite_foreign_keys_are_on_again_after_the_migrations(tmp_path):
    """The migrations run with SQLite's foreign keys off (a batch step's table rebuild
    would cascade: tests/test_storage_action_ids.py); every connection after has them on."""
    store = Store(f"sqlite:///{tmp_path / 'fk.db'}")
    for _ in range(3):
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.close()

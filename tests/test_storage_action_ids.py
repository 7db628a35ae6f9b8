"""The action log holds action ints (issue 18, migration 0005): a database made at the
previous head (0004) with §VII text rows upgrades to ints parsed under each match's
profile (``meld 4h 5h 6h`` is a MELD in gameweave and a whole TABLE in classic), the
matches replay the same, and the downgrade writes the texts back.  On SQLite (batch
mode) always, and on PostgreSQL when ``GAMEWEAVE_TEST_DATABASE_URL`` is set."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from pg import alembic_to as _alembic, empty_database

from gameweave.engine import TURN, format_action, kind_of, parse_action
from gameweave.engine.actions import MELD, TABLE
from gameweave.engine.conformance import build_deck
from gameweave.storage import Store
from gameweave.tables import Table, deck_text

DECK = build_deck("4h 5h Ac 2s 3d Jd Qs Kd 7c 7s", "3c 4c 5c Ks Js Qh 6d 7d Ah Ad", "6h")


@pytest.fixture
def empty_db(db_url):
    """A database with no schema yet (:func:`pg.empty_database`)."""
    with empty_database(db_url) as url:
        yield url


def _played(rules: str, seed: int) -> tuple[Table, list[int]]:
    """A match of ``rules`` whose first steps are turn, the meld of 4h 5h 6h, then
    random; and the seat of each step."""
    table, _tok = Table.create(opponent="friend", bot=None, format="tally", target=3, deck=DECK, salt="ab" * 16,
                               rules=rules)
    st = table.state
    opener = st.to_act  # the profile may draw the first opener (R9)
    seats = [opener, opener]
    table.apply_action(opener, TURN)
    table.apply_action(opener, next(a for a in st.legal_actions() if format_action(a) == "meld 4h 5h 6h"))
    rng = random.Random(seed)
    for _ in range(12):
        if st.is_over:
            break
        seats.append(st.to_act)
        table.apply_action(st.to_act, rng.choice(st.legal_actions()))
    return table, seats


def _insert_at_0004(url: str, table: Table, seats: list[int]) -> None:
    """The rows the 0004 server wrote for ``table``: its actions as §VII text."""
    now = datetime.now(UTC)
    d = table.deal
    eng = create_engine(url)
    with eng.begin() as conn:
        conn.execute(text(
            "INSERT INTO matches (id, created_at, rules, format, target, first_opener, opponent, invite, "
            "token1_sha256, version) VALUES (:id, :now, :rules, 'tally', 3, :fo, 'friend', :inv, :t1, :v)"),
            {"id": table.match_id, "now": now, "rules": table.rules, "fo": table.match.first_opener,
             "inv": table.invite, "t1": table.token_hashes[0], "v": table.version})
        conn.execute(text(
            "INSERT INTO deals (match_id, number, opener, deck, salt, commitment, status, winner, created_at) "
            "VALUES (:id, 1, :op, :deck, :salt, :c, :status, :w, :now)"),
            {"id": table.match_id, "op": d.state.opener, "deck": deck_text(d.deck), "salt": d.salt,
             "c": d.commitment, "status": d.state.status, "w": d.state.winner if d.state.winner >= 0 else None,
             "now": now})
        for seq, a in enumerate(d.state.history, 1):
            conn.execute(text(
                "INSERT INTO actions (match_id, deal_number, seq, seat, action, created_at) "
                "VALUES (:id, 1, :seq, :seat, :a, :now)"),
                {"id": table.match_id, "seq": seq, "seat": seats[seq - 1],
                 "a": format_action(a), "now": now})
    eng.dispose()


def _stored(url: str, match_id: str) -> list:
    eng = create_engine(url)
    with eng.connect() as conn:
        rows = conn.execute(text("SELECT action FROM actions WHERE match_id = :m ORDER BY seq"), {"m": match_id}).all()
    eng.dispose()
    return [r[0] for r in rows]


def test_migration_0005_turns_text_rows_into_ints_under_each_match_s_profile(empty_db):
    db_url = empty_db
    _alembic(db_url, "0004")
    played = {rules: _played(rules, seed) for seed, rules in enumerate(("gameweave", "anglo-american", "classic"))}
    for table, seats in played.values():
        _insert_at_0004(db_url, table, seats)
    tables = {rules: table for rules, (table, _seats) in played.items()}
    store = Store(db_url)  # the server's start: upgrade to head
    try:
        for rules, table in tables.items():
            ints = _stored(db_url, table.match_id)
            assert ints == list(table.state.history), rules
            assert kind_of(ints[1]) == (MELD if rules == "gameweave" else TABLE), rules  # the profile decided
            back = store.load(table.match_id)  # replays the ints, no text parsed
            assert back.version == table.version and back.state.history == table.state.history
            assert back.state.hands == table.state.hands and back.state.melds == table.state.melds
    finally:
        store.close()
    _alembic(db_url, "0004", down=True)
    for table in tables.values():
        texts = _stored(db_url, table.match_id)
        assert texts == [format_action(a) for a in table.state.history]
        assert [parse_action(t, table.match.rules) for t in texts] == list(table.state.history)
    _alembic(db_url, "head")
    for table in tables.values():
        assert _stored(db_url, table.match_id) == list(table.state.history)

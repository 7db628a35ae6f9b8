"""The database schema (SQLAlchemy Core tables); Alembic migrations create it.

The action log is the record: ``actions`` holds every accepted action of every deal, in
order, as the engine's action int (``gameweave.engine.actions``; one int means one action
in every profile); a deal's state is rebuilt by replaying them on its deck order (R8).  Seat tokens
are stored only as SHA-256 hashes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger, Boolean, Column, DateTime, ForeignKeyConstraint, Integer, MetaData, String, Table, Text,
)

metadata = MetaData()

matches = Table(
    "matches",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rules", String(32), nullable=False),
    Column("format", String(16), nullable=False),
    Column("target", Integer, nullable=False),
    Column("first_opener", Integer, nullable=False),
    Column("opponent", String(16), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("invite", String(64), nullable=True),
    Column("token1_sha256", String(64), nullable=False),
    Column("token2_sha256", String(64), nullable=True),
    Column("version", Integer, nullable=False),
    Column("stake", Integer, nullable=False, server_default="1"),
    Column("tablas_stake", String(16), nullable=False, server_default="double"),
    Column("name1", String(64), nullable=True),
    Column("name2", String(64), nullable=True),
    Column("clock", Integer, nullable=True),
    Column("bank1_ms", Integer, nullable=False, server_default="0"),
    Column("bank2_ms", Integer, nullable=False, server_default="0"),
    Column("watch_key", String(64), nullable=True),
    Column("resigned", Integer, nullable=True),
    Column("abandoned", Boolean, nullable=False, server_default="0"),
    Column("ready", Integer, nullable=False, server_default="0"),
    Column("last_move_at", DateTime(timezone=True), nullable=True),
    Column("hints", Boolean, nullable=False, server_default="0"),
)
"""One row per match (R20): format, stake and what tablas does to it, seats (token
hashes), the state version; the players' names, the clock and each seat's time bank
left, the spectators' key, who resigned the match, whether it was abandoned, which
seats moved on from the finished deal (bit mask) and the time of its last move (issue 10)."""

deals = Table(
    "deals",
    metadata,
    Column("match_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("opener", Integer, nullable=False),
    Column("deck", Text, nullable=False),
    Column("salt", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("test", Boolean, nullable=False, server_default="0"),
    Column("resigned", Integer, nullable=True),
    ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
)
"""One row per deal: the secret deck order (R8) and salt, the public commitment, the
result, whether it was dealt from a test deck (``serve --test-decks``) and the seat that
resigned it (or null)."""

actions = Table(
    "actions",
    metadata,
    Column("match_id", String(32), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(
        ["match_id", "deal_number"], ["deals.match_id", "deals.number"], ondelete="CASCADE"
    ),
)
"""The action log, one row per accepted action: ``action`` is the engine's action int (a
meld's is up to 43 bits, hence BIGINT; migration 0005 turned the §VII texts of older
rows into ints under each match's profile).  (match, deal, seq) is unique, so two
writers can never both append step ``seq``."""

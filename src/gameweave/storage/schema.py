"""The database schema (SQLAlchemy Core tables); Alembic migrations create it.

The action log is the record: ``actions`` holds every accepted action of every deal, in
order, as the engine's action int (``gameweave.engine.actions``; one int means one action
in every profile); a deal's state is rebuilt by replaying them on its deck order (R8).  Seat tokens
are stored only as SHA-256 hashes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger, Boolean, Column, DateTime, Float, ForeignKey, ForeignKeyConstraint, Index, Integer, MetaData,
    String, Table, Text,
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
    Column("rated", Boolean, nullable=False, server_default="0"),
    Column("abandoned_by", Integer, nullable=True),
)
"""One row per match (R20): format, stake and what tablas does to it, seats (token
hashes), the state version; the players' names, the clock and each seat's time bank
left, the spectators' key, who resigned the match, whether it was abandoned, which
seats moved on from the finished deal (bit mask) and the time of its last move (issue 10);
whether its deals are rated and, once abandoned, the seat (0/1) whose decision was
pending then (it loses the deal in play for the ratings, issue 20)."""

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


accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(64), nullable=True),
    Column("username_key", String(64), nullable=True, unique=True),
    Column("password_hash", String(255), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("deleted_at", DateTime(timezone=True), nullable=True),
)
"""One row per account (issue 20): the username as given (NFKC) and its key (NFKC,
case-folded: unique), the argon2id hash.  A deleted account keeps its row (its id may
be named by records) with username, key and hash set to null."""

sessions = Table(
    "sessions",
    metadata,
    Column("id_sha256", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seen_at", DateTime(timezone=True), nullable=False),
)
"""Server-side sessions: only the SHA-256 of the id the cookie holds."""

account_seats = Table(
    "account_seats",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("token", String(64), nullable=False),
)
"""The seats an account holds (seat 1 or 2 of a match) and the seat's token, so that the
account can take its seat on any device (the token stays the socket's credential)."""

auth_attempts = Table(
    "auth_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("bucket", String(160), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_auth_attempts_bucket_at", "bucket", "at"),
)
"""Attempts counted by the sign-in and sign-up rate limits
(``signin-account-address:<key>@<ip>``, ``signin-account:<key>``, ``signin-address:<ip>``,
``signup-address:<ip>``), kept in the database so that every node counts the same."""

open_tables = Table(
    "open_tables",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rules", String(32), nullable=False),
    Column("format", String(16), nullable=False),
    Column("target", Integer, nullable=False),
    Column("clock", Integer, nullable=True),
    Column("rated", Boolean, nullable=False, server_default="0"),
    Column("name", String(64), nullable=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    Column("address", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Index("ix_open_tables_status", "status"),
)
"""Open tables (issue 20, PROTOCOL §3.15): a friend match whose seat 2 anyone may take,
listed in every lobby while ``status`` is ``open`` (then ``taken``, ``cancelled`` or
``left``: the creator was away too long).  ``seen_at``: the creator was last seen at the
table; ``account_id`` and ``address`` count the limits and never leave the server."""

queue_entries = Table(
    "queue_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ticket_sha256", String(64), nullable=False, unique=True),
    Column("rules", String(32), nullable=False),
    Column("clock", Integer, nullable=True),
    Column("rated", Boolean, nullable=False, server_default="0"),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    Column("name", String(64), nullable=True),
    Column("address", String(64), nullable=False),
    Column("rating", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("token", String(64), nullable=True),
    Column("browser_sha256", String(64), nullable=True),
    Column("left_at", DateTime(timezone=True), nullable=True),
    Index("ix_queue_entries_status", "status"),
)
"""The quick-match queue (issue 20, PROTOCOL §3.16), in the database so that a node that
dies loses no one: one row per player waiting (``status`` ``waiting``, then ``paired``,
``cancelled`` or ``gone``: not heard from for too long).  Only the SHA-256 of the
ticket the player holds is kept; once paired, the row holds the match, the seat (1/2)
and that seat's token, which only the ticket's holder is given.  ``browser_sha256``: the
SHA-256 of the key the player's browser sent (null for a client that sent none): two
entries with the same one are never paired with each other (two tabs of one browser).
``left_at``: when the lobby socket following a waiting entry closed (null once its
player is heard from again): it is not paired meanwhile, and leaves (``gone``) if
nobody comes back for it within a few seconds."""


ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rules", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("deals", Integer, nullable=False, server_default="0"),
    Column("won", Integer, nullable=False, server_default="0"),
    Column("tablas", Integer, nullable=False, server_default="0"),
    Column("lost", Integer, nullable=False, server_default="0"),
    Column("streak", Integer, nullable=False, server_default="0"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_rules_rating", "rules", "rating"),
)
"""An account's Glicko-2 rating in one profile (issue 20): rating, deviation (rating
points) and volatility, the rated deals won, tied (tablas) and lost, and the current
streak (+n: n deals won in a row, -n: lost; 0 after tablas)."""

rating_events = Table(
    "rating_events",
    metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("deal_number", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("opponent_id", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("rd_after", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_events_account_at", "account_id", "rules", "at"),
)
"""One row per account per rated deal applied (issue 20): its key (match, deal, account)
makes the update happen exactly once (the row is written in the transaction that
updates the ratings; a second writer's insert fails and changes nothing).  It is also
the rating history a profile draws: score 1 won, 0.5 tablas, 0 lost."""


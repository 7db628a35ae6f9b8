"""the action log holds action ints (issue 18): ``actions.action`` becomes a BIGINT

Each stored §VII text is parsed under its match's profile (§V: ``meld 3c 4c 5c`` is one
meld in gameweave and a whole table where tables are rearranged), so a match replays the
same after the upgrade.  Runs on SQLite (batch mode: the table is copied) and PostgreSQL.
The downgrade writes the canonical text of every int back.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_KEY = ("match_id", "deal_number", "seq")


def _rows(conn) -> list:
    """``(match_id, deal_number, seq, action, rules)`` of every stored action."""
    return conn.execute(sa.text(
        "SELECT a.match_id, a.deal_number, a.seq, a.action, m.rules FROM actions a "
        "JOIN matches m ON m.id = a.match_id")).all()


def _rewrite(column: str, values: list[dict]) -> None:
    """Write ``values`` (each the key and ``v``) into ``actions.<column>``."""
    if values:
        op.get_bind().execute(sa.text(
            f"UPDATE actions SET {column} = :v WHERE match_id = :m AND deal_number = :d AND seq = :s"), values)


def upgrade() -> None:
    from gameweave.engine import find_profile, parse_action

    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("action_id", sa.BigInteger, nullable=True))
    values = [{"m": m, "d": d, "s": s, "v": parse_action(text, find_profile(rules))}
              for m, d, s, text, rules in _rows(op.get_bind())]
    _rewrite("action_id", values)
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("action")
        batch.alter_column("action_id", new_column_name="action", existing_type=sa.BigInteger, nullable=False)


def downgrade() -> None:
    from gameweave.engine import format_action

    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("action_text", sa.String(200), nullable=True))
    values = [{"m": m, "d": d, "s": s, "v": format_action(int(a))} for m, d, s, a, _rules in _rows(op.get_bind())]
    _rewrite("action_text", values)
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("action")
        batch.alter_column("action_text", new_column_name="action", existing_type=sa.String(200), nullable=False)

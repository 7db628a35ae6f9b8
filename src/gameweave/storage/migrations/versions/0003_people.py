"""playing with people (issue 10): names, clock and time banks, the spectators' key,
resignations, abandoned matches, each seat's pace between deals, the last move's time

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("name1", sa.String(64), nullable=True))
        batch.add_column(sa.Column("name2", sa.String(64), nullable=True))
        batch.add_column(sa.Column("clock", sa.Integer, nullable=True))
        batch.add_column(sa.Column("bank1_ms", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("bank2_ms", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("watch_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("resigned", sa.Integer, nullable=True))
        batch.add_column(sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("ready", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_move_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("resigned", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("resigned")
    with op.batch_alter_table("matches") as batch:
        for name in ("last_move_at", "ready", "abandoned", "resigned", "watch_key", "bank2_ms", "bank1_ms",
                     "clock", "name2", "name1"):
            batch.drop_column(name)

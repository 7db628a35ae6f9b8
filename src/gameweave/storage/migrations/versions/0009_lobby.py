"""open tables and the quick-match queue (issue 20)

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa

revision = "0009"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_open_tables_status", "open_tables", ["status"])
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ticket_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
    )
    op.create_index("ix_queue_entries_status", "queue_entries", ["status"])


def downgrade() -> None:
    op.drop_index("ix_queue_entries_status", table_name="queue_entries")
    op.drop_table("queue_entries")
    op.drop_index("ix_open_tables_status", table_name="open_tables")
    op.drop_table("open_tables")

"""quick match: when the lobby socket following a waiting queue entry closed (the entry
is not paired while it is set, and leaves the queue if nobody comes back for it)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-09
"""
from alembic import op
import sqlalchemy as sa

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("queue_entries") as batch:
        batch.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queue_entries") as batch:
        batch.drop_column("left_at")

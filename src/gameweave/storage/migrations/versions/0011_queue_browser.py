"""quick match: the SHA-256 of the page's browser key on each queue entry (two entries
of one browser are never paired)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09
"""
from alembic import op
import sqlalchemy as sa

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("queue_entries") as batch:
        batch.add_column(sa.Column("browser_sha256", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queue_entries") as batch:
        batch.drop_column("browser_sha256")

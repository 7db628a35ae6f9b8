"""hints (issue 11): whether a friend match's seats agreed to hints when it was made

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("hints")

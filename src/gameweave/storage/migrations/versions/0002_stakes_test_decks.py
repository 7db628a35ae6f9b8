"""stakes options of a match (R20) and test-deck deals

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("stake", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("tablas_stake", sa.String(16), nullable=False, server_default="double"))
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("test", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("test")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("tablas_stake")
        batch.drop_column("stake")

"""initial schema: matches, deals, actions

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("first_opener", sa.Integer, nullable=False),
        sa.Column("opponent", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("token1_sha256", sa.String(64), nullable=False),
        sa.Column("token2_sha256", sa.String(64), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("opener", sa.Integer, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
    )
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id", "deal_number"], ["deals.match_id", "deals.number"], ondelete="CASCADE"
        ),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("deals")
    op.drop_table("matches")

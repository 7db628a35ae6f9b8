"""ratings (issue 20): Glicko-2 ratings per account and profile, the rating events that
apply each rated deal exactly once, and the seat that abandoned a match

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""
from alembic import op
import sqlalchemy as sa

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("abandoned_by", sa.Integer, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rules", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False, server_default="0"),
        sa.Column("won", sa.Integer, nullable=False, server_default="0"),
        sa.Column("tablas", sa.Integer, nullable=False, server_default="0"),
        sa.Column("lost", sa.Integer, nullable=False, server_default="0"),
        sa.Column("streak", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_rules_rating", "ratings", ["rules", "rating"])
    op.create_table(
        "rating_events",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("deal_number", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("opponent_id", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("rd_after", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_events_account_at", "rating_events", ["account_id", "rules", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_events_account_at", "rating_events")
    op.drop_table("rating_events")
    op.drop_index("ix_ratings_rules_rating", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("abandoned_by")

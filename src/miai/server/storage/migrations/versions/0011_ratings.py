"""ratings: current ratings per user and kind key, and each rated game's change

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind_key", sa.String(length=24), nullable=False),
        sa.Column("system", sa.String(length=12), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("deviation", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "kind_key"),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_kind_key_rating", ["kind_key", "rating"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind_key", sa.String(length=24), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("deviation_before", sa.Double(), nullable=False),
        sa.Column("volatility_before", sa.Double(), nullable=True),
        sa.Column("rating_after", sa.Double(), nullable=False),
        sa.Column("deviation_after", sa.Double(), nullable=False),
        sa.Column("volatility_after", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user_id"),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index("ix_rating_history_user", ["user_id", "kind_key", "finished_at"], unique=False)
        batch_op.create_index(
            "ix_rating_history_kind_key", ["kind_key", "finished_at", "game_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")

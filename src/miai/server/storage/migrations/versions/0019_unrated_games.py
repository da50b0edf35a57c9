"""unrated games: why a game created rated moved no rating (the rating-farming guards)

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "unrated_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind_key", sa.String(length=24), nullable=False),
        sa.Column("rule", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_unrated_games_kind_key", "unrated_games", ["kind_key", "rule"])


def downgrade() -> None:
    op.drop_index("ix_unrated_games_kind_key", table_name="unrated_games")
    op.drop_table("unrated_games")

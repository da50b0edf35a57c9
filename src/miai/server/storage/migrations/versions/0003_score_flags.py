"""score flags and corrected results

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("result_history", sa.JSON(), nullable=False, server_default="[]"))
    op.create_table(
        "score_flags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_by", sa.Integer(), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolution", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["resolved_by"], ["users.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("score_flags", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_score_flags_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("score_flags", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_score_flags_game_id"))
    op.drop_table("score_flags")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("result_history")

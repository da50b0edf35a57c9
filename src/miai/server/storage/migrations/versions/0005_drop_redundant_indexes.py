"""drop the game_id indexes of game_moves and game_events: their unique (game_id, ply / v) indexes serve

Every stored move wrote both; the unique index answers the same lookups by game.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_events_game_id"))
    with op.batch_alter_table("game_moves", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_moves_game_id"))


def downgrade() -> None:
    with op.batch_alter_table("game_moves", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_moves_game_id"), ["game_id"], unique=False)
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_events_game_id"), ["game_id"], unique=False)

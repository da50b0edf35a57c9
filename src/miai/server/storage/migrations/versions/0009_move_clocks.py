"""the mover's clock after each move, for the time left in SGF records (BL/WL, OB/OW)

The clock was kept only for the game as a whole (games.clocks), so a record could not say how much time a
player had left after each move. Moves stored before this revision have none: their records carry TM and
OT but no time left.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_moves", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock_main", sa.Double(), nullable=True))
        batch_op.add_column(sa.Column("clock_periods", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_moves", schema=None) as batch_op:
        batch_op.drop_column("clock_periods")
        batch_op.drop_column("clock_main")

"""game previews: each game's board in a few bytes, written with every move, for the live list's thumbnails

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games stored before this revision have none: the live list rebuilds theirs from the moves.
    op.add_column("games", sa.Column("preview", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "preview")

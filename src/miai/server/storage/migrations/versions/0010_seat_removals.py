"""seat removals, and no empty games left waiting

`seat_removals` keeps the players the server took out of a game before its start (for not confirming in
time), so that their game page and dashboard can say why. Servers older than revision 0009 put a game
whose players had all been removed back to `waiting` with nobody in it, and such a game stayed in the
lobby for good: it is cancelled here, as the server now does (`no_players`).

Revision ID: 0010
Revises: 0009
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

EVENTS = sa.table(
    "game_events",
    sa.column("game_id", sa.Integer()),
    sa.column("v", sa.Integer()),
    sa.column("type", sa.String()),
    sa.column("data", sa.JSON()),
    sa.column("audience", sa.String()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "seat_removals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("window_seconds", sa.Double(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("seat_removals", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_removals_user_id"), ["user_id"], unique=False)
    cancel_empty_waiting_games()


def cancel_empty_waiting_games() -> None:
    connection = op.get_bind()
    empty = sa.text(
        "SELECT id, version FROM games WHERE status = 'waiting'"
        " AND NOT EXISTS (SELECT 1 FROM game_players WHERE game_players.game_id = games.id)"
    )
    now = datetime.now(UTC)
    for game_id, version in connection.execute(empty).all():
        data = {"reason": "no_players", "message": "nobody is left to play"}
        row = {"game_id": game_id, "v": version + 1, "type": "cancelled", "data": data}
        connection.execute(EVENTS.insert().values(**row, audience="all", created_at=now))
        cancel = sa.text(
            "UPDATE games SET status = 'cancelled', deadline_at = NULL, version = :v WHERE id = :id"
        )
        connection.execute(cancel, {"v": version + 1, "id": game_id})


def downgrade() -> None:
    with op.batch_alter_table("seat_removals", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_removals_user_id"))
    op.drop_table("seat_removals")

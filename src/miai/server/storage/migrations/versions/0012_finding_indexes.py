"""finding indexes: the archive, the live list and a player's games each read one index

- `ix_games_finished` (finished_at, id) over finished games: the archive, newest first, and its date range;
- `ix_games_live` (id) over games in progress: the watch list, newest first;
- `ix_game_players_user_game` (user_id, game_id) replaces the index on user_id alone: a player's archive,
  record and current games find their game ids in the index itself.
Both games indexes are partial (PostgreSQL and SQLite both have them): finished and active games only.
On PostgreSQL 14 and later, statistics of the options the lists filter on (size, teams, rated: JSON), so
that the planner knows how many games a filter keeps and walks the index in order rather than sorting
(storage/finding.py writes these very expressions).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


STATISTICS = "st_games_options"


def _has_expression_statistics() -> bool:
    bind = op.get_bind()
    version = bind.dialect.server_version_info or (0,)
    return bind.dialect.name == "postgresql" and version >= (14,)


def upgrade() -> None:
    if _has_expression_statistics():
        op.execute(
            f"CREATE STATISTICS {STATISTICS} ON (options ->> 'size'), (options ->> 'teams'), "
            "(options ->> 'rated') FROM games"
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(
            "ix_games_finished",
            ["finished_at", "id"],
            unique=False,
            postgresql_where=sa.text("status = 'finished'"),
            sqlite_where=sa.text("status = 'finished'"),
        )
        batch_op.create_index(
            "ix_games_live",
            ["id"],
            unique=False,
            postgresql_where=sa.text("status = 'active'"),
            sqlite_where=sa.text("status = 'active'"),
        )
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.create_index("ix_game_players_user_game", ["user_id", "game_id"], unique=False)
        batch_op.drop_index("ix_game_players_user_id")


def downgrade() -> None:
    if _has_expression_statistics():
        op.execute(f"DROP STATISTICS IF EXISTS {STATISTICS}")
    with op.batch_alter_table("game_players", schema=None) as batch_op:
        batch_op.create_index("ix_game_players_user_id", ["user_id"], unique=False)
        batch_op.drop_index("ix_game_players_user_game")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_live")
        batch_op.drop_index("ix_games_finished")

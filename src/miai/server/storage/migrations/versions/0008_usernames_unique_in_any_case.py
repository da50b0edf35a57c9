"""usernames unique in any case: a unique index on lower(username)

Names were looked up in any case but stored unique only as typed, so two registrations racing could make
`alice` and `Alice`, and a lookup then found either. An older database that holds such twins keeps the
first account's name; each later twin gets `-ID` added to its name (cut to fit 32 characters).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None
MAX_NAME = 32


def upgrade() -> None:
    connection = op.get_bind()
    taken: set[str] = set()
    for user_id, name in connection.execute(sa.text("SELECT id, username FROM users ORDER BY id")):
        kept = name
        if name.lower() in taken:
            suffix = f"-{user_id}"
            kept = name[: MAX_NAME - len(suffix)] + suffix
            rename = sa.text("UPDATE users SET username = :name WHERE id = :id")
            connection.execute(rename, {"name": kept, "id": user_id})
        taken.add(kept.lower())
    op.create_index("ux_users_username_lower", "users", [sa.text("lower(username)")], unique=True)


def downgrade() -> None:
    op.drop_index("ux_users_username_lower", table_name="users")

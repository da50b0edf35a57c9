"""guests: visitors who play practice games without an account, and when each was last seen (for expiry)

Plain ALTER TABLE rather than batch mode: SQLite adds and drops these columns in place, and a batch copy
of `users` would have to reflect its expression index (lower(username)), which SQLAlchemy cannot.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("is_guest", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("users", sa.Column("last_active_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index(
        "ix_users_guest_active",
        "users",
        ["last_active_at"],
        unique=False,
        postgresql_where=sa.text("is_guest"),
        sqlite_where=sa.text("is_guest"),
    )


def downgrade() -> None:
    op.drop_index("ix_users_guest_active", table_name="users")
    op.drop_column("users", "last_active_at")
    op.drop_column("users", "is_guest")

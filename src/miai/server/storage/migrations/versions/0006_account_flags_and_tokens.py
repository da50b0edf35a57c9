"""bot accounts by flag, verified e-mail addresses, one-time account tokens (password reset, verification)

Until now a computer account was recognised by its name and by `settings.bot_level`; the flag `is_bot` now
decides. Existing accounts with a `bot_level` setting are the server's own computer players: they get the
flag here. People who registered a computer-like name keep their account and name but are never used as a
computer (the flag stays false).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))

    op.create_table(
        "account_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_account_tokens_user_id"), ["user_id"], unique=False)

    _flag_existing_computers()


def _flag_existing_computers() -> None:
    """The JSON setting is read in Python: SQLite and PostgreSQL spell JSON access differently."""
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("settings", sa.JSON()),
        sa.column("is_bot", sa.Boolean()),
    )
    connection = op.get_bind()
    bots = [
        row.id
        for row in connection.execute(sa.select(users.c.id, users.c.settings))
        if isinstance(row.settings, dict) and row.settings.get("bot_level") not in (None, "", 0, False)
    ]
    if bots:
        connection.execute(sa.update(users).where(users.c.id.in_(bots)).values(is_bot=True))


def downgrade() -> None:
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_tokens_user_id"))
    op.drop_table("account_tokens")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("email_verified_at")
        batch_op.drop_column("is_bot")

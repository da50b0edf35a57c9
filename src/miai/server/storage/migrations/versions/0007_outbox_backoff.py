"""outbox: retry with back-off, give up and keep failed mail for the operator, count mails per sender

Before, a mail was tried ten times a couple of seconds apart and then silently left alone. Mail left alone
that way (10 attempts, unsent) is marked failed here, with its last error: possibly old news, it is not sent
unless an operator retries it (`miai mail list --failed`, `miai mail retry`).

Revision ID: 0007
Revises: 0006
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=16), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("sender_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("give_up_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_outbox_sender_id"), ["sender_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_outbox_to_address"), ["to_address"], unique=False)
    outbox = sa.table(
        "outbox",
        sa.column("dedupe_key", sa.String()),
        sa.column("kind", sa.String()),
        sa.column("sent_at", sa.DateTime(timezone=True)),
        sa.column("attempts", sa.Integer()),
        sa.column("failed_at", sa.DateTime(timezone=True)),
    )
    for kind in ("turn", "started", "finished", "challenge"):  # every kind stored before this revision
        op.execute(sa.update(outbox).where(outbox.c.dedupe_key.startswith(f"{kind}:")).values(kind=kind))
    given_up = sa.and_(outbox.c.sent_at.is_(None), outbox.c.attempts >= 10)
    op.execute(sa.update(outbox).where(given_up).values(failed_at=datetime.now(UTC)))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_to_address"))
        batch_op.drop_index(batch_op.f("ix_outbox_sender_id"))
        batch_op.drop_column("failed_at")
        batch_op.drop_column("give_up_at")
        batch_op.drop_column("next_attempt_at")
        batch_op.drop_column("sender_id")
        batch_op.drop_column("kind")

"""The outbox's SQL: mails queued in the same transaction as what caused them, claimed by a sender for a
lease, then marked sent, retried later, or failed (see `notify/outbox.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, cast

from sqlalchemy import ColumnElement, and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import OutboxMail
from miai.server.storage.repo import utc


def _mail_pending() -> ColumnElement[bool]:
    return and_(OutboxMail.sent_at.is_(None), OutboxMail.failed_at.is_(None))


def _lease_free(now: datetime) -> ColumnElement[bool]:
    return or_(OutboxMail.claimed_until.is_(None), OutboxMail.claimed_until < now)


async def claim_mail(
    db: AsyncSession, now: datetime, lease_until: datetime, limit: int = 10
) -> list[OutboxMail]:
    """Take a lease on mail that is due so no other sender (process) sends it at the same time."""
    due = and_(
        _mail_pending(),
        or_(OutboxMail.next_attempt_at.is_(None), OutboxMail.next_attempt_at <= now),
        _lease_free(now),
    )
    query = select(OutboxMail.id).where(due).order_by(OutboxMail.id).limit(limit)
    ids = [row[0] for row in (await db.execute(query)).all()]
    claimed = []
    for mail_id in ids:
        result = await db.execute(
            update(OutboxMail)
            .where(OutboxMail.id == mail_id, due)
            .values(claimed_until=lease_until, attempts=OutboxMail.attempts + 1)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount:  # type: ignore[attr-defined]
            mail = await db.get(OutboxMail, mail_id, populate_existing=True)
            if mail is not None:
                claimed.append(mail)
    return claimed


async def mark_sent(db: AsyncSession, mail_id: int, now: datetime) -> None:
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(sent_at=now, claimed_until=None, next_attempt_at=None, last_error=None)
    )


async def mark_retry(
    db: AsyncSession, mail_id: int, error: str, retry_at: datetime, give_up_at: datetime
) -> None:
    """An attempt failed: try again at `retry_at`; `give_up_at` is kept from the first failure."""
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(
            claimed_until=None,
            last_error=error[:2000],
            next_attempt_at=retry_at,
            give_up_at=func.coalesce(OutboxMail.give_up_at, give_up_at),
        )
    )


async def mark_failed(db: AsyncSession, mail_id: int, error: str, now: datetime) -> None:
    """The last attempt failed: the mail stays, failed, for an operator to see and retry."""
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(claimed_until=None, last_error=error[:2000], next_attempt_at=None, failed_at=now)
    )


MailState = Literal["pending", "failed", "sent"]


async def mails(
    db: AsyncSession, states: Sequence[MailState], limit: int, before_id: int | None = None
) -> list[OutboxMail]:
    """Mail in the given states, newest first; `before_id` pages on."""
    conditions = {
        "pending": _mail_pending(),
        "failed": OutboxMail.failed_at.is_not(None),
        "sent": OutboxMail.sent_at.is_not(None),
    }
    query = select(OutboxMail).where(or_(*(conditions[state] for state in states)))
    if before_id is not None:
        query = query.where(OutboxMail.id < before_id)
    return list((await db.execute(query.order_by(OutboxMail.id.desc()).limit(limit))).scalars())


async def retry_mail(db: AsyncSession, mail_ids: Sequence[int] | None) -> list[int]:
    """Failed or pending mail (`None`: every failed mail) becomes due now, with a new day of retries.
    Returns the ids it applies to; sent mail is never sent again."""
    which = OutboxMail.failed_at.is_not(None) if mail_ids is None else OutboxMail.id.in_(mail_ids)
    query = select(OutboxMail.id).where(which, OutboxMail.sent_at.is_(None)).order_by(OutboxMail.id)
    ids = [row[0] for row in (await db.execute(query)).all()]
    if ids:
        await db.execute(
            update(OutboxMail)
            .where(OutboxMail.id.in_(ids), OutboxMail.sent_at.is_(None))
            .values(failed_at=None, next_attempt_at=None, give_up_at=None)
            .execution_options(synchronize_session=False)
        )
    return ids


async def mail_times(
    db: AsyncSession,
    kind: str,
    since: datetime,
    limit: int,
    sender_id: int | None = None,
    to_address: str | None = None,
) -> list[datetime]:
    """When the latest (at most `limit`) mails of a kind since a moment were queued, by one sender or to one
    address: the mail-bomb caps."""
    query = select(OutboxMail.created_at).where(OutboxMail.kind == kind, OutboxMail.created_at >= since)
    if sender_id is not None:
        query = query.where(OutboxMail.sender_id == sender_id)
    if to_address is not None:
        query = query.where(OutboxMail.to_address == to_address)
    rows = (await db.execute(query.order_by(OutboxMail.created_at.desc()).limit(limit))).scalars()
    return [cast(datetime, utc(moment)) for moment in rows]

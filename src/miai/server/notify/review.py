"""The outbox as an operator sees it: pending and failed mail with their errors, and retrying it.

Shared by the administrators' API (`GET /api/v1/admin/outbox`) and the `miai mail` command. A mail's body
is never shown: account mails carry single-use links.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage import mail_queue, repo
from miai.server.storage.models import OutboxMail

State = Literal["pending", "failed", "sent"]
WAITING: tuple[State, ...] = ("pending", "failed")  # what an operator looks at by default


def state_of(mail: OutboxMail) -> State:
    if mail.sent_at is not None:
        return "sent"
    return "failed" if mail.failed_at is not None else "pending"


def _iso(moment: datetime | None) -> str | None:
    moment = repo.utc(moment)
    return moment.isoformat() if moment else None


def describe(mail: OutboxMail) -> dict[str, Any]:
    return {
        "id": mail.id,
        "state": state_of(mail),
        "kind": mail.kind,
        "to": mail.to_address,
        "subject": mail.subject,
        "created_at": _iso(mail.created_at),
        "attempts": mail.attempts,
        "last_error": mail.last_error,
        "next_attempt_at": _iso(mail.next_attempt_at),
        "give_up_at": _iso(mail.give_up_at),
        "failed_at": _iso(mail.failed_at),
        "sent_at": _iso(mail.sent_at),
    }


async def listing(
    db: AsyncSession, states: Sequence[State], limit: int, before: int | None = None
) -> list[dict[str, Any]]:
    return [describe(mail) for mail in await mail_queue.mails(db, states, limit, before)]


async def retry(db: AsyncSession, mail_ids: Sequence[int] | None) -> list[int]:
    """Make failed or pending mail due now with a new day of retries (`None`: every failed mail); commits.
    Returns the ids that will be retried (sent mail and unknown ids are left out)."""
    ids = await mail_queue.retry_mail(db, mail_ids)
    await db.commit()
    return ids

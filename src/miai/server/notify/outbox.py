"""Sends the stored e-mail outbox through SMTP.

Each mail is claimed with a lease before sending, so several server processes never send it at the same
time, and marked sent afterwards; a crash between sending and marking re-sends it once the lease expires
(at-least-once; the Message-ID is the outbox key so mail clients can drop the duplicate).
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.settings import Settings
from miai.server.storage import repo
from miai.server.storage.models import OutboxMail

log = logging.getLogger(__name__)
LEASE = timedelta(minutes=2)


def _send(settings: Settings, mail: OutboxMail) -> None:
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    domain = settings.mail_from.rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{mail.dedupe_key.replace(':', '.')}@{domain}>"
    message.set_content(mail.body)
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=30) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
        smtp.send_message(message)


async def send_pending(sessions: async_sessionmaker[AsyncSession], settings: Settings) -> int:
    """Send what is due now; returns how many mails went out."""
    now = datetime.now(UTC)
    async with sessions() as db:
        claimed = await repo.claim_mail(db, now, now + LEASE)
        await db.commit()
    sent = 0
    for mail in claimed:
        try:
            await asyncio.to_thread(_send, settings, mail)
        except (OSError, smtplib.SMTPException) as err:
            log.warning("sending mail %s failed: %s", mail.id, err)
            async with sessions() as db:
                await repo.mark_failed(db, mail.id, str(err))
                await db.commit()
            continue
        async with sessions() as db:
            await repo.mark_sent(db, mail.id, datetime.now(UTC))
            await db.commit()
        sent += 1
    return sent


async def run_outbox(sessions: async_sessionmaker[AsyncSession], settings: Settings) -> None:
    while True:
        try:
            await send_pending(sessions, settings)
        except Exception:  # the loop must survive a database hiccup
            log.exception("outbox round failed")
        await asyncio.sleep(settings.outbox_interval)

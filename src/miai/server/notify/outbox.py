"""Sends the stored e-mail outbox through SMTP, retrying with exponential back-off.

Each mail is claimed with a lease before sending, so several server processes never send it at the same
time, and marked sent afterwards; a crash between sending and marking re-sends it once the lease expires
(at-least-once; the Message-ID is the outbox key so mail clients can drop the duplicate).

A failed attempt is retried after 30 s, 1 min, 2 min, ... up to an hour between attempts (each delay between
half and all of that, so many mails do not all retry at the same moment). A mail still failing a day after its
first failure, or refused for good by the server (a 5xx about this mail), is marked failed: it stays in the
outbox for an operator (`miai mail list --failed`, `GET /api/v1/admin/outbox?state=failed`) to see and retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.settings import Settings
from miai.server.storage import mail_queue, repo
from miai.server.storage.models import OutboxMail

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]
SMTP_TIMEOUT = 30.0  # seconds per SMTP operation
BATCH = 10  # mails claimed per round
LEASE = timedelta(minutes=10)  # longer than a round of BATCH mails can take on a slow server


def system_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Backoff:
    """When to try a failed mail again, and when to give up."""

    first: timedelta = timedelta(seconds=30)
    cap: timedelta = timedelta(hours=1)
    give_up_after: timedelta = timedelta(days=1)  # counted from the first failed attempt

    def delay(self, attempts: int, rng: random.Random) -> timedelta:
        """The wait after the `attempts`-th failed attempt: doubling from `first`, at most `cap`, jittered."""
        doublings = min(max(attempts - 1, 0), 32)
        full = min(self.cap.total_seconds(), self.first.total_seconds() * 2**doublings)
        return timedelta(seconds=full * rng.uniform(0.5, 1.0))


BACKOFF = Backoff()


def message_of(settings: Settings, mail: OutboxMail) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to_address
    message["Subject"] = mail.subject
    domain = settings.mail_from.rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{mail.dedupe_key.replace(':', '.')}@{domain}>"
    message.set_content(mail.body)
    return message


def _connect(settings: Settings) -> smtplib.SMTP:
    smtp = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT)
    try:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
    except BaseException:
        smtp.close()
        raise
    return smtp


def _quit(smtp: smtplib.SMTP) -> None:
    with contextlib.suppress(OSError, smtplib.SMTPException):
        smtp.quit()
    smtp.close()


def refused_for_good(err: BaseException) -> bool:
    """The server answered 5xx about this very mail (its recipient or its content): retrying cannot help.

    Other errors (connection refused or lost, timeouts, 4xx, a refused login or sender) are about the server
    or its configuration and are retried."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in err.recipients.values())
    if isinstance(err, smtplib.SMTPDataError | smtplib.SMTPNotSupportedError):
        return getattr(err, "smtp_code", 500) >= 500
    return not isinstance(err, OSError | smtplib.SMTPException)  # the mail itself cannot be written


class Sender:
    """One round of the outbox: claim what is due, send it over one SMTP connection, record each outcome."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        settings: Settings,
        now: Clock = system_now,
        backoff: Backoff = BACKOFF,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.now = now
        self.backoff = backoff
        self.rng = rng or random.Random()

    async def round(self) -> int:
        """Send what is due now; returns how many mails went out."""
        now = self.now()
        async with self.sessions() as db:
            claimed = await mail_queue.claim_mail(db, now, now + LEASE, BATCH)
            await db.commit()
        smtp: smtplib.SMTP | None = None
        sent = 0
        try:
            for index, mail in enumerate(claimed):
                if smtp is None:
                    try:
                        smtp = await asyncio.to_thread(_connect, self.settings)
                    except (OSError, smtplib.SMTPException) as err:
                        for unsent in claimed[index:]:  # the server is unreachable for all of them
                            await self._failed(unsent, err)
                        break
                try:
                    message = message_of(self.settings, mail)
                    await asyncio.to_thread(smtp.send_message, message)
                except Exception as err:  # one bad mail never stops the others
                    await self._failed(mail, err)
                    if not refused_for_good(err):
                        await asyncio.to_thread(_quit, smtp)  # the connection may be broken
                        smtp = None
                    continue
                async with self.sessions() as db:
                    await mail_queue.mark_sent(db, mail.id, self.now())
                    await db.commit()
                sent += 1
        finally:
            if smtp is not None:
                await asyncio.to_thread(_quit, smtp)
        return sent

    async def _failed(self, mail: OutboxMail, err: BaseException) -> None:
        now = self.now()
        error = f"{type(err).__name__}: {err}"
        give_up_at = repo.utc(mail.give_up_at) or now + self.backoff.give_up_after
        async with self.sessions() as db:
            if refused_for_good(err) or now >= give_up_at:
                log.error("mail %s failed for good after %s attempts: %s", mail.id, mail.attempts, error)
                await mail_queue.mark_failed(db, mail.id, error, now)
            else:
                retry_at = now + self.backoff.delay(mail.attempts, self.rng)
                next_at = retry_at.isoformat(timespec="seconds")
                log.warning("mail %s: attempt %s failed, next %s: %s", mail.id, mail.attempts, next_at, error)
                await mail_queue.mark_retry(db, mail.id, error, retry_at, give_up_at)
            await db.commit()


async def send_pending(
    sessions: async_sessionmaker[AsyncSession], settings: Settings, now: Clock = system_now
) -> int:
    """Send what is due now; returns how many mails went out."""
    return await Sender(sessions, settings, now).round()


async def run_outbox(
    sessions: async_sessionmaker[AsyncSession], settings: Settings, now: Clock = system_now
) -> None:
    sender = Sender(sessions, settings, now)
    while True:
        try:
            await sender.round()
        except Exception:  # the loop must survive a database hiccup
            log.exception("outbox round failed")
        await asyncio.sleep(settings.outbox_interval)

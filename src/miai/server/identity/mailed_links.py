"""Single-use links mailed to a user: password reset (one hour), e-mail address verification (two days), and
the undo link of an address change, mailed to the address being replaced (seven days).

The link carries a random token after `#`, so it never reaches a server log or a Referer header; the
database keeps only the token's SHA-256, its purpose, expiry and when it was used. A token is used by one
conditional UPDATE, so it works once even when two requests race.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.errors import RateLimited
from miai.server.identity.tokens import token_hash
from miai.server.notify.mailer import Mailer
from miai.server.storage import accounts, mail_queue, repo
from miai.server.storage.models import AccountToken, User

RESET_PASSWORD = "reset_password"
VERIFY_EMAIL = "verify_email"
RESTORE_EMAIL = "restore_email"
LIFETIMES = {
    RESET_PASSWORD: timedelta(hours=1),
    VERIFY_EMAIL: timedelta(days=2),
    RESTORE_EMAIL: timedelta(days=7),  # the owner may read the old address only now and then
}
PAGES = {RESET_PASSWORD: "reset-password", VERIFY_EMAIL: "verify-email", RESTORE_EMAIL: "undo-email-change"}
# Links of one purpose that one address, and one account, may be mailed a day: enough to try again, too few
# to fill a stranger's inbox (a verification link goes to whatever address a user types in).
MAILS_PER_DAY = 3
DAY = timedelta(days=1)


async def _check_cap(db: AsyncSession, mailer: Mailer, user: User, purpose: str, address: str) -> None:
    """RateLimited when this address or this account was mailed `MAILS_PER_DAY` links of `purpose` today."""
    now = mailer.now()
    for times in (
        await mail_queue.mail_times(db, purpose, now - DAY, MAILS_PER_DAY, to_address=address),
        await mail_queue.mail_times(db, purpose, now - DAY, MAILS_PER_DAY, sender_id=user.id),
    ):
        if len(times) >= MAILS_PER_DAY:
            retry_after = max(1, int((min(times) + DAY - now).total_seconds()) + 1)
            raise RateLimited(f"at most {MAILS_PER_DAY} such links a day go to one address", retry_after)


async def _issue(
    db: AsyncSession, mailer: Mailer, user: User, purpose: str, email: str | None, replace: bool = True
) -> tuple[int, str]:
    """A new token for `purpose` (with `replace`, earlier ones of the user stop working): its row id and the
    link to mail."""
    now = datetime.now(UTC)
    if replace:
        await accounts.void_tokens(db, user.id, purpose, now)
    token = secrets.token_urlsafe(32)
    row = AccountToken(
        user_id=user.id,
        purpose=purpose,
        token_hash=token_hash(token),
        email=email,
        created_at=now,
        expires_at=now + LIFETIMES[purpose],
    )
    db.add(row)
    await db.flush()
    return row.id, f"{mailer.base_url}/{PAGES[purpose]}#token={token}"


async def mail_password_reset(db: AsyncSession, mailer: Mailer, user: User) -> bool:
    """Mail a reset link to the user's verified address; False (and nothing stored) when there is none."""
    if not mailer.enabled or user.is_bot or not user.email or user.email_verified_at is None:
        return False
    try:
        await _check_cap(db, mailer, user, RESET_PASSWORD, user.email)
    except RateLimited:
        return False  # the answer to a reset request never tells whether a mail went out
    row_id, link = await _issue(db, mailer, user, RESET_PASSWORD, user.email)
    mailer.password_reset(db, user, f"{RESET_PASSWORD}:{row_id}", link)
    return True


async def mail_verification(db: AsyncSession, mailer: Mailer, user: User) -> bool:
    """Mail a link that verifies the user's current address; False when there is no address or no mail,
    RateLimited when the address or the account had its links for today."""
    if not mailer.enabled or user.is_bot or not user.email:
        return False
    await _check_cap(db, mailer, user, VERIFY_EMAIL, user.email)
    row_id, link = await _issue(db, mailer, user, VERIFY_EMAIL, user.email)
    mailer.verify_email(db, user, f"{VERIFY_EMAIL}:{row_id}", link)
    return True


async def verify_email(db: AsyncSession, user: User, token: str) -> bool:
    """Mark the user's address verified if `token` is their unused, unexpired link for that very address."""
    now = datetime.now(UTC)
    used = await accounts.redeem_token(db, token_hash(token), VERIFY_EMAIL, now, user_id=user.id)
    if used is None or used.email is None or used.email != user.email:
        return False  # an unknown, expired or used link, or one for an address the user has since replaced
    user.email_verified_at = now
    return True


async def reset_is_usable(db: AsyncSession, token: str) -> bool:
    """A cheap check before the slow password hash: made-up tokens cost the server nothing more."""
    return await accounts.token_is_usable(db, token_hash(token), RESET_PASSWORD, datetime.now(UTC))


async def redeem_reset(db: AsyncSession, token: str) -> int | None:
    """The id of the user a valid reset token belongs to (the token is used up), else None."""
    used = await accounts.redeem_token(db, token_hash(token), RESET_PASSWORD, datetime.now(UTC))
    return None if used is None else used.user_id


async def announce_address_change(
    db: AsyncSession, mailer: Mailer, user: User, old: str | None, old_verified: bool
) -> bool:
    """Tell the address being replaced (`user.email` is already the new one, or None) about the change, with
    a link that undoes it: whoever changed it cannot keep the owner from winning the account back. Only a
    verified address is told (it proved to be the owner's; an unverified one may be anybody's). Earlier undo
    links stay usable: after A -> B -> C, the link mailed to A still brings A back. RateLimited when the
    account or the address had its such mails for today (the caller then makes no change)."""
    if not mailer.enabled or user.is_bot or not old or not old_verified:
        return False
    await _check_cap(db, mailer, user, RESTORE_EMAIL, old)
    row_id, link = await _issue(db, mailer, user, RESTORE_EMAIL, old, replace=False)
    mailer.address_changed(db, user, old, f"{RESTORE_EMAIL}:{row_id}", link)
    return True


async def undo_address_change(db: AsyncSession, token: str) -> User | None:
    """Follow an undo link: the address it was mailed to is the account's again, verified (following the link
    proves it), and the links that may have gone to the replacing address stop working: resets,
    verifications, and undo links of later changes. None for an unknown, expired or used link. The caller
    ends the account's sessions and API tokens."""
    now = datetime.now(UTC)
    used = await accounts.redeem_token(db, token_hash(token), RESTORE_EMAIL, now)
    user = await repo.user_by_id(db, used.user_id) if used is not None and used.email else None
    if used is None or user is None:
        return None
    user.email, user.email_verified_at = used.email, now
    await accounts.void_tokens(db, user.id, RESTORE_EMAIL, now, after_id=used.id)
    for purpose in (RESET_PASSWORD, VERIFY_EMAIL):
        await accounts.void_tokens(db, user.id, purpose, now)
    return user

"""Accounts of people: what a username and an e-mail address may be, and registering a new account with
its default settings (rate limits on registration: api/rate_limits.py)."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime

from email_validator import EmailNotValidError, validate_email
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.identity.passwords import hash_password, validate_password
from miai.server.storage import repo
from miai.server.storage.models import User

USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,32}$")
# The server's computer players are named computer-LEVEL[-N] and guests guest-HEX; people cannot take such
# names (any case). Names never grant anything (the stored flags do): this only avoids confusing look-alikes.
RESERVED_USERNAME = re.compile(r"^(computer|guest)([-_].*)?$", re.IGNORECASE)
PALETTES = ("classic", "okabe-ito", "tol-bright", "tol-muted", "high-contrast")
DEFAULT_SETTINGS = {
    "email_notifications": True,
    "palette": "classic",
    "one_click": False,
    "coordinates": True,
    "sound": True,  # the move click and the low-time beep; off mutes them
    "stone_marks": False,  # shapes on two-colour stones (3+ colours and accessible palettes always have them)
}


def normalised_email(text: str) -> str:
    """An address mail can be sent to, in its normal form (the domain in lower case), or ValueError: the
    maintained `email-validator` refuses what a pattern lets through (IP literals, group syntax, bad
    domains)."""
    try:
        return str(validate_email(text, check_deliverability=False).normalized)
    except EmailNotValidError as err:
        raise ValueError(f"email: {err}") from None


def validate_registration(username: str, password: str, email: str | None) -> None:
    if not USERNAME.match(username):
        raise ValueError("username: 3-32 letters, digits, '_' or '-'")
    if RESERVED_USERNAME.match(username):
        raise ValueError("username: names starting with 'computer' or 'guest' are reserved")
    validate_password(password)
    if email:
        normalised_email(email)


async def create_user(db: AsyncSession, username: str, password: str, email: str | None) -> User:
    validate_registration(username, password, email)
    # argon2 is slow on purpose: hash first, off the event loop and holding no database connection
    password_hash = await asyncio.to_thread(hash_password, password)
    if await repo.user_by_name(db, username) is not None:
        raise ValueError("username: already taken")
    user = User(
        username=username,
        is_bot=False,
        email=normalised_email(email) if email else None,
        password_hash=password_hash,
        settings=dict(DEFAULT_SETTINGS),
        created_at=datetime.now(UTC),
    )
    db.add(user)
    try:
        await db.flush()
    except IntegrityError:  # the same name in any case, registered a moment ago (unique index)
        await db.rollback()
        raise ValueError("username: already taken") from None
    return user

"""Accounts: argon2 password hashes, session cookies with CSRF tokens, API tokens (limits: ratelimit.py)."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from email_validator import EmailNotValidError, validate_email
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage import repo
from miai.server.storage.models import ApiToken, Session, User

USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,32}$")
# The server's computer players are named computer-LEVEL[-N]; people cannot take such names (any case).
RESERVED_USERNAME = re.compile(r"^computer([-_].*)?$", re.IGNORECASE)
PALETTES = ("classic", "okabe-ito", "tol-bright", "tol-muted", "high-contrast")
DEFAULT_SETTINGS = {
    "email_notifications": True,
    "palette": "classic",
    "one_click": False,
    "coordinates": True,
}
_hasher = PasswordHasher()


def set_password_cost(time_cost: int, memory_kib: int) -> None:
    """New hashes use this cost; stored hashes carry their own parameters and still verify."""
    global _hasher
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def validate_password(password: str) -> None:
    if len(password) < 8:
        raise ValueError("password: at least 8 characters")
    if len(password) > 256:
        raise ValueError("password: at most 256 characters")


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
        raise ValueError("username: names starting with 'computer' are reserved for computer players")
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


async def new_session(db: AsyncSession, user: User, days: int) -> tuple[str, str]:
    """A new login session; returns (cookie token, CSRF token). Only the token's hash is stored."""
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    now = datetime.now(UTC)
    db.add(
        Session(
            token_hash=token_hash(token),
            user_id=user.id,
            csrf_token=csrf,
            created_at=now,
            expires_at=now + timedelta(days=days),
        )
    )
    return token, csrf


async def new_api_token(db: AsyncSession, user: User, name: str) -> tuple[ApiToken, str]:
    if not 1 <= len(name.strip()) <= 64:
        raise ValueError("name: 1-64 characters")
    token = "miai_" + secrets.token_urlsafe(32)
    record = ApiToken(
        user_id=user.id, name=name.strip(), token_hash=token_hash(token), created_at=datetime.now(UTC)
    )
    db.add(record)
    await db.flush()
    return record, token


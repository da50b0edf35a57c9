"""Login sessions (a cookie token with its CSRF token) and personal API tokens: random secrets of which the
database keeps only the SHA-256, so a copy of the database opens no account."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import ApiToken, Session, User


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def new_session(db: AsyncSession, user: User, days: int, password_checked: bool) -> tuple[str, str]:
    """A new login session; returns (cookie token, CSRF token). Only the token's hash is stored.
    `password_checked`: made by a login or registration with the password, so for a while it may change the
    account (identity/sudo.py); a guest's session has no password to check."""
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
            password_checked_at=now if password_checked else None,
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

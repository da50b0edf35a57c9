"""Repository functions of accounts: one-time account tokens, ending sessions and their password checks,
looking users up for a reset, and the administrator role."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import AccountToken, ApiToken, Session, User


class Redeemed(NamedTuple):
    user_id: int
    email: str | None  # the address it was issued for
    id: int  # the token's row (later links of the same purpose have larger ids)


async def redeem_token(
    db: AsyncSession, token_hash: str, purpose: str, now: datetime, user_id: int | None = None
) -> Redeemed | None:
    """Use a one-time token, or None when it is unknown, of another purpose or user, expired or used. One
    UPDATE, so two concurrent uses cannot both succeed."""
    query = (
        update(AccountToken)
        .where(
            AccountToken.token_hash == token_hash,
            AccountToken.purpose == purpose,
            AccountToken.used_at.is_(None),
            AccountToken.expires_at > now,
        )
        .values(used_at=now)
        .returning(AccountToken.user_id, AccountToken.email, AccountToken.id)
    )
    if user_id is not None:
        query = query.where(AccountToken.user_id == user_id)
    row = (await db.execute(query)).first()
    return None if row is None else Redeemed(row[0], row[1], row[2])


async def token_is_usable(db: AsyncSession, token_hash: str, purpose: str, now: datetime) -> bool:
    """Whether `redeem_token` would succeed now (a read only: nothing is used up)."""
    query = select(AccountToken.id).where(
        AccountToken.token_hash == token_hash,
        AccountToken.purpose == purpose,
        AccountToken.used_at.is_(None),
        AccountToken.expires_at > now,
    )
    return (await db.execute(query)).first() is not None


async def void_tokens(
    db: AsyncSession, user_id: int, purpose: str, now: datetime, after_id: int | None = None
) -> None:
    """Earlier links of this purpose stop working (a newer one was mailed, or the password changed); with
    `after_id`, only the links issued after that one."""
    query = update(AccountToken).where(
        AccountToken.user_id == user_id, AccountToken.purpose == purpose, AccountToken.used_at.is_(None)
    )
    if after_id is not None:
        query = query.where(AccountToken.id > after_id)
    await db.execute(query.values(used_at=now))


async def mark_password_checked(db: AsyncSession, session_hash: str, now: datetime) -> None:
    """The login session proved its password again (identity/sudo.py)."""
    query = update(Session).where(Session.token_hash == session_hash).values(password_checked_at=now)
    await db.execute(query)


async def end_sessions(db: AsyncSession, user_id: int, keep: str | None = None) -> list[str]:
    """Delete the user's login sessions (all but the one hashed `keep`); returns the ended ones' hashes."""
    query = select(Session.token_hash).where(Session.user_id == user_id)
    if keep is not None:
        query = query.where(Session.token_hash != keep)
    ended = list((await db.execute(query)).scalars())
    if ended:
        await db.execute(delete(Session).where(Session.token_hash.in_(ended)))
    return ended


async def delete_api_tokens(db: AsyncSession, user_id: int) -> list[str]:
    """Delete every personal API token of the user; returns their hashes."""
    query = select(ApiToken.token_hash).where(ApiToken.user_id == user_id)
    hashes = list((await db.execute(query)).scalars())
    if hashes:
        await db.execute(delete(ApiToken).where(ApiToken.user_id == user_id))
    return hashes


async def users_for_reset(db: AsyncSession, login: str) -> list[User]:
    """People a password reset asked for by name or e-mail address (an address may serve several accounts)."""
    if "@" in login:
        where = func.lower(User.email) == login.lower()
    else:
        where = func.lower(User.username) == login.lower()
    query = select(User).where(where, User.is_bot.is_(False)).order_by(User.id)
    return list((await db.execute(query)).scalars())


async def administrators(db: AsyncSession) -> list[User]:
    query = select(User).where(User.is_admin.is_(True)).order_by(func.lower(User.username))
    return list((await db.execute(query)).scalars())

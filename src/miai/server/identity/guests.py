"""Guests: visitors who play the computer or a same-screen game without registering.

A guest is a stored user with `is_guest` set, no password and no e-mail address, under a random name in the
`guest-` range that people cannot register (identity/accounts.py). Rights come from the flag, never the name.
Registering while holding a guest session turns that very row into the new account (`claim`): the games,
moves and settings keep their user id, so nothing has to be moved or rewritten (`games.to_move` and the
stored events name players by id).
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.identity.accounts import DEFAULT_SETTINGS, normalised_email, validate_registration
from miai.server.identity.passwords import hash_password
from miai.server.storage import guests, repo
from miai.server.storage.models import User

PREFIX = "guest-"
NO_PASSWORD = ""  # never an argon2 hash: no password ever matches it (passwords.check_password)


def guest_name() -> str:
    """64 random bits: not guessable, so a guest cannot be found or challenged by name."""
    return PREFIX + secrets.token_hex(8)


async def new_guest(db: AsyncSession, now: datetime) -> User:
    guest = User(
        username=guest_name(),
        is_bot=False,
        is_guest=True,
        email=None,
        password_hash=NO_PASSWORD,
        settings=dict(DEFAULT_SETTINGS, email_notifications=False),
        created_at=now,
        last_active_at=now,
    )
    db.add(guest)
    await db.flush()
    return guest


class GuestGone(Exception):
    """The guest expired, or another registration claimed the same guest first."""


async def claim(
    db: AsyncSession, guest: User, username: str, password: str, email: str | None, now: datetime
) -> User:
    """The guest's row becomes a member's account with these credentials (ValueError like `create_user`;
    GuestGone when two sign-ups race for one guest: the second finds the row claimed, under its lock)."""
    validate_registration(username, password, email)
    password_hash = await asyncio.to_thread(hash_password, password)
    locked = await guests.take_for_claim(db, guest.id)
    if locked is None:
        await db.rollback()
        raise GuestGone("this guest session has ended")
    guest = locked
    taken = await repo.user_by_name(db, username)
    if taken is not None and taken.id != guest.id:
        raise ValueError("username: already taken")
    guest.username = username
    guest.password_hash = password_hash
    guest.email = normalised_email(email) if email else None
    guest.is_guest = False
    guest.last_active_at = None
    guest.created_at = now  # "member since": the account, not the first practice game
    guest.settings = {**guest.settings, "email_notifications": True}
    try:
        await db.flush()
    except IntegrityError:  # the name registered by another request since `taken` was read (unique index)
        await db.rollback()
        raise ValueError("username: already taken") from None
    return guest

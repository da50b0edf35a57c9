"""The administrator role: stored in `users.is_admin`, granted and revoked by the operator (`miai admin`).

Nothing else makes an administrator: not a name, not a setting. These functions open the configured
database themselves (migrating it first, as a server start would), so the command works before or without
a running server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage import accounts, repo
from miai.server.storage.db import make_engine, migrate, sessions

T = TypeVar("T")


class UnknownUser(LookupError):
    """No account by that name (or a computer account, which cannot be an administrator)."""


@dataclass(frozen=True)
class Change:
    username: str  # as stored (the name given may differ in case)
    changed: bool  # False: it already was so


async def _with_database(url: str, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    engine = make_engine(url)
    try:
        await migrate(engine)
        async with sessions(engine)() as db:
            result = await work(db)
            await db.commit()
            return result
    finally:
        await engine.dispose()


async def set_admin(url: str, name: str, admin: bool) -> Change:
    """Grant (admin=True) or revoke the role of the account `name` (any case); UnknownUser if none."""

    async def work(db: AsyncSession) -> Change:
        user = await repo.user_by_name(db, name)
        if user is None:
            raise UnknownUser(f"there is no user {name!r}")
        if user.is_bot:
            raise UnknownUser(f"{user.username!r} is a computer account, not a person")
        changed = user.is_admin != admin
        user.is_admin = admin
        return Change(user.username, changed)

    return await _with_database(url, work)


async def list_admins(url: str) -> list[str]:
    async def work(db: AsyncSession) -> list[str]:
        return [user.username for user in await accounts.administrators(db)]

    return await _with_database(url, work)

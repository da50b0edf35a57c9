"""Repository functions of guests (identity/guests.py): noting that one was seen, and deleting those gone
quiet with their games."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import Game, GamePlayer, User


async def touch(db: AsyncSession, user_id: int, now: datetime) -> None:
    await db.execute(
        update(User).where(User.id == user_id, User.is_guest.is_(True)).values(last_active_at=now)
    )


async def take_for_claim(db: AsyncSession, user_id: int) -> User | None:
    """The guest's row, locked for a registration to turn it into an account, and already no guest's: None
    when it is gone or another registration claimed it first. PostgreSQL: FOR UPDATE, so a second claim
    waits for the first to commit and then reads `is_guest` false. SQLite has one writer at a time: the
    conditional UPDATE is what waits there, and it matches no row once the first claim is committed."""
    query = (
        select(User)
        .where(User.id == user_id, User.is_guest.is_(True))
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    guest = (await db.execute(query)).scalar_one_or_none()
    if guest is None:
        return None
    taken = await db.execute(
        update(User)
        .where(User.id == user_id, User.is_guest.is_(True))
        .values(is_guest=False)
        .execution_options(synchronize_session=False)
    )
    if taken.rowcount != 1:  # type: ignore[attr-defined]
        return None
    guest.is_guest = False
    return guest


async def delete_idle(db: AsyncSession, cutoff: datetime, limit: int) -> int:
    """Delete up to `limit` guests last seen before `cutoff`, and every game they play in; returns how many
    guests. The rows are locked first (PostgreSQL), so a guest seen or registering meanwhile waits for this
    transaction, which then skips nobody it should keep: the condition is read under the lock."""
    last_seen = func.coalesce(User.last_active_at, User.created_at)
    query = (
        select(User.id)
        .where(User.is_guest.is_(True), last_seen < cutoff)
        .order_by(User.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    ids = list((await db.execute(query)).scalars())
    if not ids:
        return 0
    played = select(GamePlayer.game_id).where(GamePlayer.user_id.in_(ids))
    created = select(Game.id).where(Game.created_by.in_(ids))
    games = set((await db.execute(played)).scalars()) | set((await db.execute(created)).scalars())
    # A game's moves, events, chat and seats go with it (ON DELETE CASCADE), a guest's sessions with them.
    if games:
        await db.execute(delete(Game).where(Game.id.in_(sorted(games))))
    await db.execute(delete(User).where(User.id.in_(ids)))
    return len(ids)

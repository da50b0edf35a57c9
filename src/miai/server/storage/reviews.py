"""Repository functions of game reviews (the `reviews` table): one per game and depth, shared by everyone."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Update, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import Review

UNFINISHED = ("pending", "running")


async def reviews_of(db: AsyncSession, game_id: int) -> list[Review]:
    rows = await db.scalars(select(Review).where(Review.game_id == game_id).order_by(Review.id))
    return list(rows)


async def review_by_id(db: AsyncSession, review_id: int) -> Review | None:
    return await db.get(Review, review_id, populate_existing=True)


async def ask(
    db: AsyncSession, game_id: int, depth: str, total: int, user_id: int, now: datetime
) -> tuple[Review, bool]:
    """The game's review at `depth`, made (pending) if there is none yet; (review, whether it is new).
    Two requests at once make one review: the loser of the unique (game, depth) reads the winner's."""
    found = await db.scalar(select(Review).where(Review.game_id == game_id, Review.depth == depth))
    if found is not None:
        return found, False
    row = Review(
        game_id=game_id,
        depth=depth,
        status="pending",
        done=0,
        total=total,
        result={},
        requested_by=user_id,
        created_at=now,
        updated_at=now,
    )
    try:
        async with db.begin_nested():
            db.add(row)
    except IntegrityError:
        found = await db.scalar(select(Review).where(Review.game_id == game_id, Review.depth == depth))
        if found is None:
            raise
        return found, False
    return row, True


async def claim(db: AsyncSession, review_id: int, lease: str, now: datetime, stale: datetime) -> bool:
    """Make `lease` the review's runner, atomically: a pending review, a running one whose heartbeat (its
    `updated_at`) is older than `stale` (its runner stopped), or one `lease` holds already (its next part)."""
    free = or_(
        Review.status == "pending",
        and_(Review.status == "running", or_(Review.lease == lease, Review.updated_at < stale)),
    )
    query = update(Review).where(Review.id == review_id, free)
    return await _changed(db, query, status="running", lease=lease, updated_at=now)


async def save(
    db: AsyncSession,
    review_id: int,
    lease: str,
    status: str,
    done: int,
    result: dict[str, Any],
    now: datetime,
) -> bool:
    """Store the runner's progress (also its heartbeat); False when `lease` is no longer the review's runner.
    `done` never goes backwards."""
    query = update(Review).where(Review.id == review_id, Review.lease == lease, Review.done <= done)
    return await _changed(db, query, status=status, done=done, result=result, updated_at=now)


async def retry(db: AsyncSession, review_id: int, user_id: int, now: datetime) -> bool:
    """A failed review made pending again, asked for again by `user_id` (whose turns and queue it takes now);
    False when it was not failed."""
    query = update(Review).where(Review.id == review_id, Review.status == "failed")
    return await _changed(db, query, status="pending", lease=None, requested_by=user_id, updated_at=now)


async def queued_positions(db: AsyncSession, user_id: int) -> int:
    """The positions of the reviews `user_id` asked for that are still to compute."""
    query = select(func.coalesce(func.sum(Review.total - Review.done), 0)).where(
        Review.requested_by == user_id, Review.status.in_(UNFINISHED)
    )
    return int(await db.scalar(query) or 0)


async def _changed(db: AsyncSession, query: Update, **values: Any) -> bool:
    """Run the conditional update; whether it changed the row (the rows in the session are not touched:
    `updated_at` is compared in the database, and the session's datetimes may be naive)."""
    answer: Any = await db.execute(query.values(**values).execution_options(synchronize_session=False))
    return bool(answer.rowcount)


async def unfinished(db: AsyncSession) -> list[tuple[int, int]]:
    """Reviews that are not done: pending ones, and running ones whose computer stopped (a restart); each
    (id, the user whose turns it takes: `requested_by`, 0 when the account is gone)."""
    query = select(Review.id, Review.requested_by).where(Review.status.in_(UNFINISHED))
    return [(review, user or 0) for review, user in await db.execute(query.order_by(Review.id))]


async def stalled(db: AsyncSession, before: datetime) -> list[tuple[int, int]]:
    """Reviews no computer works on: running ones whose runner's heartbeat stopped before `before`, and
    pending ones asked for before it that no runner claimed (their job was lost); as `unfinished`."""
    query = select(Review.id, Review.requested_by).where(
        Review.status.in_(UNFINISHED), Review.updated_at < before
    )
    return [(review, user or 0) for review, user in await db.execute(query.order_by(Review.id))]

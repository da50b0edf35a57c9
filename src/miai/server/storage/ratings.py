"""SQL of the ratings: current ratings (locked while a result is stored), history rows, leaderboards."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, delete, false, func, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.storage.models import Game, GamePlayer, RatingChange, User, UserRating


async def create_missing_ratings(
    db: AsyncSession, user_ids: Sequence[int], key: str, first: dict[str, Any], now: datetime
) -> None:
    """Rows of `first` values for users rated in `key` for the first time, made before the rows are locked:
    two processes rating a new player's first games at once would otherwise both insert the row, and the
    unique (user, key) pair would refuse one of the two results."""
    insert = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
    rows = [
        {"user_id": u, "kind_key": key, "games": 0, "updated_at": now, **first} for u in sorted(set(user_ids))
    ]
    await db.execute(
        insert(UserRating).values(rows).on_conflict_do_nothing(index_elements=["user_id", "kind_key"])
    )


async def ratings_for_update(db: AsyncSession, user_ids: Sequence[int], key: str) -> dict[int, UserRating]:
    """The users' current ratings of `key`, locked (PostgreSQL: FOR UPDATE, in user id order so that two
    games finishing at once cannot deadlock) and read afresh: another process may have moved them on."""
    query = (
        select(UserRating)
        .where(UserRating.user_id.in_(sorted(set(user_ids))), UserRating.kind_key == key)
        .order_by(UserRating.user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {r.user_id: r for r in (await db.execute(query)).scalars()}


async def ratings_of_key(db: AsyncSession, key: str) -> dict[int, UserRating]:
    """Every current rating of `key`, locked, for a recompute."""
    query = (
        select(UserRating)
        .where(UserRating.kind_key == key)
        .order_by(UserRating.user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {r.user_id: r for r in (await db.execute(query)).scalars()}


def _lock_number(key: str) -> int:
    """The PostgreSQL advisory lock of a kind key's ratings: a stable signed 64-bit number."""
    digest = hashlib.blake2b(f"miai ratings {key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def lock_key(db: AsyncSession, key: str, exclusive: bool) -> None:
    """Hold `key`'s ratings until the transaction ends. A recompute takes it `exclusive` before it reads
    the history; storing a rated result takes it shared (results of one key still store side by side) before
    it reads a rating. So a result stored during a recompute waits for it, then rates on top of what it
    wrote; or the recompute waits for the result and replays it: never lost, never counted twice.
    PostgreSQL: an advisory transaction lock. SQLite has one writer at a time: the recompute takes that
    write lock at once (a write that changes nothing), so no result is stored between its read and its
    writes; a result's own writes take it anyway."""
    if db.get_bind().dialect.name == "postgresql":
        lock = func.pg_advisory_xact_lock if exclusive else func.pg_advisory_xact_lock_shared
        await db.execute(select(lock(_lock_number(key))))
    elif exclusive:
        await db.execute(delete(UserRating).where(false()))


async def history_of_key(
    db: AsyncSession, key: str, start: tuple[datetime, int] | None = None
) -> list[RatingChange]:
    """The rated games' changes of `key` in the order they were rated: finish time, then game id; from
    the game at `start` = (finished_at, game id) on, or all of them."""
    query = select(RatingChange).where(RatingChange.kind_key == key)
    if start is not None:
        query = query.where(tuple_(RatingChange.finished_at, RatingChange.game_id) >= tuple_(*start))
    query = query.order_by(
        RatingChange.finished_at, RatingChange.game_id, RatingChange.team, RatingChange.id
    ).execution_options(populate_existing=True)
    return list((await db.execute(query)).scalars())


async def rated_moment(db: AsyncSession, key: str, game_id: int) -> tuple[datetime, int] | None:
    """(finished_at, game id) of a game's place in `key`'s history; None when the game was not rated."""
    query = select(RatingChange.finished_at).where(
        RatingChange.kind_key == key, RatingChange.game_id == game_id
    )
    finished = (await db.execute(query.limit(1))).scalar_one_or_none()
    return None if finished is None else (finished, game_id)


async def rated_keys(db: AsyncSession) -> list[str]:
    query = select(RatingChange.kind_key).distinct().order_by(RatingChange.kind_key)
    return list((await db.execute(query)).scalars())


async def games_by_ids(db: AsyncSession, ids: Sequence[int]) -> dict[int, Game]:
    games: dict[int, Game] = {}
    unique = sorted(set(ids))
    for start in range(0, len(unique), 500):  # bounded IN lists
        query = select(Game).where(Game.id.in_(unique[start : start + 500]))
        games.update({g.id: g for g in (await db.execute(query)).scalars()})
    return games


async def drop_ratings_without_history(db: AsyncSession, key: str, user_ids: Sequence[int]) -> None:
    """After a recompute: ratings of users who no longer have a rated game of `key`."""
    stale = delete(UserRating).where(UserRating.kind_key == key)
    if user_ids:
        stale = stale.where(UserRating.user_id.not_in(list(user_ids)))
    await db.execute(stale)


def user_ratings_query(user_id: int) -> Select[Any]:
    return select(UserRating).where(UserRating.user_id == user_id).order_by(UserRating.kind_key)


async def user_ratings(db: AsyncSession, user_id: int) -> list[UserRating]:
    return list((await db.execute(user_ratings_query(user_id))).scalars())


async def user_history(db: AsyncSession, user_id: int, limit: int) -> list[RatingChange]:
    """The user's latest `limit` rating changes of every key, oldest first."""
    query = (
        select(RatingChange)
        .where(RatingChange.user_id == user_id)
        .order_by(RatingChange.finished_at.desc(), RatingChange.game_id.desc())
        .limit(limit)
    )
    return list(reversed((await db.execute(query)).scalars().all()))


async def unseen_private_games(db: AsyncSession, game_ids: Sequence[int], viewer_id: int | None) -> set[int]:
    """The private games among `game_ids` that `viewer_id` (None: a visitor) did not play in."""
    if not game_ids:
        return set()
    query = select(Game.id).where(Game.id.in_(list(set(game_ids))), Game.visibility == "private")
    if viewer_id is not None:
        seated = select(GamePlayer.game_id).where(GamePlayer.user_id == viewer_id)
        query = query.where(Game.id.not_in(seated))
    return set((await db.execute(query)).scalars())


def leaderboard_query(key: str, order: Any, provisional_at: float, limit: int) -> Select[UserRating, str]:
    """The statement of `leaderboard` (bench/queries.py times it, a test EXPLAINs it)."""
    return (
        select(UserRating, User.username)
        .join(User, User.id == UserRating.user_id)
        .where(UserRating.kind_key == key, UserRating.deviation < provisional_at, User.is_bot.is_(False))
        .order_by(order.desc(), UserRating.user_id)
        .limit(limit)
    )


async def leaderboard(
    db: AsyncSession, key: str, order: Any, provisional_at: float, limit: int
) -> list[tuple[UserRating, str]]:
    """The established (non-provisional) ratings of `key` held by people, best first, with usernames."""
    query = leaderboard_query(key, order, provisional_at, limit)
    return [(row[0], row[1]) for row in (await db.execute(query)).all()]


async def ratings_for_users(db: AsyncSession, user_ids: Sequence[int], key: str) -> list[UserRating]:
    """The users' current ratings of `key` (a read: nothing locked)."""
    query = select(UserRating).where(UserRating.user_id.in_(list(user_ids)), UserRating.kind_key == key)
    return list((await db.execute(query)).scalars())

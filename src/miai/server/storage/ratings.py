"""SQL of the ratings: current ratings (locked while a result is stored), history rows, unrated games,
leaderboards."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, delete, false, func, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from miai.server.storage.models import (
    Game,
    GameMove,
    GamePlayer,
    RatingChange,
    UnratedGame,
    User,
    UserRating,
)


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


async def drop_unplayed_ratings(db: AsyncSession, key: str, user_ids: Sequence[int]) -> None:
    """The rows `create_missing_ratings` made for a game that then did not count (no rated game yet)."""
    unplayed = delete(UserRating).where(
        UserRating.kind_key == key, UserRating.user_id.in_(list(user_ids)), UserRating.games == 0
    )
    await db.execute(unplayed)


async def pair_games_since(
    db: AsyncSession, key: str, user_ids: Sequence[int], since: datetime
) -> dict[tuple[int, int], int]:
    """(lower id, higher id) -> the rated games of `key` finished after `since` in which the two users,
    both among `user_ids`, played on different teams."""
    mine, theirs = aliased(RatingChange), aliased(RatingChange)
    ids = sorted(set(user_ids))
    query = (
        select(mine.user_id, theirs.user_id, func.count())
        .join(
            theirs,
            and_(theirs.game_id == mine.game_id, theirs.team != mine.team, theirs.user_id > mine.user_id),
        )
        .where(mine.kind_key == key, mine.user_id.in_(ids), mine.finished_at > since, theirs.user_id.in_(ids))
        .group_by(mine.user_id, theirs.user_id)
    )
    return {(a, b): int(n) for a, b, n in (await db.execute(query)).all()}


async def move_counts(
    db: AsyncSession, game_ids: Sequence[int], not_moves: frozenset[str]
) -> dict[int, dict[int, int]]:
    """game id -> team -> its stored moves, leaving out the texts `not_moves` (passes, resignations...)."""
    counts: dict[int, dict[int, int]] = {}
    unique = sorted(set(game_ids))
    for start in range(0, len(unique), 500):  # bounded IN lists
        query = (
            select(GameMove.game_id, GameMove.team, func.count())
            .where(GameMove.game_id.in_(unique[start : start + 500]), GameMove.move.not_in(list(not_moves)))
            .group_by(GameMove.game_id, GameMove.team)
        )
        for game_id, team, n in (await db.execute(query)).all():
            counts.setdefault(game_id, {})[team] = int(n)
    return counts


async def seats_of_games(db: AsyncSession, game_ids: Sequence[int]) -> dict[int, dict[int, list[int]]]:
    """game id -> team -> its players' user ids in seat order."""
    seats: dict[int, dict[int, list[int]]] = {}
    unique = sorted(set(game_ids))
    for start in range(0, len(unique), 500):
        query = (
            select(GamePlayer.game_id, GamePlayer.team, GamePlayer.user_id)
            .where(GamePlayer.game_id.in_(unique[start : start + 500]))
            .order_by(GamePlayer.game_id, GamePlayer.team, GamePlayer.seat)
        )
        for game_id, team, user_id in (await db.execute(query)).all():
            if team is not None:
                seats.setdefault(game_id, {}).setdefault(team, []).append(user_id)
    return seats


async def unrated_of_key(db: AsyncSession, key: str, rules: Sequence[str]) -> list[UnratedGame]:
    """The games of `key` recorded unrated under one of `rules`."""
    query = select(UnratedGame).where(UnratedGame.kind_key == key, UnratedGame.rule.in_(list(rules)))
    return list((await db.execute(query)).scalars())


async def unrated_keys(db: AsyncSession, rules: Sequence[str]) -> list[str]:
    """The keys with games recorded unrated under one of `rules`."""
    query = select(UnratedGame.kind_key).where(UnratedGame.rule.in_(list(rules))).distinct()
    return list((await db.execute(query)).scalars())


async def changes_of_game(db: AsyncSession, game_id: int) -> list[RatingChange]:
    """A rated game's rating changes, team by team."""
    query = select(RatingChange).where(RatingChange.game_id == game_id)
    return list((await db.execute(query.order_by(RatingChange.team, RatingChange.id))).scalars())


async def unrated_game(db: AsyncSession, game_id: int) -> UnratedGame | None:
    return await db.get(UnratedGame, game_id)


async def mark_unrated(
    db: AsyncSession, game_id: int, key: str, rule: str, reason: str, now: datetime
) -> None:
    """Record why a game created rated does not count (again, by a recompute: its latest reason)."""
    row = await db.get(UnratedGame, game_id)
    if row is None:
        row = UnratedGame(game_id=game_id)
        db.add(row)
    row.kind_key, row.rule, row.reason, row.decided_at = key, rule, reason[:200], now


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


def leaderboard_query(
    key: str, order: Any, provisional_at: float, min_games: int, limit: int
) -> Select[UserRating, str]:
    """The statement of `leaderboard` (bench/queries.py times it, a test EXPLAINs it)."""
    return (
        select(UserRating, User.username)
        .join(User, User.id == UserRating.user_id)
        .where(
            UserRating.kind_key == key,
            UserRating.deviation < provisional_at,
            UserRating.games >= min_games,
            User.is_bot.is_(False),
        )
        .order_by(order.desc(), UserRating.user_id)
        .limit(limit)
    )


async def rated_people(db: AsyncSession) -> dict[str, int]:
    """Kind key -> how many people (computer and bot accounts left out) hold a rating of it."""
    query = (
        select(UserRating.kind_key, func.count())
        .join(User, User.id == UserRating.user_id)
        .where(User.is_bot.is_(False))
        .group_by(UserRating.kind_key)
    )
    return {key: int(n) for key, n in (await db.execute(query)).all()}


async def leaderboard(
    db: AsyncSession, key: str, order: Any, provisional_at: float, min_games: int, limit: int
) -> list[tuple[UserRating, str]]:
    """The established ratings of `key` (a deviation under `provisional_at`, at least `min_games` rated
    games) held by people, best first, with usernames."""
    query = leaderboard_query(key, order, provisional_at, min_games, limit)
    return [(row[0], row[1]) for row in (await db.execute(query)).all()]


async def ratings_for_users(db: AsyncSession, user_ids: Sequence[int], key: str) -> list[UserRating]:
    """The users' current ratings of `key` (a read: nothing locked)."""
    query = select(UserRating).where(UserRating.user_id.in_(list(user_ids)), UserRating.kind_key == key)
    return list((await db.execute(query)).scalars())

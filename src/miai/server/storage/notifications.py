"""Repository functions of in-page notifications (notify/bell.py decides who gets which).

A user keeps their newest `KEEP` notifications; older ones are deleted as new ones arrive. A game has at
most one unread "your turn": any newer notification about the game replaces it, whoever it was for (the
turn it announced is over). A user has at most one "your turn" per game, read or not: a new notification
about the game replaces the user's earlier one, so a game played turn after turn is one entry that comes
back to the top of the list, not one entry per turn.

`store` takes plain rows and a connection, so that game commands store theirs with the group's bulk writes
(repo.store_commands), in the same transaction as the move that causes them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import aliased

from miai.server.storage.models import Notification

KEEP = 100
TURN = "turn"
_TABLE = cast(Table, Notification.__table__)
COLUMNS = ("user_id", "kind", "game_id", "data", "created_at")


def new_row(
    user_id: int, kind: str, game_id: int | None, data: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """A notification to store; `store` adds its `id`."""
    return {
        "user_id": user_id,
        "kind": kind,
        "game_id": game_id,
        "data": data,
        "created_at": now,
        "read_at": None,
    }


async def store(connection: AsyncConnection, rows: list[dict[str, Any]]) -> dict[int, set[int]]:
    """Store `rows` (from `new_row`) in the connection's transaction, setting each row's `id`: first the
    unread "your turn" of their games goes, then they are added, then each user's oldest beyond `KEEP`.
    The "your turn" of the users told about a game goes too, read or not (one entry per user and game).
    Returns game id -> the users whose unread "your turn" of that game went (their unread count fell)."""
    games = sorted({r["game_id"] for r in rows if r["game_id"] is not None})
    told = sorted({(r["user_id"], r["game_id"]) for r in rows if r["game_id"] is not None})
    gone: dict[int, set[int]] = {}
    if games:
        told_of: dict[int, list[int]] = {}
        for user_id, game_id in told:
            told_of.setdefault(game_id, []).append(user_id)
        # One term per game, not per (user, game): SQLite refuses an expression nested 1,000 deep, and a
        # batch of big team games finishing at once tells that many pairs.
        theirs = [and_(_TABLE.c.game_id == g, _TABLE.c.user_id.in_(users)) for g, users in told_of.items()]
        replaced = or_(_TABLE.c.read_at.is_(None), *theirs)
        deleted = await connection.execute(
            delete(_TABLE)
            .where(_TABLE.c.game_id.in_(games), _TABLE.c.kind == TURN, replaced)
            .returning(_TABLE.c.game_id, _TABLE.c.user_id, _TABLE.c.read_at)
        )
        for game_id, user_id, read_at in deleted.all():
            if read_at is None:
                gone.setdefault(game_id, set()).add(user_id)
    statement = insert(_TABLE).returning(_TABLE.c.id, sort_by_parameter_order=True)
    result = await connection.execute(statement, [{c: r[c] for c in COLUMNS} for r in rows])
    for row, (new_id,) in zip(rows, result.all(), strict=True):
        row["id"] = new_id
    newer = aliased(Notification)
    oldest_kept = (
        select(newer.id)
        .where(newer.user_id == Notification.user_id)
        .order_by(newer.id.desc())
        .offset(KEEP - 1)
        .limit(1)
        .scalar_subquery()
    )
    users = sorted({r["user_id"] for r in rows})
    await connection.execute(
        delete(Notification).where(Notification.user_id.in_(users), Notification.id < oldest_kept)
    )
    return gone


async def newest(db: AsyncSession, user_id: int, limit: int, before: int | None) -> list[Notification]:
    """The user's notifications newest first, those with an id below `before` if given."""
    query = select(Notification).where(Notification.user_id == user_id)
    if before is not None:
        query = query.where(Notification.id < before)
    rows = await db.execute(query.order_by(Notification.id.desc()).limit(limit))
    return list(rows.scalars())


async def unread_count(db: AsyncSession, user_id: int) -> int:
    query = select(func.count()).where(Notification.user_id == user_id, Notification.read_at.is_(None))
    return int((await db.execute(query)).scalar_one())


async def mark_read(
    db: AsyncSession,
    user_id: int,
    now: datetime,
    up_to: int | None = None,
    only: int | None = None,
    game_id: int | None = None,
) -> int:
    """Mark the user's unread notifications read: all, those with an id up to `up_to`, the one `only`, or
    those about the game `game_id`; returns how many."""
    query = update(Notification).where(Notification.user_id == user_id, Notification.read_at.is_(None))
    if up_to is not None:
        query = query.where(Notification.id <= up_to)
    if only is not None:
        query = query.where(Notification.id == only)
    if game_id is not None:
        query = query.where(Notification.game_id == game_id)
    result = await db.execute(query.values(read_at=now))
    return int(getattr(result, "rowcount", 0) or 0)

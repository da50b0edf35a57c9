"""Repository functions: every SQL statement of the server lives in this package."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from miai.server.storage import notifications
from miai.server.storage.models import (
    ApiToken,
    ChatMessage,
    Game,
    GameEvent,
    GameMove,
    GamePlayer,
    ScoreFlag,
    SeatRemoval,
    Session,
    User,
)


def utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; everything here is UTC."""
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# ----------------------------------------------------------------------------------------- users


async def user_by_name(db: AsyncSession, username: str) -> User | None:
    return (await db.execute(select(User).where(func.lower(User.username) == username.lower()))).scalar()


async def user_by_id(db: AsyncSession, user_id: int) -> User | None:
    return await db.get(User, user_id)


async def users_by_ids(db: AsyncSession, ids: Sequence[int]) -> dict[int, User]:
    if not ids:
        return {}
    rows = (await db.execute(select(User).where(User.id.in_(ids)))).scalars()
    return {u.id: u for u in rows}


async def session_by_hash(db: AsyncSession, token_hash: str) -> Session | None:
    return await db.get(Session, token_hash)


async def delete_session(db: AsyncSession, token_hash: str) -> None:
    await db.execute(delete(Session).where(Session.token_hash == token_hash))


async def token_by_hash(db: AsyncSession, token_hash: str) -> ApiToken | None:
    return (await db.execute(select(ApiToken).where(ApiToken.token_hash == token_hash))).scalar()


async def tokens_of(db: AsyncSession, user_id: int) -> list[ApiToken]:
    return list((await db.execute(select(ApiToken).where(ApiToken.user_id == user_id))).scalars())


# ----------------------------------------------------------------------------------------- games


async def game_row(db: AsyncSession, game_id: int) -> Game | None:
    """A game's row as stored now (refreshed if the session already held it). It does not lock the row:
    commands on a game are serialised by the command stream (play/stream.py), not by this read."""
    return await db.get(Game, game_id, populate_existing=True)


async def players_of(db: AsyncSession, game_id: int) -> list[GamePlayer]:
    query = select(GamePlayer).where(GamePlayer.game_id == game_id).order_by(GamePlayer.joined_seq)
    return list((await db.execute(query)).scalars())


async def moves_of(db: AsyncSession, game_id: int) -> list[GameMove]:
    query = select(GameMove).where(GameMove.game_id == game_id).order_by(GameMove.ply)
    return list((await db.execute(query)).scalars())


@dataclass
class CommandWrites:
    """What one game command stores: the game row moved on from version `expected`, new events and moves."""

    game_id: int
    expected: int
    changes: dict[str, Any]  # must include the new `version`
    events: list[dict[str, Any]] = field(default_factory=list)  # game_events rows
    moves: list[dict[str, Any]] = field(default_factory=list)  # game_moves rows
    notifications: list[dict[str, Any]] = field(default_factory=list)  # storage/notifications.py rows
    # set by store_commands: the users whose unread "your turn" of this game the notifications replaced
    turns_gone: set[int] = field(default_factory=set)


class RowsMovedOn(Exception):
    """A grouped update found rows that had moved on, but not which: roll back and store one by one."""


async def store_commands(
    db: AsyncSession, writes: Sequence[CommandWrites], one_by_one: bool = False
) -> set[int]:
    """Store the writes of one or more commands in the open transaction, with plain Core statements (the
    ORM's unit of work costs more than the rest of a move).

    Optimistic concurrency across processes: a game row that has moved on from its expected version is
    not touched, nor are its events and moves stored; the ids of those games are returned. Commands that
    change the same columns (moves do) share one executemany, whose row count can only say that some row
    moved on: then RowsMovedOn is raised, and the caller rolls back and calls again `one_by_one`."""
    connection = await db.connection()
    run = await _statements_for(connection)
    one_by_one = one_by_one or isinstance(run, _CoreStatements)  # other drivers' executemany counts no rows
    stale: set[int] = set()
    alike: dict[tuple[str, ...], list[CommandWrites]] = {}
    for w in writes:
        key = (str(w.game_id),) if one_by_one else tuple(sorted(w.changes))
        alike.setdefault(key, []).append(w)
    for group in alike.values():
        columns = sorted(group[0].changes)
        rows = [{**w.changes, "_id": w.game_id, "_expected": w.expected} for w in group]
        if await run.update_games(columns, rows) != len(group):
            if len(group) > 1:
                raise RowsMovedOn
            stale.add(group[0].game_id)
    events = [row for w in writes if w.game_id not in stale for row in w.events]
    moves = [row for w in writes if w.game_id not in stale for row in w.moves]
    if events:
        await run.insert(cast(Table, GameEvent.__table__), events)
    if moves:
        await run.insert(cast(Table, GameMove.__table__), moves)
    told = [row for w in writes if w.game_id not in stale for row in w.notifications]
    gone = await notifications.store(connection, told) if told else {}
    for w in writes:  # every call sets it afresh: a group rolled back and stored again starts over
        w.turns_gone = gone.get(w.game_id, set()) if w.game_id not in stale else set()
    return stale


_GAMES = cast(Table, Game.__table__)


class _CoreStatements:
    """The portable way: SQLAlchemy Core statements on the session's connection."""

    def __init__(self, connection: AsyncConnection) -> None:
        self.connection = connection

    async def update_games(self, columns: list[str], rows: list[dict[str, Any]]) -> int:
        statement = (
            update(_GAMES)
            .where(_GAMES.c.id == bindparam("_id"), _GAMES.c.version == bindparam("_expected"))
            .values({c: bindparam(c) for c in columns})
        )
        result = await self.connection.execute(statement, rows if len(rows) > 1 else rows[0])
        return int(result.rowcount)

    async def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        await self.connection.execute(insert(table), rows)


class _SqliteStatements:
    """On SQLite each statement through SQLAlchemy's aiosqlite adapter takes several trips to the driver's
    thread; here an executemany is one trip (same connection, same transaction). Values go through the
    columns' own bind processors, so they are stored exactly as SQLAlchemy stores them."""

    def __init__(self, driver: Any, dialect: Any) -> None:
        self.driver = driver  # the aiosqlite connection
        self.dialect = dialect

    def _params(self, table: Table, columns: list[str], rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        processors = [
            table.c[c].type.dialect_impl(self.dialect).bind_processor(self.dialect) for c in columns
        ]
        return [
            tuple(p(row[c]) if p else row[c] for c, p in zip(columns, processors, strict=True))
            for row in rows
        ]

    async def update_games(self, columns: list[str], rows: list[dict[str, Any]]) -> int:
        sets = ", ".join(f"{c} = ?" for c in columns)
        params = self._params(_GAMES, columns, rows)
        keys = [(row["_id"], row["_expected"]) for row in rows]
        cursor = await self.driver.executemany(
            f"UPDATE games SET {sets} WHERE id = ? AND version = ?",
            [values + key for values, key in zip(params, keys, strict=True)],
        )
        return int(cursor.rowcount)

    async def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        columns = list(rows[0])
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({marks})"
        await self.driver.executemany(sql, self._params(table, columns, rows))


async def _statements_for(connection: AsyncConnection) -> _CoreStatements | _SqliteStatements:
    if connection.dialect.name == "sqlite" and connection.dialect.driver == "aiosqlite":
        raw = await connection.get_raw_connection()
        return _SqliteStatements(raw.driver_connection, connection.dialect)
    return _CoreStatements(connection)


async def events_since(db: AsyncSession, game_id: int, after: int, limit: int) -> list[GameEvent]:
    query = (
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.v > after)
        .order_by(GameEvent.v)
        .limit(limit)
    )
    return list((await db.execute(query)).scalars())


async def last_event(db: AsyncSession, game_id: int, types: Sequence[str]) -> GameEvent | None:
    query = (
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.type.in_(types))
        .order_by(GameEvent.v.desc())
        .limit(1)
    )
    return (await db.execute(query)).scalars().first()


async def open_games(db: AsyncSession, limit: int = 100) -> list[Game]:
    query = (
        select(Game)
        .where(Game.status == "waiting", Game.visibility == "public")  # challenges too, marked as such
        .order_by(Game.created_at.desc())
        .limit(limit)
    )
    return list((await db.execute(query)).scalars())


async def games_of_user(db: AsyncSession, user_id: int, statuses: Sequence[str]) -> list[Game]:
    query = (
        select(Game)
        .join(GamePlayer, GamePlayer.game_id == Game.id)
        .where(GamePlayer.user_id == user_id, Game.status.in_(statuses))
    )
    return list((await db.execute(query)).scalars().unique())


async def challenges_for(db: AsyncSession, user_id: int) -> list[Game]:
    query = select(Game).where(Game.challenge_to == user_id, Game.status == "waiting")
    return list((await db.execute(query)).scalars())


async def removals_since(
    db: AsyncSession, user_id: int, since: datetime, limit: int = 20
) -> list[SeatRemoval]:
    """The user's seat removals since `since`, newest first, leaving out games they are in again."""
    again = select(GamePlayer.game_id).where(GamePlayer.user_id == user_id)
    query = (
        select(SeatRemoval)
        .where(
            SeatRemoval.user_id == user_id,
            SeatRemoval.created_at >= since,
            SeatRemoval.game_id.not_in(again),
        )
        .order_by(SeatRemoval.id.desc())
        .limit(limit)
    )
    return list((await db.execute(query)).scalars())


async def last_removal(db: AsyncSession, user_id: int, game_id: int) -> SeatRemoval | None:
    query = (
        select(SeatRemoval)
        .where(SeatRemoval.user_id == user_id, SeatRemoval.game_id == game_id)
        .order_by(SeatRemoval.id.desc())
        .limit(1)
    )
    return (await db.execute(query)).scalar()


async def due_games(db: AsyncSession, now: datetime, limit: int = 100) -> list[tuple[int, int, str]]:
    query = (
        select(Game.id, Game.version, Game.status)
        .where(
            Game.deadline_at.is_not(None), Game.deadline_at <= now, Game.status.in_(("active", "confirming"))
        )
        .order_by(Game.deadline_at)
        .limit(limit)
    )
    return [(row[0], row[1], row[2]) for row in (await db.execute(query)).all()]


async def next_deadline(db: AsyncSession) -> datetime | None:
    query = select(func.min(Game.deadline_at)).where(Game.status.in_(("active", "confirming")))
    return utc((await db.execute(query)).scalar())


async def chat_audiences(db: AsyncSession, game_id: int) -> list[str]:
    """Every audience a message of this game was posted to (a handful per game)."""
    query = select(ChatMessage.audience).where(ChatMessage.game_id == game_id).distinct()
    return list((await db.execute(query)).scalars())


async def chat_for(
    db: AsyncSession, game_id: int, audiences: Sequence[str], limit: int = 200
) -> list[ChatMessage]:
    query = (
        select(ChatMessage)
        .where(ChatMessage.game_id == game_id, ChatMessage.audience.in_(audiences))
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(list((await db.execute(query)).scalars())))


# ----------------------------------------------------------------------------------------- users' rows


async def lock_users(db: AsyncSession, user_ids: Sequence[int]) -> None:
    """Lock users' rows until the transaction ends, so that a count read after this (an upload cap, a review
    queue) holds until the write that depends on it commits.

    PostgreSQL: the rows, in id order so that two transactions locking the same users never deadlock; FOR NO
    KEY UPDATE, so rows that merely refer to these users (a new game's creator) take a KEY SHARE lock, which
    this does not wait for. SQLite has one writer for the whole file, but its transaction begins at the first
    write, after the counts were read: a write that changes nothing takes the write lock first. Called before
    the transaction's first write, it waits for the lock with the busy timeout (no snapshot is held yet)."""
    ids = sorted(set(user_ids))
    if not ids:
        return
    if db.get_bind().dialect.name == "sqlite":
        await db.execute(update(User).where(User.id.in_(ids)).values(username=User.username))
        return
    for user_id in ids:
        await db.execute(select(User.id).where(User.id == user_id).with_for_update(key_share=True))


async def expire_sessions(db: AsyncSession, now: datetime) -> None:
    await db.execute(delete(Session).where(and_(Session.expires_at < now)))


# ----------------------------------------------------------------------------------------- score flags


async def open_flags(db: AsyncSession, game_id: int | None = None) -> list[ScoreFlag]:
    query = select(ScoreFlag).where(ScoreFlag.resolved_at.is_(None)).order_by(ScoreFlag.id)
    if game_id is not None:
        query = query.where(ScoreFlag.game_id == game_id)
    return list((await db.execute(query)).scalars())


async def flags_of(db: AsyncSession, game_id: int) -> list[ScoreFlag]:
    """Every flag of a game, resolved or not, oldest first (the administrators' review page)."""
    query = select(ScoreFlag).where(ScoreFlag.game_id == game_id).order_by(ScoreFlag.id)
    return list((await db.execute(query)).scalars())


async def active_games(db: AsyncSession) -> list[Game]:
    return list((await db.execute(select(Game).where(Game.status == "active"))).scalars())


async def bots_on_move(db: AsyncSession) -> list[tuple[int, int, User]]:
    """(game id, version, the computer on move) of every active game whose player on move is a bot account
    (the engine queue's sweep): filtered here, not by loading every active game. A computer held at a
    practice game's start (`to_move.held`) waits for its player, not for the sweep."""
    on_move = Game.to_move["user_id"].as_integer()
    query = (
        select(Game.id, Game.version, Game.to_move, User)
        .join(User, User.id == on_move)
        .where(Game.status == "active", User.is_bot.is_(True))
        .order_by(Game.id)
    )
    rows = await db.execute(query)
    return [(game, version, user) for game, version, to_move, user in rows if not to_move.get("held")]


async def delete_moves_after(db: AsyncSession, game_id: int, ply: int) -> None:
    """Practice games only: forget the record after `ply` (undo)."""
    await db.execute(delete(GameMove).where(GameMove.game_id == game_id, GameMove.ply > ply))

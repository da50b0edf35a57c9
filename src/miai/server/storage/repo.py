"""Repository functions: every SQL statement of the server lives in this package."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, cast

from sqlalchemy import ColumnElement, Table, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from miai.server.storage.models import (
    ApiToken,
    ChatMessage,
    Game,
    GameEvent,
    GameMove,
    GamePlayer,
    OutboxMail,
    ScoreFlag,
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


async def game_for_update(db: AsyncSession, game_id: int) -> Game | None:
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


async def events_since(db: AsyncSession, game_id: int, after: int, limit: int = 500) -> list[GameEvent]:
    query = (
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.v > after)
        .order_by(GameEvent.v)
        .limit(limit)
    )
    return list((await db.execute(query)).scalars())


async def open_games(db: AsyncSession, limit: int = 100) -> list[Game]:
    query = (
        select(Game)
        .where(Game.status == "waiting", Game.visibility == "public", Game.challenge_to.is_(None))
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


# ----------------------------------------------------------------------------------------- outbox


def _mail_pending() -> ColumnElement[bool]:
    return and_(OutboxMail.sent_at.is_(None), OutboxMail.failed_at.is_(None))


def _lease_free(now: datetime) -> ColumnElement[bool]:
    return or_(OutboxMail.claimed_until.is_(None), OutboxMail.claimed_until < now)


async def claim_mail(
    db: AsyncSession, now: datetime, lease_until: datetime, limit: int = 10
) -> list[OutboxMail]:
    """Take a lease on mail that is due so no other sender (process) sends it at the same time."""
    due = and_(
        _mail_pending(),
        or_(OutboxMail.next_attempt_at.is_(None), OutboxMail.next_attempt_at <= now),
        _lease_free(now),
    )
    query = select(OutboxMail.id).where(due).order_by(OutboxMail.id).limit(limit)
    ids = [row[0] for row in (await db.execute(query)).all()]
    claimed = []
    for mail_id in ids:
        result = await db.execute(
            update(OutboxMail)
            .where(OutboxMail.id == mail_id, due)
            .values(claimed_until=lease_until, attempts=OutboxMail.attempts + 1)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount:  # type: ignore[attr-defined]
            mail = await db.get(OutboxMail, mail_id, populate_existing=True)
            if mail is not None:
                claimed.append(mail)
    return claimed


async def mark_sent(db: AsyncSession, mail_id: int, now: datetime) -> None:
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(sent_at=now, claimed_until=None, next_attempt_at=None, last_error=None)
    )


async def mark_retry(
    db: AsyncSession, mail_id: int, error: str, retry_at: datetime, give_up_at: datetime
) -> None:
    """An attempt failed: try again at `retry_at`; `give_up_at` is kept from the first failure."""
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(
            claimed_until=None,
            last_error=error[:2000],
            next_attempt_at=retry_at,
            give_up_at=func.coalesce(OutboxMail.give_up_at, give_up_at),
        )
    )


async def mark_failed(db: AsyncSession, mail_id: int, error: str, now: datetime) -> None:
    """The last attempt failed: the mail stays, failed, for an operator to see and retry."""
    await db.execute(
        update(OutboxMail)
        .where(OutboxMail.id == mail_id)
        .values(claimed_until=None, last_error=error[:2000], next_attempt_at=None, failed_at=now)
    )


MailState = Literal["pending", "failed", "sent"]


async def mails(
    db: AsyncSession, states: Sequence[MailState], limit: int, before_id: int | None = None
) -> list[OutboxMail]:
    """Mail in the given states, newest first; `before_id` pages on."""
    conditions = {
        "pending": _mail_pending(),
        "failed": OutboxMail.failed_at.is_not(None),
        "sent": OutboxMail.sent_at.is_not(None),
    }
    query = select(OutboxMail).where(or_(*(conditions[state] for state in states)))
    if before_id is not None:
        query = query.where(OutboxMail.id < before_id)
    return list((await db.execute(query.order_by(OutboxMail.id.desc()).limit(limit))).scalars())


async def retry_mail(db: AsyncSession, mail_ids: Sequence[int] | None) -> list[int]:
    """Failed or pending mail (`None`: every failed mail) becomes due now, with a new day of retries.
    Returns the ids it applies to; sent mail is never sent again."""
    which = OutboxMail.failed_at.is_not(None) if mail_ids is None else OutboxMail.id.in_(mail_ids)
    query = select(OutboxMail.id).where(which, OutboxMail.sent_at.is_(None)).order_by(OutboxMail.id)
    ids = [row[0] for row in (await db.execute(query)).all()]
    if ids:
        await db.execute(
            update(OutboxMail)
            .where(OutboxMail.id.in_(ids), OutboxMail.sent_at.is_(None))
            .values(failed_at=None, next_attempt_at=None, give_up_at=None)
            .execution_options(synchronize_session=False)
        )
    return ids


async def mail_times(
    db: AsyncSession,
    kind: str,
    since: datetime,
    limit: int,
    sender_id: int | None = None,
    to_address: str | None = None,
) -> list[datetime]:
    """When the latest (at most `limit`) mails of a kind since a moment were queued, by one sender or to one
    address: the mail-bomb caps."""
    query = select(OutboxMail.created_at).where(OutboxMail.kind == kind, OutboxMail.created_at >= since)
    if sender_id is not None:
        query = query.where(OutboxMail.sender_id == sender_id)
    if to_address is not None:
        query = query.where(OutboxMail.to_address == to_address)
    rows = (await db.execute(query.order_by(OutboxMail.created_at.desc()).limit(limit))).scalars()
    return [cast(datetime, utc(moment)) for moment in rows]


async def lock_users(db: AsyncSession, user_ids: Sequence[int]) -> None:
    """Lock users' rows until the transaction ends (PostgreSQL; SQLite has one writer at a time anyway), in
    id order so that two transactions locking the same users never deadlock. FOR NO KEY UPDATE: rows that
    merely refer to these users (a new game's creator) take a KEY SHARE lock, which this does not wait for."""
    for user_id in sorted(set(user_ids)):
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


async def delete_moves_after(db: AsyncSession, game_id: int, ply: int) -> None:
    """Practice games only: forget the record after `ply` (undo)."""
    await db.execute(delete(GameMove).where(GameMove.game_id == game_id, GameMove.ply > ply))

"""Group commit for a database with one writer (SQLite): many game commands, one transaction.

SQLite takes one write transaction at a time, so game commands run one after another anyway. Paying for
a session, a connection checkout and a COMMIT per move made that queue the server's bottleneck. Here the
commands of a group share one long-lived session, each command's writes are collected, and the whole group
is stored with bulk statements and a single COMMIT. A command is acknowledged only after the COMMIT that
holds its writes; if that fails, every command of the group fails and none was acknowledged, so no
accepted move is lost.

A group closes when the commands queued behind it have had their turn (a "flusher" task queues after
them on the same lock) or when it reaches `MAX_GROUP` commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.play.errors import Stale
from miai.server.storage import repo
from miai.server.storage.models import Game

log = logging.getLogger(__name__)
MAX_GROUP = 100
MAX_ROWS = 10_000  # game rows kept in the shared session


@dataclass
class Member:
    writes: repo.CommandWrites
    wrote_orm: bool  # the command changed ORM objects too (flushed in its turn)
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class GroupWriter:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions
        self._lock = asyncio.Lock()
        self._db: AsyncSession | None = None
        self._group: list[Member] = []
        self._flusher: asyncio.Task[None] | None = None
        self._flushed = False  # whether the ORM flushed inside the current command
        # Game rows stay in the shared session between commands, so a move reads nothing from the database;
        # a row changed by another process is caught by the version check when storing, then read afresh.
        self._rows: OrderedDict[int, Game] = OrderedDict()

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[AsyncSession]:
        """The writer's turn for one command: the shared session, inside the open group's transaction."""
        async with self._lock:
            db = self._session()
            self._flushed = False
            try:
                yield db
            except BaseException:
                # A refused command normally wrote nothing. If it did (the ORM flushed or holds changes), the
                # group's transaction can't be trusted any more: fail the whole group, none of it is acked.
                if self._flushed or db.new or db.dirty or db.deleted:
                    await self._fail_all(Stale("the server could not store this command; try again"))
                raise
            try:
                if db.new or db.dirty or db.deleted:
                    await db.flush()  # now, so that a later command's refusal is not blamed for them
            except Exception:
                await self._fail_all(Stale("the server could not store this command; try again"))
                raise
            if len(self._group) >= MAX_GROUP:
                await self._commit()

    async def game(self, db: AsyncSession, game_id: int) -> Game | None:
        """The game's row: from the shared session when it holds it (no SQL), else read."""
        game = await db.get(Game, game_id)
        if game is not None:
            self._rows[game_id] = game
            self._rows.move_to_end(game_id)
            while len(self._rows) > MAX_ROWS:
                self._rows.popitem(last=False)
        return game

    def add(self, writes: repo.CommandWrites) -> asyncio.Future[None]:
        """Queue a command's writes (call inside `turn`); the future resolves once they are committed."""
        member = Member(writes, wrote_orm=self._flushed)
        self._group.append(member)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_when_free())
        return member.done

    async def close(self) -> None:
        if self._flusher is not None:
            await self._flusher
        if self._db is not None:
            await self._db.close()
            self._db = None

    def _session(self) -> AsyncSession:
        if self._db is None:
            self._db = self._sessions()

            @event.listens_for(self._db.sync_session, "after_flush")
            def _noticed(*_args: Any) -> None:
                self._flushed = True

        return self._db

    async def _flush_when_free(self) -> None:
        async with self._lock:
            await self._commit()

    async def _commit(self) -> None:
        group, self._group = self._group, []
        if not group:
            return
        db = self._session()
        try:
            try:
                stale = await repo.store_commands(db, [m.writes for m in group])
            except repo.RowsMovedOn:
                if any(m.wrote_orm for m in group):
                    raise Stale("another command changed a game first; try again") from None
                await db.rollback()
                for m in group:  # the rollback expired the rows their commands still hold: load them again
                    row = self._rows.get(m.writes.game_id)
                    if row is not None:
                        await db.refresh(row)
                stale = await repo.store_commands(db, [m.writes for m in group], one_by_one=True)
            if any(m.wrote_orm and m.writes.game_id in stale for m in group):
                raise Stale("another command changed the game first; try again")
            await db.commit()
        except Exception as err:
            self._group = group
            await self._fail_all(err if isinstance(err, Stale) else Stale("could not store; try again"))
            if not isinstance(err, Stale):
                log.exception("a group commit failed")
            return
        for member in group:
            if member.writes.game_id in stale:
                self._forget(member.writes.game_id)
                _fail(member, Stale("another command changed the game first; try again"))
            else:
                member.done.set_result(None)

    def _forget(self, game_id: int) -> None:
        row = self._rows.pop(game_id, None)
        if row is not None and self._db is not None:
            self._db.expire(row)

    async def _fail_all(self, error: Exception) -> None:
        group, self._group = self._group, []
        self._rows.clear()
        if self._db is not None:
            with contextlib.suppress(Exception):
                await self._db.rollback()
            self._db.expunge_all()  # everything is read afresh
        for member in group:
            _fail(member, error)


def _fail(member: Member, error: Exception) -> None:
    if not member.done.done():
        member.done.set_exception(error)
        member.done.exception()  # marked as seen: a member that was cancelled must not log it

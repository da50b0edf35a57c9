"""Group commit for a database with one writer (SQLite): many game commands, one transaction.

SQLite takes one write transaction at a time, so game commands run one after another anyway. Paying for
a session, a connection checkout and a COMMIT per move made that queue the server's bottleneck. Here the
commands of a group share one long-lived session, each command's writes are collected, and the whole group
is stored with bulk statements and a single COMMIT. A command is acknowledged only after the COMMIT that
holds its writes; if that fails, every command of the group fails and none was acknowledged, so no
accepted move is lost.

A group closes when the commands queued behind it have had their turn (a "flusher" task queues after
them on the same lock) or when it reaches `MAX_GROUP` commands.

Commands are isolated inside their group: one that fails (refused by the rules, or its writes refused by
the database) is undone alone, back to its own SAVEPOINT when the transaction already holds other commands'
writes, and answers `NotStored`; the others are stored as if it had never run, and the shared session is
always usable for the next command.
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
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, AsyncSessionTransaction, async_sessionmaker

from miai.server.errors import NotStored, Stale
from miai.server.storage import repo
from miai.server.storage.models import Game

log = logging.getLogger(__name__)
MAX_GROUP = 100
MAX_ROWS = 10_000  # game rows kept in the shared session
NOT_STORED = "the server could not store this command; nothing changed"
# What the database, its driver or the connection raise when they refuse or lose a command's writes.
STORAGE_FAULTS = (SQLAlchemyError, OSError, UnicodeError)


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
        self._wrote = False  # whether the current command wrote through the session (ORM flush or DML)
        self._current: Member | None = None  # the current command's writes, once it added them
        # Game rows stay in the shared session between commands, so a move reads nothing from the database;
        # a row changed by another process is caught by the version check when storing, then read afresh.
        self._rows: OrderedDict[int, Game] = OrderedDict()
        self._refresh: set[int] = set()  # games whose row must be read again
        self._holds_writes = False  # the open transaction holds commands' ORM writes (flushed, uncommitted)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[AsyncSession]:
        """The writer's turn for one command: the shared session, inside the open group's transaction.

        Each command is isolated from the rest of its group: when the transaction already holds other
        commands' ORM writes, the command runs inside its own SAVEPOINT; otherwise the transaction holds
        nothing that a rollback could lose. A command that fails (refused, or its writes refused by the
        database) is undone alone and the session stays usable for every later command."""
        async with self._lock:
            db = self._session()
            self._wrote, self._current = False, None
            savepoint = None
            try:
                if self._holds_writes:
                    savepoint = await db.begin_nested()
                yield db
                if db.new or db.dirty or db.deleted:
                    await db.flush()  # now, so that a later command's refusal is not blamed for them
                if savepoint is not None:
                    await savepoint.commit()  # RELEASE: its writes join the group's transaction
            except BaseException as err:
                await self._undo_command(db, savepoint)
                if not isinstance(err, STORAGE_FAULTS):
                    raise  # refused (CommandError), cancelled, or a bug: undone all the same
                log.exception("the database refused a command; it was undone alone")
                raise NotStored(NOT_STORED) from None
            if self._current is not None:
                self._current.wrote_orm = self._wrote  # its writes beyond the game row, events and moves
            self._holds_writes = self._holds_writes or self._wrote
            try:
                if not self._group and db.in_transaction():
                    # Nothing queued: end the transaction now (no idle locks on PostgreSQL); this stores the
                    # command's own ORM writes, if any.
                    await db.commit()
                    self._holds_writes = False
                elif len(self._group) >= MAX_GROUP:
                    await self._commit()
            except Exception:
                log.exception("storing a command failed")
                await self._rollback(db)
                raise NotStored(NOT_STORED) from None

    async def _undo_command(self, db: AsyncSession, savepoint: AsyncSessionTransaction | None) -> None:
        """Undo the current command alone: back to its savepoint, or (when the transaction held no other
        command's writes) roll the transaction back. Other commands' queued writes stay queued."""
        member = self._current
        if member is not None and member in self._group:
            self._group.remove(member)
            _fail(member, NotStored(NOT_STORED))
        self._current = None
        if savepoint is not None:
            try:
                await savepoint.rollback()  # also after a failed flush, which leaves it inactive
                return
            except Exception:
                log.exception("rolling back to a command's savepoint failed")
        if self._holds_writes:
            # No savepoint to go back to (it failed, or could not be begun): the transaction itself is broken,
            # and the queued commands' ORM writes in it cannot be kept.
            await self._fail_all(NotStored(NOT_STORED))
            return
        if self._wrote or db.new or db.dirty or db.deleted or not db.is_active:
            await self._rollback(db)

    async def _rollback(self, db: AsyncSession) -> None:
        """Roll the open transaction back. It held no queued command's ORM writes (see `turn`), so the
        group's queued writes are kept; the rows held in the session are read afresh."""
        with contextlib.suppress(Exception):
            await db.rollback()
        self._holds_writes = False
        self._rows.clear()
        db.expunge_all()

    async def game(self, db: AsyncSession, game_id: int) -> Game | None:
        """The game's row: from the shared session when it holds it (no SQL), else read."""
        if game_id in self._refresh:
            self._refresh.discard(game_id)
            game = await db.get(Game, game_id, populate_existing=True)
        else:
            game = await db.get(Game, game_id)
        if game is not None:
            self._rows[game_id] = game
            self._rows.move_to_end(game_id)
            while len(self._rows) > MAX_ROWS:
                self._rows.popitem(last=False)
        return game

    async def fresh_game(self, db: AsyncSession, game_id: int) -> Game | None:
        """The game's row read again (another process may have moved it on)."""
        self.forget(game_id)
        return await self.game(db, game_id)

    def forget(self, game_id: int) -> None:
        """Read this game's row afresh next time (it may have changed elsewhere). Only marks it: a command
        may be holding the row right now, and expiring it under that command would break it."""
        self._rows.pop(game_id, None)
        self._refresh.add(game_id)

    def version_of(self, game_id: int) -> int | None:
        """The version of the row held for this game, if any."""
        row = self._rows.get(game_id)
        version = None if row is None else row.__dict__.get("version")
        return version if isinstance(version, int) else None

    def add(self, writes: repo.CommandWrites) -> asyncio.Future[None]:
        """Queue a command's writes (call inside `turn`); the future resolves once they are committed."""
        member = self._current = Member(writes, wrote_orm=self._wrote)
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
            def _flushed(*_args: Any) -> None:
                self._wrote = True

            @event.listens_for(self._db.sync_session, "do_orm_execute")
            def _executed(state: Any) -> None:
                if state.is_insert or state.is_update or state.is_delete:  # Core DML, e.g. undo's DELETE
                    self._wrote = True

        return self._db

    async def _flush_when_free(self) -> None:
        async with self._lock:
            await self._commit()

    async def _commit(self) -> None:
        group, self._group = self._group, []
        if not group:
            return
        self._holds_writes = False  # the transaction ends here, committed or rolled back
        db = self._session()
        try:
            try:
                stale = await repo.store_commands(db, [m.writes for m in group])
            except repo.RowsMovedOn:
                if any(m.wrote_orm for m in group):
                    raise Stale("another command changed a game first; try again") from None
                await db.rollback()
                await self._reload(db, group)
                stale = await repo.store_commands(db, [m.writes for m in group], one_by_one=True)
            if any(m.wrote_orm and m.writes.game_id in stale for m in group):
                raise Stale("another command changed the game first; try again")
            await db.commit()
        except Stale as err:
            self._group = group
            await self._fail_all(err)
            return
        except Exception:
            log.exception("a group commit failed; storing its commands one by one")
            await self._one_by_one(db, group)
            return
        self._settle(group, stale)

    async def _one_by_one(self, db: AsyncSession, group: list[Member]) -> None:
        """After an unexpected failure: one bad command must not fail the others again and again."""
        with contextlib.suppress(Exception):
            await db.rollback()
        for member in group:
            if member.wrote_orm:  # its ORM writes went with the rolled back transaction
                _fail(member, Stale("the server could not store this command; try again"))
                continue
            try:
                await self._reload(db, [member])
                stale = await repo.store_commands(db, [member.writes], one_by_one=True)
                await db.commit()
            except Exception:
                log.exception("a command could not be stored")
                with contextlib.suppress(Exception):
                    await db.rollback()
                _fail(member, Stale("the server could not store this command; try again"))
                continue
            self._settle([member], stale)
        self._rows.clear()
        db.expunge_all()

    async def _reload(self, db: AsyncSession, group: list[Member]) -> None:
        for m in group:  # a rollback expired the rows their commands still hold: load them again
            row = self._rows.get(m.writes.game_id)
            if row is not None:
                await db.refresh(row)

    def _settle(self, group: list[Member], stale: set[int]) -> None:
        for member in group:
            if member.writes.game_id in stale:
                self.forget(member.writes.game_id)
                _fail(member, Stale("another command changed the game first; try again"))
            elif not member.done.done():
                member.done.set_result(None)

    async def _fail_all(self, error: Exception) -> None:
        group, self._group = self._group, []
        self._rows.clear()
        self._holds_writes = False
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

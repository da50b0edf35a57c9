"""The command stream: every command on a game runs through here, one at a time per game.

A command runs under the game's lock (in this process) and inside one database transaction that moves the
game from its current version to the next with an optimistic check (across processes). Its events are
stored with it, and only once they are committed (with the rest of their group, see `group.py`) are the
caches brought up to date, the events published, and the observers (the computer players) told.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from miai.server.errors import Conflict, NotFound, Stale
from miai.server.game_options import RECORD, TableOptions
from miai.server.identity.bots import is_computer
from miai.server.notify import bell
from miai.server.play.group import GroupWriter
from miai.server.play.kinds import Table, table_of
from miai.server.play.preview import cells_of, preview_of
from miai.server.play.privacy import EVERYONE
from miai.server.realtime.hub import Hub, Message
from miai.server.storage import repo
from miai.server.storage.models import Game, GameMove, GamePlayer

Clock = Callable[[], datetime]
StoredObserver = Callable[[int, int], None]  # (game id, new version), after every stored command


class RecordMoved(RuntimeError):
    """The stored moves no longer match the game row read before them: read the row again."""


def replay(table: Table, records: list[GameMove], game: Game) -> list[Any]:
    """The states after each of the records that belong to the game row (its `plies`), the start first."""
    states = [table.new_state()]
    for record in records:
        if record.ply > game.plies:
            break  # stored after this game row was read (a read racing a move): not part of its version
        states.append(table.replay(states[-1], record.move))
    if states[-1].plies != game.plies:
        raise RecordMoved(f"game {game.id}: the record replays to {states[-1].plies} plies, not {game.plies}")
    return states


def system_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Live:
    """The rules state of a game at a version, cached in memory and rebuilt from the stored moves."""

    version: int
    state: Any  # the core state of the game's kind (a GoState for Go)
    seats: dict[tuple[int, int], int]  # (team from 1, seat) -> user id
    table: Table  # the game's kind and options
    bots: dict[int, int | str] = field(default_factory=dict)  # computer players: user id -> level
    # A practice game taken back to its start with the computer on move: the computer waits until the player
    # acts (Redo replays its move); stored as `held` in `games.to_move`, cleared by the next move.
    held: bool = False

    def on_move(self) -> int | None:
        """The user on move, None when nobody is (the game is over, or a seat is empty)."""
        user_id: int | None = self.to_move().get("user_id")
        return user_id

    def to_move(self) -> dict[str, Any]:
        """The seat on move as stored in `games.to_move` and sent to clients; {} when nobody is."""
        turn = self.table.turn(self.state)
        if turn is None:
            return {}
        team, seat = turn
        on_move: dict[str, Any] = {"team": team, "seat": seat, "user_id": self.seats.get((team, seat))}
        if self.held:
            on_move["held"] = True
        return on_move

    def between_people(self) -> bool:
        """Whether game mails go out: not against the computer (a practice game, or every other seat a
        computer's), where the player is at the board and the computer answers at once."""
        people = {user_id for user_id in self.seats.values() if user_id not in self.bots}
        return len(people) > 1 and not self.table.options.practice


@dataclass
class Tx:
    """One command: what it read, and what it will write once it is done."""

    db: AsyncSession
    game: Game
    version: int
    events: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)  # (type, data, audience)
    notices: list[Message] = field(default_factory=list)  # lobby / dashboard pings, no version
    changes: dict[str, Any] = field(default_factory=dict)
    new_live: Live | None = None  # the rules state after this command; cached only once it is stored
    moves: list[dict[str, Any]] = field(default_factory=list)  # game_moves rows to store
    notifications: list[dict[str, Any]] = field(default_factory=list)  # in-page ones (notify/bell.py)

    def event(self, t: str, d: dict[str, Any], audience: str = EVERYONE) -> None:
        self.events.append((t, d, audience))

    @property
    def next_version(self) -> int:
        """The game's version once the events so far are stored."""
        return self.version + len(self.events)

    def ping_players(self, seats: dict[tuple[int, int], int]) -> None:
        """Tell every seated player's dashboard that this game changed."""
        for user_id in set(seats.values()):
            self.ping_user(user_id)

    def ping_user(self, user_id: int) -> None:
        """Tell this user's dashboard that this game changed (for them: they may no longer be in it)."""
        self.notices.append(Message(f"user:{user_id}", "dashboard", {"game_id": self.game.id}))

    def ping_lobby(self) -> None:
        """Tell the lobby and the live lists (home, watch) that a public game came, filled, started or ended;
        a private game is in none of them, and anyone may hear the lobby (the live socket)."""
        if self.game.visibility == "public":
            self.notices.append(lobby_notice(self.game.id))


def _unread_fell(tx: Tx, writes: repo.CommandWrites) -> list[Message]:
    """A `dashboard` nudge to each user whose unread "your turn" of the game the command's notifications
    replaced, unless they hear of it already (a notification of their own, or the command's own nudge):
    their bell re-reads its count (js/bell.js)."""
    told = {row["user_id"] for row in writes.notifications}
    nudged = {m.topic for m in tx.notices if m.t == "dashboard"}
    return [
        Message(f"user:{user_id}", "dashboard", {"game_id": writes.game_id})
        for user_id in sorted(writes.turns_gone - told)
        if f"user:{user_id}" not in nudged
    ]


def lobby_notice(game_id: int) -> Message:
    """Tells lobby pages that this game's seats or status changed."""
    return Message("lobby", "lobby", {"game_id": game_id})


LIVE = "live"  # the topic and type of the public live socket's board updates (docs/realtime.md)


def live_notice(game: Game, cells: str) -> Message:
    """Tells the pages that list games in progress (home, watch) a public game's new board and move count,
    as lichess TV does: `{"t": "live", "d": {"game_id", "moves", "preview"}, "v": null}`."""
    return Message(LIVE, LIVE, {"game_id": game.id, "moves": game.plies, "preview": preview_of(cells)})


def seat_map(players: list[GamePlayer], options: TableOptions, creator: int) -> dict[tuple[int, int], int]:
    """(team, seat) -> user id; in local mode the creator plays every colour at one screen."""
    if options.mode == "local":
        return {(team, 0): creator for team in range(1, options.teams + 1)}
    return {(p.team, p.seat): p.user_id for p in players if p.team is not None and p.seat is not None}


async def bots_of(db: AsyncSession, seats: dict[tuple[int, int], int]) -> dict[int, int | str]:
    """The computer players among the seated users: user id -> level."""
    users = await repo.users_by_ids(db, sorted(set(seats.values())))
    # A level is a number, or the name of an external engine (MIAI_EXTERNAL_ENGINES).
    return {uid: u.settings["bot_level"] for uid, u in users.items() if is_computer(u)}


class CommandStream:
    """Runs each game's commands one at a time, stores them in groups, and keeps each game's rules state."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], hub: Hub, now: Clock = system_now) -> None:
        self.sessions = sessions
        self.hub = hub
        self.now = now
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._cache: dict[int, Live] = {}
        self._group = GroupWriter(sessions)
        self._finishing: set[asyncio.Task[None]] = set()
        self._observers: list[StoredObserver] = []
        hub.observe(self.forget_if_moved_on)

    def on_stored(self, observer: StoredObserver) -> None:
        """Call `observer(game_id, version)` after every stored command of this process."""
        self._observers.append(observer)

    @contextlib.asynccontextmanager
    async def command(self, game_id: int, expected: int | None = None) -> AsyncIterator[Tx]:
        """Lock the game, take the writer's turn, and once the command's writes are committed bring the
        caches up to date and publish its events. `expected` is the version the client saw (stale: 409)."""
        async with self._locks[game_id]:
            async with self._group.turn() as db:
                game = await self._group.game(db, game_id)
                if game is not None and expected is not None and expected > game.version:
                    game = await self._group.fresh_game(db, game_id)  # the client saw a newer version
                if game is None:
                    raise NotFound(f"there is no game {game_id}")
                if game.options.get("mode") == RECORD:  # every command: moves, seats, chat, reviews...
                    raise Conflict("this game is an uploaded record: it is read-only")
                if expected is not None and expected != game.version:
                    raise Stale(
                        f"the game has moved on (version {game.version}, you sent {expected})",
                        version=game.version,
                    )
                tx = Tx(db, game, game.version)
                try:
                    yield tx
                except BaseException:
                    # Refused, perhaps against a row another process has moved on, or undone (see
                    # GroupWriter.turn): read the row again next time.
                    self._group.forget(game_id)
                    raise
                writes = self._writes(tx)
                stored = self._group.add(writes) if writes else None
            if stored is not None and writes is not None:
                try:
                    await asyncio.shield(stored)
                except asyncio.CancelledError:
                    # The caller went away (its websocket closed) while the group was being stored; the
                    # command may well be stored: finish its bookkeeping and publish its events anyway.
                    self._finish_later(stored, tx, writes)
                    raise
                await self._stored(tx, writes)
            for message in tx.notices:
                await self.hub.publish(message)

    def _finish_later(self, stored: asyncio.Future[None], tx: Tx, writes: repo.CommandWrites) -> None:
        async def finish() -> None:
            with contextlib.suppress(Exception):
                await stored
                await self._stored(tx, writes)

        task = asyncio.ensure_future(finish())
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    def forget_if_moved_on(self, message: Message) -> None:
        """Every game event, from any process (through Redis): a newer version than the row held here means
        another process moved the game on, so read its row again."""
        if message.v is None or not message.topic.startswith("game:"):
            return
        game_id = int(message.topic.removeprefix("game:"))
        known = self._group.version_of(game_id)
        if known is not None and known < message.v:
            self._group.forget(game_id)

    def _writes(self, tx: Tx) -> repo.CommandWrites | None:
        if not (tx.events or tx.changes):
            return None
        game_id, now = tx.game.id, self.now()
        events = [
            {"game_id": game_id, "v": tx.version + i, "type": t, "data": d, "audience": a, "created_at": now}
            for i, (t, d, a) in enumerate(tx.events, start=1)
        ]
        version = tx.version + max(1, len(tx.events))
        changes = {**tx.changes, "version": version}
        if tx.new_live is not None:  # the position changed: the live list's thumbnail with it
            changes["preview"] = cells_of(tx.new_live.table, tx.new_live.state)
        return repo.CommandWrites(game_id, tx.version, changes, events, tx.moves, tx.notifications)

    async def _stored(self, tx: Tx, writes: repo.CommandWrites) -> None:
        """After the COMMIT: bring the cached game row and rules state up to date, then publish."""
        game_id = writes.game_id
        for key, value in writes.changes.items():
            set_committed_value(tx.game, key, value)
        new_version = writes.changes["version"]
        if tx.new_live is not None:
            tx.new_live.version = new_version
            self._cache[game_id] = tx.new_live
        else:
            live = self._cache.get(game_id)
            if live is not None and live.version == tx.version:
                live.version = new_version
        for observer in self._observers:
            observer(game_id, new_version)
        for row in writes.events:
            await self.hub.publish(
                Message(f"game:{game_id}", row["type"], row["data"], row["v"], row["audience"])
            )
        cells = writes.changes.get("preview")
        if cells is not None and tx.game.visibility == "public" and tx.game.status == "active":
            await self.hub.publish(live_notice(tx.game, cells))
        for told in writes.notifications:
            await self.hub.publish(bell.message(told))
        for message in _unread_fell(tx, writes):
            await self.hub.publish(message)

    # ------------------------------------------------------------------------- the rules state

    # `cached` never reads the database; `live` is for commands (at the command's version); `current` and
    # `current_state` are for readers (at the version of the game row they read).

    def cached(self, game_id: int) -> Live | None:
        """The rules state held in this process, at whatever version it was last stored or read."""
        return self._cache.get(game_id)

    async def live(self, tx: Tx) -> Live:
        """The rules state at the command's version."""
        cached = self._cache.get(tx.game.id)
        if cached is not None and cached.version == tx.version:
            return cached
        live = await self._rebuild(tx.db, tx.game)
        self._cache[tx.game.id] = live
        return live

    async def current(self, db: AsyncSession, game: Game) -> Live:
        """The rules state of a game as stored at `game.version` (from the cache when it is current)."""
        for attempt in range(3):
            cached = self._cache.get(game.id)
            if cached is not None and cached.version == game.version:
                return cached
            try:
                live = await self._rebuild(db, game)
            except RecordMoved:
                if attempt == 2:
                    raise
                await db.refresh(game)  # a command (an undo, say) changed the record after the row was read
                continue
            self._cache[game.id] = live
            return live
        raise AssertionError("unreachable")

    async def current_state(self, db: AsyncSession, game: Game) -> Any:
        """The core state of `current`."""
        return (await self.current(db, game)).state

    async def states(self, db: AsyncSession, game: Game) -> tuple[Table, list[Any]]:
        """Every state of the game's record as stored at `game.version`, the start first, one per stored
        move (game reviews); RecordMoved as for `current`."""
        table = table_of(game.kind, game.options)
        return table, replay(table, await repo.moves_of(db, game.id), game)

    async def _rebuild(self, db: AsyncSession, game: Game) -> Live:
        table, states = await self.states(db, game)
        players = await repo.players_of(db, game.id)
        seats = seat_map(players, table.options, game.created_by)
        held = bool(game.to_move.get("held"))
        return Live(game.version, states[-1], seats, table, await bots_of(db, seats), held)

    async def close(self) -> None:
        """Wait for the last group of commands to be stored (server shutdown)."""
        await self._group.close()

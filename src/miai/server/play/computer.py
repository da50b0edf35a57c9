"""Computer players in server games (the practice controls of games against the computer: `practice.py`).

Computer seats belong to bot accounts (the stored `is_bot` flag; their engine in `settings.bot_level`); after
every stored command, if a computer is on move, a search runs in the engine process pool and its move goes
through the same command stream as a human's. Computer turns carry no deadline, so a computer seat never
times out; on start-up every game whose computer is on move is resumed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.errors import CommandError, Conflict, Forbidden
from miai.server.play.kinds import table_of
from miai.server.play.service import GameService
from miai.server.play.stream import Live
from miai.server.storage import repo
from miai.server.storage.models import User

log = logging.getLogger(__name__)
# (state of any kind, level, seed, seconds) -> a move of that kind
Chooser = Callable[[Any, int | str, int, float | None], Awaitable[Any]]
MAX_THINK_SECONDS = 5.0


async def engine_chooser(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
    from miai.engines.pool import choose_move

    return await choose_move(state, level, seed, seconds)


def bot_name(level: int | str, index: int) -> str:
    label = f"{level}" if isinstance(level, int) else "".join(c for c in str(level) if c.isalnum())[:12]
    return f"computer-{label}" if index == 0 else f"computer-{label}-{index + 1}"


async def bot_user(db: AsyncSession, level: int | str, taken: set[int]) -> User:
    """A computer account for `level` that is not yet in the game (several may play in one game).

    Only accounts with the stored `is_bot` flag are ever used: a person holding a computer-like name (from
    before such names were reserved) is skipped, and the computer takes the next free name.
    """
    for index in range(16):
        name = bot_name(level, index)
        user = await repo.user_by_name(db, name)
        if user is None:
            user = User(
                username=name,
                password_hash="!",  # no password verifies against this; bots never log in anyway
                is_bot=True,
                settings={"bot_level": level},
                created_at=datetime.now(UTC),
            )
            db.add(user)
            await db.flush()
        elif not user.is_bot or user.settings.get("bot_level") != level:
            continue  # a person's account, or another engine whose name shortens to the same label
        if user.id not in taken:
            return user
    raise Conflict("too many computer players of one level in this game")


class Computers:
    """Runs the computer players of every game in this process."""

    def __init__(self, games: GameService, chooser: Chooser = engine_chooser) -> None:
        self.stream = games.stream
        self.lobby = games.lobby
        self.moves = games.moves
        self.chooser = chooser
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.stream.on_stored(self.on_stored)

    def on_stored(self, game_id: int, version: int) -> None:
        """After every stored command: if a computer is on move, let it think and play."""
        live = self.stream.cached(game_id)
        if live is None or live.version != version or live.state.is_over:
            return
        user_id = live.on_move()
        running = self._tasks.get(game_id)
        # A computer's own move comes back here from its task: the next computer may follow at once.
        if (
            user_id is None
            or user_id not in live.bots
            or (running is not None and running is not asyncio.current_task())
        ):
            return
        task = asyncio.get_running_loop().create_task(self._play(game_id, version, user_id, live))
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    async def _play(self, game_id: int, version: int, user_id: int, live: Live) -> None:
        level = live.bots[user_id]
        try:
            move = await self.chooser(live.state, level, version, MAX_THINK_SECONDS)
            async with self.stream.sessions() as db:
                user = await repo.user_by_id(db, user_id)
            if user is None:
                return
            await self.moves.move(user, game_id, live.table.format(live.state, move), expected=version)
        except CommandError as err:
            log.info("computer move in game %s not stored: %s", game_id, err.message)
        except Exception:
            log.exception("computer player failed in game %s", game_id)

    async def resume(self) -> int:
        """After a start: let computers move in every active game where one is on move."""
        resumed = 0
        async with self.stream.sessions() as db:
            for game in await repo.active_games(db):
                live = await self.stream.current(db, game)
                if game.to_move.get("user_id") in live.bots:
                    self.on_stored(game.id, game.version)
                    resumed += 1
        return resumed

    async def idle(self) -> None:
        """Wait until no computer is thinking (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    # ------------------------------------------------------------------------- seats

    async def add_computer(self, user: User, game_id: int, team: int | None, level: int | str) -> None:
        """The creator puts a computer player in a waiting game; computers confirm at once."""
        async with self.stream.command(game_id) as tx:
            if tx.game.created_by != user.id:
                raise Forbidden("only the game's creator can add computer players")
            if tx.game.status != "waiting":
                raise Conflict("the game is not waiting for players")
            level = table_of(tx.game.kind, tx.game.options).level(level)
            players = await repo.players_of(tx.db, game_id)
            if all(p.user_id != user.id for p in players):
                raise Conflict("join your game before adding computers: computers do not play alone")
            bot = await bot_user(tx.db, level, {p.user_id for p in players})
            tx.event("computer_added", {"user": bot.username, "level": level, "team": team})
            await self.lobby.seat(tx, bot, team, tx.game.invite_code)  # refused: the event is not stored

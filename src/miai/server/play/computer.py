"""Computer players in server games (the practice controls of games against the computer: `practice.py`).

Computer seats belong to bot accounts (the stored `is_bot` flag; their engine in `settings.bot_level`); after
every stored command, if a computer is on move, a move job goes to the engine jobs (`server/engine_jobs`: in
this process by default, or to `miai worker` processes through Redis), whose move goes through the same
command stream as a human's. Computer turns carry no deadline, so a computer seat never times out; on
start-up every game whose computer is on move is resumed. When a game with computers ends, its players are
released (external engines closed).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.errors import Conflict, Forbidden
from miai.server.play.computer_jobs import ComputerJobs
from miai.server.play.kinds import table_of
from miai.server.play.service import GameService
from miai.server.storage import repo
from miai.server.storage.models import User

log = logging.getLogger(__name__)


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
            user = await _create_bot(db, name, level)
        if user is None:
            continue  # the name exists only in another letter case
        if not user.is_bot or user.settings.get("bot_level") != level:
            continue  # a person's account, or another engine whose name shortens to the same label
        if user.id not in taken:
            return user
    raise Conflict("too many computer players of one level in this game")


async def _create_bot(db: AsyncSession, name: str, level: int | str) -> User | None:
    """The bot account `name`, created now, or the one another process created at the same moment (two web
    processes or workers seating the first computer of a level at once: the loser of the unique name would
    otherwise fail its whole command)."""
    user = User(
        username=name,
        password_hash="!",  # no password verifies against this; bots never log in anyway
        is_bot=True,
        settings={"bot_level": level},
        created_at=datetime.now(UTC),
    )
    try:
        async with db.begin_nested():
            db.add(user)
    except IntegrityError:
        return await repo.user_by_name(db, name)
    return user


class Computers:
    """Hands the computer players' turns of this process's stored commands to the engine jobs."""

    def __init__(self, games: GameService, jobs: ComputerJobs) -> None:
        self.stream = games.stream
        self.lobby = games.lobby
        self.moves = games.moves
        self.jobs = jobs
        self.stream.on_stored(self.on_stored)

    def on_stored(self, game_id: int, version: int) -> None:
        """After every stored command: if a computer is on move, let it think and play; if the game is over,
        release its computers."""
        live = self.stream.cached(game_id)
        if live is None or live.version != version or not live.bots or live.held:
            return
        if live.state.is_over:
            self.jobs.game_over(game_id)
            return
        user_id = live.on_move()
        if user_id is not None and user_id in live.bots:
            self.jobs.play(game_id, version, user_id, live.bots[user_id])

    async def resume(self) -> int:
        """After a start: let computers move in every active game where one is on move."""
        resumed = 0
        async with self.stream.sessions() as db:
            for game in await repo.active_games(db):
                live = await self.stream.current(db, game)
                if game.to_move.get("user_id") in live.bots and not live.held:
                    self.on_stored(game.id, game.version)
                    resumed += 1
        return resumed

    async def idle(self) -> None:
        """Wait until no computer move of this process is in progress (tests)."""
        await self.jobs.idle()

    # ------------------------------------------------------------------------- seats

    async def add_computer(self, user: User, game_id: int, team: int | None, level: int | str) -> None:
        """The creator puts a computer player in a waiting game; computers confirm at once."""
        async with self.stream.command(game_id) as tx:
            if tx.game.created_by != user.id:
                raise Forbidden("only the game's creator can add computer players")
            if tx.game.status != "waiting":
                raise Conflict("the game is not waiting for players")
            if table_of(tx.game.kind, tx.game.options).options.rated:
                raise Conflict("a rated game is between people: computer players never play rated games")
            level = table_of(tx.game.kind, tx.game.options).level(level)
            players = await repo.players_of(tx.db, game_id)
            if all(p.user_id != user.id for p in players):
                raise Conflict("join your game before adding computers: computers do not play alone")
            bot = await bot_user(tx.db, level, {p.user_id for p in players})
            tx.event("computer_added", {"user": bot.username, "level": level, "team": team})
            await self.lobby.seat(tx, bot, team, tx.game.invite_code)  # refused: the event is not stored

"""Computer players in server games, and the practice controls of games against the computer.

Computer seats belong to bot accounts (the stored `is_bot` flag; their engine in `settings.bot_level`); after
every stored command, if a computer is on move, a search runs in the engine process pool and its move goes
through the same command stream as a human's. Computer turns carry no deadline, so a computer seat never
times out; on start-up every game whose computer is on move is resumed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.core.errors import IllegalMove
from miai.server.play.errors import BadInput, CommandError, Conflict, Forbidden
from miai.server.play.kinds import Table, table_for
from miai.server.play.options import GoOptions, KindOptions
from miai.server.play.service import GameService, Live
from miai.server.play.views import AUTO_PASS
from miai.server.storage import repo
from miai.server.storage.models import Game, User

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
        self.games = games
        self.chooser = chooser
        self._tasks: dict[int, asyncio.Task[None]] = {}
        games.after_commit = self.after_commit  # type: ignore[method-assign]

    def after_commit(self, game_id: int, version: int) -> None:
        live = self.games._cache.get(game_id)
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
            async with self.games.sessions() as db:
                user = await repo.user_by_id(db, user_id)
            if user is None:
                return
            await self.games.move(user, game_id, live.table.format(live.state, move), expected=version)
        except CommandError as err:
            log.info("computer move in game %s not stored: %s", game_id, err.message)
        except Exception:
            log.exception("computer player failed in game %s", game_id)

    async def resume(self) -> int:
        """After a start: let computers move in every active game where one is on move."""
        resumed = 0
        async with self.games.sessions() as db:
            for game in await repo.active_games(db):
                await self.games.current_state(db, game)
                live = self.games._cache.get(game.id)
                if live is not None and game.to_move.get("user_id") in live.bots:
                    self.after_commit(game.id, game.version)
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

    # ------------------------------------------------------------------------- seats and practice games

    async def add_computer(self, user: User, game_id: int, team: int | None, level: int | str) -> None:
        """The creator puts a computer player in a waiting game; computers confirm at once."""
        async with self.games.command(game_id) as tx:
            if tx.game.created_by != user.id:
                raise Forbidden("only the game's creator can add computer players")
            if tx.game.status != "waiting":
                raise Conflict("the game is not waiting for players")
            level = table_of_game(tx.game).level(level)
            players = await repo.players_of(tx.db, game_id)
            bot = await bot_user(tx.db, level, {p.user_id for p in players})
            invite = tx.game.invite_code
            tx.event("computer_added", {"user": bot.username, "level": level, "team": team})
        await self.games.join(bot, game_id, team, invite)

    async def create_practice(self, user: User, options: GoOptions | KindOptions, colour: str) -> int:
        """A game against the computer (`mode=computer`) or for two people at one screen (`mode=local`).

        `colour` is the player's: `first`, `second`, `random`, or a team name of the kind (Go's `black`).
        """
        options.validate()
        if options.teams != 2 or options.players_per_team != 1:
            raise BadInput("practice games are for two colours with one player each")
        table = table_for(options)
        names = [name.lower() for name in table.team_names()]
        teams = {"first": 1, "second": 2, **{name: t for t, name in enumerate(names, start=1)}}
        if colour != "random" and colour.lower() not in teams:
            raise BadInput(f"colour is {', '.join(teams)} or random")
        team = teams.get(colour.lower()) or random.SystemRandom().choice((1, 2))
        level = table.level(options.level if options.level is not None else 1)
        game_id = await self.games.create(user, options, team=team)
        if options.mode == "computer":
            async with self.games.sessions() as db:
                bot = await bot_user(db, level, {user.id})
                game = await repo.game_for_update(db, game_id)
                invite = game.invite_code if game is not None else None
                await db.commit()
            await self.games.join(bot, game_id, 3 - team, invite)
            await self.games.confirm(user, game_id)
        else:
            async with self.games.command(game_id) as tx:  # one player at one screen fills every seat
                players = await repo.players_of(tx.db, game_id)
                players[0].team, players[0].seat, players[0].confirmed = 1, 0, True
                tx.changes.update(status="confirming")
            async with self.games.command(game_id) as tx:
                await self.games._start(tx, await repo.players_of(tx.db, game_id))
        return game_id

    async def undo(self, user: User, game_id: int, all_the_way: bool = False) -> dict[str, Any]:
        """Take back the player's last move and the computer's replies after it (or everything)."""
        async with self.games.command(game_id) as tx:
            _options, live = await self._practice(tx, user)
            records = await repo.moves_of(tx.db, game_id)
            humans = {team for (team, _), uid in live.seats.items() if uid not in live.bots}
            keep = 0
            if not all_the_way:
                own = [r.ply for r in records if r.team in humans and r.move != AUTO_PASS]
                if not own:
                    raise Conflict("there is nothing to take back")
                keep = own[-1] - 1
            undone = [r.move for r in records if r.ply > keep and r.move != AUTO_PASS]
            if not undone:
                raise Conflict("there is nothing to take back")
            await repo.delete_moves_after(tx.db, game_id, keep)
            state = live.table.new_state()
            for record in records:
                if record.ply <= keep:
                    state = live.table.replay(state, record.move)
            self._reset(tx, live, state, [*undone, *tx.game.redo])
            return {"ok": True, "ply": state.plies, "redo": len(undone) + len(tx.game.redo)}

    async def redo(self, user: User, game_id: int, all_the_way: bool = False) -> dict[str, Any]:
        """Replay the next undone move and the computer's replies (or every undone move)."""
        async with self.games.command(game_id) as tx:
            _options, live = await self._practice(tx, user)
            stack = list(tx.game.redo)
            if not stack:
                raise Conflict("there is nothing to redo")
            humans = {team for (team, _), uid in live.seats.items() if uid not in live.bots}
            state = live.state
            while stack and not state.is_over:
                try:
                    state = state.play(live.table.parse(state, stack.pop(0)))
                except (IllegalMove, ValueError):
                    stack = []
                    break
                turn = live.table.turn(state)
                if not all_the_way and turn is not None and turn[0] in humans:
                    break  # stop where the player is to move again
            tx.changes["redo"] = stack
            await self.games._record(tx, live, state, user_id=user.id)
            return {"ok": True, "ply": state.plies, "redo": len(stack)}

    async def _practice(self, tx: Any, user: User) -> tuple[GoOptions | KindOptions, Live]:
        options = table_of_game(tx.game).options
        if not options.practice:
            raise Conflict("undo and redo are only for games against the computer and local games")
        if tx.game.created_by != user.id:
            raise Forbidden("only the player of this practice game can take moves back")
        if tx.game.status not in {"active", "finished"}:
            raise Conflict("the game has not started")
        live = await self.games.live(tx)
        return options, live

    def _reset(self, tx: Any, live: Live, state: Any, redo: list[str]) -> None:
        table = live.table
        on_move = self.games._on_move(table, state, live.seats)
        tx.changes.update(
            status="active",
            plies=state.plies,
            to_move=on_move,
            result=None,
            finished_at=None,
            redo=redo,
            turn_started_at=self.games.now(),
            deadline_at=None,
        )
        tx.event(
            "reset",
            {
                "position": table.position(state),
                "to_move": on_move,
                "redo": len(redo),
                "moves": [table.format(state, m) for _, m in state.moves()],
            },
        )
        tx.new_live = Live(tx.version, state, live.seats, table, live.bots)


def table_of_game(game: Game) -> Table:
    from miai.server.play.kinds import table_of

    return table_of(game.kind, game.options)


async def area(
    games: GameService, db: AsyncSession, game_id: int, user_id: int | None, invite: str | None
) -> dict[str, Any]:
    """The live territory estimate ("Area"): per point, the team it most likely belongs to, and how sure."""
    from miai.server.play.queries import load_visible_game

    game = await load_visible_game(db, game_id, user_id, invite)
    if not table_of_game(game).scored:
        raise Conflict("the territory estimate is for Go")
    state = await games.current_state(db, game)
    from miai.engines.estimator import area_estimate

    estimate = await asyncio.to_thread(area_estimate, state, 200, state.plies)
    return {"size": state.size, "ownership": list(estimate), "ply": state.plies}

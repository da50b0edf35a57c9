"""Games against the computer and for two people at one screen, and their controls: undo and redo (Dgo's
back, forward, start and end) and the live territory estimate ("Area")."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.core.errors import IllegalMove
from miai.core.go import GoState
from miai.server.errors import BadInput, Conflict, Forbidden
from miai.server.game_options import GoOptions, KindOptions
from miai.server.move_texts import AUTO_PASS
from miai.server.play.computer import bot_user
from miai.server.play.kinds import table_for, table_of
from miai.server.play.queries import load_visible_game
from miai.server.play.service import GameService
from miai.server.play.stream import CommandStream, Live, Tx
from miai.server.storage import repo
from miai.server.storage.models import User


class Practice:
    """Creating practice games, and taking moves back and forth in them."""

    def __init__(self, games: GameService) -> None:
        self.stream = games.stream
        self.lobby = games.lobby
        self.moves = games.moves

    async def create(self, user: User, options: GoOptions | KindOptions, colour: str) -> int:
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
        game_id = await self.lobby.create(user, options, team=team)
        if options.mode == "computer":
            async with self.stream.sessions() as db:
                bot = await bot_user(db, level, {user.id})
                game = await repo.game_row(db, game_id)
                invite = game.invite_code if game is not None else None
                await db.commit()
            await self.lobby.join(bot, game_id, 3 - team, invite)
            await self.lobby.confirm(user, game_id)
        else:
            async with self.stream.command(game_id) as tx:  # one player at one screen fills every seat
                players = await repo.players_of(tx.db, game_id)
                players[0].team, players[0].seat, players[0].confirmed = 1, 0, True
                await self.moves.start(tx, players)
        return game_id

    async def undo(self, user: User, game_id: int, all_the_way: bool = False) -> dict[str, Any]:
        """Take back the player's last move and the computer's replies after it (or everything)."""
        async with self.stream.command(game_id) as tx:
            live = await self._practice(tx, user)
            records = await repo.moves_of(tx.db, game_id)
            humans = _human_teams(live)
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
            self._reset(tx, live, state, [*undone, *tx.game.redo], hold=all_the_way)
            return {"ok": True, "ply": state.plies, "redo": len(undone) + len(tx.game.redo)}

    async def redo(self, user: User, game_id: int, all_the_way: bool = False) -> dict[str, Any]:
        """Replay the next undone move and the computer's replies (or every undone move)."""
        async with self.stream.command(game_id) as tx:
            live = await self._practice(tx, user)
            stack = list(tx.game.redo)
            if not stack:
                raise Conflict("there is nothing to redo")
            humans = _human_teams(live)
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
            if state is live.state:  # cannot happen while moves keep the stack in step; never store nothing
                raise Conflict("the undone moves no longer fit this game")
            tx.changes["redo"] = stack
            await self.moves.record(tx, live, state)
            return {"ok": True, "ply": state.plies, "redo": len(stack)}

    async def _practice(self, tx: Tx, user: User) -> Live:
        """The rules state of the user's own practice game, once it has started."""
        options = table_of(tx.game.kind, tx.game.options).options
        if not options.practice:
            raise Conflict("undo and redo are only for games against the computer and local games")
        if tx.game.created_by != user.id:
            raise Forbidden("only the player of this practice game can take moves back")
        if tx.game.status not in {"active", "finished"}:
            raise Conflict("the game has not started")
        return await self.stream.live(tx)

    def _reset(self, tx: Tx, live: Live, state: Any, redo: list[str], hold: bool = False) -> None:
        """`hold`: back at the start, a computer on move waits for the player (Dgo: going back never makes
        the computer play; Redo replays its move)."""
        table = live.table
        after = Live(tx.version, state, live.seats, table, live.bots)
        after.held = hold and after.on_move() in live.bots
        on_move = after.to_move()
        tx.changes.update(
            status="active",
            plies=state.plies,
            to_move=on_move,
            result=None,
            finished_at=None,
            redo=redo,
            turn_started_at=self.stream.now(),
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
        tx.new_live = after


def _human_teams(live: Live) -> set[int]:
    return {team for (team, _), uid in live.seats.items() if uid not in live.bots}


async def area(
    stream: CommandStream,
    db: AsyncSession,
    game_id: int,
    user_id: int | None,
    invite: str | None,
    estimate: Callable[[GoState], Awaitable[tuple[float, ...]]],
) -> dict[str, Any]:
    """The live territory estimate ("Area"): per point, the team it most likely belongs to, and how sure.
    `estimate` is the engine jobs' (this process's engines, or a worker's)."""
    game = await load_visible_game(db, game_id, user_id, invite)
    if not table_of(game.kind, game.options).scored:
        raise Conflict("the territory estimate is for Go")
    state = await stream.current_state(db, game)
    # The estimate may wait long (a busy engine worker): give the connection back to the pool meanwhile.
    await db.commit()
    ownership = await estimate(state)
    return {"size": state.size, "ownership": list(ownership), "ply": state.plies}

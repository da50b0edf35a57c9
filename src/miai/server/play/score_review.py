"""Wrong scores: players report a finished game's score, an administrator corrects its dead stones."""

from __future__ import annotations

from typing import Any

from miai.core.go import DeadStones, GoState
from miai.core.go.vertex import parse_point
from miai.server.errors import BadInput, Conflict, Forbidden
from miai.server.play.judging import corrected
from miai.server.play.kinds import table_of
from miai.server.play.stream import CommandStream
from miai.server.play.views import final_result
from miai.server.ratings.store import recompute_game
from miai.server.ratings.verdicts import game_rating
from miai.server.storage import repo
from miai.server.storage.models import ScoreFlag, User


class ScoreReview:
    def __init__(self, stream: CommandStream) -> None:
        self.stream = stream

    async def flag(self, user: User, game_id: int, comment: str) -> dict[str, Any]:
        """A player reports that a finished game was scored wrongly."""
        comment = comment.strip()
        if not 1 <= len(comment) <= 2000:
            raise BadInput("say in 1..2000 characters what is wrong with the score")
        async with self.stream.command(game_id) as tx:
            if tx.game.status != "finished":
                raise Conflict("only finished games can be flagged")
            if not table_of(tx.game.kind, tx.game.options).scored:
                raise Conflict("only scored games (Go) can be flagged: this game's result needs no review")
            players = await repo.players_of(tx.db, game_id)
            if all(p.user_id != user.id for p in players):
                raise Forbidden("only the players of a game can flag its score")
            flag = ScoreFlag(game_id=game_id, user_id=user.id, comment=comment, created_at=self.stream.now())
            tx.db.add(flag)
            await tx.db.flush()
            tx.event("flagged", {"flag_id": flag.id, "user": user.username, "comment": comment})
            return {"ok": True, "flag_id": flag.id}

    async def correct_dead_stones(
        self, admin: User, game_id: int, dead_vertices: list[str], note: str
    ) -> dict[str, Any]:
        """An administrator sets the dead stones of a finished game; the result is recomputed and recorded."""
        async with self.stream.command(game_id) as tx:
            game = tx.game
            if (
                game.status != "finished"
                or not game.result
                or game.result.get("reason") not in {"passes", "move_limit"}
            ):
                raise Conflict("only games that ended by passes or the move limit are scored")
            state = await self.stream.current_state(tx.db, game)
            if not isinstance(state, GoState) or state.rules.dead_stones is DeadStones.ALL_ALIVE:
                raise Conflict("under these rules every stone on the board counts as alive")
            dead: set[int] = set()
            for vertex in dead_vertices:
                try:
                    point = parse_point(vertex, state.size)
                except ValueError as err:
                    raise BadInput(str(err)) from None
                if state.colour_at(point) is None:
                    raise BadInput(f"{vertex} holds no stone")
                dead.update(state.chain_points(point))  # a chain lives or dies as a whole
            now = self.stream.now()
            seki = frozenset(parse_point(v, state.size) for v in game.result.get("seki", []))
            verdict = corrected(state, frozenset(dead), seki)
            result = final_result(state, verdict.dead, verdict.neutral, True, verdict.seki)
            assert result is not None
            result.update(corrected_by=admin.username, corrected_at=now.isoformat(), note=note[:2000])
            history = [
                *game.result_history,
                {**game.result, "replaced_at": now.isoformat(), "replaced_by": admin.username},
            ]
            tx.changes.update(result=result, result_history=history)
            await recompute_game(tx.db, game, result, now)  # a rated game's ratings follow its result
            for flag in await repo.open_flags(tx.db, game_id):
                flag.resolved_by, flag.resolved_at = admin.id, now
                flag.resolution = note[:2000] or "dead stones corrected"
            rating = await game_rating(tx.db, game)  # the replayed changes, as the snapshot shows them
            tx.event("result_corrected", {"result": result, "by": admin.username, "rating": rating})
            return {"ok": True, "result": result}

"""One computer move, wherever it runs: check that the computer is still on move at the job's version,
choose its move, and store it through the game's command stream with `expected=version`, exactly like a
person's move (so a late or repeated job is refused by the version check, never played twice)."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from miai.core.go import PASS, GoState
from miai.server.engine_jobs.protocol import Engine
from miai.server.engine_jobs.wire import MoveJob
from miai.server.errors import CommandError
from miai.server.play.service import GameService
from miai.server.play.stream import CommandStream, Live
from miai.server.storage import repo

log = logging.getLogger(__name__)


class Memos(Protocol):
    """Where a game's players' memos are kept between moves (a worker: Redis; in process: nowhere)."""

    async def get(self, game: int, seat: int) -> dict[str, Any] | None: ...

    async def put(self, game: int, seat: int, memo: dict[str, Any] | None) -> None: ...


async def live_at(stream: CommandStream, game_id: int, version: int) -> Live | None:
    """The game's rules state if it is still at `version`; None if it moved on or does not exist."""
    cached = stream.cached(game_id)
    if cached is not None and cached.version == version:
        return cached
    async with stream.sessions() as db:
        game = await repo.game_row(db, game_id)
        if game is None or game.version != version:
            return None
        return await stream.current(db, game)


def nobody_left(live: Live) -> bool:
    """Whether every person of a Go game is out (resigned, timed out) while computers are still in play:
    without this, a game of several computers and one person who resigns at once runs for hours on the
    engine workers with nobody to see it."""
    if not isinstance(live.state, GoState):
        return False  # other kinds are for two: a person's leaving ends the game
    return not any(
        uid not in live.bots and live.state.active[team - 1] for (team, _), uid in live.seats.items()
    )


async def play_move(games: GameService, engine: Engine, job: MoveJob, memos: Memos | None = None) -> str:
    """Play the job's move; returns what became of it: "stored", "moved on" (nothing to do any more) or
    "refused" (the command stream said no: the game moved on while the computer thought). Engine and
    database failures raise (the caller decides whether the job is tried again)."""
    live = await live_at(games.stream, job.game, job.version)
    if live is None or live.state.is_over or live.on_move() != job.seat or job.seat not in live.bots:
        return "moved on"
    level = live.bots[job.seat]  # the stored level, whatever the job says
    if nobody_left(live):  # computers alone: they pass and the game ends, rather than play on for nobody
        move, memo = PASS, None
    else:
        memo = await memos.get(job.game, job.seat) if memos is not None else None
        move, memo = await engine.choose(job.game, job.seat, live.state, level, job.version, memo)
    async with games.stream.sessions() as db:
        user = await repo.user_by_id(db, job.seat)
    if user is None:
        return "moved on"
    try:
        await games.moves.move(user, job.game, live.table.format(live.state, move), expected=job.version)
    except CommandError as err:
        log.info("computer move in game %s not stored: %s", job.game, err.message)
        return "refused"  # and its memo is not kept: it counted a move that was not played
    if memos is not None:  # this seat's next turn comes after another player's move, so after this put
        await memos.put(job.game, job.seat, memo)
    return "stored"

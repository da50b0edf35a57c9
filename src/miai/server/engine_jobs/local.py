"""The embedded default: engine work in this process and its engine pool, nothing to install.

A computer move is a task of this process (one per game at a time); the move of a computer that follows
another computer starts from inside the previous move's task, when its move is stored. Dead-stone verdicts
and territory estimates run in a thread, as before the engine queue existed. Reviews are computed by one
task, a part at a time (`reviewing.Reviewer`), the users whose reviews wait taking turns (`turns.Turns`),
and never while a computer of this process thinks (a review's next position waits for the moves in
progress); those a stopped server left unfinished resume when it starts again (once their heartbeat is
stale, see `reviewing.STALLED`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from miai.core.go import GoState
from miai.server.engine_jobs.playing import play_move
from miai.server.engine_jobs.protocol import Engine
from miai.server.engine_jobs.reviewing import Reviewer, new_lease
from miai.server.engine_jobs.turns import Turns
from miai.server.engine_jobs.wire import MoveJob
from miai.server.play.judging import Verdict
from miai.server.play.service import GameService
from miai.server.storage import reviews

log = logging.getLogger(__name__)


class LocalJobs:
    def __init__(self, games: GameService, engine: Engine, review_playouts: Mapping[str, int]) -> None:
        self.games = games
        self.engine = engine
        self.reviewer = Reviewer(games.stream, engine, review_playouts, yield_to=self.idle)
        self._turns: Turns[tuple[int, str]] = Turns()  # (review, its runner's lease) by user
        self._reviews: set[int] = set()  # waiting in the turns or computing
        self._reviewing: asyncio.Task[None] | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # A turn that came while the game's previous move was still thinking (an undo / redo meanwhile):
        # played once that move ends (refused by then), or the game would wait for its computer forever.
        self._waiting: dict[int, MoveJob] = {}

    def play(self, game: int, version: int, seat: int, level: int | str) -> None:
        job = MoveJob(game, version, seat, level)
        running = self._tasks.get(game)
        # A computer's own stored move comes back here from its task: the next computer may follow at once.
        if running is not None and running is not asyncio.current_task():
            self._waiting[game] = job
            return
        self._waiting.pop(game, None)
        self._start(job)

    def _start(self, job: MoveJob) -> None:
        task = asyncio.get_running_loop().create_task(self._play(job))
        self._tasks[job.game] = task
        task.add_done_callback(lambda done: self._forget(job.game, done))

    def _forget(self, game: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game) is not task:
            return
        del self._tasks[game]
        waiting = self._waiting.pop(game, None)
        if waiting is not None and not task.cancelled():
            self._start(waiting)

    async def _play(self, job: MoveJob) -> None:
        try:
            await play_move(self.games, self.engine, job)
        except Exception:
            log.exception("computer player failed in game %s", job.game)

    async def judge(self, state: GoState) -> Verdict:
        return await self.engine.judge(state)

    async def area(self, state: GoState) -> tuple[float, ...]:
        return await self.engine.area(state)

    def game_over(self, game: int) -> None:
        self.engine.release(game)

    def review(self, review: int, user: int) -> None:
        if review in self._reviews:  # computing or waiting its turn here already
            return
        self._reviews.add(review)
        self._turns.add(user, (review, new_lease()))
        if self._reviewing is None or self._reviewing.done():
            self._reviewing = asyncio.get_running_loop().create_task(self._review_in_turns())

    async def resubmit_review(self, review: int, user: int) -> bool:
        if review in self._reviews:
            return False
        self.review(review, user)
        return True

    async def _review_in_turns(self) -> None:
        """Until no review waits: the next user's next part (it ends when the turns are empty, without an
        await in between, so a review added meanwhile finds it running or done)."""
        while (turn := self._turns.take()) is not None:
            user, (review, lease) = turn
            try:
                outcome = await self.reviewer.run(review, lease)
            except Exception:  # a database failure: the sweep submits it again once its heartbeat is stale
                log.exception("review %s failed", review)
                outcome = "failed"
            if outcome == "continued":
                self._turns.again(user, (review, lease))
            else:
                self._reviews.discard(review)

    async def reviews_idle(self) -> None:
        """Wait until no review of this process is computing or waiting (tests)."""
        while self._reviewing is not None and not self._reviewing.done():
            await asyncio.gather(self._reviewing, return_exceptions=True)

    async def start(self) -> None:
        try:
            async with self.games.stream.sessions() as db:
                left = await reviews.unfinished(db)
        except Exception:  # the server starts anyway; the reviews wait for the next start
            log.exception("could not look for unfinished reviews")
            return
        for review, user in left:
            self.review(review, user)

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        self._waiting.clear()
        running = [*self._tasks.values(), *([self._reviewing] if self._reviewing else [])]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await self.engine.close()

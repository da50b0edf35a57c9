"""What the server asks of engine work, wherever it runs: `EngineJobs` (the server's side) and `Engine`
(what actually computes, in the process that runs the jobs). The computer players' part of `EngineJobs` is
`play.computer_jobs.ComputerJobs`: the game commands below this package name what they need, and this
package implements it."""

from __future__ import annotations

from typing import Any, Protocol

from miai.core.go import GoState
from miai.engines.review import PositionReview
from miai.server.play.computer_jobs import ComputerJobs
from miai.server.play.judging import Verdict

MAX_THINK_SECONDS = 5.0  # a computer's time per move in server games (settings.computer_seconds)


class EngineJobs(ComputerJobs, Protocol):
    """Engine work for the server: in this process (`local.py`) or for workers (`redis_queue.py`). Computer
    moves (`play`, `game_over`, `idle`) as `ComputerJobs` says, and:"""

    async def judge(self, state: GoState) -> Verdict:
        """The dead stones of a finished game's position."""

    async def area(self, state: GoState) -> tuple[float, ...]:
        """The territory estimate of a position (see `miai.engines.estimator.area`)."""

    def review(self, review: int, user: int) -> None:
        """Compute the stored review `review` in `user`'s turns (its `requested_by`, 0 for none; `turns.py`)
        (fire and forget; progress and result go to its row and the game's realtime topic, see
        `reviewing.Reviewer`)."""

    async def resubmit_review(self, review: int, user: int) -> bool:
        """The unfinished review `review` has stalled (the sweep): submit it again unless it is already
        queued or computing here, or was resubmitted less than `reviewing.STALLED` ago; True when it was."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Engine(Protocol):
    """The engines of one process: computer players kept per game, and the estimator."""

    async def choose(
        self,
        game: int,
        seat: int,
        state: Any,
        level: int | str,
        seed: int,
        memo: dict[str, Any] | None,
    ) -> tuple[Any, dict[str, Any] | None]:
        """(the move of the player on move in `state`, the player's memo to restore it elsewhere)."""

    async def judge(self, state: GoState) -> Verdict: ...

    async def area(self, state: GoState) -> tuple[float, ...]: ...

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        """One position of a game review (`miai.engines.review.review_position`), off the event loop."""

    def release(self, game: int) -> None:
        """Close and forget `game`'s players."""

    async def close(self) -> None: ...

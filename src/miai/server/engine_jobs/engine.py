"""The engines of a process that runs jobs: the engine pool's players (`PoolEngine`), or a stand-in move
chooser (`ChooserEngine`, tests and `create_app(chooser=...)`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from miai.core.go import GoState
from miai.engines.review import PositionReview, review_position
from miai.server.engine_jobs.protocol import MAX_THINK_SECONDS
from miai.server.play.judging import Verdict, judge_now

log = logging.getLogger(__name__)
AREA_PLAYOUTS = 200
# (state of any kind, level, seed, seconds) -> a move of that kind
Chooser = Callable[[Any, int | str, int, float | None], Awaitable[Any]]


def area_now(state: GoState) -> tuple[float, ...]:
    from miai.engines.estimator import area_estimate  # numba: imported when first needed

    return tuple(area_estimate(state, AREA_PLAYOUTS, state.plies))


def judge_record(record: dict[str, Any]) -> Verdict:
    """`judge_now` in an engine process: a position travels as its compact record (a state's chain of
    parents is too deep to pickle)."""
    from miai.engines.record import decode_state

    return judge_now(decode_state(record))


def area_record(record: dict[str, Any]) -> tuple[float, ...]:
    from miai.engines.record import decode_state

    return area_now(decode_state(record))


def review_record(travelling: Any, playouts: int, seed: int) -> PositionReview:
    """`review_position` in an engine process: a Go position travels as its compact record."""
    from miai.engines.record import decode_state

    state = decode_state(travelling) if isinstance(travelling, dict) else travelling
    return review_position(state, playouts, seed)


class ChooserEngine:
    """Moves from a chooser, without per-game players; the estimator in a thread of this process."""

    def __init__(self, chooser: Chooser, seconds: float = MAX_THINK_SECONDS) -> None:
        self.chooser = chooser
        self.seconds = seconds

    async def choose(
        self, game: int, seat: int, state: Any, level: int | str, seed: int, memo: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any] | None]:
        return await self.chooser(state, level, seed, self.seconds), None

    async def judge(self, state: GoState) -> Verdict:
        return await asyncio.to_thread(judge_now, state)

    async def area(self, state: GoState) -> tuple[float, ...]:
        return await asyncio.to_thread(area_now, state)

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        return await asyncio.to_thread(review_position, state, playouts, seed)

    def release(self, game: int) -> None:
        return None

    async def close(self) -> None:
        return None


class PoolEngine:
    """One computer player per game in the engine pool's child processes (tree reuse, resignation and
    dynamic komi kept from move to move; external engines closed on release). A web process's pool is the
    shared one, with the estimator in a thread as before (no child to start for it); a worker's own pool
    also runs the estimator, so that the worker's event loop never holds the CPU."""

    def __init__(
        self, workers: int | None = None, shared: bool = True, seconds: float = MAX_THINK_SECONDS
    ) -> None:
        from miai.engines.pool import EnginePool, default_pool

        self.pool = default_pool() if shared else EnginePool(workers=workers)
        self.shared = shared  # the process-wide pool (a web process) or a worker's own
        self.seconds = seconds  # think per move (settings.computer_seconds)

    async def choose(
        self, game: int, seat: int, state: Any, level: int | str, seed: int, memo: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any] | None]:
        from miai.engines.players import MoveRequest
        from miai.engines.pool import portable
        from miai.engines.record import decode_move, encode_state

        go = isinstance(state, GoState)
        travelling = encode_state(state) if go else portable(state)
        request = MoveRequest(game, seat, travelling, level, seed, self.seconds, memo)
        choice = await self.pool.choose(request)
        return (decode_move(choice.move) if go else choice.move), choice.memo

    async def judge(self, state: GoState) -> Verdict:
        if self.shared:
            return await asyncio.to_thread(judge_now, state)
        from miai.engines.record import encode_state

        verdict: Verdict = await self.pool.run_call(judge_record, encode_state(state))
        return verdict

    async def area(self, state: GoState) -> tuple[float, ...]:
        if self.shared:
            return await asyncio.to_thread(area_now, state)
        from miai.engines.record import encode_state

        ownership: tuple[float, ...] = await self.pool.run_call(area_record, encode_state(state))
        return ownership

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        if self.shared:
            return await asyncio.to_thread(review_position, state, playouts, seed)
        from miai.engines.pool import portable
        from miai.engines.record import encode_state

        travelling = encode_state(state) if isinstance(state, GoState) else portable(state)
        position: PositionReview = await self.pool.run_call(review_record, travelling, playouts, seed)
        return position

    def release(self, game: int) -> None:
        asyncio.ensure_future(self.pool.release(game)).add_done_callback(_log_failure)

    async def close(self) -> None:
        if self.shared:
            from miai.engines.pool import shutdown_default_pool

            shutdown_default_pool(wait=False)
        else:
            await self.pool.aclose()


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("releasing a game's players failed: %r", task.exception())

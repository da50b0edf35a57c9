"""Dead stones at the end of `dead_stones=auto` games: the estimator's verdict, off the event loop."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from miai.core.go import DeadStones, GoState
from miai.core.go.scoring import EndReason

log = logging.getLogger(__name__)


def needs_judgement(state: GoState) -> bool:
    return state.rules.dead_stones is DeadStones.AUTO and state.ended in (
        EndReason.PASSES,
        EndReason.MOVE_LIMIT,
    )


@dataclass(frozen=True)
class Verdict:
    """Dead stones, points that count for nobody (dame, and eyes in seki where the rules say so), stones in
    seki, and whether anything was judged (False: the estimator failed and every stone counts alive)."""

    dead: frozenset[int] = frozenset()
    neutral: frozenset[int] = frozenset()
    seki: frozenset[int] = frozenset()
    judged: bool = True


def judge_now(state: GoState) -> Verdict:
    """The estimator's verdict, computed here (CPU-bound: a thread, an engine process or a worker)."""
    from miai.engines.estimator import judge_end

    judgement = judge_end(state)
    return Verdict(frozenset(judgement.dead), frozenset(judgement.neutral), frozenset(judgement.seki))


def corrected(state: GoState, dead: frozenset[int], seki: frozenset[int]) -> Verdict:
    """An administrator's dead stones, with the stones the estimator had found in seki: they stay in seki
    unless the administrator called any of them dead (then that verdict no longer stands: none are). The
    neutral points follow from both as for the estimator (eyes in seki under territory rules)."""
    from miai.engines.estimator.estimate import judged_ownership

    seki = frozenset() if seki & dead else seki
    _, neutral = judged_ownership(state, dead, seki)
    return Verdict(dead, neutral, seki)


RECENT = 64
Judge = Callable[[GoState], Awaitable[Verdict]]


async def in_a_thread(state: GoState) -> Verdict:
    return await asyncio.to_thread(judge_now, state)


class Judging:
    """The verdicts of one app or worker (each has its own: `GameService.judging`), computed by `backend`
    (its engine jobs; by default a thread of this process).

    Verdicts are remembered for a few recent positions, so the server can judge a game-ending move before
    it takes the database's write turn and find the verdict ready there (other games do not wait for it)."""

    def __init__(self, backend: Judge | None = None) -> None:
        self.backend: Judge = backend or in_a_thread
        self._recent: OrderedDict[tuple[object, ...], asyncio.Task[Verdict]] = OrderedDict()

    def use(self, backend: Judge | None) -> None:
        """Compute verdicts with `backend` from now on (None: in a thread); those remembered are forgotten."""
        self.backend = backend or in_a_thread
        self._recent.clear()

    async def __call__(self, state: GoState) -> Verdict:
        """The verdict on a finished game's position; every stone alive if no estimator is available."""
        if not needs_judgement(state):
            return Verdict()
        key = (state.rules, state.size, state.plies, tuple(state.board()))
        task = self._recent.get(key)
        if task is None:
            task = asyncio.ensure_future(self._verdict(state))
            self._recent[key] = task
            while len(self._recent) > RECENT:
                self._recent.popitem(last=False)
        return await asyncio.shield(task)

    async def _verdict(self, state: GoState) -> Verdict:
        try:
            return await self.backend(state)
        except Exception:  # a broken estimator must not lose the game's end: score with every stone alive
            log.exception("the dead-stone estimator failed; scoring with every stone alive")
            return Verdict(judged=False)

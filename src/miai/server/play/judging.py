"""Dead stones at the end of `dead_stones=auto` games: the estimator's verdict, off the event loop."""

from __future__ import annotations

import asyncio
import logging

from miai.core.go import DeadStones, GoState
from miai.core.go.game import EndReason

log = logging.getLogger(__name__)
PLAYOUTS = 1000  # the estimator's default: about 0.3 s of CPU on 19x19


def needs_judgement(state: GoState) -> bool:
    return state.rules.dead_stones is DeadStones.AUTO and state.ended in (
        EndReason.PASSES,
        EndReason.MOVE_LIMIT,
    )


def _judge(state: GoState) -> tuple[frozenset[int], frozenset[int]]:
    from miai.engines.estimator import estimate

    judgement = estimate(state, playouts=PLAYOUTS, seed=state.plies)
    return frozenset(judgement.dead), frozenset(judgement.neutral)


async def judge(state: GoState) -> tuple[frozenset[int], frozenset[int], bool]:
    """(dead stones, neutral points, judged). Falls back to every stone alive if no estimator is available."""
    if not needs_judgement(state):
        return frozenset(), frozenset(), True
    try:
        dead, neutral = await asyncio.to_thread(_judge, state)
    except Exception:  # a broken estimator must not lose the game's end: score with every stone alive
        log.exception("the dead-stone estimator failed; scoring with every stone alive")
        return frozenset(), frozenset(), False
    return dead, neutral, True

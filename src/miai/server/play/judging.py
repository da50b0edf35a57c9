"""Dead stones at the end of `dead_stones=auto` games: the estimator's verdict, off the event loop."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

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


Verdict = tuple[frozenset[int], frozenset[int], bool]
_recent: OrderedDict[tuple[object, ...], asyncio.Task[Verdict]] = OrderedDict()
RECENT = 64


async def judge(state: GoState) -> Verdict:
    """(dead stones, neutral points, judged). Falls back to every stone alive if no estimator is available.

    Verdicts are remembered for a few recent positions, so the server can judge a game-ending move before
    it takes the database's write turn and find the verdict ready there (other games do not wait for it)."""
    if not needs_judgement(state):
        return frozenset(), frozenset(), True
    key = (state.rules, state.size, state.plies, tuple(state.board()))
    task = _recent.get(key)
    if task is None:
        task = asyncio.ensure_future(_verdict(state))
        _recent[key] = task
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
    return await asyncio.shield(task)


async def _verdict(state: GoState) -> Verdict:
    try:
        dead, neutral = await asyncio.to_thread(_judge, state)
    except Exception:  # a broken estimator must not lose the game's end: score with every stone alive
        log.exception("the dead-stone estimator failed; scoring with every stone alive")
        return frozenset(), frozenset(), False
    return dead, neutral, True

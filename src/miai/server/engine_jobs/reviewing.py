"""One game review, wherever it runs (a web process's `LocalJobs`, or `miai worker`): every position of the
finished game evaluated one by one by the process's engine (off the event loop), the progress stored and
published on the game's realtime topic as it goes, then the swings.

A review is computed in parts of `PART` positions, one engine job each, which hands the next part on (a
worker's consumer is free for computer moves between parts; in the server a part's next position waits
while a computer thinks); parts wait their turn by user (`turns.py`). A runner first claims the review with
a lease token of its own (one per submission, carried by each of its parts), and every save is conditional
on that lease: two runners (two processes, the sweep and an ask) never compute one review at once, and the
one whose lease was taken over stops. A running review's `updated_at` is its heartbeat:
one that has not changed for `STALLED` has no runner left, and may be claimed again. A review resumes from
the positions it has stored.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from typing import Any

from miai.engines.review import PositionReview, swings
from miai.server.engine_jobs.protocol import Engine
from miai.server.play.stream import CommandStream
from miai.server.realtime.hub import Message
from miai.server.settings import Settings
from miai.server.storage import repo
from miai.server.storage import reviews as stored

log = logging.getLogger(__name__)
MAX_POSITIONS = 1000  # positions a review covers at most (the start and 999 moves)
PART = 8  # positions per engine job; progress is stored (and published) after each part
# A running review whose heartbeat (its row's `updated_at`) has not changed for this long has no runner left
# (the process computing it stopped), and a pending one this old lost its job (Redis was down when it was
# submitted): the sweep submits it again, and so does asking for it. A part takes far less than this.
STALLED = timedelta(minutes=5)


def new_lease() -> str:
    """A runner's token (the `lease` of the review it claims)."""
    return secrets.token_hex(16)


def review_playouts(settings: Settings) -> dict[str, int]:
    """Engine playouts per position at each depth."""
    return {"quick": settings.review_quick_playouts, "deep": settings.review_deep_playouts}


def review_message(game_id: int, depth: str, status: str, done: int, total: int) -> Message:
    """The `review` message of the game's topic: unversioned, like `watchers` (docs/realtime.md)."""
    data = {"depth": depth, "status": status, "done": done, "total": total}
    return Message(f"game:{game_id}", "review", data, None)


class Reviewer:
    def __init__(
        self,
        stream: CommandStream,
        engine: Engine,
        playouts: Mapping[str, int],
        yield_to: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.stream = stream
        self.engine = engine
        self.playouts = dict(playouts)
        self.yield_to = yield_to  # awaited before each position: what must not wait for a review
        self._one_at_a_time = asyncio.Lock()

    @property
    def busy(self) -> bool:
        """A part is being computed: another part taken now would only wait for it."""
        return self._one_at_a_time.locked()

    async def run(self, review_id: int, lease: str) -> str:
        """Compute the review's next part as the runner `lease`: "done", "failed", "continued" (the caller
        runs the next part with the same lease), or "moved on" (finished, gone, or another runner's)."""
        async with self._one_at_a_time:
            return await self._run(review_id, lease)

    async def _run(self, review_id: int, lease: str) -> str:
        async with self.stream.sessions() as db:
            review = await stored.review_by_id(db, review_id)
            if review is None or review.status not in stored.UNFINISHED:
                return "moved on"
            game = await repo.game_row(db, review.game_id)
            if game is None or game.status != "finished":
                return "moved on"
            now = self.stream.now()
            if not await stored.claim(db, review_id, lease, now, now - STALLED):
                return "moved on"
            await db.commit()
            table, states = await self.stream.states(db, game)
            game_id, depth = game.id, review.depth
            positions = [PositionReview.from_wire(p) for p in review.result.get("positions", [])]
        total = len(states)
        positions = positions[:total]
        await self.stream.hub.publish(review_message(game_id, depth, "running", len(positions), total))
        playouts = self.playouts.get(depth, self.playouts["quick"])
        for index in range(len(positions), min(total, len(positions) + PART)):
            if self.yield_to is not None:
                await self.yield_to()
            try:  # only the engine's failure fails the review; a failed save is handed back to be retried
                position = await self.engine.review(states[index], playouts, index)
            except Exception:
                log.exception("review %s of game %s failed", review_id, game_id)
                await self._save(review_id, lease, game_id, depth, "failed", positions, total)
                return "failed"
            positions.append(position)
        if len(positions) < total:
            saved = await self._save(review_id, lease, game_id, depth, "running", positions, total)
            return "continued" if saved else "moved on"
        # Leaving, automatic passes and agreed draws are no moves of play: the steps say which are (as the
        # move list's), and an automatic pass replays to the state before it (no step).
        steps = [table.steps(before, after) for before, after in itertools.pairwise(states)]
        movers = [made[0].team - 1 if made and made[0].clocked else -1 for made in steps]
        found = [s.wire() for s in swings(positions, movers)]
        saved = await self._save(review_id, lease, game_id, depth, "done", positions, total, found)
        return "done" if saved else "moved on"

    async def _save(
        self,
        review_id: int,
        lease: str,
        game_id: int,
        depth: str,
        status: str,
        positions: list[PositionReview],
        total: int,
        found: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Store the runner's progress; False (nothing stored or published) when its lease was taken over."""
        result: dict[str, Any] = {"positions": [p.wire() for p in positions]}
        if found is not None:
            result["swings"] = found
        async with self.stream.sessions() as db:
            now = self.stream.now()
            if not await stored.save(db, review_id, lease, status, len(positions), result, now):
                log.info("review %s was taken over by another runner: this one stops", review_id)
                return False
            await db.commit()
        await self.stream.hub.publish(review_message(game_id, depth, status, len(positions), total))
        return True

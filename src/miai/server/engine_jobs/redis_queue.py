"""Engine jobs on a Redis stream, the submitting side (web processes, and workers chaining the next
computer): no search ever runs here.

- a move job is added once per (game, version): a `SET NX` marker and the `XADD` in one script, so a
  re-submission (the sweep, another process, a retry) while the job lives adds nothing;
- judgement and area jobs carry the position and a reply key, on a stream of their own that workers read
  before the move jobs (they would otherwise wait behind every queued move); the answer is awaited on that
  list for `reply_timeout` seconds, then the decided fallback applies (judgement: every stone alive, marked
  as not judged, which players may report for review; area: `EngineUnavailable`, HTTP 503);
- `game_over` drops the game's memos and tells every worker (a channel) to release its players;
- a review job waits in its user's queue, one part of the review each, the users taking turns (`turns.py`);
  a worker with no computer move to make moves the next one onto the review stream and takes it, and a
  part queues the next at the front of its user's queue. Every part of one submission carries the runner
  token (lease) it was submitted with, so a worker that takes a dead worker's part over, the first too,
  carries on as the review's runner. One the sweep finds stalled is added again at most once per stall
  limit (a marker like a move's).

Redis may be down: nothing here raises into a command. A lost submission is logged (once per outage) and
made again by the sweep (`sweep.py`) once Redis is back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from miai.core.go import GoState
from miai.server.engine_jobs import turns
from miai.server.engine_jobs.reviewing import STALLED, new_lease
from miai.server.engine_jobs.wire import BadJob, Keys, MoveJob, ReviewJob, StateJob, finite_list
from miai.server.errors import CommandError
from miai.server.play.judging import Verdict

log = logging.getLogger(__name__)
DEDUPE_SECONDS = 600  # a move job's marker: after that the sweep may submit the same move again
MAX_STREAM = 100_000  # entries kept at most (workers delete what they acknowledge)
MAX_POINTS = 64 * 64
# SET NX the marker, and only then add the job: both or neither.
ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(ARGV, 3))
end
return false
"""


class EngineUnavailable(CommandError):
    """No engine worker answered in time (or the queue is unreachable)."""

    status = 503
    code = "engine_unavailable"


def connect(url: str, timeout: float) -> Redis:
    """A client whose commands fail after `timeout` seconds (blocking reads wait longer by themselves)."""
    return Redis.from_url(
        url,
        socket_connect_timeout=2,
        socket_timeout=timeout,
        socket_keepalive=True,
        retry=Retry(NoBackoff(), 1),
    )


class RedisJobs:
    def __init__(self, url: str, prefix: str, reply_timeout: float = 30.0) -> None:
        self.keys = Keys(prefix)
        self.reply_timeout = reply_timeout
        self.redis = connect(url, reply_timeout + 5)
        self._enqueue = self.redis.register_script(ENQUEUE)
        self._review_add = self.redis.register_script(turns.ADD)
        self._review_again = self.redis.register_script(turns.AGAIN)
        self._review_add_once = self.redis.register_script(turns.ADD_ONCE)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._outage_logged = False

    # ------------------------------------------------------------------------- moves

    def play(self, game: int, version: int, seat: int, level: int | str) -> None:
        self._later(self.submit(MoveJob(game, version, seat, level)))

    async def submit(self, job: MoveJob) -> bool:
        """Add the move job unless it is already queued; False when it was or when Redis failed."""
        fields = [part for pair in job.fields().items() for part in pair]
        keys = [self.keys.dedupe(job.game, job.version), self.keys.stream]
        try:
            added = await self._enqueue(keys=keys, args=[DEDUPE_SECONDS, MAX_STREAM, *fields])
        except (RedisError, OSError) as err:
            self._lost(err)
            return False
        self._back()
        return bool(added)

    # ------------------------------------------------------------------------- judgement and area

    async def judge(self, state: GoState) -> Verdict:
        answer = await self._ask("judge", state)
        try:
            if answer is None:
                raise BadJob("no answer")
            dead, neutral, seki = (
                finite_list(answer.get(k), MAX_POINTS) for k in ("dead", "neutral", "seki")
            )
            return Verdict(_points(dead), _points(neutral), _points(seki))
        except (BadJob, AttributeError):
            log.warning("no dead-stone verdict from the engine workers: every stone counts alive")
            return Verdict(judged=False)

    async def area(self, state: GoState) -> tuple[float, ...]:
        answer = await self._ask("area", state)
        try:
            if answer is None:
                raise BadJob("no answer")
            return tuple(finite_list(answer.get("ownership"), MAX_POINTS))
        except (BadJob, AttributeError):
            raise EngineUnavailable("the territory estimate is not available right now; try again") from None

    async def _ask(self, kind: str, state: GoState) -> Any:
        """Queue a job for the position and wait for its answer; None when none came in time."""
        from miai.engines.record import encode_state

        reply = self.keys.reply(secrets.token_hex(16))
        fields: dict[Any, Any] = StateJob(kind, encode_state(state), reply).fields()
        try:
            await self.redis.xadd(self.keys.urgent, fields, maxlen=MAX_STREAM, approximate=True)
            self._back()
            got = await self.redis.blpop([reply], timeout=self.reply_timeout)
        except (RedisError, OSError) as err:
            self._lost(err)
            return None
        if got is None:
            log.warning("no engine worker answered a %s job within %s s", kind, self.reply_timeout)
            return None
        try:
            return json.loads(got[1])
        except ValueError:
            return None

    # ------------------------------------------------------------------------- reviews

    def review(self, review: int, user: int) -> None:
        self._later(self._submit_review(ReviewJob(review, new_lease(), user)))

    async def _submit_review(self, job: ReviewJob) -> None:
        try:
            await self._review_add(keys=self._review_keys(job), args=[_json(job), job.user])
        except (RedisError, OSError) as err:
            self._lost(err)  # the review stays pending: the sweep submits it again once it has stalled
            return
        self._back()

    async def next_part(self, job: ReviewJob) -> None:
        """The next part of a review its runner goes on with (a worker), first at its user's next turn;
        Redis errors raise."""
        await self._review_again(keys=self._review_keys(job), args=[_json(job), job.user])

    async def resubmit_review(self, review: int, user: int) -> bool:
        """Once per stall limit at most, whichever web process's sweep finds it first (a marker)."""
        job = ReviewJob(review, new_lease(), user)
        keys = [*self._review_keys(job), self.keys.review_dedupe(review)]
        try:
            added = await self._review_add_once(
                keys=keys, args=[_json(job), job.user, int(STALLED.total_seconds())]
            )
        except (RedisError, OSError) as err:
            self._lost(err)
            return False
        self._back()
        return bool(added)

    def _review_keys(self, job: ReviewJob) -> list[str]:
        return [self.keys.review_queue(job.user), self.keys.review_turns]

    # ------------------------------------------------------------------------- the end of a game

    def game_over(self, game: int) -> None:
        self._later(self._game_over(game))

    async def _game_over(self, game: int) -> None:
        try:
            await self.redis.delete(self.keys.memo(game))
            await self.redis.publish(self.keys.game_over, str(game))
        except (RedisError, OSError) as err:
            self._lost(err)  # the workers' players expire by themselves (idle)

    # ------------------------------------------------------------------------- upkeep

    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lost(self, err: BaseException) -> None:
        if not self._outage_logged:
            self._outage_logged = True
            log.warning("engine queue unreachable (%s): computer moves wait until it is back", err)

    def _back(self) -> None:
        if self._outage_logged:
            self._outage_logged = False
            log.warning("engine queue reachable again")

    async def start(self) -> None:
        return None

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.idle(), 5)
        except TimeoutError:
            for task in list(self._tasks):
                task.cancel()
        await self.redis.aclose()


def _json(job: ReviewJob) -> str:
    """A review job as its user's queue holds it (`turns.TAKE` writes its fields onto the review stream)."""
    return json.dumps(job.fields(), separators=(",", ":"))


def _points(values: list[float]) -> frozenset[int]:
    if any(v != int(v) or v < 0 for v in values):
        raise BadJob("points are non-negative integers")
    return frozenset(int(v) for v in values)

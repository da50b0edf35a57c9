"""`miai worker`: takes engine jobs from the Redis streams and runs them in its own engine pool.

Each of `concurrency` consumers of the group `workers` reads one job at a time, a judgement or area estimate
(someone waits for it) before any computer move, and a computer move before any review part. A job is
acknowledged (and deleted) only once its result is stored: a computer move through the game's command stream
with `expected=version` (so its event reaches every web process through the Redis hub, and a job whose game
moved on is refused, acknowledged and dropped); a judgement or area estimate on the job's reply list; a game
review in its row, a part of a few positions per job (`reviewing.py`: one at a time per worker, the users
whose reviews wait taking turns (`turns.py`: a consumer with nothing else to do moves the next user's next
part onto the review stream and takes it), each part queuing the next at the front of its user's queue, all
with the runner token they were submitted with, so whichever worker takes a part over carries the review on
from its stored positions). While a job runs, its consumer touches it every third of the visibility
timeout; a job nobody touched for longer (its worker was killed, or lost its network) is taken over by
another worker (XAUTOCLAIM). A job that failed
`MAX_DELIVERIES` times, or that does not parse, is logged, acknowledged and dropped; a dropped move job's
dedupe marker goes with it, so the web's sweep submits the move again. A move that failed because the
database or Redis could not be reached is not the job's fault: it is handed back the same way at once (the
sweep submits it again once the database answers), without counting as a try. SIGTERM: no new job is taken,
the current ones may finish for `GRACE_SECONDS`, the rest go back to the queue (another worker takes them
once they are idle for the visibility timeout); the consumers that hold nothing leave the group.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from miai.server.engine_jobs import turns
from miai.server.engine_jobs.memos import RedisMemos
from miai.server.engine_jobs.playing import play_move
from miai.server.engine_jobs.protocol import Engine
from miai.server.engine_jobs.redis_queue import MAX_STREAM, RedisJobs, connect
from miai.server.engine_jobs.reviewing import Reviewer, review_playouts
from miai.server.engine_jobs.wire import GROUP, BadJob, Job, Keys, MoveJob, ReviewJob, StateJob, read_job
from miai.server.notify.mailer import Mailer
from miai.server.play.computer import Computers
from miai.server.play.service import GameService
from miai.server.realtime.hub import Hub
from miai.server.settings import Settings
from miai.server.storage.db import make_engine, migrate, sessions

log = logging.getLogger(__name__)
BLOCK_MS = 1000  # a consumer's wait for a new job: also how soon it notices a stop
MAX_DELIVERIES = 5
REPLY_SECONDS = 120  # a reply list nobody read goes away
GRACE_SECONDS = 20.0
BACKOFF = (0.5, 10.0)  # a consumer's wait after a Redis or database failure: doubled up to the cap
GIVEN_UP = ("dropped", "returned")  # outcomes after which the sweep may submit the same move again


class Worker:
    def __init__(
        self, settings: Settings, engine: Engine, concurrency: int = 1, name: str | None = None
    ) -> None:
        if not settings.redis_url:
            raise ValueError("miai worker needs MIAI_REDIS_URL")
        self.settings = settings
        self.engine = engine
        self.concurrency = concurrency
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.keys = Keys(settings.redis_prefix)
        self.visibility = settings.engine_job_visibility
        self.redis: Redis = connect(settings.redis_url, self.visibility + 5)
        self.memos = RedisMemos(self.redis, self.keys)
        self._take_turn = self.redis.register_script(turns.TAKE)
        self.stopping = asyncio.Event()
        self.handled: dict[str, int] = {}  # outcome -> count (logs and tests)
        self._grouped = False  # the consumer group exists on every stream (made once, again on NOGROUP)
        # Where each consumer's take-over scan of each stream goes on: XAUTOCLAIM looks at a few pending
        # entries per call, so a dead worker's job behind many running ones is reached only by carrying on.
        self._cursors: dict[tuple[str, str], Any] = {}

    async def run(self) -> None:
        """Run until `stopping` is set; then finish (or give back) the current jobs and close."""
        database = make_engine(self.settings.effective_database_url)
        await migrate(database)
        hub = Hub(self.settings.redis_url, self.settings.redis_prefix)
        await hub.start()
        mailer = Mailer(enabled=bool(self.settings.smtp_host), base_url=self.settings.base_url)
        settings = self.settings
        # A game that a computer's move ends is judged by this worker's own engines.
        self.games = GameService(
            sessions(database),
            hub,
            mailer,
            settings.confirm_window_seconds,
            judge=self.engine.judge,
            bots_rated_vs_people=settings.bots_rated_vs_people,
        )
        # Stored computer moves go through `computers` as a web process's moves do: it submits the next
        # computer's turn of the game, or the end of the game, to the queue.
        self.jobs = RedisJobs(settings.redis_url, settings.redis_prefix, settings.engine_reply_timeout)
        self.computers = Computers(self.games, self.jobs)
        self.reviewer = Reviewer(self.games.stream, self.engine, review_playouts(settings))  # one at a time
        names = [f"{self.name}-{i}" for i in range(self.concurrency)]
        consumers = [asyncio.create_task(self._consume(name)) for name in names]
        listener = asyncio.create_task(self._release_finished_games())
        log.info("engine worker %s: %s consumer(s) on %s", self.name, self.concurrency, self.keys.stream)
        try:
            await self.stopping.wait()
        finally:
            self.stopping.set()
            _, late = await asyncio.wait(consumers, timeout=GRACE_SECONDS)
            for task in [*late, listener]:
                task.cancel()
            await asyncio.gather(*consumers, listener, return_exceptions=True)
            await self._leave(names)
            await self.jobs.stop()
            await self.games.close()
            await hub.stop()
            await self.engine.close()
            await self.redis.aclose()
            await database.dispose()
            log.info("engine worker %s stopped: %s", self.name, self.handled or "no jobs")

    # ------------------------------------------------------------------------- consuming

    async def _consume(self, consumer: str) -> None:
        loop = asyncio.get_running_loop()
        claim_at = 0.0
        failures = 0
        while not self.stopping.is_set():
            try:
                if not self._grouped:
                    await self._groups()
                entries: list[Entry] = []
                if loop.time() >= claim_at:
                    entries = await self._reclaim(consumer)
                    if not entries:
                        claim_at = loop.time() + min(5.0, self.visibility / 2)
                if not entries:
                    entries = await self._read(consumer)
                failures = 0
                for stream, entry_id, fields in entries:
                    await self._handle(consumer, stream, entry_id, fields)
            except Exception as err:  # a consumer must go on whatever happened
                if isinstance(err, ResponseError) and str(err).startswith("NOGROUP"):
                    self._grouped = False  # the streams were deleted: make the group again
                    continue
                if not unreachable(err):
                    log.exception("engine worker consumer %s failed; going on", consumer)
                    await asyncio.sleep(BACKOFF[0])
                    continue
                if failures == 0:
                    log.warning("engine queue or database unreachable (%s): retrying", err)
                failures += 1
                await asyncio.sleep(min(BACKOFF[1], BACKOFF[0] * 2 ** min(failures, 10)))

    async def _groups(self) -> None:
        for stream in self.keys.streams:
            with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists
                await self.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
        self._grouped = True

    async def _read(self, consumer: str) -> list[Entry]:
        """One new job: a waiting judgement or estimate if there is one, else a computer move, else a review
        part (unless this worker computes one already: it would only wait), the next user's in turn; with
        none of these, the first judgement, estimate or move to come within `BLOCK_MS` (both may come at
        once: the urgent one is run first)."""
        for stream in (self.keys.urgent, self.keys.stream):
            got: Any = await self.redis.xreadgroup(GROUP, consumer, {stream: ">"}, count=1)
            if got:
                return _entries(got)
        if not self.reviewer.busy:
            reviews: dict[Any, Any] = {self.keys.reviews: ">"}
            # A part a worker moved there and did not take (it died just then), or the next user's.
            got = await self.redis.xreadgroup(GROUP, consumer, reviews, count=1)
            if not got and await self._take_turn(
                keys=[self.keys.review_turns, self.keys.reviews], args=[self.keys.review_queue(), MAX_STREAM]
            ):
                got = await self.redis.xreadgroup(GROUP, consumer, reviews, count=1)
            if got:
                return _entries(got)
        streams: dict[Any, Any] = {self.keys.urgent: ">", self.keys.stream: ">"}
        got = await self.redis.xreadgroup(GROUP, consumer, streams, count=1, block=BLOCK_MS)
        return sorted(_entries(got), key=lambda entry: self.keys.streams.index(entry[0]))

    async def _reclaim(self, consumer: str) -> list[Entry]:
        """Jobs idle past the visibility timeout (their worker died), or too often tried (dropped); the
        urgent stream's first."""
        for stream in self.keys.streams:
            kept = await self._reclaim_from(stream, consumer)
            if kept:
                return kept
        return []

    async def _reclaim_from(self, stream: str, consumer: str) -> list[Entry]:
        idle = int(self.visibility * 1000)
        start = self._cursors.get((consumer, stream), "0-0")
        answer: Any = await self.redis.xautoclaim(stream, GROUP, consumer, idle, start, count=1)
        self._cursors[(consumer, stream)] = answer[0]  # "0-0" again once the scan went round
        entries = [(entry_id, fields) for entry_id, fields in answer[1] if fields is not None]
        kept: list[Entry] = []
        for entry_id, fields in entries:
            pending: Any = await self.redis.xpending_range(stream, GROUP, entry_id, entry_id, 1)
            tries = pending[0]["times_delivered"] if pending else 1
            if tries > MAX_DELIVERIES:
                log.error("engine job %s failed %s times: dropped (%s)", _text(entry_id), tries - 1, fields)
                await self._done(stream, entry_id, "dropped", _job_in(fields, self.keys))
                continue
            log.warning("engine job %s taken over (attempt %s)", _text(entry_id), tries)
            kept.append((stream, entry_id, fields))
        return kept

    async def _handle(self, consumer: str, stream: str, entry_id: Any, fields: Any) -> None:
        try:
            job = read_job(fields, self.keys)
        except BadJob as err:
            log.warning("engine job %s is not a job (%s): dropped", _text(entry_id), err)
            await self._done(stream, entry_id, "bad")
            return
        if isinstance(job, StateJob) and await self._abandoned(entry_id):
            await self._done(stream, entry_id, "expired", job)  # its asker has stopped waiting
            return
        heartbeat = asyncio.create_task(self._touch(consumer, stream, entry_id))
        try:
            outcome = await self._run(job)
        except BadJob as err:
            log.warning("engine job %s is not a job (%s): dropped", _text(entry_id), err)
            outcome = "bad"
        except Exception as err:
            if unreachable(err):  # not the job's fault: the sweep submits it again once all is back
                log.warning("engine job %s handed back: %s", _text(entry_id), err)
                await self._done(stream, entry_id, "returned", job)
                raise  # the consumer waits before its next job
            log.exception("engine job %s failed; it will be tried again", _text(entry_id))
            return  # not acknowledged: taken over after the visibility timeout
        finally:
            heartbeat.cancel()
        await self._done(stream, entry_id, outcome, job)

    async def _abandoned(self, entry_id: Any) -> bool:
        """A judgement or estimate queued longer ago than a web process waits for its answer: computing it
        would only delay the estimates somebody still waits for (an entry's id is its Redis time in ms)."""
        seconds, micros = await self.redis.time()
        queued_ms = int(_text(entry_id).split("-", 1)[0])
        return seconds * 1000 + micros // 1000 - queued_ms > self.settings.engine_reply_timeout * 1000

    async def _run(self, job: Job) -> str:
        if isinstance(job, MoveJob):
            return await play_move(self.games, self.engine, job, self.memos)
        if isinstance(job, ReviewJob):
            outcome = await self.reviewer.run(job.review, job.lease)
            if outcome == "continued":  # the next part waits for its user's next turn
                await self.jobs.next_part(job)
            return outcome
        return await self._answer(job)

    async def _answer(self, job: StateJob) -> str:
        from miai.engines.record import decode_state

        try:
            state = decode_state(job.state)
        except (ValueError, TypeError, AttributeError, IndexError) as err:
            raise BadJob(f"not a Go position: {err}") from None
        if job.kind == "judge":
            verdict = await self.engine.judge(state)
            answer: dict[str, Any] = {k: sorted(getattr(verdict, k)) for k in ("dead", "neutral", "seki")}
        else:
            answer = {"ownership": list(await self.engine.area(state))}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(job.reply, json.dumps(answer))
            pipe.expire(job.reply, REPLY_SECONDS)
            await pipe.execute()
        return "answered"

    async def _touch(self, consumer: str, stream: str, entry_id: Any) -> None:
        """Keep a running job ours: claiming it again resets its idle time."""
        while True:
            await asyncio.sleep(self.visibility / 3)
            with contextlib.suppress(RedisError, OSError):
                await self.redis.xclaim(stream, GROUP, consumer, 0, [entry_id], justid=True)

    async def _done(self, stream: str, entry_id: Any, outcome: str, job: Job | None = None) -> None:
        """Acknowledge and delete; if Redis fails here the job comes back and is found done (moved on). A move
        given up takes its dedupe marker along, or the sweep could not submit it again for a long while."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.xack(stream, GROUP, entry_id)
            pipe.xdel(stream, entry_id)
            if isinstance(job, MoveJob) and outcome in GIVEN_UP:
                pipe.delete(self.keys.dedupe(job.game, job.version))
            await pipe.execute()
        self.handled[outcome] = self.handled.get(outcome, 0) + 1
        log.info("engine job %s: %s", _text(entry_id), outcome)

    async def _leave(self, names: list[str]) -> None:
        """Clean stop: this worker's consumers leave the group, except one still holding a job (deleting it
        would lose the job: another worker takes it over from there)."""
        for stream in self.keys.streams:
            try:
                for consumer in await self.redis.xinfo_consumers(stream, GROUP):
                    name = _text(consumer["name"])
                    if name in names and consumer["pending"] == 0:
                        await self.redis.xgroup_delconsumer(stream, GROUP, name)
            except (RedisError, OSError) as err:
                log.warning("engine worker %s could not leave the group: %s", self.name, err)

    # ------------------------------------------------------------------------- finished games

    async def _release_finished_games(self) -> None:
        """Release the players of every game that ends (heard on the channel); reconnects after failures."""
        while True:
            pubsub: Any = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.keys.game_over)
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                    if message is not None:
                        self._release(message.get("data"))
            except (RedisError, OSError):
                await asyncio.sleep(BACKOFF[0])
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _release(self, data: Any) -> None:
        text = _text(data)
        if text.isascii() and text.isdigit() and len(text) < 19:
            self.engine.release(int(text))


Entry = tuple[str, Any, Any]  # (stream, entry id, fields)


def unreachable(err: BaseException) -> bool:
    """The database or Redis could not be reached (or the link broke): nothing wrong with the job."""
    if isinstance(err, DBAPIError):
        return err.connection_invalidated or isinstance(err, OperationalError | InterfaceError)
    return isinstance(err, RedisError | OSError) and not isinstance(err, ResponseError)


def _entries(got: Any) -> list[Entry]:
    return [(_text(name), entry_id, fields) for name, items in got or [] for entry_id, fields in items]


def _job_in(fields: Any, keys: Keys) -> Job | None:
    try:
        return read_job(fields, keys)
    except BadJob:
        return None


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def run_worker(settings: Settings, concurrency: int, engine: Engine | None = None) -> None:
    """`miai worker`: run until SIGTERM or SIGINT."""
    from miai.server.engine_jobs.engine import PoolEngine

    async def main() -> None:
        own = engine or PoolEngine(workers=concurrency, shared=False, seconds=settings.computer_seconds)
        worker = Worker(settings, own, concurrency)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, worker.stopping.set)
        await worker.run()

    asyncio.run(main())

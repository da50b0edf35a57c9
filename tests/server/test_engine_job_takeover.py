"""Found by attack (issue 18): a dead worker's job queued behind many running ones is still taken over.

XAUTOCLAIM looks at ten pending entries per call for each one it may claim; a worker that started its
scan from the beginning every time never reached a dead worker's job behind ten running (touched) ones."""

from __future__ import annotations

import asyncio
from typing import Any

from miai.server.engine_jobs.engine import ChooserEngine
from miai.server.engine_jobs.wire import GROUP, MoveJob
from miai.server.engine_jobs.worker import Worker
from miai.server.settings import Settings
from tests.conftest import need
from tests.server.conftest import redis_reachable, unique_redis_prefix
from tests.server.engine_jobs_support import REDIS_URL


async def never(*_: Any) -> Any:
    raise AssertionError("no job is run here")


async def taken_over_behind(running: int) -> list[Any]:
    prefix = unique_redis_prefix()
    worker = Worker(
        Settings(redis_url=REDIS_URL, redis_prefix=prefix, engine_job_visibility=1.0), ChooserEngine(never)
    )
    redis, stream = worker.redis, worker.keys.stream
    try:
        await worker._groups()
        fields: dict[Any, Any] = {}
        ids: list[Any] = []
        for game in range(1, running + 2):
            fields = dict(MoveJob(game, 1, 7, 3).fields())
            ids.append(await redis.xadd(stream, fields))
        await redis.xreadgroup(GROUP, "alive", {stream: ">"}, count=running)
        await redis.xreadgroup(GROUP, "killed", {stream: ">"}, count=1)  # the newest job's worker dies
        await asyncio.sleep(1.2)  # past the visibility timeout
        await redis.xclaim(stream, GROUP, "alive", 0, ids[:running], justid=True)  # the others' heartbeats
        for _ in range(5):  # a consumer's successive take-over passes
            entries = await worker._reclaim("rescuer")
            if entries:
                return [entry_id for _, entry_id, _ in entries]
        return []
    finally:
        keys = [key async for key in redis.scan_iter(match=f"{prefix}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


def test_a_dead_workers_job_behind_many_running_ones_is_taken_over() -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    taken = asyncio.run(taken_over_behind(running=12))
    assert len(taken) == 1

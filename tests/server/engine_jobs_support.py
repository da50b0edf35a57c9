"""Test support for the Redis engine queue: a web app with `engine_queue=redis` and an in-process worker
on the same database and Redis prefix (the shared Redis: every test has a prefix of its own)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from redis import Redis
from redis.exceptions import ResponseError

from miai.core.go import GoState
from miai.server.engine_jobs.engine import Chooser, ChooserEngine
from miai.server.engine_jobs.protocol import Engine
from miai.server.engine_jobs.wire import GROUP, Keys
from miai.server.engine_jobs.worker import Worker
from miai.server.play.judging import Verdict
from miai.server.settings import Settings
from tests.conftest import need
from tests.server.conftest import make_settings, redis_reachable
from tests.server.processes import server_env
from tests.server.test_computer_games import centre_first

REDIS_URL = "redis://127.0.0.1:6379/0"


def queue_settings(database_url: str, tmp_path: Path, **overrides: Any) -> Settings:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    values: dict[str, Any] = {
        "engine_queue": "redis",
        "redis_url": REDIS_URL,
        "engine_job_visibility": 1.0,
        "engine_reply_timeout": 5.0,
    }
    values.update(overrides)
    return make_settings(database_url, tmp_path, **values)


class FakeEstimator(ChooserEngine):
    """Moves from a chooser; a fixed verdict and estimate, so a test sees that the worker answered."""

    verdict = Verdict(frozenset({0}), frozenset({1}), frozenset())

    async def judge(self, state: GoState) -> Verdict:
        return self.verdict

    async def area(self, state: GoState) -> tuple[float, ...]:
        return tuple(0.5 for _ in range(state.size * state.size))


@contextmanager
def worker_in(
    client: TestClient,
    settings: Settings,
    chooser: Chooser = centre_first,
    engine: Engine | None = None,
    name: str = "test-worker",
) -> Iterator[Worker]:
    """A worker running in the test client's event loop until the block ends."""
    worker = Worker(settings, engine or FakeEstimator(chooser), concurrency=1, name=name)
    done = client.portal.start_task_soon(worker.run)  # type: ignore[union-attr]
    until(lambda: hasattr(worker, "games") or done.done())
    try:
        yield worker
    finally:
        client.portal.call(_stop, worker)  # type: ignore[union-attr]
        done.result(30)


async def _stop(worker: Worker) -> None:
    worker.stopping.set()


def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def queue_state(prefix: str) -> tuple[int, int]:
    """(entries in the stream, of which pending: taken and not acknowledged)."""
    redis = Redis.from_url(REDIS_URL)
    try:
        stream = Keys(prefix).stream
        if not redis.exists(stream):
            return 0, 0
        groups = {g["name"].decode(): g["pending"] for g in redis.xinfo_groups(stream)}
        return int(redis.xlen(stream)), int(groups.get(GROUP, 0))
    finally:
        redis.close()


def drop_keys(prefix: str) -> None:
    """Delete this test's keys (its own prefix only: the Redis is shared)."""
    redis = Redis.from_url(REDIS_URL)
    try:
        keys = list(redis.scan_iter(match=f"{prefix}!engine:*", count=1000))
        if keys:
            redis.delete(*keys)
    finally:
        redis.close()


@contextmanager
def miai_worker(log: Path, variables: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """`python -m miai worker` with these MIAI_* variables, in a process group of its own (its engine
    processes too), killed at the end."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "miai", "worker"],
            env=server_env(**variables),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        kill_group(process)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def holders(prefix: str) -> list[str]:
    """The consumers holding a job (taken and not acknowledged)."""
    with Redis.from_url(REDIS_URL) as redis:
        try:
            pending = redis.xpending_range(Keys(prefix).stream, GROUP, "-", "+", 100)
        except ResponseError:  # no group yet: no worker has started
            return []
        return [entry["consumer"].decode() for entry in pending]

"""Several processes on a fresh database (issue 15, finding 9): `miai serve --workers 4` starts all four.

Real processes: a fresh PostgreSQL database (and a fresh SQLite file), `miai serve --workers 4` on a free
loopback port with the shared Redis (under a channel prefix of this test's own), every output line kept
(tests/server/processes.py: bounded waits, the whole process group stopped at the end).
"""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import need
from tests.server.conftest import fresh_database, redis_reachable
from tests.server.processes import miai_serve

WORKERS = 4
STARTED = "Application startup complete"


@pytest.fixture(params=["postgres", "sqlite"])
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with fresh_database(request.param, tmp_path) as url:
        yield url


def wait_for_workers(process: subprocess.Popen[bytes], log: Path, seconds: float = 90) -> str:
    """The output once every worker has started, the supervisor has died or the time is up."""
    deadline = time.monotonic() + seconds
    while True:
        text = log.read_text(errors="replace")
        if text.count(STARTED) >= WORKERS or "Traceback" in text or process.poll() is not None:
            time.sleep(0.5)  # a late worker's traceback would show now
            return log.read_text(errors="replace")
        if time.monotonic() > deadline:
            return text
        time.sleep(0.1)


def test_four_workers_start_together_on_a_fresh_database(fresh_database_url: str, tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    options = ["--workers", str(WORKERS), "--database-url", fresh_database_url, "--data-dir", str(tmp_path)]
    options += ["--redis-url", "redis://127.0.0.1:6379/0"]
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    with miai_serve(tmp_path / "serve.log", *options, MIAI_REDIS_PREFIX=prefix) as server:
        output = wait_for_workers(server.process, server.log)
        assert "Traceback" not in output, output
        assert output.count(STARTED) == WORKERS, output
        assert server.process.poll() is None, output
        health = httpx.get(f"{server.base}/api/v1/health", timeout=5)
        assert health.status_code == 200, health.text
        # The schema is whole: an account can be made and used.
        made = httpx.post(
            f"{server.base}/api/v1/accounts",
            json={"username": "first", "password": "correct horse"},
            timeout=10,
        )
        assert made.status_code == 201, made.text

"""Several processes on a fresh database (issue 15, finding 9): `miai serve --workers 4` starts all four.

Real processes: a fresh PostgreSQL database (and a fresh SQLite file), `miai serve --workers 4` on a free
loopback port with the shared Redis (under a channel prefix of this test's own), every output line kept.
Waits are bounded and polled; the whole process group is killed at the end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.conftest import REPO, need
from tests.server.conftest import fresh_database
from tests.server.test_redis_fanout import redis_reachable
from tests.server.test_timeout_restart import free_port

WORKERS = 4
STARTED = "Application startup complete"


@pytest.fixture(params=["postgres", "sqlite"])
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with fresh_database(request.param, tmp_path) as url:
        yield url


@contextmanager
def serving(database_url: str, data_dir: Path, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`miai serve --workers 4` in a process group of its own, its output (both streams) in `log`."""
    port = free_port()
    env = {
        **os.environ,
        "MIAI_REDIS_PREFIX": f"test-{uuid.uuid4().hex[:12]}",
        "MIAI_ARGON2_TIME_COST": "1",
        "MIAI_ARGON2_MEMORY_KIB": "64",
        "PYTHONPATH": str(REPO / "src"),
    }
    command = [sys.executable, "-m", "miai", "serve", "--workers", str(WORKERS), "--host", "127.0.0.1"]
    command += ["--port", str(port), "--database-url", database_url, "--data-dir", str(data_dir)]
    command += ["--redis-url", "redis://127.0.0.1:6379/0"]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield process, f"http://127.0.0.1:{port}"
    finally:
        with_group = process.poll() is None
        if with_group:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        with_children = True
        while with_children:  # workers outliving the supervisor (they share its process group)
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                with_children = False
            else:
                time.sleep(0.05)


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
    log = tmp_path / "serve.log"
    with serving(fresh_database_url, tmp_path, log) as (process, base):
        output = wait_for_workers(process, log)
        assert "Traceback" not in output, output
        assert output.count(STARTED) == WORKERS, output
        assert process.poll() is None, output
        health = httpx.get(f"{base}/api/v1/health", timeout=5)
        assert health.status_code == 200, health.text
        # The schema is whole: an account can be made and used.
        made = httpx.post(
            f"{base}/api/v1/accounts", json={"username": "first", "password": "correct horse"}, timeout=10
        )
        assert made.status_code == 201, made.text

"""The kill -9 test (issue 18): a `miai worker` process killed in the middle of a computer move loses
nothing and plays nothing twice. Another worker takes the job over once it has been idle for the visibility
timeout, and the move is stored exactly once (one move row, the game's version one higher), the job
acknowledged. Real processes on a fresh database (SQLite and PostgreSQL) and the shared Redis under a
prefix of this test's own; the web side runs in this process with `engine_queue=redis`.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.server.conftest import fresh_database, register
from tests.server.engine_jobs_support import (
    REDIS_URL,
    drop_keys,
    holders,
    kill_group,
    miai_worker,
    queue_settings,
    queue_state,
    until,
)
from tests.server.test_computer_games import moves

VISIBILITY = 2.0
SLOW_LEVEL = 10  # the strongest level thinks for seconds on 19x19: time enough to kill it mid-move


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with fresh_database(request.param, tmp_path) as url:
        yield url


def worker_variables(database_url: str, prefix: str) -> dict[str, str]:
    return {
        "MIAI_DATABASE_URL": database_url,
        "MIAI_REDIS_URL": REDIS_URL,
        "MIAI_REDIS_PREFIX": prefix,
        "MIAI_ENGINE_JOB_VISIBILITY": str(VISIBILITY),
    }


def test_a_worker_killed_mid_move_loses_nothing_and_plays_nothing_twice(
    fresh_database_url: str, tmp_path: Path
) -> None:
    settings = queue_settings(fresh_database_url, tmp_path, engine_job_visibility=VISIBILITY)
    prefix = settings.redis_prefix
    try:
        with TestClient(create_app(settings, background=False)) as client:
            alice = register(client, "alice")
            gid = alice.ok("/api/v1/practice", {"size": 19, "colour": "black", "level": SLOW_LEVEL})["id"]
            alice.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
            before = alice.get(f"/api/v1/games/{gid}").json()["version"]
            first_log, second_log = tmp_path / "worker-1.log", tmp_path / "worker-2.log"
            with miai_worker(first_log, worker_variables(fresh_database_url, prefix)) as first:
                until(lambda: bool(holders(prefix)) or first.poll() is not None, 60)
                assert first.poll() is None, first_log.read_text()
                assert f"-{first.pid}-" in holders(prefix)[0]  # it took the job...
                assert moves(alice, gid) == ["D4"]  # ...and is still thinking
                kill_group(first)
            assert moves(alice, gid) == ["D4"]
            assert queue_state(prefix) == (1, 1)  # taken, never acknowledged
            with miai_worker(second_log, worker_variables(fresh_database_url, prefix)) as second:
                until(lambda: len(moves(alice, gid)) == 2 or second.poll() is not None, 90)
                assert second.poll() is None, second_log.read_text()
                until(lambda: queue_state(prefix) == (0, 0), 10)  # acknowledged (and deleted)
                snapshot = alice.get(f"/api/v1/games/{gid}").json()
                assert [m["team"] for m in snapshot["moves"]] == [1, 2]  # one computer move, stored once
                assert snapshot["version"] == before + 1
            assert "taken over" in second_log.read_text(), second_log.read_text()
    finally:
        drop_keys(prefix)


def test_sigterm_stops_a_worker_cleanly(tmp_path: Path) -> None:
    settings = queue_settings(f"sqlite+aiosqlite:///{(tmp_path / 'miai.db').as_posix()}", tmp_path)
    log = tmp_path / "worker.log"
    try:
        with miai_worker(
            log, worker_variables(settings.effective_database_url, settings.redis_prefix)
        ) as worker:
            until(lambda: "consumer(s) on" in log.read_text() or worker.poll() is not None, 60)
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(30) == 0, log.read_text()
        assert "stopped: no jobs" in log.read_text()
    finally:
        drop_keys(settings.redis_prefix)

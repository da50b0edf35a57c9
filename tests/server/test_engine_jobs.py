"""Engine jobs on the Redis queue (issue 18): the web process submits, a worker plays and answers.

The worker runs in the test client's event loop, on the same database and Redis prefix as the app (the
kill -9 test with real worker processes is test_engine_worker_kill.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis import Redis
from sqlalchemy.engine import make_url

from miai.server.app import create_app
from miai.server.engine_jobs.engine import PoolEngine
from miai.server.engine_jobs.redis_queue import RedisJobs
from miai.server.engine_jobs.sweep import sweep_once
from miai.server.engine_jobs.wire import Keys, MoveJob
from miai.server.settings import Settings
from tests.server.conftest import Player, register
from tests.server.engine_jobs_support import (
    REDIS_URL,
    FakeEstimator,
    drop_keys,
    queue_settings,
    queue_state,
    until,
    worker_in,
)
from tests.server.tcp_proxy import ThreadedTcpProxy
from tests.server.test_computer_games import centre_first, moves


def web_never_searches(*args: Any) -> Any:
    raise AssertionError("the web process ran a search")


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    settings = queue_settings(database_url, tmp_path)
    yield settings
    drop_keys(settings.redis_prefix)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings, background=False, chooser=web_never_searches)
    with TestClient(app) as test_client:
        yield test_client


def practice(alice: Player) -> int:
    game: int = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    return game


def version(player: Player, gid: int) -> int:
    snapshot: int = player.get(f"/api/v1/games/{gid}").json()["version"]
    return snapshot


def computer_to_move(client: TestClient) -> tuple[Player, int, MoveJob]:
    """Alice's practice game after her C3, its move job queued: (alice, the game, that job)."""
    jobs: RedisJobs = client.app.state.jobs  # type: ignore[attr-defined]
    alice = register(client, "alice")
    gid = practice(alice)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    client.portal.call(jobs.idle)  # type: ignore[union-attr]
    snapshot = alice.get(f"/api/v1/games/{gid}").json()
    return alice, gid, MoveJob(gid, snapshot["version"], snapshot["to_move"]["user_id"], 1)


def test_the_web_process_only_submits_and_a_worker_stores_the_move_once(
    client: TestClient, settings: Settings
) -> None:
    jobs = client.app.state.jobs  # type: ignore[attr-defined]
    assert isinstance(jobs, RedisJobs) and not hasattr(jobs, "engine")  # no engine, no pool in the web
    alice = register(client, "alice")
    gid = practice(alice)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    client.portal.call(jobs.idle)  # type: ignore[union-attr]
    assert moves(alice, gid) == ["C3"]
    assert queue_state(settings.redis_prefix) == (1, 0)  # queued, nobody has taken it
    before = version(alice, gid)
    with worker_in(client, settings) as worker:
        until(lambda: len(moves(alice, gid)) == 2)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))  # acknowledged and deleted
        assert worker.handled == {"stored": 1}
    assert moves(alice, gid) == ["C3", "E5"]
    assert version(alice, gid) == before + 1


def test_a_move_submitted_twice_is_queued_and_played_once(client: TestClient, settings: Settings) -> None:
    jobs: RedisJobs = client.app.state.jobs  # type: ignore[attr-defined]
    alice, gid, job = computer_to_move(client)
    assert client.portal.call(jobs.submit, job) is False  # type: ignore[union-attr]
    assert client.portal.call(sweep_once, client.app.state.sessions, jobs) == 0  # type: ignore[union-attr,attr-defined]
    assert queue_state(settings.redis_prefix) == (1, 0)
    with worker_in(client, settings) as worker:
        until(lambda: len(moves(alice, gid)) == 2)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
        assert worker.handled == {"stored": 1}
    assert moves(alice, gid) == ["C3", "E5"]


def test_a_job_whose_game_moved_on_is_acknowledged_and_dropped(
    client: TestClient, settings: Settings
) -> None:
    """A job for a version the game has left (a copy that outlived its dedupe marker, say) plays nothing."""
    alice, gid, late = computer_to_move(client)
    with worker_in(client, settings) as worker:
        until(lambda: len(moves(alice, gid)) == 2)
        redis = Redis.from_url(REDIS_URL)
        try:
            redis.xadd(Keys(settings.redis_prefix).stream, late.fields())  # type: ignore[arg-type]
        finally:
            redis.close()
        until(lambda: worker.handled.get("moved on") == 1)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
    assert moves(alice, gid) == ["C3", "E5"]


def test_judgement_and_area_are_answered_by_a_worker(client: TestClient, settings: Settings) -> None:
    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings):
        area = alice.get(f"/api/v1/games/{gid}/area")
        assert area.status_code == 200, area.text
        assert area.json()["ownership"] == [0.5] * 81  # the worker's estimate, not this process's
        state = client.portal.call(_state_of, client, gid)  # type: ignore[union-attr]
        verdict = client.portal.call(client.app.state.jobs.judge, state)  # type: ignore[union-attr,attr-defined]
        assert verdict.judged and verdict.dead == {0} and verdict.neutral == {1}


def test_without_a_worker_area_is_unavailable_and_judgement_leaves_stones_alive(
    database_url: str, tmp_path: Path
) -> None:
    settings = queue_settings(database_url, tmp_path, engine_reply_timeout=0.3)
    try:
        with TestClient(create_app(settings, background=False)) as client:
            alice = register(client, "alice")
            gid = practice(alice)
            area = alice.get(f"/api/v1/games/{gid}/area")
            assert area.status_code == 503 and area.json()["error"] == "engine_unavailable", area.text
            state = client.portal.call(_state_of, client, gid)  # type: ignore[union-attr]
            verdict = client.portal.call(client.app.state.jobs.judge, state)  # type: ignore[union-attr,attr-defined]
            assert not verdict.judged and not verdict.dead
    finally:
        drop_keys(settings.redis_prefix)


async def _state_of(client: TestClient, gid: int) -> Any:
    from miai.server.storage import repo

    app: Any = client.app
    async with app.state.sessions() as db:
        game = await repo.game_row(db, gid)
        return await app.state.games.stream.current_state(db, game)


HOSTILE: list[dict[str, str]] = [
    {"kind": "move", "game": "abc", "version": "1", "seat": "1", "level": "1"},
    {"kind": "move", "game": "1", "version": "99999999999999999999999", "seat": "1", "level": "1"},
    {"kind": "move", "game": "1", "version": "1", "seat": "1", "level": "NaN"},
    {"kind": "move", "game": "1", "version": "1", "seat": "1", "level": "[1]"},
    {"kind": "move", "game": "-1", "version": "1", "seat": "1", "level": "1"},
    {"kind": "move", "game": "1\x00", "version": "1", "seat": "1", "level": "1"},
    {"kind": "launch-missiles"},
    {"nothing": "here"},
    {"kind": "judge", "reply": "someone-elses-key", "state": "{}"},
]


def test_hostile_jobs_are_acknowledged_logged_and_the_worker_keeps_going(
    client: TestClient, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    keys = Keys(settings.redis_prefix)
    reply = keys.reply("x" * 32)
    hostile = [
        *HOSTILE,
        {"kind": "judge", "reply": reply, "state": "[1, 2]"},
        {"kind": "area", "reply": reply, "state": '{"game": "go", "size": "huge"}'},
        {"kind": "judge", "reply": reply, "state": "{not json"},
    ]
    redis = Redis.from_url(REDIS_URL)
    try:
        for fields in hostile:
            redis.xadd(keys.stream, fields)  # type: ignore[arg-type]
        redis.xadd(
            keys.stream, {"kind": "move", "game": "1", "version": "1", "seat": "1", "level": '"x"' * 40}
        )
    finally:
        redis.close()
    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings) as worker, caplog.at_level("WARNING"):
        until(lambda: worker.handled.get("bad", 0) == len(hostile) + 1)
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})  # a real job after them is still played
        until(lambda: len(moves(alice, gid)) == 2)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
    assert "is not a job" in caplog.text


def test_while_redis_is_away_people_still_move_and_the_computer_plays_once_it_is_back(
    database_url: str, tmp_path: Path
) -> None:
    """Redis goes away (a proxy in front of it is cut): a person's move is stored and acknowledged, its
    computer reply cannot be queued; once Redis is back, the sweep queues it and a worker plays it."""
    with ThreadedTcpProxy("127.0.0.1", 6379) as proxy:
        through_proxy = f"redis://127.0.0.1:{proxy.port}/0"
        settings = queue_settings(database_url, tmp_path, redis_url=through_proxy, engine_sweep_interval=0.2)
        worker_settings = settings.model_copy(update={"redis_url": REDIS_URL})  # its own link stays up
        try:
            with TestClient(create_app(settings, chooser=web_never_searches)) as client:
                alice = register(client, "alice")
                gid = practice(alice)
                with worker_in(client, worker_settings) as worker:
                    proxy.cut()
                    answer = alice.post(f"/api/v1/games/{gid}/moves", {"move": "C3"})
                    assert answer.status_code == 200 and answer.json()["ok"], answer.text
                    time.sleep(1.0)  # sweeps come and go: none can reach Redis
                    assert moves(alice, gid) == ["C3"] and queue_state(settings.redis_prefix) == (0, 0)
                    proxy.restore()
                    until(lambda: len(moves(alice, gid)) == 2)
                    until(lambda: queue_state(settings.redis_prefix) == (0, 0))
                    assert worker.handled == {"stored": 1}
                assert moves(alice, gid) == ["C3", "E5"]
        finally:
            drop_keys(settings.redis_prefix)


def test_several_computers_in_one_game_follow_each_other_through_the_workers(
    client: TestClient, settings: Settings
) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 1})
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    with worker_in(client, settings) as worker:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
        until(lambda: len(moves(alice, gid)) == 3)  # the second computer's job came from the worker
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
        assert worker.handled == {"stored": 2}
    snapshot = alice.get(f"/api/v1/games/{gid}").json()
    assert [m["team"] for m in snapshot["moves"]] == [1, 2, 3]
    assert snapshot["to_move"]["team"] == 1


def test_the_end_of_a_game_releases_its_players_on_every_worker(
    client: TestClient, settings: Settings
) -> None:
    alice = register(client, "alice")
    gid = practice(alice)
    engine = FakeEstimator(centre_first)
    released: list[int] = []
    engine.release = released.append  # type: ignore[method-assign]
    with worker_in(client, settings, engine=engine):
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        until(lambda: len(moves(alice, gid)) == 2)
        redis = Redis.from_url(REDIS_URL)
        try:
            assert redis.exists(Keys(settings.redis_prefix).memo(gid)) == 0  # the fake keeps no memo
            redis.hset(Keys(settings.redis_prefix).memo(gid), "1", "{}")
            alice.ok(f"/api/v1/games/{gid}/resign")
            until(lambda: released == [gid])
            assert redis.exists(Keys(settings.redis_prefix).memo(gid)) == 0
        finally:
            redis.close()


def test_a_job_that_keeps_failing_is_retried_then_dropped(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from miai.server.engine_jobs import worker as worker_module

    monkeypatch.setattr(worker_module, "MAX_DELIVERIES", 2)
    calls: list[int] = []

    async def broken(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        calls.append(seed)
        raise RuntimeError("the engine crashed")

    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings, chooser=broken) as worker:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        until(lambda: worker.handled.get("dropped") == 1)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
    assert len(calls) == 2  # tried again after the visibility timeout, then given up
    assert moves(alice, gid) == ["C3"]
    assert "failed 2 times: dropped" in caplog.text


def test_a_worker_estimates_in_its_own_engine_processes(client: TestClient, settings: Settings) -> None:
    """The real engines of a worker (not a stand-in): positions travel to its engine process as records."""
    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings, engine=PoolEngine(workers=1, shared=False)):
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        until(lambda: len(moves(alice, gid)) == 2, 60)
        area = alice.get(f"/api/v1/games/{gid}/area")
        assert area.status_code == 200, area.text
        ownership = area.json()["ownership"]
        assert len(ownership) == 81 and ownership != [0.5] * 81
        state = client.portal.call(_state_of, client, gid)  # type: ignore[union-attr]
        verdict = client.portal.call(client.app.state.jobs.judge, state)  # type: ignore[union-attr,attr-defined]
        assert verdict.judged


# ----------------------------------------------------------------------------- review of issue 18


def test_an_area_estimate_does_not_wait_behind_the_queued_moves(database_url: str, tmp_path: Path) -> None:
    """Three computer moves are queued, each thinking 0.8 s: the estimate asked after them is answered within
    its 1.5 s (workers read judgements and estimates first), and the moves are all played."""
    settings = queue_settings(database_url, tmp_path, engine_reply_timeout=1.5)

    async def slow(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        await asyncio.sleep(0.8)
        return await centre_first(state, level, seed, seconds)

    try:
        with TestClient(create_app(settings, background=False, chooser=web_never_searches)) as client:
            alice = register(client, "alice")
            games = [practice(alice) for _ in range(3)]
            for gid in games:
                alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
            client.portal.call(client.app.state.jobs.idle)  # type: ignore[union-attr,attr-defined]
            assert queue_state(settings.redis_prefix) == (3, 0)
            with worker_in(client, settings, chooser=slow):
                area = alice.get(f"/api/v1/games/{games[-1]}/area")
                assert area.status_code == 200, area.text
                assert area.json()["ownership"] == [0.5] * 81
                until(lambda: all(len(moves(alice, gid)) == 2 for gid in games))
    finally:
        drop_keys(settings.redis_prefix)


def test_a_dropped_move_is_submitted_again_by_the_sweep(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move job given up after its tries takes its dedupe marker along: the next sweep submits the move
    again (not ten minutes later), and it is played once the engine works."""
    from miai.server.engine_jobs import worker as worker_module

    monkeypatch.setattr(worker_module, "MAX_DELIVERIES", 1)
    broken = [True]

    async def flaky(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        if broken[0]:
            raise RuntimeError("the engine crashed")
        return await centre_first(state, level, seed, seconds)

    jobs: RedisJobs = client.app.state.jobs  # type: ignore[attr-defined]
    sessions = client.app.state.sessions  # type: ignore[attr-defined]
    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings, chooser=flaky) as worker:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        until(lambda: worker.handled.get("dropped") == 1)
        broken[0] = False
        assert client.portal.call(sweep_once, sessions, jobs) == 1  # type: ignore[union-attr]
        until(lambda: len(moves(alice, gid)) == 2)
        until(lambda: queue_state(settings.redis_prefix) == (0, 0))
        assert worker.handled == {"dropped": 1, "stored": 1}
    assert moves(alice, gid) == ["C3", "E5"]


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)  # a network link to cut
def test_while_the_database_is_away_from_a_worker_its_move_waits_and_is_played_once(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's link to PostgreSQL is cut (a proxy in front of it) for longer than all the tries of a job
    would last: the failures are not the job's, it is handed back, and once the database answers again the
    sweep submits it and the move is stored once."""
    from miai.server.engine_jobs import worker as worker_module

    monkeypatch.setattr(worker_module, "MAX_DELIVERIES", 1)
    monkeypatch.setattr(worker_module, "BACKOFF", (0.1, 0.5))
    url = make_url(database_url)
    with ThreadedTcpProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        settings = queue_settings(database_url, tmp_path, engine_sweep_interval=0.2)
        through_proxy = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        worker_settings = settings.model_copy(update={"database_url": through_proxy})
        try:
            with TestClient(create_app(settings, chooser=web_never_searches)) as client:
                alice = register(client, "alice")
                gid = practice(alice)
                before = version(alice, gid)
                with worker_in(client, worker_settings) as worker:
                    proxy.cut()
                    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
                    until(lambda: worker.handled.get("returned", 0) >= 1)
                    time.sleep(2.5)  # longer than every try of a job (visibility 1 s)
                    assert moves(alice, gid) == ["C3"]
                    proxy.restore()
                    until(lambda: len(moves(alice, gid)) == 2)
                    until(lambda: queue_state(settings.redis_prefix) == (0, 0))
                    assert worker.handled.get("stored") == 1 and "dropped" not in worker.handled
                assert moves(alice, gid) == ["C3", "E5"] and version(alice, gid) == before + 2
        finally:
            drop_keys(settings.redis_prefix)


def test_a_game_that_a_workers_move_ends_is_judged_by_that_worker(
    client: TestClient, settings: Settings
) -> None:
    """The worker judges with its own engines, whatever judge the app in the same process uses (the app
    would ask the queue, whose only consumer is busy with this very move: no verdict in time)."""
    from miai.core.go import PASS

    async def passes(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        return PASS

    alice = register(client, "alice")
    gid = practice(alice)
    with worker_in(client, settings, chooser=passes):
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
        until(lambda: alice.get(f"/api/v1/games/{gid}").json()["status"] == "finished")
    result = alice.get(f"/api/v1/games/{gid}").json()["result"]
    assert result["dead_stones_judged"] is True and len(result["dead"]) == 1, result


def test_a_stopped_worker_leaves_the_group_and_a_deleted_queue_is_made_again(
    client: TestClient, settings: Settings
) -> None:
    keys = Keys(settings.redis_prefix)
    alice = register(client, "alice")
    gid = practice(alice)
    redis = Redis.from_url(REDIS_URL)
    try:
        with worker_in(client, settings):
            until(lambda: redis.exists(keys.stream, keys.urgent) == 2)
            redis.delete(keys.stream, keys.urgent)  # an operator wipes the queue: the group goes too
            alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
            until(lambda: len(moves(alice, gid)) == 2)
            assert [c["name"] for c in redis.xinfo_consumers(keys.stream, "workers")] == [b"test-worker-0"]
        for stream in keys.streams:
            assert redis.xinfo_consumers(stream, "workers") == []
    finally:
        redis.close()


def test_an_estimate_nobody_waits_for_any_more_is_dropped_unanswered(
    client: TestClient, settings: Settings
) -> None:
    """A burst of Area requests that outlived their askers must not keep a worker from the live ones."""
    from miai.engines.record import encode_state
    from miai.server.engine_jobs.wire import StateJob

    alice = register(client, "alice")
    gid = practice(alice)
    state = client.portal.call(_state_of, client, gid)  # type: ignore[union-attr]
    keys = Keys(settings.redis_prefix)
    late, fresh = keys.reply("a" * 32), keys.reply("b" * 32)
    redis = Redis.from_url(REDIS_URL)
    try:
        # Queued at Redis time 1 ms (long ago), then one queued now.
        redis.xadd(keys.urgent, StateJob("area", encode_state(state), late).fields(), id="1-0")  # type: ignore[arg-type]
        redis.xadd(keys.urgent, StateJob("area", encode_state(state), fresh).fields())  # type: ignore[arg-type]
        with worker_in(client, settings) as worker:
            until(lambda: worker.handled.get("answered", 0) == 1)
            assert worker.handled.get("expired") == 1
        assert redis.llen(late) == 0 and redis.llen(fresh) == 1
    finally:
        redis.close()

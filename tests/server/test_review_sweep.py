"""Reviews whose job was lost (Redis down when it was submitted, the process computing them stopped) are
submitted again by the periodic sweep once they have stalled, without anyone asking again: in the server
(`engine_queue=local`) and on the Redis queue, where a marker keeps it to once per stall limit."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis import Redis
from sqlalchemy import update

from miai.server.app import create_app
from miai.server.engine_jobs.reviewing import STALLED
from miai.server.engine_jobs.sweep import sweep_once
from miai.server.engine_jobs.wire import Keys
from miai.server.settings import Settings
from miai.server.storage.models import Review
from tests.server.conftest import Player, make_settings, register
from tests.server.engine_jobs_support import REDIS_URL, drop_keys, queue_settings, until, worker_in
from tests.server.test_engine_jobs import web_never_searches
from tests.server.test_reviews import TINY, computed, finished

LONG_AGO = STALLED + timedelta(minutes=1)


def left_pending(
    client: TestClient, gid: int, player: Player, since: timedelta, status: str = "pending"
) -> int:
    """A review row whose job never reached an engine, last changed `since` ago; its id."""
    app: Any = client.app

    async def store() -> int:
        at = datetime.now(UTC) - since
        async with app.state.sessions() as db:
            row = Review(
                game_id=gid, depth="quick", status=status, done=0, total=5, result={},
                requested_by=player.user_id, created_at=at, updated_at=at,
            )  # fmt: skip
            db.add(row)
            await db.commit()
            return row.id

    return client.portal.call(store)  # type: ignore[union-attr]


def reviews_of(client: TestClient, gid: int) -> dict[str, dict[str, Any]]:
    return {r["depth"]: r for r in client.get(f"/api/v1/games/{gid}/review").json()["reviews"]}


def sweep(client: TestClient) -> int:
    app: Any = client.app
    return client.portal.call(sweep_once, app.state.sessions, app.state.jobs)  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- in the server


def test_the_servers_sweep_computes_a_stalled_review_nobody_asks_for_again(
    database_url: str, tmp_path: Path
) -> None:
    settings = make_settings(database_url, tmp_path, engine_sweep_interval=0.2, **TINY)
    with TestClient(create_app(settings, background=True)) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        gid = finished(ann, bob)
        left_pending(client, gid, ann, LONG_AGO)
        until(lambda: reviews_of(client, gid)["quick"]["status"] == "done")
        review = reviews_of(client, gid)["quick"]
        assert review["done"] == 5 and len(review["positions"]) == 5


def test_a_review_under_way_or_recent_is_left_alone(database_url: str, tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(database_url, tmp_path, **TINY), background=False)) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        first, second = finished(ann, bob), finished(ann, bob)
        left_pending(
            client, first, ann, timedelta(minutes=1)
        )  # within the stall limit: its job may be queued
        left_pending(client, second, ann, LONG_AGO, status="running")  # its process stopped
        assert sweep(client) == 1
        assert sweep(client) == 0  # computing or waiting its turn here already: not twice
        computed(client)
        assert reviews_of(client, first)["quick"]["status"] == "pending"
        assert reviews_of(client, second)["quick"]["status"] == "done"
        assert sweep(client) == 0


# ----------------------------------------------------------------------------- on the Redis queue


@pytest.fixture
def queue(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    settings = queue_settings(database_url, tmp_path, **TINY)  # a Redis prefix of its own
    yield settings
    drop_keys(settings.redis_prefix)


def test_a_review_whose_submission_was_lost_is_queued_again_once(queue: Settings) -> None:
    with TestClient(create_app(queue, background=False, chooser=web_never_searches)) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        gid = finished(ann, bob)
        assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
        client.portal.call(client.app.state.jobs.idle)  # type: ignore[attr-defined,union-attr]
        keys = Keys(queue.redis_prefix)
        redis = Redis.from_url(REDIS_URL)
        queued = keys.review_queue(ann.user_id)
        try:
            assert redis.llen(queued) == 1 and redis.lrange(keys.review_turns, 0, -1) == [b"%d" % ann.user_id]
            redis.delete(queued, keys.review_turns)  # the submission is lost (this test's own keys)
            assert sweep(client) == 0  # asked for just now: its job may still be on its way
            stale = datetime.now(UTC) - LONG_AGO
            app: Any = client.app

            async def age() -> None:
                async with app.state.sessions() as db:
                    await db.execute(update(Review).values(updated_at=stale))
                    await db.commit()

            client.portal.call(age)  # type: ignore[union-attr]
            assert sweep(client) == 1
            assert sweep(client) == 0  # the marker: once per stall limit, whichever server sweeps
            assert redis.llen(queued) == 1  # in its asker's turns
        finally:
            redis.close()
        with worker_in(client, queue):
            until(lambda: reviews_of(client, gid)["quick"]["status"] == "done")
        assert reviews_of(client, gid)["quick"]["done"] == 5

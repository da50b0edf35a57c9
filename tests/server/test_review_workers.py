"""Reviews on the Redis engine queue: the web process only submits them; `miai worker` computes them, and a
worker that dies mid-review has its job taken over by another, which carries on from the stored positions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis import Redis

from miai.server.app import create_app
from miai.server.engine_jobs.reviewing import STALLED, new_lease
from miai.server.engine_jobs.wire import GROUP, Keys, ReviewJob
from miai.server.settings import Settings
from miai.server.storage.models import Review
from tests.server.conftest import register
from tests.server.engine_jobs_support import REDIS_URL, drop_keys, queue_settings, until, worker_in
from tests.server.test_engine_jobs import web_never_searches
from tests.server.test_reviews import TINY, finished


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    settings = queue_settings(database_url, tmp_path, **TINY)
    yield settings
    drop_keys(settings.redis_prefix)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings, background=False, chooser=web_never_searches)) as test_client:
        yield test_client


def review_of(client: TestClient, gid: int) -> dict[str, Any]:
    reviews = client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    return reviews[0] if reviews else {}


def test_a_worker_computes_the_review_the_web_process_submitted(
    client: TestClient, settings: Settings
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    assert review_of(client, gid)["status"] == "pending"  # nothing computes in the web process
    with worker_in(client, settings):
        until(lambda: review_of(client, gid).get("status") == "done")
    review = review_of(client, gid)
    assert review["done"] == 5 and len(review["positions"]) == 5


def test_a_dead_workers_review_is_taken_over_and_resumed(client: TestClient, settings: Settings) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    first = {"shares": [0.5, 0.5], "score": [24.5, 24.5], "best": "D4", "ownership": "." * 49}
    app: Any = client.app

    async def started_by_a_worker_that_died() -> int:
        now = datetime.now(UTC) - STALLED - timedelta(minutes=1)  # its last heartbeat
        async with app.state.sessions() as db:
            row = Review(
                game_id=gid, depth="quick", status="running", done=1, total=5,
                result={"positions": [first]}, requested_by=ann.user_id, created_at=now, updated_at=now,
            )  # fmt: skip
            db.add(row)
            await db.commit()
            return row.id

    review_id = client.portal.call(started_by_a_worker_that_died)  # type: ignore[union-attr]
    keys = Keys(settings.redis_prefix)
    redis = Redis.from_url(REDIS_URL)
    try:
        redis.xgroup_create(keys.reviews, GROUP, id="0", mkstream=True)
        redis.xadd(keys.reviews, ReviewJob(review_id, new_lease(), ann.user_id).fields())  # type: ignore[arg-type]
        redis.xreadgroup(GROUP, "killed", {keys.reviews: ">"}, count=1)  # taken, never acknowledged
    finally:
        redis.close()
    with worker_in(client, settings) as worker:
        until(lambda: review_of(client, gid).get("status") == "done")
        until(lambda: worker.handled.get("done", 0) == 1)
    review = review_of(client, gid)
    assert review["positions"][0] == first and review["done"] == 5

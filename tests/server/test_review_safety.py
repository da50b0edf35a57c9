"""Reviews that are safe to run in production: computed in parts that never hold back a computer's move,
claimed by one runner at a time (a lease), limited in size, and handed back (not failed) when the database
fails while saving."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from miai.engines.review import PositionReview
from miai.server.api import reviews as api_reviews
from miai.server.app import create_app
from miai.server.engine_jobs import reviewing
from miai.server.engine_jobs.reviewing import STALLED, Reviewer, new_lease
from miai.server.engine_jobs.wire import BadJob, Keys, ReviewJob, read_job
from miai.server.storage import reviews as stored
from miai.server.storage.models import Review
from tests.server.conftest import make_settings, register
from tests.server.engine_jobs_support import FakeEstimator, drop_keys, queue_settings, until, worker_in
from tests.server.test_computer_games import centre_first
from tests.server.test_engine_jobs import computer_to_move, moves, practice, web_never_searches
from tests.server.test_reviews import TINY, computed, finished

EVEN = PositionReview((0.5, 0.5), (0.0,), "D4", "." * 49)


class Canned:
    """An engine whose review of a position is instant and the same, each call noted in `calls`."""

    def __init__(self, calls: list[Any], name: str = "review") -> None:
        self.calls = calls
        self.name = name

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        self.calls.append((self.name, seed))
        await asyncio.sleep(0)
        return EVEN


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(database_url, tmp_path, **TINY), background=False)) as client:
        yield client


def pending_review(client: TestClient) -> int:
    """A finished game's quick review, pending (asked for, no runner yet); its id."""
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    app: Any = client.app

    async def store() -> int:
        now = datetime.now(UTC)
        async with app.state.sessions() as db:
            row = Review(
                game_id=gid, depth="quick", status="pending", done=0, total=5, result={},
                requested_by=ann.user_id, created_at=now, updated_at=now,
            )  # fmt: skip
            db.add(row)
            await db.commit()
            return row.id

    return client.portal.call(store)  # type: ignore[union-attr]


def row(client: TestClient, review_id: int) -> tuple[str, int, int]:
    """(status, done, positions stored) of the review's row."""
    app: Any = client.app

    async def read() -> tuple[str, int, int]:
        async with app.state.sessions() as db:
            found = await stored.review_by_id(db, review_id)
            assert found is not None
            return found.status, found.done, len(found.result.get("positions", []))

    return client.portal.call(read)  # type: ignore[union-attr]


def reviewer(client: TestClient, calls: list[Any], name: str) -> Reviewer:
    app: Any = client.app
    return Reviewer(app.state.games.stream, Canned(calls, name), {"quick": 8})  # type: ignore[arg-type]


def run(client: TestClient, runner: Reviewer, review_id: int, lease: str) -> str:
    return client.portal.call(runner.run, review_id, lease)  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- one runner at a time


def test_two_runners_at_once_compute_one_review_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    review_id = pending_review(client)
    calls: list[Any] = []
    one, two = reviewer(client, calls, "one"), reviewer(client, calls, "two")
    leases = {"one": new_lease(), "two": new_lease()}

    async def both() -> list[str]:
        return list(
            await asyncio.gather(one.run(review_id, leases["one"]), two.run(review_id, leases["two"]))
        )

    outcomes = client.portal.call(both)  # type: ignore[union-attr]
    assert sorted(outcomes) == ["continued", "moved on"]
    winner = "one" if outcomes[0] == "continued" else "two"
    first, second = (one, two) if winner == "one" else (two, one)
    loser = "two" if winner == "one" else "one"
    seen = [row(client, review_id)[1]]
    while (outcome := run(client, first, review_id, leases[winner])) == "continued":
        assert run(client, second, review_id, leases[loser]) == "moved on"  # its lease is fresh: not taken
        seen.append(row(client, review_id)[1])
    assert outcome == "done"
    assert row(client, review_id) == ("done", 5, 5)
    assert [name for name, _ in calls] == [winner] * 5  # each position once, by the runner holding the lease
    assert seen == sorted(seen)


def test_a_runner_whose_lease_was_taken_over_stops_and_done_never_goes_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    review_id = pending_review(client)
    calls: list[Any] = []
    slow, fresh = reviewer(client, calls, "slow"), reviewer(client, calls, "fresh")
    slow_lease, fresh_lease = new_lease(), new_lease()
    assert run(client, slow, review_id, slow_lease) == "continued"
    app: Any = client.app

    async def heartbeat_stops() -> None:
        async with app.state.sessions() as db:
            stale = datetime.now(UTC) - STALLED - timedelta(minutes=1)
            await db.execute(update(Review).where(Review.id == review_id).values(updated_at=stale))
            await db.commit()

    client.portal.call(heartbeat_stops)  # type: ignore[union-attr]
    assert run(client, fresh, review_id, fresh_lease) == "continued"  # claimed: the slow one's lease is stale
    assert row(client, review_id) == ("running", 4, 4)
    assert run(client, slow, review_id, slow_lease) == "moved on"  # it woke up: not its review any more

    async def late_saves() -> list[bool]:
        async with app.state.sessions() as db:
            now = datetime.now(UTC)
            answers = [
                await stored.save(db, review_id, slow_lease, "running", 2, {"positions": []}, now),
                await stored.save(db, review_id, fresh_lease, "running", 1, {"positions": []}, now),
            ]
            await db.commit()
            return answers

    assert client.portal.call(late_saves) == [False, False]  # type: ignore[union-attr]
    assert row(client, review_id) == ("running", 4, 4)
    assert run(client, fresh, review_id, fresh_lease) == "done"
    assert row(client, review_id) == ("done", 5, 5)
    assert [c for c in calls if c[0] == "fresh"] == [("fresh", 2), ("fresh", 3), ("fresh", 4)]  # resumed


# ----------------------------------------------------------------------------- failures


def test_a_database_error_while_saving_hands_the_review_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    review_id = pending_review(client)
    real_save = stored.save
    failures = [OperationalError("UPDATE reviews", {}, Exception("the database went away"))]

    async def save_failing_once(*args: Any, **kwargs: Any) -> bool:
        if failures:
            raise failures.pop()
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(stored, "save", save_failing_once)
    runner, lease = reviewer(client, [], "one"), new_lease()
    with pytest.raises(OperationalError):  # raised to the job's runner, which hands the job back
        run(client, runner, review_id, lease)
    assert row(client, review_id)[0] == "running"  # not failed: the engine did its part
    assert run(client, runner, review_id, lease) == "done"  # tried again, it completes
    assert row(client, review_id) == ("done", 5, 5)


# ----------------------------------------------------------------------------- limits and reading one


def test_a_game_with_too_many_positions_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api_reviews, "MAX_POSITIONS", 4)
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)  # five positions
    refused = ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["error"] == "conflict" and "at most 4" in body["message"]
    assert (body["positions"], body["limit"]) == (5, 4)
    assert client.get(f"/api/v1/games/{gid}/review").json() == {"reviews": []}


def test_one_depth_is_read_on_its_own(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202
    computed(client)
    assert [r["depth"] for r in client.get(f"/api/v1/games/{gid}/review").json()["reviews"]] == [
        "quick",
        "deep",
    ]
    for depth in ("quick", "deep"):
        [review] = client.get(f"/api/v1/games/{gid}/review?depth={depth}").json()["reviews"]
        assert (review["depth"], review["status"], len(review["positions"])) == (depth, "done", 5)
    for bad in ("thorough", "quick%00", "%ED%B2%80", "1e400", ""):
        answer = client.get(f"/api/v1/games/{gid}/review?depth={bad}")
        assert answer.status_code == 422, (bad, answer.text)


def test_review_parts_carry_their_runners_lease_on_the_queue() -> None:
    keys, lease = Keys("p"), new_lease()
    assert read_job(ReviewJob(7, lease, 2).fields(), keys) == ReviewJob(7, lease, 2)
    for bad in ("", "x" * 32, lease[:-1], lease + "0", lease.upper(), "0" * 31 + "\x00"):
        with pytest.raises(BadJob):
            read_job({"kind": "review", "review": "7", "lease": bad, "user": "2"}, keys)


# ----------------------------------------------------------------------------- computer moves first


def test_a_review_never_runs_while_a_computer_thinks_in_the_server(database_url: str, tmp_path: Path) -> None:
    events: list[Any] = []
    released = threading.Event()

    async def thinking(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        events.append("think")
        while not released.is_set():
            await asyncio.sleep(0.01)
        events.append("moved")
        return await centre_first(state, level, seed, seconds)

    app: Any = create_app(make_settings(database_url, tmp_path, **TINY), background=False, chooser=thinking)
    with TestClient(app) as client:
        app.state.jobs.reviewer.engine = Canned(events)
        ann, bob, alice = (register(client, name) for name in ("ann", "bob", "alice"))
        gid = finished(ann, bob)
        game = practice(alice)
        alice.ok(f"/api/v1/games/{game}/moves", {"move": "C3"})
        until(lambda: "think" in events)
        assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
        client.portal.call(asyncio.sleep, 0.3)  # type: ignore[union-attr]  # time enough for a review
        assert events == ["think"]  # the review waits for the computer
        released.set()
        computed(client)
        assert len(moves(alice, game)) == 2
    assert events == ["think", "moved", *(("review", index) for index in range(5))]


class Ordered(FakeEstimator):
    """The worker's engine, noting the order of its computer moves and review positions."""

    def __init__(self, events: list[Any]) -> None:
        super().__init__(centre_first)
        self.events = events

    async def choose(self, *args: Any) -> Any:
        self.events.append("move")
        return await super().choose(*args)

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        self.events.append(("review", seed))
        return EVEN


def test_a_long_review_lets_a_computer_move_through_on_the_worker(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    settings = queue_settings(database_url, tmp_path, **TINY)
    try:
        with TestClient(create_app(settings, background=False, chooser=web_never_searches)) as client:
            ann, bob = register(client, "ann"), register(client, "bob")
            gid = finished(ann, bob)
            assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
            client.portal.call(client.app.state.jobs.idle)  # type: ignore[union-attr,attr-defined]
            alice, game, _ = computer_to_move(client)  # its move job is queued after the review's
            events: list[Any] = []
            with worker_in(client, settings, engine=Ordered(events)):
                until(lambda: len(moves(alice, game)) == 2)
                until(
                    lambda: client.get(f"/api/v1/games/{gid}/review").json()["reviews"][0]["status"] == "done"
                )
    finally:
        drop_keys(settings.redis_prefix)
    # The move queued after the review goes first: review parts wait for every queued computer move.
    assert events == ["move", *(("review", index) for index in range(5))]

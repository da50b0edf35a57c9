"""Engine reviews of finished games (docs/api.md, "Reviews"): asked for once, computed as an engine job with
its progress on the game's socket, stored and shared, visible as the game is."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from miai.server.app import create_app
from miai.server.engine_jobs.reviewing import STALLED, new_lease
from miai.server.engine_jobs.wire import BadJob, Keys, ReviewJob, read_job
from miai.server.storage.models import Review
from tests.server.conftest import Player, make_settings, register
from tests.server.test_finding import new_game

TINY = {"review_quick_playouts": 8, "review_deep_playouts": 16}


@pytest.fixture
def review_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path, **TINY), background=False)
    with TestClient(app) as client:
        yield client


def finished(winner: Player, loser: Player, **options: Any) -> int:
    gid = new_game(winner, loser, size=7, **options)
    winner.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
    loser.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    winner.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    loser.ok(f"/api/v1/games/{gid}/resign", {})
    return gid


def computed(client: TestClient) -> None:
    client.portal.call(client.app.state.jobs.reviews_idle)  # type: ignore[attr-defined,union-attr]


def test_a_review_is_computed_once_and_shared(review_client: TestClient) -> None:
    ann, bob, eve = (register(review_client, n) for n in ("ann", "bob", "eve"))
    gid = finished(ann, bob)
    asked = eve.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert asked.status_code == 202, asked.text
    assert asked.json()["depth"] == "quick" and asked.json()["total"] == 5  # the start and four moves
    computed(review_client)
    [review] = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]  # anyone may read it
    assert (review["status"], review["done"], review["total"]) == ("done", 5, 5)
    positions = review["positions"]
    assert len(positions) == 5
    for position in positions:
        assert sum(position["shares"]) == pytest.approx(1.0, abs=1e-3)
        assert len(position["ownership"]) == 49
        assert len(position["score"]) == 2  # each team's expected points, as `shares` has each's chance
    assert positions[-1]["shares"] == [1.0, 0.0]  # White resigned
    assert positions[0]["best"] is not None and positions[-1]["best"] is None
    assert review["swings"]  # or the next line holds of nothing
    assert all(s["team"] in (1, 2) and s["loss"] > 0 and 1 <= s["move"] <= 3 for s in review["swings"])
    assert not any(s["move"] == 4 for s in review["swings"])  # resigning is no move of play
    again = ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert again.status_code == 200 and again.json()["id"] == review["id"]  # stored once
    computed(review_client)
    assert len(review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]) == 1


def test_only_finished_games_and_only_players_deep(review_client: TestClient) -> None:
    ann, bob, eve = (register(review_client, n) for n in ("ann", "bob", "eve"))
    gid = new_game(ann, bob, size=7)
    answer = ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert answer.status_code == 409 and answer.json()["error"] == "conflict"
    gid = finished(ann, bob)
    assert review_client.post(f"/api/v1/games/{gid}/review", json={"depth": "quick"}).status_code == 401
    denied = eve.post(f"/api/v1/games/{gid}/review", {"depth": "deep"})
    assert denied.status_code == 403 and "players" in denied.json()["message"]
    assert bob.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202
    assert ann.post(f"/api/v1/games/{gid}/review", {}).status_code == 202  # quick by default
    computed(review_client)
    reviews = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert sorted((r["depth"], r["status"]) for r in reviews) == [("deep", "done"), ("quick", "done")]


def test_a_private_games_review_needs_the_invite(review_client: TestClient) -> None:
    ann, bob, eve = (register(review_client, n) for n in ("ann", "bob", "eve"))
    gid = finished(ann, bob, visibility="private")
    assert eve.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 403
    assert eve.get(f"/api/v1/games/{gid}/review").status_code == 403
    assert review_client.get(f"/api/v1/games/{gid}/review").status_code == 403
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    invite = ann.get(f"/api/v1/games/{gid}").json()["invite_code"]
    computed(review_client)
    assert eve.get(f"/api/v1/games/{gid}/review?invite={invite}").json()["reviews"][0]["status"] == "done"
    assert review_client.get("/api/v1/games/999999/review").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"depth": "thorough"},
        {"depth": 1},
        {"depth": None},
        {"depth": "quick\x00"},
        {"depth": "quick", "playouts": 10**9},
        [],
        "quick",
    ],
)
def test_hostile_review_requests_are_refused(review_client: TestClient, body: Any) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = finished(ann, bob)
    answer = ann.post(f"/api/v1/games/{gid}/review", body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "bad_input"


@pytest.mark.parametrize("path", ["0", "-1", "99999999999999999999999", "1e3", "%00", "%ED%B2%80"])
def test_hostile_game_ids_are_refused(review_client: TestClient, path: str) -> None:
    ann = register(review_client, "ann")
    assert ann.get(f"/api/v1/games/{path}/review").status_code == 422
    assert ann.post(f"/api/v1/games/{path}/review", {"depth": "quick"}).status_code == 422


def test_progress_and_the_end_are_published_on_the_game_socket(review_client: TestClient) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = finished(ann, bob)
    with review_client.websocket_connect(f"/api/v1/games/{gid}/ws") as socket:
        assert socket.receive_json()["t"] == "snapshot"
        ann.ok(f"/api/v1/games/{gid}/review", {"depth": "quick"})
        heard: list[dict[str, Any]] = []
        while not heard or heard[-1]["status"] != "done":
            message = socket.receive_json()
            assert message["t"] == "review" and message["v"] is None
            heard.append(message["d"])
    assert heard[0] == {"depth": "quick", "status": "running", "done": 0, "total": 5}
    assert heard[-1] == {"depth": "quick", "status": "done", "done": 5, "total": 5}


def test_a_review_left_unfinished_resumes_where_it_stopped(review_client: TestClient) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = finished(ann, bob)
    first = {"shares": [0.25, 0.75], "score": [20.0, 29.5], "best": "D4", "ownership": "." * 49}
    app: Any = review_client.app

    async def stopped_mid_review() -> None:
        now = datetime.now(UTC) - STALLED - timedelta(minutes=1)  # its runner's last heartbeat
        async with app.state.sessions() as db:
            db.add(
                Review(
                    game_id=gid, depth="quick", status="running", done=1, total=5,
                    result={"positions": [first]}, requested_by=ann.user_id, created_at=now, updated_at=now,
                )
            )  # fmt: skip
            await db.commit()

    review_client.portal.call(stopped_mid_review)  # type: ignore[union-attr]
    review_client.portal.call(app.state.jobs.start)  # type: ignore[union-attr]  # what a restart does
    computed(review_client)
    [review] = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert (review["status"], review["done"]) == ("done", 5)
    assert review["positions"][0] == first  # kept, not computed again


def test_a_failed_review_is_computed_again_when_asked(review_client: TestClient) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = finished(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    computed(review_client)
    review_id = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"][0]["id"]
    mark_failed(review_client, review_id)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    computed(review_client)
    [review] = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert (review["id"], review["status"], review["done"]) == (review_id, "done", 5)


def mark_failed(client: TestClient, review_id: int) -> None:
    """The review as a runner that gave up leaves it: failed after two positions."""
    app: Any = client.app

    async def fail() -> None:
        async with app.state.sessions() as db:
            failed = {"status": "failed", "done": 2, "result": {"positions": []}}
            await db.execute(update(Review).where(Review.id == review_id).values(**failed))
            await db.commit()

    client.portal.call(fail)  # type: ignore[union-attr]


@pytest.fixture
def one_review_an_hour(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(
        database_url, tmp_path, rate_limits_enabled=True, rate_limit_reviews="1/hour", **TINY
    )
    with TestClient(create_app(settings, background=False)) as client:
        yield client


def test_asking_again_for_a_failed_review_counts_as_an_ask(one_review_an_hour: TestClient) -> None:
    """A retry computes the review again in the asker's turns: it spends their hourly allowance as a new
    ask does (it used to take the member's lock and count the queue with no limit at all)."""
    client = one_review_an_hour
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    computed(client)
    mark_failed(client, client.get(f"/api/v1/games/{gid}/review").json()["reviews"][0]["id"])
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 429
    assert bob.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202  # bob's own


def test_new_reviews_are_limited_per_user(one_review_an_hour: TestClient) -> None:
    client = one_review_an_hour
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = finished(ann, bob)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    computed(client)
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 200  # stored: free
    limited = ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"})
    assert limited.status_code == 429
    assert bob.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202


def test_review_jobs_travel_on_the_queue_and_bad_ones_are_refused() -> None:
    keys, lease = Keys("p"), new_lease()
    assert read_job(ReviewJob(12, lease, 3).fields(), keys) == ReviewJob(12, lease, 3)
    assert read_job(ReviewJob(12, lease, 0).fields(), keys) == ReviewJob(12, lease, 0)  # nobody's turns
    for bad in ("0", "-3", "x", "9" * 30):
        with pytest.raises(BadJob):
            read_job({"kind": "review", "review": bad, "lease": lease, "user": "3"}, keys)
    for user in ("-1", "x", "", "9" * 30):
        with pytest.raises(BadJob):
            read_job({"kind": "review", "review": "12", "lease": lease, "user": user}, keys)
    with pytest.raises(BadJob):  # every part carries its runner's token, the first too
        read_job({"kind": "review", "review": "12", "user": "3"}, keys)


def test_a_score_stored_before_scores_were_per_team_is_left_out(review_client: TestClient) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = finished(ann, bob)
    old = {"shares": [0.25, 0.75], "score": [-3.0], "best": "D4", "ownership": "." * 49}
    app: Any = review_client.app

    async def stored_earlier() -> None:
        now = datetime.now(UTC)
        async with app.state.sessions() as db:
            db.add(
                Review(
                    game_id=gid, depth="quick", status="done", done=1, total=1, result={"positions": [old]},
                    requested_by=ann.user_id, created_at=now, updated_at=now,
                )
            )  # fmt: skip
            await db.commit()

    review_client.portal.call(stored_earlier)  # type: ignore[union-attr]
    [review] = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert review["positions"] == [{**old, "score": []}]  # not read as one team's points


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("MIAI_REVIEW_QUICK_PLAYOUTS", "0"),
        ("MIAI_REVIEW_DEEP_PLAYOUTS", "1e400"),
        ("MIAI_REVIEW_QUEUED_POSITIONS", "0"),
        ("MIAI_RATE_LIMIT_REVIEWS", "x"),
    ],
)
def test_bad_review_settings_name_their_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    from miai.server.settings import Settings, SettingsError

    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError, match=variable):
        Settings.from_env()


def test_hex_games_get_the_winning_chances_only(review_client: TestClient) -> None:
    ann, bob = register(review_client, "ann"), register(review_client, "bob")
    gid = new_game(ann, bob, kind="hex", size=5)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "c3"})
    bob.ok(f"/api/v1/games/{gid}/resign", {})
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}).status_code == 202
    computed(review_client)
    [review] = review_client.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert (review["status"], review["total"]) == ("done", 3)
    for position in review["positions"]:
        assert sum(position["shares"]) == pytest.approx(1.0, abs=1e-3)
        assert (position["score"], position["best"], position["ownership"]) == ([], None, None)
    assert review["positions"][-1]["shares"] == [1.0, 0.0]

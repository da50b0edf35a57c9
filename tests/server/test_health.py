"""Health checks: liveness, readiness, and the database and Redis reported separately (issue 15, finding 5).

Redis really going away and coming back, with real processes: test_redis_faults.py.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import create_async_engine

from miai.server.app import create_app
from tests.server.conftest import make_settings, register
from tests.server.processes import free_port
from tests.server.test_race_and_auth import start_two_player_game
from tests.server.test_websocket import receive_until


def test_without_redis_every_check_is_ok_and_redis_is_off(client: TestClient) -> None:
    health = client.get("/api/v1/health")
    assert health.status_code == 200
    assert health.json()["ok"] is True
    assert (health.json()["database"], health.json()["redis"]) == ("ok", "off")
    assert client.get("/api/v1/health/live").json() == {"ok": True}
    ready = client.get("/api/v1/health/ready")
    assert ready.status_code == 200
    assert ready.json() == {"ok": True, "database": "ok", "redis": "off"}


def test_a_server_whose_redis_is_unreachable_starts_degraded_and_stays_ready(
    database_url: str, tmp_path: Path
) -> None:
    nothing_listens = f"redis://127.0.0.1:{free_port()}/0"
    app = create_app(make_settings(database_url, tmp_path, redis_url=nothing_listens), background=False)
    with TestClient(app) as client:
        health = client.get("/api/v1/health")
        assert health.status_code == 200, health.text  # Redis is optional: the server works
        assert (health.json()["ok"], health.json()["database"], health.json()["redis"]) == (
            True,
            "ok",
            "down",
        )
        assert client.get("/api/v1/health/live").status_code == 200
        ready = client.get("/api/v1/health/ready")
        assert ready.status_code == 200  # it serves: Redis away must not take every process out of rotation
        assert (ready.json()["database"], ready.json()["redis"]) == ("ok", "down")
        # And it serves, degraded: a stored move is acknowledged and reaches this process's own sockets.
        alice, bob = register(client, "alice"), register(client, "bob")
        gid = start_two_player_game(alice, bob)
        with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
            assert sock.receive_json()["t"] == "snapshot"
            assert alice.post(f"/api/v1/games/{gid}/moves", {"move": "E5"}).status_code == 200
            assert receive_until(sock, "move")["d"]["move"] == "E5"


def test_a_database_that_does_not_answer_makes_the_server_unhealthy_but_live(client: TestClient) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    working = state.engine
    silent = create_async_engine(f"postgresql+asyncpg://nobody@127.0.0.1:{free_port()}/none")
    state.engine = silent
    try:
        health = client.get("/api/v1/health")
        assert health.status_code == 503
        assert (health.json()["ok"], health.json()["database"]) == (False, "down")
        ready = client.get("/api/v1/health/ready")
        assert ready.status_code == 503 and ready.json()["database"] == "down"
        assert ready.json()["message"] == "not ready: database down"
        assert client.get("/api/v1/health/live").status_code == 200
    finally:
        state.engine = working
        assert client.portal is not None
        client.portal.call(silent.dispose)

"""Two server processes sharing one database: events reach websocket clients of both through Redis."""

from __future__ import annotations

import uuid
from pathlib import Path

from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.conftest import need
from tests.server.conftest import make_settings, redis_reachable, register
from tests.server.test_websocket import receive_until


def test_a_move_on_one_process_reaches_a_socket_on_another(database_url: str, tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    # Pub/sub channels are global to the Redis server: a channel prefix of its own keeps this run apart
    # from other runs sharing it (whose game ids are the same small numbers).
    redis_url = "redis://127.0.0.1:6379/0"
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    settings = make_settings(database_url, tmp_path, redis_url=redis_url, redis_prefix=prefix)
    with (
        TestClient(create_app(settings, background=False)) as first,
        TestClient(create_app(settings, background=False)) as second,
    ):
        alice = register(first, f"alice{uuid.uuid4().hex[:6]}")
        bob = register(first, f"bob{uuid.uuid4().hex[:6]}")
        gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
        bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
        alice.ok(f"/api/v1/games/{gid}/confirm")
        bob.ok(f"/api/v1/games/{gid}/confirm")
        with second.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
            assert sock.receive_json()["t"] == "snapshot"
            alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})  # through the first process
            event = receive_until(sock, "move")
            assert event["d"]["move"] == "E5"
        # The second process agrees on the game state and accepts bob's reply (its cache is not stale).
        reply = second.post(f"/api/v1/games/{gid}/moves", json={"move": "D4"}, headers=bob.headers)
        assert reply.status_code == 200, reply.text
        assert [
            m["move"] for m in first.get(f"/api/v1/games/{gid}", headers=alice.headers).json()["moves"]
        ] == ["E5", "D4"]
        # The second process now holds the game's row; a move through the first reaches it through Redis,
        # which marks that row, so bob's next move through the second process goes through at once.
        with second.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
            assert sock.receive_json()["t"] == "snapshot"
            alice.ok(f"/api/v1/games/{gid}/moves", {"move": "F6"})
            assert receive_until(sock, "move")["d"]["move"] == "F6"
        reply = second.post(f"/api/v1/games/{gid}/moves", json={"move": "C3"}, headers=bob.headers)
        assert reply.status_code == 200, reply.text


def test_every_test_app_gets_a_redis_prefix_of_its_own(tmp_path: Path) -> None:
    """Test runs (and xdist workers) share one Redis: an app built by make_settings must never listen on the
    default prefix, nor on another test's."""
    from miai.server.settings import Settings

    redis_url = "redis://127.0.0.1:6379/0"
    first, second = (make_settings("sqlite+aiosqlite://", tmp_path, redis_url=redis_url) for _ in range(2))
    assert Settings().redis_prefix not in {first.redis_prefix, second.redis_prefix}
    assert first.redis_prefix != second.redis_prefix

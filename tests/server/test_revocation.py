"""A revoked token or an ended session closes its open websockets with 4401 (issue 15, finding 7).

Across processes the revocation goes through Redis: see test_redis_faults.py (the hub test).
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import Player, register

PINGS = 50


def _close_code(sock: WebSocketTestSession, ping: dict[str, Any]) -> int | None:
    """The code the server closes the socket with, or None if it still answers pings. Pings keep every
    wait bounded: the test client cannot time out a receive."""
    try:
        for _ in range(PINGS):
            sock.send_json(ping)
            sock.receive_json()
    except WebSocketDisconnect as closed:
        return closed.code
    return None


USER_PING = {"t": "ping"}
GAME_PING = {"t": "ping", "id": 1}


def _token_id(player: Player) -> int:
    tokens = player.get("/api/v1/me/tokens").json()["tokens"]
    assert len(tokens) == 1
    return int(tokens[0]["id"])


def test_deleting_a_token_closes_its_websockets_only(client: TestClient) -> None:
    alice = register(client, f"alice{uuid.uuid4().hex[:6]}")
    bob = register(client, f"bob{uuid.uuid4().hex[:6]}")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    session = client.post("/api/v1/session", json={"username": alice.username, "password": "correct horse"})
    csrf = {"X-CSRF-Token": session.json()["csrf_token"]}  # tokens are made and deleted by sessions only
    made = client.post("/api/v1/me/tokens", json={"name": "second"}, headers=csrf)
    assert made.status_code == 201, made.text
    second = made.json()["token"]
    first_id = _token_id_named(alice, "tests")
    with (
        client.websocket_connect(f"/api/v1/ws?token={alice.token}") as alice_user,
        client.websocket_connect(f"/api/v1/games/{gid}/ws?token={alice.token}") as alice_game,
        client.websocket_connect(f"/api/v1/ws?token={second}") as alice_other_token,
        client.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as bob_game,
    ):
        assert alice_game.receive_json()["t"] == "snapshot"
        assert bob_game.receive_json()["t"] == "snapshot"
        deleted = client.delete(f"/api/v1/me/tokens/{first_id}", headers=csrf)
        assert deleted.status_code == 204, deleted.text
        assert _close_code(alice_user, USER_PING) == 4401
        assert _close_code(alice_game, GAME_PING) == 4401
        assert _close_code(alice_other_token, USER_PING) is None  # another token of hers: still valid
        assert _close_code(bob_game, GAME_PING) is None


def _token_id_named(player: Player, name: str) -> int:
    tokens = player.get("/api/v1/me/tokens").json()["tokens"]
    return int(next(t["id"] for t in tokens if t["name"] == name))


def test_logging_out_closes_the_sessions_websockets(client: TestClient) -> None:
    bob = register(client, f"bob{uuid.uuid4().hex[:6]}")
    name = f"carol{uuid.uuid4().hex[:6]}"
    registered = client.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
    assert registered.status_code == 201, registered.text
    csrf = registered.json()["csrf_token"]
    gid = bob.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    with (
        client.websocket_connect("/api/v1/ws") as carol_user,  # the session cookie
        client.websocket_connect(f"/api/v1/games/{gid}/ws") as carol_game,
        client.websocket_connect(f"/api/v1/ws?token={bob.token}") as bob_user,
    ):
        assert carol_game.receive_json()["d"]["you"]["user_id"] == registered.json()["user"]["id"]
        assert _close_code(carol_user, USER_PING) is None
        logged_out = client.delete("/api/v1/session", headers={"X-CSRF-Token": csrf})
        assert logged_out.status_code == 204, logged_out.text
        assert _close_code(carol_user, USER_PING) == 4401
        assert _close_code(carol_game, GAME_PING) == 4401
        assert _close_code(bob_user, USER_PING) is None


@pytest.mark.parametrize("credential", ["\x00", "\ud800", "x" * 10_000, "miai_revoked"])
def test_a_socket_with_an_unknown_token_is_closed_4401_as_http_answers_401(
    client: TestClient, credential: str
) -> None:
    """An unknown (or revoked) token is refused, never quietly taken as a spectator's socket: a client
    whose token was revoked learns it at once instead of watching without noticing."""
    alice = register(client, f"alice{uuid.uuid4().hex[:6]}")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    token = quote(credential, errors="surrogatepass")
    assert client.get(f"/api/v1/me?token={token}").status_code == 401
    for url in (f"/api/v1/games/{gid}/ws?token={token}", f"/api/v1/ws?token={token}"):
        with client.websocket_connect(url) as refused:
            with pytest.raises(WebSocketDisconnect) as closed:
                refused.receive_json()
            assert closed.value.code == 4401


def test_a_socket_without_any_token_is_a_spectators(client: TestClient) -> None:
    alice = register(client, f"alice{uuid.uuid4().hex[:6]}")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token=") as anonymous:
        snapshot = anonymous.receive_json()
        assert snapshot["t"] == "snapshot" and snapshot["d"]["you"] is None

"""The realtime protocol: snapshots, live events, moves over the socket, resync, privacy."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.test_race_and_auth import start_two_player_game


def receive_until(socket: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        message = socket.receive_json()
        if message["t"] == kind:
            return message  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind!r} message within {limit}")


def test_moves_over_the_socket_are_acknowledged_and_broadcast(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    url = f"/api/v1/games/{gid}/ws"
    with (
        client.websocket_connect(f"{url}?token={alice.token}") as a_sock,
        client.websocket_connect(f"{url}?token={bob.token}") as b_sock,
    ):
        snap = a_sock.receive_json()
        assert snap["t"] == "snapshot"
        assert snap["d"]["position"]["to_move"] == {"team": 1, "seat": 0}
        assert b_sock.receive_json()["t"] == "snapshot"
        a_sock.send_json({"t": "move", "d": {"move": "E5", "v": snap["v"]}, "id": "m1"})
        ack = receive_until(a_sock, "ack")
        assert ack["d"]["id"] == "m1" and ack["d"]["ok"]
        event = receive_until(b_sock, "move")
        assert event["d"]["move"] == "E5"
        assert event["v"] == ack["d"]["version"]
        assert event["d"]["position"]["board"][4 * 9 + 4] == 1
        b_sock.send_json({"t": "move", "d": {"move": "E5"}, "id": "m2"})
        error = receive_until(b_sock, "error")
        assert error["d"]["id"] == "m2" and error["d"]["error"] == "illegal_move"
        b_sock.send_json({"t": "nonsense"})
        assert receive_until(b_sock, "error")["d"]["error"] == "bad_message"
        b_sock.send_text("{not json")
        assert receive_until(b_sock, "error")["d"]["error"] == "bad_message"
        b_sock.send_json({"t": "ping", "id": 7})
        assert receive_until(b_sock, "ack")["d"] == {"id": 7, "pong": True}


def test_reconnect_gets_missed_events_then_live_ones(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    version = alice.get(f"/api/v1/games/{gid}").json()["version"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?since={version}&token={bob.token}") as sock:
        missed = [sock.receive_json() for _ in range(2)]
        assert [m["d"]["move"] for m in missed] == ["C3", "G7"]
        assert [m["v"] for m in missed] == [version + 1, version + 2]
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
        live = receive_until(sock, "move")
        assert live["d"]["move"] == "D4" and live["v"] == version + 3
    with client.websocket_connect(f"/api/v1/games/{gid}/ws") as spectator:  # no since: a snapshot
        snap = spectator.receive_json()
        assert snap["t"] == "snapshot" and snap["v"] == version + 3


def test_spectators_never_receive_team_chat(client: TestClient) -> None:
    team_chat_reaches_only_the_team(client)


def team_chat_reaches_only_the_team(client: TestClient) -> None:
    """Two teams of two and a spectator: a team message reaches the mate only; a public one, everybody."""
    users = [register(client, f"user{i}") for i in range(4)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    for user, team in zip(users[1:], [1, 2, 2], strict=True):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    url = f"/api/v1/games/{gid}/ws"
    with (
        client.websocket_connect(url) as spectator,
        client.websocket_connect(f"{url}?token={users[2].token}") as opponent,
        client.websocket_connect(f"{url}?token={users[1].token}") as mate,
    ):
        for sock in (spectator, opponent, mate):
            assert sock.receive_json()["t"] == "snapshot"
        users[0].ok(f"/api/v1/games/{gid}/chat", {"channel": "team", "text": "secret"})
        users[0].ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "hello all"})
        assert receive_until(mate, "chat")["d"]["text"] == "secret"
        assert receive_until(mate, "chat")["d"]["text"] == "hello all"
        for sock in (spectator, opponent):
            assert receive_until(sock, "chat")["d"]["text"] == "hello all"


def test_dashboard_socket_pings_on_turn_changes(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    with client.websocket_connect(f"/api/v1/ws?token={bob.token}") as sock:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        assert receive_until(sock, "dashboard")["d"]["game_id"] == gid
    board = bob.get("/api/v1/dashboard").json()["games"]
    assert board[0]["id"] == gid and board[0]["your_turn"]


def test_the_live_socket_brings_public_boards_to_anyone(client: TestClient) -> None:
    """The home and watch pages' socket (/api/v1/live/ws), without a login: each move of a public game as
    its new board and move count; a private game's moves never."""
    alice, bob = register(client, "alice"), register(client, "bob")
    body = {"size": 9, "team": 1, "visibility": "private", "seconds_per_move": 3600}
    created = alice.ok("/api/v1/games", body)
    hidden = created["id"]
    bob.ok(f"/api/v1/games/{hidden}/join", {"team": 2, "invite": created["invite_code"]})
    alice.ok(f"/api/v1/games/{hidden}/confirm")
    bob.ok(f"/api/v1/games/{hidden}/confirm")
    gid = start_two_player_game(alice, bob)
    with client.websocket_connect("/api/v1/live/ws") as sock:
        alice.ok(f"/api/v1/games/{hidden}/moves", {"move": "E5"})
        other = alice.ok("/api/v1/games", body)["id"]  # private: no lobby notice names it
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        bob.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
        heard = [sock.receive_json() for _ in range(2)]
        first, second = [m for m in heard if m["t"] == "live"]
        sock.send_json({"t": "move", "d": {"move": "D4"}})
        refused = receive_until(sock, "error")
    assert all(m["d"].get("game_id") not in (hidden, other) for m in heard)
    assert first["d"]["game_id"] == gid and first["d"]["moves"] == 1 and first["v"] is None
    assert set(second["d"]) == {"game_id", "moves", "preview"}
    assert (second["d"]["game_id"], second["d"]["moves"]) == (gid, 2)
    cells = second["d"]["preview"]["cells"]
    assert second["d"]["preview"]["size"] == 9 and sorted(cells.replace(".", "")) == ["1", "2"]
    assert refused["d"]["error"] == "bad_message"  # it takes pings alone
    listed = client.get("/api/v1/games/live").json()["games"]
    assert [g["preview"] for g in listed if g["id"] == gid] == [second["d"]["preview"]]

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import register


def test_two_players_play_a_short_game(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    game = alice.ok("/api/v1/games", {"size": 9, "preset": "chinese", "team": 1, "seconds_per_move": 60})
    gid = game["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert snap["status"] == "active"
    assert snap["to_move"]["user_id"] == alice.user_id
    ack = alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5", "version": snap["version"]})
    assert ack["ok"]
    refused = alice.post(f"/api/v1/games/{gid}/moves", {"move": "D4"})
    assert refused.status_code == 409
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
    final = bob.get(f"/api/v1/games/{gid}").json()
    assert final["status"] == "finished"
    assert final["result"]["winners"] == [1]

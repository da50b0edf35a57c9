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


def test_the_openapi_schema_documents_the_errors_the_api_really_sends(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and set(schemas["Error"]["required"]) == {"error", "message"}
    create = spec["paths"]["/api/v1/games"]["post"]["responses"]
    assert "422" not in create
    assert create["4XX"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    alice = register(client, "alice")
    refused = alice.post("/api/v1/games", {"size": "huge"})  # a validation error, as documented
    assert refused.status_code == 422 and set(refused.json()) >= {"error", "message"}

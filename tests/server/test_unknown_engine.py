"""A computer level that no engine plays is refused up front (issue 15, finding 10): no game left hanging."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.engines.levels import ENV_VAR, external_engines
from tests.server.conftest import register

UNKNOWN = ["no-such-engine", "99", "11x", "gnugo2", "Computer", "level-1"]


def refused_naming_the_levels(response: Any, names: list[str]) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "bad_input"
    assert "1..10" in body["message"]
    assert body["available"][:10] == list(range(1, 11))
    for name in names:
        assert name in body["message"] and name in body["available"]


@pytest.mark.parametrize("level", UNKNOWN)
def test_a_practice_game_against_an_unknown_engine_is_refused(client: TestClient, level: str) -> None:
    alice = register(client, "alice")
    installed = [engine.name for engine in external_engines()]  # GNU Go, when this machine has it
    refused_naming_the_levels(alice.post("/api/v1/practice", {"size": 9, "level": level}), installed)
    assert alice.get("/api/v1/dashboard").json()["games"] == []  # no game was made


def test_a_configured_engine_is_offered_and_accepted(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    engines = [{"name": "katago", "command": ["katago", "gtp"], "level": 12}]
    monkeypatch.setenv(ENV_VAR, json.dumps(engines))
    alice = register(client, "alice")
    refused_naming_the_levels(alice.post("/api/v1/practice", {"level": "leela"}), ["katago"])
    # Black moves first, so the engine is not started by these tests.
    for level in ("katago", "12"):
        created = alice.post("/api/v1/practice", {"size": 9, "level": level, "colour": "black"})
        assert created.status_code == 201, created.text


def test_a_computer_seat_with_an_unknown_engine_is_refused(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    refused_naming_the_levels(alice.post(f"/api/v1/games/{gid}/computer", {"level": "no-such-engine"}), [])
    game = alice.get(f"/api/v1/games/{gid}").json()
    assert game["status"] == "waiting"
    assert len(game["players"]) == 1  # only the creator: no computer was seated
    assert alice.post(f"/api/v1/games/{gid}/computer", {"level": 3}).status_code == 200


@pytest.mark.parametrize("level", ["", "\x00", "a\ud800", "x" * 33, None, 1.5, [], {}, 0, 11, 2**64])
def test_hostile_levels_are_refused_cleanly(client: TestClient, level: Any) -> None:
    alice = register(client, "alice")
    body = json.dumps({"size": 9, "level": level})  # ASCII escapes: a lone surrogate travels as \ud800
    headers = {**alice.headers, "Content-Type": "application/json"}
    response = client.post("/api/v1/practice", content=body, headers=headers)
    assert response.status_code == 422, response.text
    assert response.json()["error"] in {"bad_input", "bad_options"}


@pytest.mark.parametrize("level", ["²", "٣", "１"])
def test_levels_written_in_other_digits_are_no_levels(client: TestClient, level: str) -> None:
    """`str.isdigit` takes superscripts and other scripts' digits, and int() then fails or reads them."""
    alice = register(client, "alice")
    refused_naming_the_levels(alice.post("/api/v1/practice", {"size": 9, "level": level}), [])
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    refused_naming_the_levels(alice.post(f"/api/v1/games/{gid}/computer", {"level": level}), [])
    assert alice.post("/api/v1/practice", {"size": 9, "level": " 3 ", "colour": "black"}).status_code == 201

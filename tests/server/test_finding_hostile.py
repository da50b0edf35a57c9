"""Attack on the finding API of issue #17 (archive `since`/`until` in UTC, the live list's previews)."""

from __future__ import annotations

from urllib.parse import quote

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.test_race_and_auth import start_two_player_game

ARCHIVE = "/api/v1/games/archive"


def test_since_and_until_whose_utc_instant_leaves_the_calendar_answer_422(client: TestClient) -> None:
    """Found by attack: `_moment` converts an offset date to UTC before it checks the range, so a date at
    the very start or end of the calendar with an offset overflows in `astimezone` (a 500)."""
    for name, moment in (
        ("since", "0001-01-01T00:00:00+01:00"),
        ("until", "0001-01-01T00:30:00+23:59"),
        ("since", "9999-12-31T23:30:00-05:00"),
        ("until", "9999-12-31T23:59:59.999999-00:01"),
    ):
        response = client.get(f"{ARCHIVE}?{name}={quote(moment)}")
        assert response.status_code == 422, (name, moment, response.status_code, response.text)
        assert response.json()["error"] == "bad_input"


def test_a_private_game_has_no_preview_anywhere_public(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    created = alice.ok("/api/v1/games", {"size": 9, "team": 1, "visibility": "private"})
    hidden = created["id"]
    bob.ok(f"/api/v1/games/{hidden}/join", {"team": 2, "invite": created["invite_code"]})
    alice.ok(f"/api/v1/games/{hidden}/confirm")
    bob.ok(f"/api/v1/games/{hidden}/confirm")
    alice.ok(f"/api/v1/games/{hidden}/moves", {"move": "E5"})
    shown = start_two_player_game(alice, bob)
    live = client.get("/api/v1/games/live").json()["games"]
    assert [g["id"] for g in live] == [shown]
    assert live[0]["preview"]["cells"] == "." * 81
    visitor = client.get("/api/v1/users/alice").json()  # the private game is not there, nor its board
    assert [g["id"] for g in visitor["current"]] == [shown], visitor
    assert visitor["current"][0]["preview"]["cells"] == "." * 81
    mine = bob.get("/api/v1/users/alice").json()  # bob plays in it: he sees it, with its one stone
    assert {g["id"]: g["preview"]["cells"].count("1") for g in mine["current"]} == {hidden: 1, shown: 0}

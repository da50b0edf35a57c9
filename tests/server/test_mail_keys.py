"""Notifications are keyed by the game's version, and games against the computer send no "your turn" mail.

Keyed by ply, the "your turn" mail after an undo reused a stored key: the unique constraint failed the
computer's reply and a practice game hung whenever SMTP was configured.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.server.conftest import Player, make_settings, register
from tests.server.test_computer_games import centre_first, moves, settle
from tests.server.test_email import outbox_rows

CLOSED_PORT = 9  # nothing is sent in these tests: the outbox loop does not run


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(
        database_url, tmp_path, smtp_host="127.0.0.1", smtp_port=CLOSED_PORT, mail_from="miai@example.org"
    )
    with TestClient(create_app(settings, background=False, chooser=centre_first)) as test_client:
        yield test_client


def turn_mails(client: TestClient) -> list[str]:
    return [m.dedupe_key for m in outbox_rows(client) if m.dedupe_key.startswith("turn:")]


def test_a_practice_game_with_mail_configured_survives_undo(client: TestClient) -> None:
    alice = register(client, "alice", "alice@example.org")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    assert moves(alice, gid) == ["C3", "E5"]
    alice.ok(f"/api/v1/games/{gid}/undo")
    assert moves(alice, gid) == []
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})
    settle(client)
    assert moves(alice, gid) == ["G7", "E5"]  # the computer replied again: no hang
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    assert moves(alice, gid) == ["G7", "E5", "C3", "E4"]
    assert turn_mails(client) == []  # the player is at the board: no "your turn" mail


def test_a_practice_game_finished_twice_through_undo(client: TestClient) -> None:
    """Resigning, taking the resignation back and resigning again stores the game's end twice."""
    alice = register(client, "alice", "alice@example.org")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    for _ in range(2):
        alice.ok(f"/api/v1/games/{gid}/resign", {})
        assert alice.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
        alice.ok(f"/api/v1/games/{gid}/undo")
        assert alice.get(f"/api/v1/games/{gid}").json()["status"] == "active"
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})
    settle(client)
    assert moves(alice, gid) == ["C3", "E5", "G7", "E4"]


def play(players: dict[int, Player], gid: int, vertices: list[str]) -> None:
    for index, vertex in enumerate(vertices):
        players[index % 2].ok(f"/api/v1/games/{gid}/moves", {"move": vertex})


def test_turn_mails_between_people_are_keyed_by_the_games_version(client: TestClient) -> None:
    alice, bob = register(client, "alice", "alice@example.org"), register(client, "bob", "bob@example.org")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    play({0: alice, 1: bob}, gid, ["E5", "C3", "G7"])
    version = alice.get(f"/api/v1/games/{gid}").json()["version"]
    keys = turn_mails(client)
    assert len(keys) == 4  # alice at the start, then bob, alice, bob after each move
    assert keys[-1] == f"turn:{gid}:v{version}:{bob.user_id}"

"""Challenges cannot be used to mail-bomb somebody.

A sender gets at most 5 challenge mails out per hour: the 6th challenge is refused (429, nothing created). A
recipient gets at most 2 challenge mails a day: further challenges still reach the dashboard, without mail.
The counts live in the database, so two server processes share them.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.server.conftest import Player, register
from tests.server.test_email import outbox_rows, smtp_settings
from tests.server.test_outbox_retry import Clock

CLOSED_PORT = 9  # the mails stay in the outbox: these tests count what is queued


@pytest.fixture
def clock() -> Clock:
    return Clock()


def app_client(database_url: str, tmp_path: Path, clock: Clock) -> TestClient:
    settings = smtp_settings(database_url, tmp_path, CLOSED_PORT)
    return TestClient(create_app(settings, now=clock, background=False))


@pytest.fixture
def client(database_url: str, tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with app_client(database_url, tmp_path, clock) as test_client:
        yield test_client


def challenge_mails(client: TestClient) -> list[tuple[str, str]]:
    return [(m.to_address, m.subject) for m in outbox_rows(client) if m.kind == "challenge"]


def players(client: TestClient, count: int) -> list[Player]:
    return [register(client, f"player{i}", f"player{i}@example.org") for i in range(count)]


def dashboard_challenges(player: Player) -> list[int]:
    return [c["id"] for c in player.get("/api/v1/dashboard").json()["challenges"]]


def test_a_sender_is_refused_after_five_challenge_mails_an_hour(client: TestClient, clock: Clock) -> None:
    sender, *others = players(client, 8)
    for other in others[:5]:
        assert sender.post("/api/v1/games", {"size": 9, "challenge": other.username}).status_code == 201
    assert len(challenge_mails(client)) == 5

    refused = sender.post("/api/v1/games", {"size": 9, "challenge": others[5].username})
    assert refused.status_code == 429, refused.text
    body = refused.json()
    assert body["error"] == "rate_limited"
    assert "challenged 5 players" in body["message"] and 0 < body["retry_after"] <= 3600
    assert refused.headers["Retry-After"] == str(body["retry_after"])
    assert dashboard_challenges(others[5]) == []  # nothing was created
    assert len(challenge_mails(client)) == 5
    assert sender.post("/api/v1/games", {"size": 9}).status_code == 201  # open games are not challenges

    clock.advance(3601)
    assert sender.post("/api/v1/games", {"size": 9, "challenge": others[5].username}).status_code == 201
    assert len(dashboard_challenges(others[5])) == 1


def test_a_recipient_gets_two_challenge_mails_a_day(client: TestClient, clock: Clock) -> None:
    target, *senders = players(client, 4)
    for sender in senders:
        assert sender.post("/api/v1/games", {"size": 9, "challenge": target.username}).status_code == 201
    assert len(dashboard_challenges(target)) == 3  # every challenge reaches the dashboard
    assert challenge_mails(client) == [
        ("player0@example.org", "Miai: player1 challenges you"),
        ("player0@example.org", "Miai: player2 challenges you"),
    ]
    clock.advance(86401)
    senders[2].ok("/api/v1/games", {"size": 9, "challenge": target.username})
    assert len(challenge_mails(client)) == 3


def test_a_swap_match_is_one_mail(client: TestClient) -> None:
    alice, bob = players(client, 2)
    games = alice.ok("/api/v1/games", {"size": 9, "challenge": bob.username, "swap_match": True})["games"]
    assert len(games) == 2
    assert len(challenge_mails(client)) == 1


def test_the_cap_holds_across_server_processes(database_url: str, tmp_path: Path, clock: Clock) -> None:
    with (
        app_client(database_url, tmp_path, clock) as first,
        app_client(database_url, tmp_path, clock) as second,
    ):
        sender, *others = players(first, 7)

        def challenge(via: TestClient, other: Player) -> int:
            body = {"size": 9, "challenge": other.username}
            return via.post("/api/v1/games", json=body, headers=sender.headers).status_code

        assert [challenge((first, second)[i % 2], other) for i, other in enumerate(others[:5])] == [201] * 5
        assert [challenge(via, others[5]) for via in (first, second)] == [429, 429]


def test_concurrent_challenges_cannot_pass_the_cap(client: TestClient) -> None:
    """Eight challenges at once from one sender: five get through, the others are refused, none fails."""
    sender, *others = players(client, 9)
    with ThreadPoolExecutor(len(others)) as pool:
        statuses = list(
            pool.map(lambda o: sender.post("/api/v1/games", {"size": 9, "challenge": o.username}), others)
        )
    assert sorted(r.status_code for r in statuses) == [201] * 5 + [429] * 3, [r.text for r in statuses]
    assert len(challenge_mails(client)) == 5

"""Attack on the in-page notifications of issue #17: racing commands, and whose notifications are whose."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.server.conftest import Player, register
from tests.server.test_race_and_auth import start_two_player_game

LIST = "/api/v1/me/notifications"
READ = "/api/v1/me/notifications/read"


def race(client: TestClient, *calls: tuple[Player, str, dict[str, Any] | None]) -> list[httpx.Response]:
    async def together() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            return list(
                await asyncio.gather(
                    *[http.post(url, json=body, headers=who.headers) for who, url, body in calls]
                )
            )

    assert client.portal is not None
    return client.portal.call(together)


def shown(player: Player) -> list[tuple[str, bool]]:
    body = player.get(LIST).json()
    return [(n["kind"], n["read"]) for n in body["notifications"]]


def test_a_move_racing_a_resignation_leaves_no_stale_turn(client: TestClient) -> None:
    """Bob's move and Bob's resignation sent at once (resigning is a move: on one's own turn): whichever is
    stored first, a finished game leaves each player its result and no unread "your turn"; a game that goes
    on leaves Alice her turn."""
    alice, bob = register(client, "alice"), register(client, "bob")
    for round_ in range(4):
        gid = start_two_player_game(alice, bob)
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        race(
            client,
            (bob, f"/api/v1/games/{gid}/moves", {"move": "C3"}),
            (bob, f"/api/v1/games/{gid}/resign", None),
        )
        finished = alice.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
        for who in (alice, bob):
            about = [n for n in who.get(LIST).json()["notifications"] if n["game_id"] == gid]
            unread = [n["kind"] for n in about if not n["read"]]
            expected = ["finished"] if finished else (["turn"] if who is alice else [])
            assert unread == expected, (round_, who.username, about)


def test_nobody_reads_or_marks_another_members_notifications(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    start_two_player_game(alice, bob)
    mine = alice.get(LIST).json()["notifications"]
    assert [n["kind"] for n in mine] == ["turn"]
    assert bob.get(LIST).json()["notifications"] == []
    for body in ({"id": mine[0]["id"]}, {"up_to": mine[0]["id"]}, {}):
        answer = bob.post(READ, body).json()
        assert answer["marked"] == 0, body
    assert shown(alice) == [("turn", False)]
    assert client.get(LIST).status_code == 401
    assert client.post(READ, json={}).status_code == 401

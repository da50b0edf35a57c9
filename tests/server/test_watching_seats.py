"""Attack on the spectator count of issue #17 (`?watchers=1` on the game socket, the live list's
`spectators`): who is counted, and what the count says about a private game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.test_watching import hears_count


def test_a_spectator_who_takes_a_seat_is_no_longer_counted(client: TestClient) -> None:
    """Found by attack: a socket is counted as a spectator once, when it connects. Bob watches the open
    game, then joins it from the same page: he is a player now (players are not counted, docs/realtime.md),
    yet the page and the live list keep counting him as watching."""
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = ann.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    url = f"/api/v1/games/{gid}/ws?watchers=1"
    with client.websocket_connect(f"{url}&token={ann.token}") as player:
        assert player.receive_json()["t"] == "snapshot"
        assert player.receive_json()["d"] == {"count": 0}
        with client.websocket_connect(f"{url}&token={bob.token}") as page:
            assert page.receive_json()["t"] == "snapshot"
            assert page.receive_json()["d"] == {"count": 1}
            bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
            ann.ok(f"/api/v1/games/{gid}/confirm")
            bob.ok(f"/api/v1/games/{gid}/confirm")
            live = client.get("/api/v1/games/live").json()["games"]
            assert [g["id"] for g in live] == [gid]
            assert live[0]["spectators"] == 0, live[0]
            hears_count(player, 0)

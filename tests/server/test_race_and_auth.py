"""Concurrency and authorisation: one move per turn, nobody acts for someone else, bad input gets a 4xx."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from miai.core.go import Place, new_game, preset
from miai.core.go.vertex import format_point
from miai.server.app import create_app
from tests.server.conftest import Player, make_settings, register


def start_two_player_game(alice: Player, bob: Player, **options: Any) -> int:
    body = {"size": 9, "preset": "chinese", "team": 1, "seconds_per_move": 3600, **options}
    gid = int(alice.ok("/api/v1/games", body)["id"])
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    return gid


def test_fifty_concurrent_moves_for_one_turn(database_url: str, tmp_path: Path) -> None:
    """Exactly one of 50 different moves sent at once for the same turn is accepted; replay agrees."""
    app = create_app(make_settings(database_url, tmp_path), background=False)
    with TestClient(app) as client:
        alice, bob = register(client, "alice"), register(client, "bob")
        gid = start_two_player_game(alice, bob)
        version = alice.get(f"/api/v1/games/{gid}").json()["version"]

        async def storm() -> list[httpx.Response]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
                points = [format_point(p, 9) for p in range(50)]
                return list(
                    await asyncio.gather(
                        *[
                            http.post(
                                f"/api/v1/games/{gid}/moves",
                                json={"move": v, "version": version},
                                headers=alice.headers,
                            )
                            for v in points
                        ]
                    )
                )

        assert client.portal is not None
        responses = client.portal.call(storm)
        accepted = [r for r in responses if r.status_code == 200]
        refused = [r for r in responses if r.status_code != 200]
        assert len(accepted) == 1, [r.text for r in responses[:3]]
        assert len(refused) == 49
        assert all(r.status_code == 409 for r in refused)
        snap = alice.get(f"/api/v1/games/{gid}").json()
        assert [m["move"] for m in snap["moves"]] == [snap["moves"][0]["move"]]
        state = new_game(9, preset("chinese", 9)).play(Place(_point(snap["moves"][0]["move"])))
        assert snap["position"]["board"] == [0 if c is None else c + 1 for c in state.board()]


def _point(vertex: str) -> int:
    from miai.core.go.vertex import parse_point

    return parse_point(vertex, 9)


def test_nobody_moves_for_another_player(client: TestClient) -> None:
    alice, bob, eve = register(client, "alice"), register(client, "bob"), register(client, "eve")
    gid = start_two_player_game(alice, bob)
    assert bob.post(f"/api/v1/games/{gid}/moves", {"move": "E5"}).status_code == 409  # not bob's turn
    assert eve.post(f"/api/v1/games/{gid}/moves", {"move": "E5"}).status_code == 403  # not a player
    assert client.post(f"/api/v1/games/{gid}/moves", json={"move": "E5"}).status_code == 401
    assert eve.post(f"/api/v1/games/{gid}/resign", {}).status_code == 403
    assert bob.post(f"/api/v1/games/{gid}/resign", {}).status_code == 409  # only on your own turn
    assert alice.get(f"/api/v1/games/{gid}").json()["moves"] == []


def test_private_game_needs_the_invite(client: TestClient) -> None:
    alice, bob, eve = register(client, "alice"), register(client, "bob"), register(client, "eve")
    created = alice.ok("/api/v1/games", {"size": 9, "team": 1, "visibility": "private"})
    gid, invite = created["id"], created["invite_code"]
    assert invite
    assert eve.get(f"/api/v1/games/{gid}").status_code == 403
    assert eve.post(f"/api/v1/games/{gid}/join", {"team": 2}).status_code == 403
    assert eve.post(f"/api/v1/games/{gid}/chat", {"text": "hi"}).status_code == 403
    assert client.get(f"/api/v1/games/{gid}/events").status_code == 403
    assert all(g["id"] != gid for g in client.get("/api/v1/games").json()["games"])
    assert bob.get(f"/api/v1/games/{gid}?invite={invite}").status_code == 200
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2, "invite": invite})
    assert eve.get(f"/api/v1/games/{gid}").status_code == 403
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/api/v1/games/{gid}/ws?token={eve.token}") as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 4403


def test_team_chat_stays_inside_the_team(client: TestClient) -> None:
    users = [register(client, f"user{i}") for i in range(4)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 2, "players_per_team": 2, "team": 1})["id"]
    users[1].ok(f"/api/v1/games/{gid}/join", {"team": 1})
    users[2].ok(f"/api/v1/games/{gid}/join", {"team": 2})
    users[3].ok(f"/api/v1/games/{gid}/join", {"team": 2})
    users[0].ok(f"/api/v1/games/{gid}/chat", {"channel": "team", "text": "secret plan"})
    users[0].ok(f"/api/v1/games/{gid}/chat", {"channel": "public", "text": "good luck"})
    spectator = register(client, "watcher")

    def texts(viewer: Player | None) -> list[str]:
        getter = viewer.get if viewer else client.get
        chat = getter(f"/api/v1/games/{gid}").json()["chat"]
        events = getter(f"/api/v1/games/{gid}/events").json()["events"]
        return [c["text"] for c in chat] + [e["d"]["text"] for e in events if e["t"] == "chat"]

    assert "secret plan" in texts(users[1])
    for outsider in (users[2], users[3], spectator, None):
        assert "secret plan" not in texts(outsider)
        assert "good luck" in texts(outsider)
    assert users[2].post(f"/api/v1/games/{gid}/chat", {"channel": "team:1", "text": "x"}).status_code == 201
    assert spectator.post(f"/api/v1/games/{gid}/chat", {"channel": "team", "text": "x"}).status_code == 403


def test_private_messages_are_in_both_players_snapshots_after_a_reload(client: TestClient) -> None:
    """A private message was stored for the pair but looked up for each player alone: it showed live, then
    vanished from the snapshot a reloaded page reads."""
    users = [register(client, f"pm{i}") for i in range(3)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "teams": 3, "preset": "dipgo", "team": 1})["id"]
    users[1].ok(f"/api/v1/games/{gid}/join", {"team": 2})
    users[2].ok(f"/api/v1/games/{gid}/join", {"team": 3})
    users[0].ok(f"/api/v1/games/{gid}/chat", {"channel": f"user:{users[1].user_id}", "text": "just us"})

    def snapshot_texts(viewer: Player | None) -> list[str]:
        getter = viewer.get if viewer else client.get
        return [c["text"] for c in getter(f"/api/v1/games/{gid}").json()["chat"]]

    assert snapshot_texts(users[0]) == ["just us"]
    assert snapshot_texts(users[1]) == ["just us"]
    assert snapshot_texts(users[2]) == []
    assert snapshot_texts(None) == []


def test_no_private_chat_in_two_player_games(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    response = alice.post(f"/api/v1/games/{gid}/chat", {"channel": f"user:{bob.user_id}", "text": "psst"})
    assert response.status_code == 403
    assert "two-player" in response.json()["message"]


BAD_REQUESTS = [
    ("/api/v1/games", {"size": 99}),
    ("/api/v1/games", {"teams": 1}),
    ("/api/v1/games", {"teams": 3, "ko": "simple"}),
    ("/api/v1/games", {"preset": "nonsense"}),
    ("/api/v1/games", {"size": 11, "preset": "dgo"}),
    ("/api/v1/games", {"handicap": 4, "teams": 3}),
    ("/api/v1/games", {"seconds_per_move": 0}),
    ("/api/v1/games", {"clock": "fischer"}),
    ("/api/v1/games", {"komi": [1, 2, 3]}),
    ("/api/v1/games", "not json"),
    ("/api/v1/games", {"challenge": "nobody-here"}),
    ("/api/v1/games/999999/join", {}),
    ("/api/v1/me/tokens", {"name": ""}),
]


@pytest.mark.parametrize(("url", "body"), BAD_REQUESTS)
def test_bad_input_gets_a_clear_4xx(client: TestClient, url: str, body: Any) -> None:
    alice = register(client, "alice")
    if isinstance(body, str):
        response = client.post(
            url, content=body, headers={**alice.headers, "content-type": "application/json"}
        )
    else:
        response = alice.post(url, body)
    assert 400 <= response.status_code < 500, response.text
    payload = response.json()
    assert payload["message"] and payload["error"]


def test_bad_moves_get_a_clear_4xx(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    for move, status in [("Z99", 422), ("I5", 422), ("", 422), ("E5; drop table", 422), ("K1", 422)]:
        response = alice.post(f"/api/v1/games/{gid}/moves", {"move": move})
        assert response.status_code == status, (move, response.text)
        assert response.json()["message"]
    stale = alice.post(f"/api/v1/games/{gid}/moves", {"move": "E5", "version": 1})
    assert stale.status_code == 409
    assert stale.json()["error"] == "stale_version"
    assert alice.get(f"/api/v1/games/{gid}").json()["moves"] == []


def test_cookie_writes_need_the_csrf_token(client: TestClient) -> None:
    response = client.post("/api/v1/accounts", json={"username": "carol", "password": "correct horse"})
    csrf = response.json()["csrf_token"]
    denied = client.post("/api/v1/games", json={"size": 9})
    assert denied.status_code == 403
    assert denied.json()["error"] == "csrf"
    allowed = client.post("/api/v1/games", json={"size": 9}, headers={"X-CSRF-Token": csrf})
    assert allowed.status_code == 201
    cookie = client.cookies.get("miai_session")
    assert cookie
    raw = response.headers["set-cookie"].lower()
    assert "httponly" in raw and "samesite=lax" in raw


def test_login_is_rate_limited(database_url: str, tmp_path: Path) -> None:
    settings = make_settings(
        database_url, tmp_path, rate_limits_enabled=True, rate_limit_login_checks="3/minute"
    )
    app = create_app(settings, background=False)
    with TestClient(app) as client:
        register(client, "dave")
        codes = [
            client.post("/api/v1/session", json={"username": "dave", "password": "wrong pass"}).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [401, 401, 401]
        assert codes[3:] == [429, 429]


def test_resign_needs_no_body(client: TestClient) -> None:
    """`version` is optional in the resign body, so is the body itself (issue #24 item 7: it answered 422)."""
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    answer = alice.post(f"/api/v1/games/{gid}/resign")
    assert answer.status_code == 200, answer.text
    result = alice.get(f"/api/v1/games/{gid}").json()["result"]
    assert result["winners"] == [2]

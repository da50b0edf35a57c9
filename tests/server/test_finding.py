"""Finding games and players (docs/api.md, "Finding games"): the live list, the archive and its filters,
keyset pages, privacy, profiles, and hostile query values."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Player, register


def new_game(creator: Player, joiner: Player, **options: Any) -> int:
    body = {"size": 9, "teams": 2, "players_per_team": 1, "team": 1, **options}
    created = creator.ok("/api/v1/games", body)
    gid: int = created["id"]
    joiner.ok(f"/api/v1/games/{gid}/join", {"team": 2, "invite": created["invite_code"]})
    creator.ok(f"/api/v1/games/{gid}/confirm")
    joiner.ok(f"/api/v1/games/{gid}/confirm")
    return gid


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.text
    return [g["id"] for g in response.json()["games"]]


def test_live_list_filters_pages_and_hides_private_games(client: TestClient) -> None:
    ann, bob, cy = (register(client, n) for n in ("ann", "bob", "cyd"))
    small = new_game(ann, bob)
    big = new_game(ann, cy, size=13)
    hidden = new_game(bob, cy, visibility="private")
    ann.ok(f"/api/v1/games/{small}/moves", {"move": "E5"})
    live = client.get("/api/v1/games/live")
    assert ids(live) == [big, small]  # newest first, the private game left out
    assert hidden not in ids(live)
    first = live.json()["games"][1]
    assert [p["user"] for p in first["players"]] == ["ann", "bob"]
    assert first["moves"] == 1 and first["size"] == 9 and first["colours"] == 2
    assert first["last_move_at"] is not None and first["spectators"] == 0
    assert ids(client.get("/api/v1/games/live?size=13")) == [big]
    assert ids(client.get("/api/v1/games/live?colours=3")) == []
    assert ids(client.get("/api/v1/games/live?rated=true")) == []
    assert ids(client.get("/api/v1/games/live?rated=false&colours=2&kind=go")) == [big, small]
    page = client.get("/api/v1/games/live?limit=1").json()
    assert [g["id"] for g in page["games"]] == [big] and page["next"]
    rest = client.get(f"/api/v1/games/live?limit=1&cursor={page['next']}").json()
    assert [g["id"] for g in rest["games"]] == [small] and rest["next"] is None


def test_live_list_counts_the_sockets_watching_a_game(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)

    def spectators() -> int:
        return int(client.get("/api/v1/games/live").json()["games"][0]["spectators"])

    url = f"/api/v1/games/{gid}/ws"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        assert one.receive_json()["t"] == "snapshot" and two.receive_json()["t"] == "snapshot"
        assert spectators() == 2
    assert spectators() == 0


def test_archive_by_user_result_opponent_and_privacy(client: TestClient) -> None:
    ann, bob, cy = (register(client, n) for n in ("ann", "bob", "cyd"))
    won = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{won}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{won}/resign", {})  # ann wins
    lost = new_game(ann, cy)
    ann.ok(f"/api/v1/games/{lost}/resign", {})
    private = new_game(bob, cy, visibility="private")
    bob.ok(f"/api/v1/games/{private}/resign", {})
    new_game(ann, cy)  # still in progress: not in the archive

    games = client.get("/api/v1/games/archive?user=ann").json()["games"]
    assert [(g["id"], g["outcome"]) for g in games] == [(lost, "loss"), (won, "win")]
    assert games[1]["result"]["reason"] == "resign" and games[1]["sgf"] == f"/api/v1/games/{won}/sgf"
    assert games[1]["finished_at"] and games[1]["url"] == f"/games/{won}"
    assert ids(client.get("/api/v1/games/archive?user=ann&result=win")) == [won]
    assert ids(client.get("/api/v1/games/archive?user=ANN&result=loss")) == [lost]
    assert ids(client.get("/api/v1/games/archive?user=ann&result=draw")) == []
    assert ids(client.get("/api/v1/games/archive?user=ann&opponent=cyd")) == [lost]
    assert ids(client.get("/api/v1/games/archive?result=resign")) == [lost, won]  # visitors: public only
    assert ids(client.get("/api/v1/games/archive?result=time")) == []
    assert ids(client.get("/api/v1/games/archive?size=13")) == []
    assert ids(client.get("/api/v1/games/archive?since=2999-01-01")) == []
    assert ids(client.get("/api/v1/games/archive?until=2000-01-01T00:00:00Z")) == []
    # a private game is listed to its players only
    assert ids(bob.get("/api/v1/games/archive?user=bob")) == [private, won]
    assert ids(ann.get("/api/v1/games/archive?user=bob")) == [won]
    first = client.get("/api/v1/games/archive?limit=1").json()
    second = client.get(f"/api/v1/games/archive?limit=1&cursor={first['next']}").json()
    assert [g["id"] for g in first["games"] + second["games"]] == [lost, won] and second["next"] is None


def test_profile_shows_record_games_and_badges(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    done = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{done}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{done}/resign", {})
    going = new_game(ann, bob)
    body = client.get("/api/v1/users/ann").json()
    assert body["user"]["username"] == "ann" and body["member_since"] and body["is_bot"] is False
    assert body["record"] == {"go": {"win": 1, "loss": 0, "draw": 0}}
    assert [g["id"] for g in body["current"]] == [going]
    assert [(g["id"], g["outcome"]) for g in body["recent"]] == [(done, "win")]
    assert body["ratings"] == []
    assert client.get("/api/v1/users/bob").json()["record"] == {"go": {"win": 0, "loss": 1, "draw": 0}}
    assert client.get("/api/v1/users/nobody").status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "games/live?size=99999999999999999999",
        "games/live?size=nine",
        "games/live?colours=1",
        "games/live?kind=go%00",
        "games/live?rated=maybe",
        "games/live?limit=0",
        "games/live?cursor=!!!",
        "games/live?cursor=OTk5OTk5OTk5OTk5",  # a number past any id
        "games/live?cursor=" + "A" * 500,
        "games/archive?cursor=bm90IGEgY3Vyc29y",
        "games/archive?cursor=MjAyNi0wMS0wMXwx",  # a naive time
        "games/archive?cursor=MDAwMS0wMS0wMVQwMDowMDowMCswMTowMHwx",  # 0001-01-01T00:00:00+01:00|1
        "games/archive?cursor=OTk5OS0xMi0zMVQyMzo1OTo1OS0wMTowMHwx",  # 9999-12-31T23:59:59-01:00|1
        "games/archive?since=99999-01-01",
        "games/archive?since=0001-01-01",
        "games/archive?until=NaN",
        "games/archive?result=win",  # a user's outcome needs the user
        "games/archive?result=lots",
        "games/archive?user=a%00b",
        "games/archive?size=1e400",
        "users/a%00b",
    ],
)
def test_hostile_query_values_are_refused(client: TestClient, query: str) -> None:
    response = client.get(f"/api/v1/{query}")
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_input", response.text


def test_unknown_names_in_filters_are_404(client: TestClient) -> None:
    assert client.get("/api/v1/games/archive?user=ghost").status_code == 404
    assert client.get("/api/v1/games/archive?opponent=ghost").status_code == 404

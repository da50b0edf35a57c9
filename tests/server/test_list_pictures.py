"""Lists that look like a game site's (issue 32): every list's game carries its board for a thumbnail, and the
lobby names an open game by its seated players; private games stay out of the public lists."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import register
from tests.server.test_finding import new_game


def test_the_lobby_names_an_open_game_by_its_seated_players(client: TestClient) -> None:
    ann, bob, cyd = (register(client, n) for n in ("ann", "bob", "cyd"))
    pair = ann.ok("/api/v1/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{pair}/join", {"team": 2})
    hidden = cyd.ok("/api/v1/games", {"size": 9, "team": 1, "visibility": "private"})["id"]
    games = {g["id"]: g for g in client.get("/api/v1/games").json()["games"]}
    assert hidden not in games  # a private game is nobody's to find
    seated = [(p["user"], p["name"], p["team"]) for p in games[pair]["seated"]]
    assert sorted(seated) == [("ann", "ann", 1), ("bob", "bob", 2)]
    assert games[pair]["teams"] == [1, 1] and games[pair]["free"] == 2


def test_archive_profile_and_dashboard_games_carry_their_board(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    gid = new_game(ann, bob)
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    hidden = new_game(bob, ann, visibility="private")
    bob.ok(f"/api/v1/games/{hidden}/moves", {"move": "D4"})

    dashboard = {g["id"]: g for g in ann.get("/api/v1/dashboard").json()["games"]}
    board = dashboard[gid]["preview"]
    assert board["size"] == 9 and sorted(board["cells"].replace(".", "")) == ["1", "2"]
    assert dashboard[hidden]["preview"]["cells"].count("1") == 1  # ann's own private game: hers to see

    profile = client.get("/api/v1/users/ann").json()
    assert [g["id"] for g in profile["current"]] == [gid]  # the private game: not to a visitor
    assert profile["current"][0]["preview"] == board

    ann.ok(f"/api/v1/games/{gid}/resign", {})
    ann.ok(f"/api/v1/games/{hidden}/resign", {})
    archive = client.get("/api/v1/games/archive").json()["games"]
    assert [g["id"] for g in archive] == [gid]
    assert archive[0]["preview"] == board and archive[0]["result"]["winners"] == [2]
    assert client.get("/api/v1/users/ann").json()["recent"][0]["preview"] == board
    live = client.get("/api/v1/games/live").json()["games"]
    assert live == []

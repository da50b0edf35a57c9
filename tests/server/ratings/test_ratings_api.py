"""Rated games through the API: the result and the ratings are stored together, once; profiles, leaderboards,
handicap suggestions, recompute and corrections (docs/api.md, Ratings). SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError

from miai.cli import main
from miai.server.game_options import load_options
from miai.server.identity.admins import set_admin
from miai.server.ratings.eligibility import min_moves_each
from miai.server.storage import repo
from miai.server.storage.models import User, UserRating
from tests.server.conftest import Player, register
from tests.server.test_endings import seki_moves


def game(black: Player, white: Player, **options: Any) -> int:
    """A started 9x9 game: `black` created it (team 1), `white` joined."""
    body = {"size": 9, "team": 1, "rated": True, **options}
    gid = int(black.ok("/api/v1/games", body)["id"])
    white.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    black.ok(f"/api/v1/games/{gid}/confirm")
    white.ok(f"/api/v1/games/{gid}/confirm")
    return gid


# Moves of Go and 11x11 Hex that capture nothing and win nothing, as many as a rated game needs of each side
# (eligibility.min_moves_each: 10 on 9x9, 20 on 19x19, 5 on Hex), Black first
BLACK_9 = ["C3", "C7", "E5", "A3", "B3", "D3", "F3", "H3", "J3", "A4"]
WHITE_9 = ["G7", "G3", "E3", "A7", "B7", "D7", "F7", "H7", "J7", "A6"]
OPENING = {
    "go": [m for pair in zip(BLACK_9, WHITE_9, strict=True) for m in pair],
    "go-19": [m for c in "ABCDEFGHJKLMNOPQRST" for m in (f"{c}4", f"{c}16")] + ["K5", "K15"],
    "hex": ["c3", "g7", "c7", "g3", "e5", "e3", "a1", "k11", "b1", "j11"],
}
assert len(OPENING["go"]) == 2 * min_moves_each("go", load_options("go", {"size": 9}))
assert len(OPENING["go-19"]) == 2 * min_moves_each("go", load_options("go", {"size": 19}))
assert len(OPENING["hex"]) == 2 * min_moves_each("hex", load_options("hex", {"size": 11}))


def play_opening(players: list[Player], gid: int, kind: str = "go") -> None:
    """The `OPENING` of `kind`: each side's share of a rated game, each move by the player on move
    (`players`: everyone seated)."""
    by_id = {p.user_id: p for p in players}
    for move in OPENING[kind]:
        on_move = players[0].get(f"/api/v1/games/{gid}").json()["to_move"]["user_id"]
        by_id[on_move].ok(f"/api/v1/games/{gid}/moves", {"move": move})


def black_resigns(black: Player, white: Player, **options: Any) -> int:
    """A game that counts for ratings, when rated: the opening played, then Black resigns."""
    gid = game(black, white, **options)
    play_opening([black, white], gid, "go-19" if options.get("size") == 19 else "go")
    black.ok(f"/api/v1/games/{gid}/resign", {})
    return gid


def ratings(player: Player, name: str | None = None) -> dict[str, dict[str, Any]]:
    response = player.get(f"/api/v1/users/{name or player.username}/ratings")
    assert response.status_code == 200, response.text
    return {r["kind_key"]: r for r in response.json()["ratings"]}


def rows(client: TestClient) -> list[tuple[int, str, float, float, float | None, int]]:
    async def read() -> list[tuple[int, str, float, float, float | None, int]]:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            found = (await db.execute(select(UserRating).order_by(UserRating.id))).scalars()
            return [(r.user_id, r.kind_key, r.rating, r.deviation, r.volatility, r.games) for r in found]

    return client.portal.call(read)  # type: ignore[union-attr]


def test_a_rated_game_moves_both_ratings_once_and_an_unrated_one_none(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = black_resigns(bob, alice)
    won, lost = ratings(alice)["go-9"], ratings(bob)["go-9"]
    assert won["rating"] > 1500 > lost["rating"]
    assert won["rating"] - 1500 == pytest.approx(1500 - lost["rating"])  # two new players: symmetric
    assert (won["games"], lost["games"], won["provisional"], won["system"]) == (1, 1, True, "glicko2")
    assert [(p["game_id"], p["rating"]) for p in won["history"]] == [(gid, won["rating"])]
    assert won["history"][0]["change"] == pytest.approx(won["rating"] - 1500, abs=0.01)
    before = ratings(alice)
    black_resigns(bob, alice, rated=False)
    assert ratings(alice) == before
    # another size class is another rating
    black_resigns(bob, alice, size=19)
    assert set(ratings(alice)) == {"go-9", "go-19"} and ratings(alice)["go-9"] == before["go-9"]


def test_a_private_games_rating_point_is_shown_to_its_players_only(client: TestClient) -> None:
    alice, bob, eve = register(client, "alice"), register(client, "bob"), register(client, "eve")
    public = black_resigns(bob, alice)
    created = bob.ok("/api/v1/games", {"size": 9, "team": 1, "rated": True, "visibility": "private"})
    private = int(created["id"])
    alice.ok(f"/api/v1/games/{private}/join", {"team": 2, "invite": created["invite_code"]})
    bob.ok(f"/api/v1/games/{private}/confirm")
    alice.ok(f"/api/v1/games/{private}/confirm")
    play_opening([bob, alice], private)
    bob.ok(f"/api/v1/games/{private}/resign", {})
    for player in (alice, bob):  # the players see both points of each other's graph
        for name in ("alice", "bob"):
            assert [p["game_id"] for p in ratings(player, name)["go-9"]["history"]] == [public, private]
    for viewer in (eve, client):  # others: not which private game, when, nor against whom
        for name in ("alice", "bob"):
            seen = ratings(viewer, name)["go-9"]
            assert [p["game_id"] for p in seen["history"]] == [public] and seen["games"] == 2


def pair_go(client: TestClient) -> tuple[list[Player], int]:
    """A rated 9×9 pair Go game, started: ann1 and ann2 (Black) against bob1 and bob2. Players and id."""
    players = [register(client, name) for name in ("ann1", "ann2", "bob1", "bob2")]
    body = {"size": 9, "players_per_team": 2, "team": 1, "rated": True}
    gid = players[0].ok("/api/v1/games", body)["id"]
    for player, team in zip(players[1:], (1, 2, 2), strict=True):
        player.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for player in players:
        player.ok(f"/api/v1/games/{gid}/confirm")
    return players, gid


def test_other_kinds_and_team_games_have_their_own_keys(client: TestClient) -> None:
    players, gid = pair_go(client)
    by_id = {p.user_id: p for p in players}
    play_opening(players, gid)
    white_moves = iter(["H5", "J5", "G5"])
    while (snapshot := players[0].get(f"/api/v1/games/{gid}").json())["status"] == "active":
        on_move = by_id[snapshot["to_move"]["user_id"]]
        if on_move in players[:2]:  # Black's players resign one after the other
            on_move.ok(f"/api/v1/games/{gid}/resign", {})
        else:
            on_move.ok(f"/api/v1/games/{gid}/moves", {"move": next(white_moves)})
    team_key = {p.username: ratings(p)["go-9-teams"] for p in players}
    assert {r["system"] for r in team_key.values()} == {"openskill"}
    assert team_key["bob1"]["rating"] == team_key["bob2"]["rating"] > 25 > team_key["ann1"]["rating"]
    hex_black, hex_white = register(client, "hexb"), register(client, "hexw")
    hex_game = int(hex_black.ok("/api/v1/games", {"kind": "hex", "team": 1, "rated": True})["id"])
    hex_white.ok(f"/api/v1/games/{hex_game}/join", {"team": 2})
    hex_black.ok(f"/api/v1/games/{hex_game}/confirm")
    hex_white.ok(f"/api/v1/games/{hex_game}/confirm")
    play_opening([hex_black, hex_white], hex_game, "hex")
    hex_black.ok(f"/api/v1/games/{hex_game}/resign", {})
    assert ratings(hex_white)["hex"]["rating"] > 1500


@pytest.mark.parametrize(
    "body",
    [
        '{"rated": "yes"}',
        '{"rated": "true"}',
        '{"rated": 1}',
        '{"rated": 1e309}',
        '{"rated": null}',
        '{"rated": [true]}',
    ],
)
def test_rated_is_true_or_false(client: TestClient, body: str) -> None:
    alice = register(client, "alice")
    headers = {**alice.headers, "Content-Type": "application/json"}
    response = client.post("/api/v1/games", content=body, headers=headers)
    assert response.status_code == 422, response.text
    assert "rated" in response.json()["message"]


def test_practice_and_computer_games_are_never_rated(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    for mode in ("computer", "local"):
        response = alice.post("/api/v1/practice", {"size": 9, "mode": mode, "rated": True})
        assert response.status_code == 422, response.text
        assert "never rated" in response.json()["message"]
        hex_practice = alice.post("/api/v1/practice", {"kind": "hex", "mode": mode, "rated": True})
        assert hex_practice.status_code == 422 and "never rated" in hex_practice.json()["message"]
    assert alice.post("/api/v1/practice", {"size": 9, "rated": False}).status_code == 201
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1, "rated": True})["id"]
    refused = alice.post(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 1})
    assert refused.status_code == 409 and "rated" in refused.json()["message"]
    del bob


def test_a_result_the_database_refuses_moves_no_rating(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = game(bob, alice)
    play_opening([bob, alice], gid)
    real_store = repo.store_commands

    async def refuse_results(db: Any, writes: Any, one_by_one: bool = False) -> Any:
        if any(w.changes.get("status") == "finished" for w in writes):
            raise OperationalError("UPDATE games", {}, Exception("disk full"))
        return await real_store(db, writes, one_by_one)

    monkeypatch.setattr(repo, "store_commands", refuse_results)
    refused = bob.post(f"/api/v1/games/{gid}/resign", {})
    assert refused.status_code >= 400, refused.text
    assert rows(client) == [] and ratings(alice) == {}
    assert bob.get(f"/api/v1/games/{gid}").json()["status"] == "active"
    monkeypatch.setattr(repo, "store_commands", real_store)
    bob.ok(f"/api/v1/games/{gid}/resign", {})
    assert ratings(alice)["go-9"]["games"] == 1 and len(rows(client)) == 2


def test_recompute_reproduces_the_stored_ratings(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`miai ratings recompute` replays every rated game and finds the ratings stored game by game."""
    players = [register(client, name) for name in ("ann", "ben", "cid")]
    for black, white in [(0, 1), (1, 2), (2, 0), (0, 1), (1, 0), (2, 1)]:
        black_resigns(players[black], players[white])
    stored = rows(client)
    assert len(stored) == 3 and sum(r[5] for r in stored) == 12
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    monkeypatch.setenv("MIAI_DATABASE_URL", url)
    assert main(["ratings", "recompute"]) == 0
    assert capsys.readouterr().out == "go-9: 6 rated games replayed\n"
    again = rows(client)
    for old, new in zip(stored, again, strict=True):
        assert old[:2] == new[:2] and old[5] == new[5]
        assert new[2:5] == pytest.approx(old[2:5], abs=1e-9)


def test_a_corrected_result_moves_the_ratings_with_it(client: TestClient) -> None:
    """The seki game of test_endings.py, rated: Black wins as counted; the administrator then marks Black's
    wall dead, White wins, and both ratings are rebuilt as if White had won."""
    black, white, root = register(client, "black"), register(client, "white"), register(client, "root")
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    client.portal.call(set_admin, url, "root", True)  # type: ignore[union-attr]
    gid = game(black, white, preset="japanese")
    for ply, move in enumerate(seki_moves()):
        (black if ply % 2 == 0 else white).ok(f"/api/v1/games/{gid}/moves", {"move": move})
    first = black.get(f"/api/v1/games/{gid}").json()["result"]
    assert first["winners"] == [1] and ratings(black)["go-9"]["rating"] > 1500
    wall = ["D4", "D3", "G3", "A2", "B1", "G1"]
    corrected = root.ok(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": wall, "note": "test"})["result"]
    assert corrected["winners"] == [2]
    assert ratings(white)["go-9"]["rating"] > 1500 > ratings(black)["go-9"]["rating"]
    assert ratings(black)["go-9"]["games"] == 1 and len(ratings(black)["go-9"]["history"]) == 1
    # The game and its event say the replayed changes: White up, Black down
    rating = black.get(f"/api/v1/games/{gid}").json()["rating"]
    assert [(c["team"], c["after"]) for c in rating["changes"]] == [
        (1, ratings(black)["go-9"]["rating"]),
        (2, ratings(white)["go-9"]["rating"]),
    ]
    events = black.get(f"/api/v1/games/{gid}/events?since=0").json()["events"]
    assert next(e for e in events if e["t"] == "result_corrected")["d"]["rating"] == rating


def set_ratings(
    client: TestClient,
    values: dict[str, tuple[float, float]],
    bots: set[str],
    key: str = "go-19",
    games: int = 30,
) -> None:
    async def write() -> None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            for name, (rating, deviation) in values.items():
                user = await repo.user_by_name(db, name)
                assert user is not None
                now = datetime.now(UTC)
                db.add(
                    UserRating(
                        user_id=user.id,
                        kind_key=key,
                        system="glicko2",
                        rating=rating,
                        deviation=deviation,
                        volatility=0.06,
                        games=games,
                        updated_at=now,
                    )
                )
            await db.execute(update(User).where(User.username.in_(bots)).values(is_bot=True))
            await db.commit()

    client.portal.call(write)  # type: ignore[union-attr]


def test_leaderboards_list_established_people_only(client: TestClient) -> None:
    for name in ("strong", "steady", "newbie", "robot"):
        register(client, name)
    values = {
        "strong": (2100.0, 60.0),
        "steady": (1700.0, 109.0),
        "newbie": (2500.0, 200.0),
        "robot": (2600.0, 50.0),
    }
    set_ratings(client, values, bots={"robot"})
    board = client.get("/api/v1/leaderboards/go-19")
    assert board.status_code == 200, board.text
    assert [(p["user"], p["provisional"]) for p in board.json()["players"]] == [
        ("strong", False),
        ("steady", False),
    ]
    assert board.json()["players"][0]["rank"] == "3d"  # ln(2100 / 525) * 23.15 = 32.1
    assert [p["user"] for p in client.get("/api/v1/leaderboards/go-19?limit=1").json()["players"]] == [
        "strong"
    ]
    assert client.get("/api/v1/leaderboards/go-9").json()["players"] == []
    # Which keys people are rated in, provisional players counted, bots not: the page opens on the first.
    assert client.get("/api/v1/leaderboards").json() == {"kind_keys": [{"kind_key": "go-19", "players": 3}]}
    assert client.get("/api/v1/leaderboards/chess").status_code == 404
    for limit in ("0", "101", "1e309", "NaN", "-1"):
        assert client.get(f"/api/v1/leaderboards/go-19?limit={limit}").status_code == 422
    assert client.get("/api/v1/leaderboards/go%00").status_code == 422


def test_handicap_suggestion_from_two_ratings(client: TestClient) -> None:
    strong = register(client, "strong")
    register(client, "weak")
    for key in ("go-9", "go-13", "go-19"):
        set_ratings(client, {"strong": (2100.0, 60.0), "weak": (1500.0, 60.0)}, bots=set(), key=key)
    advice = strong.get("/api/v1/users/strong/handicap?opponent=weak&size=19").json()
    assert (advice["black"], advice["white"], advice["komi"]) == ("weak", "strong", 0.5)
    assert advice["rank_difference"] == pytest.approx(7.79, abs=0.01)  # ln(2100 / 1500) * 23.15
    assert advice["handicap"] == 8
    thirteen = client.get("/api/v1/users/weak/handicap?opponent=strong&size=13").json()
    assert (thirteen["black"], thirteen["handicap"]) == ("weak", 3)  # three ranks a stone on 13x13
    nine = client.get("/api/v1/users/weak/handicap?opponent=strong&size=9").json()
    assert (nine["black"], nine["handicap"], nine["komi"]) == ("weak", 0, 0.5)  # 1.3 stones: no komi
    assert client.get("/api/v1/users/weak/handicap?opponent=nobody").status_code == 404
    register(client, "fresh")
    even = client.get("/api/v1/users/weak/handicap?opponent=fresh&size=19").json()  # not rated: 1500
    assert (even["handicap"], even["komi"], even["ratings"]["fresh"]) == (0, None, 1500)
    assert client.get("/api/v1/users/weak/handicap?opponent=weak").status_code == 422
    assert client.get("/api/v1/users/weak/handicap?opponent=strong&size=1e309").status_code == 422
    assert client.get("/api/v1/users/nobody/ratings").status_code == 404


def test_recompute_says_when_it_cannot_use_the_database(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MIAI_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:9/none")
    assert main(["ratings", "recompute"]) == 1
    assert "miai ratings: error: cannot use the database" in capsys.readouterr().err

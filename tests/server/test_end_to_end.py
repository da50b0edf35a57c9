"""Issue 3's end-to-end game: 6 users in 3 teams of 2 play a 9x9 game to the end by passes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from miai.formats.sgf.go import load_go
from tests.server.conftest import Player, register


def test_three_teams_of_two_play_to_the_end(client: TestClient) -> None:
    users = [register(client, f"player{i}") for i in range(6)]
    creator = users[0]
    created = creator.ok(
        "/api/v1/games", {"size": 9, "teams": 3, "players_per_team": 2, "team": 1, "seconds_per_move": 3600}
    )
    gid = created["id"]
    # Join order fixes the rotation inside each team: seat 0 joined first.
    for user, team in zip(users[1:], [2, 3, 1, 2, 3], strict=True):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    assert creator.get(f"/api/v1/games/{gid}").json()["status"] == "confirming"
    for user in users:
        user.ok(f"/api/v1/games/{gid}/confirm")
    by_seat = {
        (p["team"], p["seat"]): p["user_id"] for p in creator.get(f"/api/v1/games/{gid}").json()["players"]
    }
    player = {uid: u for u in users for uid in [u.user_id]}

    def on_move() -> Player:
        snap = creator.get(f"/api/v1/games/{gid}").json()
        return player[by_seat[snap["to_move"]["team"], snap["to_move"]["seat"]]]

    def play(move: str) -> dict[str, object]:
        return on_move().ok(f"/api/v1/games/{gid}/moves", {"move": move})

    assert on_move() is creator  # team 1, seat 0 moves first
    play("B1")  # T1 seat 0
    play("J9")  # T2 seat 0
    play("A1")  # T3 seat 0
    play("A2")  # T1 seat 1 captures A1
    snap = creator.get(f"/api/v1/games/{gid}").json()
    assert snap["position"]["captures"] == [1, 0, 0]
    assert snap["position"]["last"]["captured"] == ["A1"]
    mover = on_move()
    illegal = mover.post(f"/api/v1/games/{gid}/moves", {"move": "A2"})  # T2 seat 1 tries an occupied point
    assert illegal.status_code == 422
    assert illegal.json()["reason"] == "occupied"
    play("J8")  # T2 seat 1
    resigner = on_move()  # T3 seat 1
    assert resigner.user_id == by_seat[3, 1]
    resigner.ok(f"/api/v1/games/{gid}/resign", {})
    assert on_move().user_id == by_seat[3, 0]  # the team keeps the move
    play("C5")  # T3 seat 0
    play("pass")  # T1
    play("pass")  # T2
    play("pass")  # T3: three passes with three colours in play
    final = creator.get(f"/api/v1/games/{gid}").json()
    assert final["status"] == "finished"
    result = final["result"]
    assert result["reason"] == "passes"
    assert result["ranking"] == [[1], [2], [3]]
    totals = {s["team"]: s["total"] for s in result["scores"]}
    assert totals == {1: 3, 2: 2, 3: 1}  # T1: B1 A2 + A1 territory; T2: J9 J8; T3: C5
    assert result["scores"][0]["territory"] == 1
    states = {p["user_id"]: p["state"] for p in final["players"]}
    assert states[resigner.user_id] == "resigned"
    sgf = creator.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.status_code == 200
    record = load_go(sgf.content)
    assert b"MC[3]" in sgf.content
    assert [0 if c is None else c + 1 for c in record.state.board()] == final["position"]["board"]
    assert record.state.plies == final["position"]["plies"]

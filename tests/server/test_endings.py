"""How a game ended, as the API's result says it (docs/api.md, Results): resignations and timeouts named as
such, with who left and at which move; stones in seki and dame listed when the board was counted."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.server.identity.admins import set_admin
from tests.server.conftest import FakeClock, Player, register, run_scheduler

# SPEC §1.11.6 (a): a seki with one eye each on 9x9 (Black A2 B2 C2 B1, White D1 D2 E2 F2 F1, shared C1),
# inside Black's walls on column D and row 3 and White's on column C. GNU Go 3.8 scores it B+18.5
# (--chinese-rules) and B+17.5 (--japanese-rules), both inner groups in seki.
SEKI_BLACK = ["D4", "D5", "D6", "D7", "D8", "D9", "D3", "E3", "F3", "G3", "A2", "B2", "C2", "G2", "B1", "G1"]
SEKI_WHITE = ["C4", "C5", "C6", "C7", "C8", "C9", "A3", "B3", "C3", "D2", "E2", "F2", "D1", "F1"]
SEKI_STONES = ["B1", "D1", "F1", "A2", "B2", "C2", "D2", "E2", "F2"]  # board order, row by row


def seki_moves() -> list[str]:
    """Black has two stones more than White: White passes twice on the way; the last two passes end it."""
    moves = [m for pair in zip(SEKI_BLACK, SEKI_WHITE, strict=False) for m in pair]
    return [*moves, SEKI_BLACK[14], "pass", SEKI_BLACK[15], "pass", "pass"]


def snapshot(player: Player, gid: int) -> dict[str, Any]:
    return player.get(f"/api/v1/games/{gid}").json()  # type: ignore[no-any-return]


def start(
    client: TestClient, teams: int = 2, per_team: int = 1, **options: object
) -> tuple[int, list[Player]]:
    """A started game between new users, joined team by team (each team's seats in join order)."""
    players = [register(client, f"p{t}{s}") for t in range(1, teams + 1) for s in range(per_team)]
    body = {"size": 9, "teams": teams, "players_per_team": per_team, "team": 1, **options}
    gid = players[0].ok("/api/v1/games", body)["id"]
    for i, player in enumerate(players[1:], start=1):
        player.ok(f"/api/v1/games/{gid}/join", {"team": i // per_team + 1})
    for player in players:
        player.ok(f"/api/v1/games/{gid}/confirm")
    return gid, players


def test_a_timeout_is_called_a_timeout_with_who_and_when(timed_client: TestClient, clock: FakeClock) -> None:
    gid, (black, _white) = start(timed_client, preset="chinese", seconds_per_move=30)
    black.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    clock.advance(31)
    run_scheduler(timed_client)
    result = snapshot(black, gid)["result"]
    assert result["reason"] == "timeout"
    assert result["winners"] == [1]
    assert result["left"] == [{"team": 2, "seat": 0, "how": "timeout", "ply": 2, "team_out": True}]
    assert result["scores"] == [] and result["margin"] is None  # nothing was counted
    assert result["seki"] == [] and result["dame"] == [] and result["territory"] == []


def test_a_resignation_is_called_a_resignation(timed_client: TestClient) -> None:
    gid, (black, white) = start(timed_client, preset="chinese")
    black.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    white.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
    black.ok(f"/api/v1/games/{gid}/resign", {})
    result = snapshot(white, gid)["result"]
    assert (result["reason"], result["winners"]) == ("resign", [2])
    assert result["left"] == [{"team": 1, "seat": 0, "how": "resign", "ply": 3, "team_out": True}]
    assert result["scores"] == []


def test_in_a_team_game_the_team_leaves_with_its_last_player(timed_client: TestClient) -> None:
    gid, players = start(timed_client, teams=2, per_team=2, preset="chinese")
    first_black, first_white, second_black = players[0], players[2], players[1]
    first_black.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    first_white.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
    second_black.ok(f"/api/v1/games/{gid}/resign", {})  # Black's other player plays on at once
    assert snapshot(first_black, gid)["status"] == "active"
    first_black.ok(f"/api/v1/games/{gid}/resign", {})
    result = snapshot(first_black, gid)["result"]
    assert (result["reason"], result["winners"]) == ("resign", [2])
    assert result["left"] == [
        {"team": 1, "seat": 1, "how": "resign", "ply": 3, "team_out": False},
        {"team": 1, "seat": 0, "how": "resign", "ply": 4, "team_out": True},
    ]


def test_a_colour_that_timed_out_is_named_in_a_scored_result(
    timed_client: TestClient, clock: FakeClock
) -> None:
    """Three colours (DipGo: every stone counts): Red runs out of time, Black and White play on and pass."""
    gid, (black, white, _red) = start(timed_client, teams=3, seconds_per_move=30)
    black.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    white.ok(f"/api/v1/games/{gid}/moves", {"move": "D4"})
    clock.advance(31)
    run_scheduler(timed_client)  # Red (team 3) times out at move 3
    assert snapshot(black, gid)["status"] == "active"
    for player, move in ((black, "C3"), (white, "pass"), (black, "pass")):
        player.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    result = snapshot(black, gid)["result"]
    assert result["reason"] == "passes"
    assert result["left"] == [{"team": 3, "seat": 0, "how": "timeout", "ply": 3, "team_out": True}]
    assert [s["total"] for s in result["scores"]] == [2, 1, 0]
    assert (result["winners"], result["margin"]) == ([1], 1)  # over White, the best team still in play
    assert result["ranking"] == [[1], [2], [3]]


@pytest.mark.parametrize(
    ("preset", "totals", "margin", "dame"),
    [
        ("chinese", [53, 34.5], 18.5, ["C1"]),  # area: the shared liberty counts for nobody
        ("japanese", [36, 18.5], 17.5, ["A1", "C1", "E1"]),  # territory: nor do the eyes in seki
    ],
)
def test_seki_and_dame_are_listed(
    client: TestClient, preset: str, totals: list[float], margin: float, dame: list[str]
) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local", "preset": preset})["id"]
    for move in seki_moves():
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    result = snapshot(alice, gid)["result"]
    assert result["reason"] == "passes" and result["left"] == []
    assert [s["total"] for s in result["scores"]] == totals
    assert (result["winners"], result["margin"]) == ([1], margin)
    assert result["dead"] == []
    assert result["seki"] == SEKI_STONES
    assert result["dame"] == dame


def test_all_alive_rules_list_dame_but_judge_no_seki(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local", "preset": "tromp-taylor"})["id"]
    for move in seki_moves():
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    result = snapshot(alice, gid)["result"]
    assert result["seki"] == []  # nothing is judged: every stone counts as alive anyway
    assert result["dame"] == ["C1"]


def test_an_administrators_correction_keeps_the_seki_it_leaves_alone(client: TestClient) -> None:
    alice, root = register(client, "alice"), register(client, "root")
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    client.portal.call(set_admin, url, "root", True)  # type: ignore[union-attr]
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local", "preset": "japanese"})["id"]
    for move in seki_moves():
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    kept = root.ok(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": [], "note": "checked"})["result"]
    assert kept["seki"] == SEKI_STONES and kept["dame"] == ["A1", "C1", "E1"]
    assert [s["total"] for s in kept["scores"]] == [36, 18.5]  # the eyes in seki still count for nobody
    killed = root.ok(f"/api/v1/admin/games/{gid}/dead-stones", {"dead": ["D1"], "note": "test"})["result"]
    assert killed["seki"] == [] and killed["dead"] == ["D1", "F1", "D2", "E2", "F2"]


def test_other_games_say_who_left_and_when(timed_client: TestClient, clock: FakeClock) -> None:
    black, white = register(timed_client, "black"), register(timed_client, "white")
    gid = black.ok("/api/v1/games", {"kind": "hex", "size": 7, "team": 1, "seconds_per_move": 30})["id"]
    white.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    for player in (black, white):
        player.ok(f"/api/v1/games/{gid}/confirm")
    black.ok(f"/api/v1/games/{gid}/moves", {"move": "d4"})
    clock.advance(31)
    run_scheduler(timed_client)
    result = snapshot(black, gid)["result"]
    assert (result["reason"], result["winners"]) == ("timeout", [1])
    assert result["left"] == [{"team": 2, "seat": 0, "how": "timeout", "ply": 2, "team_out": True}]

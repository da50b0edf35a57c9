"""The SGF download of a clock game holds its time system (TM, OT) and each player's time left after each
move (BL/WL, OB/OW; MK/MV for colours 2 and up), as the server's clock computed it (docs/sgf.md)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.core.clock import ClockMode, TeamClock
from miai.formats.sgf import parse_sgf
from miai.formats.sgf.games import read_game
from miai.formats.sgf.go import load_go
from miai.formats.sgf.times import TimeLeft, TimeSystem
from tests.server.conftest import FakeClock, Player, register


def start(client: TestClient, teams: int = 2, **options: object) -> tuple[int, list[Player]]:
    players = [register(client, f"player{t}") for t in range(1, teams + 1)]
    body = {"size": 9, "teams": teams, "team": 1, "seconds_per_move": 600, **options}
    gid = players[0].ok("/api/v1/games", body)["id"]
    for team, player in enumerate(players[1:], start=2):
        player.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for player in players:
        player.ok(f"/api/v1/games/{gid}/confirm")
    return gid, players


def play(clock: FakeClock, gid: int, moves: list[tuple[Player, float, str]]) -> None:
    """Each player thinks for the given seconds, then plays."""
    for player, seconds, move in moves:
        clock.advance(seconds)
        player.ok(f"/api/v1/games/{gid}/moves", {"move": move})


def main_line(data: bytes) -> list[dict[str, list[str]]]:
    return [node.properties for node in parse_sgf(data)[0].main_line()]


def times_of(nodes: list[dict[str, list[str]]], *props: str) -> list[dict[str, list[str]]]:
    return [{p: node[p] for p in props if p in node} for node in nodes[1:]]


def stored_clocks(player: Player, gid: int) -> dict[str, Any]:
    return player.get(f"/api/v1/games/{gid}").json()["clocks"]  # type: ignore[no-any-return]


def test_byoyomi_game_records_main_time_then_periods_left(timed_client: TestClient, clock: FakeClock) -> None:
    gid, (black, white) = start(timed_client, clock="byoyomi", main_time=10, periods=3, period_time=20)
    play(clock, gid, [
        (black, 4, "E5"),  # 6 s of main time left
        (white, 25, "E6"),  # main time used up, 15 s into the first period: all 3 periods left
        (black, 35, "D5"),  # 6 s of main time, then 29 s: one period used, 2 left
        (white, 3, "D6"),  # in byo-yomi, within the period: still 3
    ])
    data = black.get(f"/api/v1/games/{gid}/sgf").content
    nodes = main_line(data)
    assert nodes[0]["TM"] == ["10"] and nodes[0]["OT"] == ["3x20 byo-yomi"]
    assert times_of(nodes, "BL", "OB", "WL", "OW") == [
        {"BL": ["6"]},
        {"WL": ["20"], "OW": ["3"]},
        {"BL": ["20"], "OB": ["2"]},
        {"WL": ["20"], "OW": ["3"]},
    ]
    record = load_go(data)
    assert record.problems == []
    system = record.time_system
    assert system == TimeSystem(ClockMode.BYOYOMI, 10.0, periods=3, period=20.0)
    # What the record says is what the server's clocks say after each team's last move.
    last = {left.colour: system.clock(left) for left in record.times.values()}
    stored = stored_clocks(black, gid)
    assert last == {c: TeamClock(**stored[str(c + 1)]) for c in (0, 1)}
    assert last[0] == TeamClock(main=0.0, periods=2)


def test_fischer_game_records_the_increment_and_fractional_seconds(
    timed_client: TestClient, clock: FakeClock
) -> None:
    gid, (black, white) = start(timed_client, clock="fischer", main_time=100, increment=10)
    play(clock, gid, [(black, 30, "E5"), (white, 5.25, "E6"), (black, 12.3456, "D5"), (white, 4e-4, "pass")])
    data = white.get(f"/api/v1/games/{gid}/sgf").content
    nodes = main_line(data)
    assert nodes[0]["TM"] == ["100"] and nodes[0]["OT"] == ["10 fischer"]
    assert times_of(nodes, "BL", "OB", "WL", "OW") == [
        {"BL": ["80"]},  # 100 - 30 + 10
        {"WL": ["104.75"]},
        {"BL": ["77.654"]},  # 80 - 12.3456 + 10, three decimals at most
        {"WL": ["114.75"]},  # 104.75 - 0.0004 + 10, rounded
    ]
    record = load_go(data)
    assert record.time_system == TimeSystem(ClockMode.FISCHER, 100.0, increment=10.0)
    stored = stored_clocks(black, gid)
    assert stored["1"]["main"] == pytest.approx(77.6544) and stored["2"]["main"] == pytest.approx(114.7496)
    assert record.times[3] == TimeLeft(0, 77.654)


def test_three_colours_use_the_extension_properties(timed_client: TestClient, clock: FakeClock) -> None:
    gid, (black, white, red) = start(
        timed_client, teams=3, clock="byoyomi", main_time=5, periods=2, period_time=10
    )
    play(clock, gid, [(black, 1, "A1"), (white, 2, "B1"), (red, 3, "C1"), (black, 1, "A2"), (white, 1, "B2"),
                      (red, 14, "C2")])
    nodes = main_line(black.get(f"/api/v1/games/{gid}/sgf").content)
    assert nodes[0]["TM"] == ["5"] and nodes[0]["OT"] == ["2x10 byo-yomi"]
    assert times_of(nodes, "BL", "WL", "MK", "MV") == [
        {"BL": ["4"]},
        {"WL": ["3"]},
        {"MK": ["2:2"]},
        {"BL": ["3"]},
        {"WL": ["2"]},
        {"MK": ["2:10"], "MV": ["2:1"]},  # 2 s of main time, then 12 s: one of its 2 periods used
    ]


def test_without_a_clock_the_record_has_no_time(timed_client: TestClient, clock: FakeClock) -> None:
    gid, (black, white) = start(timed_client)  # only the per-move limit
    play(clock, gid, [(black, 3, "E5"), (white, 4, "E6")])
    data = black.get(f"/api/v1/games/{gid}/sgf").content
    assert not any(p in data for p in (b"TM[", b"OT[", b"BL[", b"WL[", b"OB[", b"OW["))


def test_other_kinds_record_time_too(timed_client: TestClient, clock: FakeClock) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    body = {"kind": "hex", "team": 1, "seconds_per_move": 600, "komi": None, "clock": "fischer",
            "main_time": 60, "increment": 2}
    gid = int(alice.ok("/api/v1/games", body)["id"])
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    play(clock, gid, [(alice, 10, "c2"), (bob, 20, "d3")])
    data = alice.get(f"/api/v1/games/{gid}/sgf").content
    nodes = main_line(data)
    assert nodes[0]["TM"] == ["60"] and nodes[0]["OT"] == ["2 fischer"]
    assert times_of(nodes, "BL", "WL") == [{"BL": ["52"]}, {"WL": ["42"]}]
    record = read_game(data)
    assert record.times == {1: TimeLeft(0, 52.0), 2: TimeLeft(1, 42.0)}

"""The record of a game: the agreed draw as stored, sent and replayed, and the SGF download's game
information (issue 16): RE for every ending, DT with the days the game was played, and every player."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.core.go.scoring import EndReason
from miai.formats.sgf import parse_sgf
from miai.formats.sgf.go import load_go
from miai.server.app import create_app
from tests.server.conftest import FakeClock, Player, make_settings, register, run_scheduler

DAY = 24 * 3600


def start(client: TestClient, names: list[str], teams: int, **options: Any) -> tuple[int, list[Player]]:
    """A game with `teams` teams, filled in team order (players beyond the first team join in turn)."""
    players = [register(client, name) for name in names]
    per_team = len(names) // teams
    body = {"size": 9, "teams": teams, "players_per_team": per_team, "team": 1, **options}
    gid = players[0].ok("/api/v1/games", body)["id"]
    for i, player in enumerate(players[1:], start=1):
        player.ok(f"/api/v1/games/{gid}/join", {"team": i // per_team + 1})
    for player in players:
        player.ok(f"/api/v1/games/{gid}/confirm")
    return gid, players


def root_of(player: Player, gid: int) -> dict[str, list[str]]:
    response = player.get(f"/api/v1/games/{gid}/sgf")
    assert response.status_code == 200, response.text
    return parse_sgf(response.content)[0].root.properties  # type: ignore[no-any-return]


def test_an_agreed_draw_is_recorded_as_no_teams_move_and_replays_after_a_restart(
    timed_client: TestClient, database_url: str, tmp_path: Path
) -> None:
    gid, players = start(timed_client, ["ann", "bob", "cyd"], teams=3)
    players[0].ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    for player in players:
        player.ok(f"/api/v1/games/{gid}/draw", {"accept": True})
    draw = {"ply": 2, "team": None, "seat": None, "move": "draw", "user_id": None}
    snap = players[1].get(f"/api/v1/games/{gid}").json()
    assert (snap["status"], snap["result"]["reason"], snap["moves"][-1]) == ("finished", "agreed_draw", draw)
    events = players[1].get(f"/api/v1/games/{gid}/events").json()["events"]
    assert [e["t"] for e in events[-5:]] == ["draw", "draw", "draw", "move", "finished"]
    recorded = events[-2]["d"]  # one `move` event for each entry of `moves`, the draw included
    assert {k: recorded[k] for k in draw} == draw and recorded["position"]["over"]

    # A server that starts afresh rebuilds the game from what is stored and shows the same finished game.
    with TestClient(create_app(make_settings(database_url, tmp_path), background=False)) as restarted:
        reader = dataclasses.replace(players[2], client=restarted)
        again = reader.get(f"/api/v1/games/{gid}").json()
        assert {k: again[k] for k in ("status", "result", "moves", "position")} == {
            k: snap[k] for k in ("status", "result", "moves", "position")
        }
        record = load_go(reader.get(f"/api/v1/games/{gid}/sgf").content)
    assert record.state.ended is EndReason.AGREED_DRAW and record.state.plies == 2
    assert (record.info["RE"], record.info["MO"]) == ("0", "agreed_draw:0=1=2")


def test_every_ending_has_its_result_and_dates_in_the_record(
    timed_client: TestClient, clock: FakeClock
) -> None:
    """The fake clock starts on 2026-01-01 (UTC); each game's DT lists the days it was played."""
    month = {"seconds_per_move": 30 * DAY}
    scored, (ann, bob) = start(timed_client, ["ann", "bob"], teams=2, preset="chinese", **month)
    clock.advance(DAY)
    ann.ok(f"/api/v1/games/{scored}/moves", {"move": "E5"})
    clock.advance(3 * DAY)
    bob.ok(f"/api/v1/games/{scored}/moves", {"move": "pass"})
    clock.advance(DAY * 29)
    ann.ok(f"/api/v1/games/{scored}/moves", {"move": "pass"})
    assert ann.get(f"/api/v1/games/{scored}").json()["result"]["margin"] == 73.5  # 81 points, komi 7.5
    root = root_of(ann, scored)
    # dead_stones=auto: the record takes the result the server stored with the estimator's verdict
    assert (root["RE"], root["DT"], root["PB"], root["PW"]) == (
        ["B+73.5"],
        ["2026-01-01,02,05,02-03"],
        ["ann"],
        ["bob"],
    )
    assert "MU" not in root  # one player a side: PB and PW say it all

    resigned, (cyd, _dee) = start(timed_client, ["cyd", "dee"], teams=2, preset="chinese")
    cyd.ok(f"/api/v1/games/{resigned}/resign")
    root = root_of(cyd, resigned)
    assert (root["RE"], root["DT"]) == (["W+R"], ["2026-02-03"])

    minute = {"preset": "chinese", "seconds_per_move": 60}
    timed_out, (eve, _fay) = start(timed_client, ["eve", "fay"], teams=2, **minute)
    eve.ok(f"/api/v1/games/{timed_out}/moves", {"move": "E5"})
    clock.advance(61)
    run_scheduler(timed_client)
    root = root_of(eve, timed_out)
    assert (root["RE"], root["DT"]) == (["B+T"], ["2026-02-03"])

    even, (gus, hal) = start(timed_client, ["gus", "hal"], teams=2, preset="dipgo")  # komi 0: a draw
    gus.ok(f"/api/v1/games/{even}/moves", {"move": "pass"})
    hal.ok(f"/api/v1/games/{even}/moves", {"move": "pass"})
    root = root_of(gus, even)
    assert (root["RE"], root["DT"]) == (["0"], ["2026-02-03"])

    declined = ann.ok("/api/v1/games", {"size": 9, "challenge": "bob"})["id"]
    clock.advance(DAY)
    bob.ok(f"/api/v1/games/{declined}/decline")
    root = root_of(ann, declined)
    assert (root["RE"], root["DT"]) == (["Void"], ["2026-02-03,04"])  # created and cancelled


@pytest.mark.parametrize("result", ["resign", "passes"])
def test_a_three_team_game_of_two_names_every_player(timed_client: TestClient, result: str) -> None:
    names = ["ann", "bob", "cyd", "dee", "eve", "fay"]  # teams 1: ann bob, 2: cyd dee, 3: eve fay
    gid, players = start(timed_client, names, teams=3)
    order = [players[i] for i in (0, 2, 4, 1, 3, 5)]  # team 1 seat 0, team 2 seat 0, ... in turn
    if result == "resign":  # both players of team 2, then of team 3, resign (each on turn): team 1 wins
        order[0].ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
        for player in (order[1], order[4], order[2], order[5]):
            player.ok(f"/api/v1/games/{gid}/resign")
    else:
        for player in order[:3]:
            player.ok(f"/api/v1/games/{gid}/moves", {"move": "pass"})
    root = root_of(players[0], gid)
    assert root["MU"] == ["0:ann", "0:bob", "1:cyd", "1:dee", "2:eve", "2:fay"]
    assert (root["PB"], root["PW"], root["MT"]) == (["ann, bob"], ["cyd, dee"], ["2", "2", "2"])
    expected = {"resign": (["B+R"], ["last_colour:0>2>1"]), "passes": (["0"], ["passes:0(0)=1(0)=2(0)"])}
    assert (root["RE"], root["MO"]) == expected[result]
    record = load_go(players[0].get(f"/api/v1/games/{gid}/sgf").content)
    assert record.players == {0: ["ann", "bob"], 1: ["cyd", "dee"], 2: ["eve", "fay"]}

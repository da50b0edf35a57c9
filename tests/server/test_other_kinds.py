"""Amazons, Hex and Tanbo on the server: create, join, play to the end, refusals, timeouts, resignation, SGF.

Every test runs on SQLite and on PostgreSQL (the `client` fixture). Games are scripted (Hex) or played with
seeded random moves taken from the snapshot's `legal` list (Amazons, Tanbo), and the end is checked against
the final `cells` themselves, not only against what the server says.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.core import amazons, hex, tanbo
from miai.formats.sgf.games import read_game
from miai.server.app import create_app
from tests.server.conftest import FakeClock, Player, make_settings, register, run_scheduler

KINDS = ["amazons", "hex", "tanbo"]
TEAM_NAMES = {"amazons": ["White", "Black"], "hex": ["Black", "White"], "tanbo": ["Black", "White"]}
SIZES = {"amazons": 10, "hex": 11, "tanbo": 19}


def start(alice: Player, bob: Player, kind: str, **options: Any) -> int:
    # komi null: a form may send Go's fields empty for another game
    body = {"kind": kind, "team": 1, "seconds_per_move": 3600, "komi": None, **options}
    gid = int(alice.ok("/api/v1/games", body)["id"])
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    return gid


def snap(player: Player, gid: int) -> dict[str, Any]:
    return player.get(f"/api/v1/games/{gid}").json()  # type: ignore[no-any-return]


def on_move(snapshot: dict[str, Any], players: list[Player]) -> Player:
    user_id = snapshot["to_move"]["user_id"]
    return next(p for p in players if p.user_id == user_id)


def play_randomly(players: list[Player], gid: int, seed: int, limit: int = 1000) -> dict[str, Any]:
    """Seeded random legal moves, each picked from the `legal` list of the last event, until the game is over.

    Each move is read back through `/events` (the polling alternative to the websocket), as a client would.
    """
    rng = random.Random(seed)
    snapshot = snap(players[0], gid)
    seats = {(p["team"], p["seat"]): p["user_id"] for p in snapshot["players"]}
    by_id = {p.user_id: p for p in players}
    position, version = snapshot["position"], snapshot["version"]
    for _ in range(limit):
        if position["over"]:
            return snap(players[0], gid)
        turn = position["to_move"]
        mover = by_id[seats[turn["team"], turn["seat"]]]
        move = rng.choice(position["legal"])
        answer = mover.ok(f"/api/v1/games/{gid}/moves", {"move": move, "version": version})
        events = players[0].get(f"/api/v1/games/{gid}/events", params={"since": version}).json()["events"]
        moved = [e for e in events if e["t"] == "move"]
        assert len(moved) == 1 and moved[0]["d"]["move"] == move and moved[0]["d"]["team"] == turn["team"]
        position, version = moved[0]["d"]["position"], answer["version"]
        assert position["last"]["move"] == move and events[-1]["v"] == version
        if "legal" not in position:  # Amazons events leave the long list out; a snapshot has it
            position = snap(players[0], gid)["position"]
    raise AssertionError(f"game {gid} did not end within {limit} moves")


# ----------------------------------------------------------------------------- the kinds and their options


def test_kinds_are_listed_for_create_forms(client: TestClient) -> None:
    kinds = {k["key"]: k for k in client.get("/api/v1/kinds").json()["kinds"]}
    assert list(kinds) == ["go", "amazons", "hex", "tanbo"]
    for key in KINDS:
        assert kinds[key]["team_names"] == TEAM_NAMES[key]
        assert kinds[key]["teams"] == {"min": 2, "max": 2, "default": 2}
    hex_options = {o["name"]: o for o in kinds["hex"]["options"]}
    size = {"name": "size", "default": 11, "min": 5, "max": 19, "suggested": [11, 13, 19]}
    assert hex_options["size"] == size
    assert hex_options["opening"]["values"] == ["swap", "centre_row_ban", "none"]
    assert kinds["amazons"]["options"] == [{"name": "size", "default": 10, "values": [10]}]
    assert kinds["tanbo"]["options"] == [{"name": "size", "default": 19, "values": [19]}]
    go_options = {o["name"] for o in kinds["go"]["options"]}
    assert {"size", "preset", "komi", "ko", "handicap"} <= go_options
    assert [k["key"] for k in client.get("/api/v1/presets").json()["kinds"]] == list(kinds)


BAD_OPTIONS: list[tuple[str, dict[str, Any], str]] = [
    ("/api/v1/games", {"kind": "chess"}, "unknown game 'chess'; known: amazons, go, hex, tanbo"),
    ("/api/v1/games", {"kind": "hex", "size": 4}, "size: Input should be greater than or equal to 5"),
    ("/api/v1/games", {"kind": "hex", "size": 20}, "hex option size must be 5..19, not 20"),
    ("/api/v1/games", {"kind": "amazons", "size": 9}, "amazons option size must be one of 10, not 9"),
    ("/api/v1/games", {"kind": "tanbo", "size": 9}, "tanbo option size must be one of 19, not 9"),
    ("/api/v1/games", {"kind": "hex", "komi": [6.5]}, "komi is a Go option; Hex takes size, opening"),
    ("/api/v1/games", {"kind": "tanbo", "handicap": 2, "preset": "dgo"}, "handicap, preset are Go options"),
    ("/api/v1/games", {"kind": "amazons", "opening": "swap"}, "Amazons has no option opening"),
    ("/api/v1/games", {"kind": "amazons", "teams": 3}, "Amazons is a game for 2 teams, not 3"),
    ("/api/v1/games", {"kind": "hex", "opening": "pie"}, "option opening must be one of swap, centre_row"),
    ("/api/v1/games", {"kind": "hex", "size": 10, "opening": "centre_row_ban"}, "needs an odd board size"),
    ("/api/v1/games", {"size": 9, "opening": "swap"}, "opening: not a Go option"),
    ("/api/v1/practice", {"kind": "hex", "handicap": 2}, "handicap is a Go option"),
    ("/api/v1/practice", {"kind": "hex", "level": "gnugo"}, "Hex is played by Miai's own levels 1..10"),
    ("/api/v1/practice", {"kind": "tanbo", "colour": "red"}, "colour is first, second, black, white or"),
]


@pytest.mark.parametrize(("url", "body", "message"), BAD_OPTIONS)
def test_bad_options_are_refused_with_a_clear_message(
    client: TestClient, url: str, body: dict[str, Any], message: str
) -> None:
    alice = register(client, "alice")
    response = alice.post(url, body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] in {"bad_options", "bad_input"}
    assert message in response.json()["message"]


@pytest.mark.parametrize("kind", KINDS)
def test_snapshot_describes_the_start(client: TestClient, kind: str) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, kind)
    snapshot = snap(bob, gid)
    assert snapshot["kind"] == kind
    assert snapshot["team_names"] == TEAM_NAMES[kind]
    assert snapshot["options"]["size"] == SIZES[kind]
    assert snapshot["to_move"] == {"team": 1, "seat": 0, "user_id": alice.user_id}
    position = snapshot["position"]
    size = SIZES[kind]
    assert (position["kind"], position["size"], position["plies"], position["over"]) == (kind, size, 0, False)
    assert position["to_move"] == {"team": 1, "seat": 0}
    assert position["last"] is None
    cells = position["cells"]
    assert len(cells) == size * size
    if kind == "amazons":  # row 0 is rank 1: White's queens a4 d1 g1 j4, Black's a7 d10 g10 j7
        assert [i for i, c in enumerate(cells) if c == 1] == [3, 6, 30, 39]
        assert [i for i, c in enumerate(cells) if c == 2] == [60, 69, 93, 96]
        assert len(position["legal"]) == 2176 and "a4-d4/d7" in position["legal"]
    elif kind == "hex":
        assert set(cells) == {0}
        assert len(position["legal"]) == 121 and "swap" not in position["legal"]
    else:  # row 0 is GTP row 1: A19 (row 18, column 0) is Black's, A1 White's
        assert (cells[18 * 19], cells[0]) == (1, 2)
        assert cells.count(1) == cells.count(2) == 8
        assert "K10" not in position["legal"] and "B19" in position["legal"]


def test_amazons_move_events_leave_the_legal_moves_to_the_snapshot(client: TestClient) -> None:
    """2,176 legal moves at the start: not stored and sent with every move event, only in snapshots."""
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "amazons")
    answer = alice.ok(f"/api/v1/games/{gid}/moves", {"move": "a4-d4/d7"})
    since = {"since": answer["version"] - 1}
    events = alice.get(f"/api/v1/games/{gid}/events", params=since).json()["events"]
    position = next(e for e in events if e["t"] == "move")["d"]["position"]
    assert "legal" not in position and position["to_move"] == {"team": 2, "seat": 0}
    legal = snap(alice, gid)["position"]["legal"]
    assert len(legal) > 500 and all(move.count("-") == 1 for move in legal)


# ----------------------------------------------------------------------------- Hex


def test_hex_game_to_a_connection(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "hex", size=5, opening="none")
    first = snap(alice, gid)
    assert first["rules"] == {"size": 5, "opening": "none"}
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "A1", "version": first["version"]})
    taken = bob.post(f"/api/v1/games/{gid}/moves", {"move": "a1"})
    assert taken.status_code == 422
    assert taken.json()["error"] == "illegal_move" and taken.json()["reason"] == "occupied"
    stale = bob.post(f"/api/v1/games/{gid}/moves", {"move": "e1", "version": first["version"]})
    assert stale.status_code == 409 and stale.json()["error"] == "stale_version"
    assert bob.post(f"/api/v1/games/{gid}/moves", {"move": "pass"}).json()["error"] == "bad_input"
    off = bob.post(f"/api/v1/games/{gid}/moves", {"move": "f1"})
    assert off.json() == {"error": "bad_input", "message": "f1 is off the 5x5 board"}
    assert alice.post(f"/api/v1/games/{gid}/moves", {"move": "b2"}).status_code == 409  # not alice's turn
    for white, black in [("e1", "a2"), ("e2", "a3"), ("e3", "a4"), ("e4", "a5")]:
        bob.ok(f"/api/v1/games/{gid}/moves", {"move": white})
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": black})  # a1..a5 finally joins row 1 to row 5
    final = snap(alice, gid)
    assert final["status"] == "finished"
    assert final["result"] == {
        "reason": "connection",
        "winners": [1],
        "ranking": [[1], [2]],
        "draw": False,
        "left": [],
    }
    position = final["position"]
    assert position["over"] and position["to_move"] is None and position["legal"] == []
    assert position["last"] == {"team": 1, "seat": 0, "move": "a5", "points": [20], "removed": []}
    assert [i for i, c in enumerate(position["cells"]) if c == 1] == [0, 5, 10, 15, 20]
    moves = [m["move"] for m in final["moves"]]
    assert moves == ["a1", "e1", "a2", "e2", "a3", "e3", "a4", "e4", "a5"]
    assert final["to_move"] == {}
    assert bob.post(f"/api/v1/games/{gid}/moves", {"move": "b1"}).status_code == 409
    record = read_game(alice.get(f"/api/v1/games/{gid}/sgf").content)
    assert record.kind == "hex" and isinstance(record.state, hex.HexState)
    assert list(record.state.cells) == position["cells"] and record.state.winner == 0
    assert record.info["PB"] == ["alice"] and record.info["PW"] == ["bob"]


def test_hex_swap_is_offered_on_the_second_move_only(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "hex")  # size 11, opening swap
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "c2"})
    assert "swap" in snap(bob, gid)["position"]["legal"]
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "swap"})
    position = snap(bob, gid)["position"]
    # c2 (column 2, row 1: point 13) becomes White's b3 (column 1, row 2: point 23).
    assert position["cells"][13] == 0 and position["cells"][23] == 2
    assert position["last"] == {"team": 2, "seat": 0, "move": "swap", "points": [13, 23], "removed": [13]}
    assert position["to_move"] == {"team": 1, "seat": 0} and "swap" not in position["legal"]
    refused = bob.post(f"/api/v1/games/{gid}/moves", {"move": "swap"})
    assert refused.status_code == 409  # not bob's turn any more
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "f6"})
    again = bob.post(f"/api/v1/games/{gid}/moves", {"move": "swap"})
    assert again.status_code == 422 and again.json()["reason"] == "not_allowed"


def test_a_private_hex_challenge_as_a_swap_match(client: TestClient) -> None:
    alice, bob, eve = (register(client, n) for n in ("alice", "bob", "eve"))
    body = {"kind": "hex", "size": 7, "challenge": "bob", "swap_match": True, "visibility": "private"}
    first, second = alice.ok("/api/v1/games", body)["games"]
    challenges = bob.get("/api/v1/dashboard").json()["challenges"]
    assert [(c["id"], c["kind"], c["options"]["size"]) for c in challenges] == [
        (first, "hex", 7),
        (second, "hex", 7),
    ]
    assert eve.get(f"/api/v1/games/{first}").status_code == 403
    assert client.get("/api/v1/games").json()["games"] == []  # private games stay out of the lobby
    for gid in (first, second):
        bob.ok(f"/api/v1/games/{gid}/join", {})
        alice.ok(f"/api/v1/games/{gid}/confirm")
        bob.ok(f"/api/v1/games/{gid}/confirm")
    teams = [{p["username"]: p["team"] for p in snap(alice, gid)["players"]} for gid in (first, second)]
    assert teams == [{"alice": 1, "bob": 2}, {"alice": 2, "bob": 1}]
    assert snap(bob, second)["to_move"]["user_id"] == bob.user_id
    assert [row["kind"] for row in alice.get("/api/v1/dashboard").json()["games"]] == ["hex", "hex"]


def test_teams_of_two_take_turns_in_join_order(client: TestClient) -> None:
    users = [register(client, name) for name in ("ann", "ben", "cat", "dan")]
    gid = int(users[0].ok("/api/v1/games", {"kind": "hex", "players_per_team": 2, "team": 1})["id"])
    for user, team in zip(users[1:], [2, 1, 2], strict=True):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for user in users:
        user.ok(f"/api/v1/games/{gid}/confirm")
    seen = []
    for move in ["a1", "b1", "c1", "d1", "e1"]:
        snapshot = snap(users[0], gid)
        seen.append((snapshot["to_move"]["team"], snapshot["to_move"]["seat"]))
        assert snapshot["position"]["to_move"] == {"team": seen[-1][0], "seat": seen[-1][1]}
        on_move(snapshot, users).ok(f"/api/v1/games/{gid}/moves", {"move": move})
    assert seen == [(1, 0), (2, 0), (1, 1), (2, 1), (1, 0)]
    assert [m["seat"] for m in snap(users[0], gid)["moves"]] == [0, 0, 1, 1, 0]
    names = {u.user_id: u.username for u in users}
    movers = [names[m["user_id"]] for m in snap(users[0], gid)["moves"]]
    assert movers == ["ann", "ben", "cat", "dan", "ann"]  # seats follow join order inside each team
    assert on_move(snap(users[0], gid), users).username == "ben"


# ----------------------------------------------------------------------------- Amazons and Tanbo to the end


def test_amazons_game_ends_when_a_player_cannot_move(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "amazons")
    final = play_randomly([alice, bob], gid, seed=15)
    result, position = final["result"], final["position"]
    last_team = position["last"]["team"]
    loser = 3 - last_team
    ranking = [[last_team], [loser]]
    assert result == {
        "reason": "noMoves",
        "winners": [last_team],
        "ranking": ranking,
        "draw": False,
        "left": [],
    }
    cells = position["cells"]
    assert cells.count(1) == cells.count(2) == 4 and cells.count(-1) == position["plies"]  # one arrow a move
    for square, code in enumerate(cells):  # the loser's queens are all walled in
        if code == loser:
            assert all(cells[ray[0]] != 0 for ray in amazons.rays(10)[square])
    assert any(
        code == last_team and any(cells[ray[0]] == 0 for ray in amazons.rays(10)[square])
        for square, code in enumerate(cells)
    )
    record = read_game(alice.get(f"/api/v1/games/{gid}/sgf").content)
    assert record.kind == "amazons" and b"GM[18]" in alice.get(f"/api/v1/games/{gid}/sgf").content
    assert [-1 if c == amazons.ARROW else c for c in record.state.cells] == cells
    assert record.state.winner == last_team - 1 and record.info["PW"] == ["alice"]


def test_tanbo_game_ends_when_a_colour_is_eliminated(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "tanbo")
    final = play_randomly([alice, bob], gid, seed=36)
    result, position = final["result"], final["position"]
    winner = result["winners"][0]
    ranking = [[winner], [3 - winner]]
    assert result == {
        "reason": "eliminated",
        "winners": [winner],
        "ranking": ranking,
        "draw": False,
        "left": [],
    }
    cells = position["cells"]
    assert cells.count(3 - winner) == 0 and cells.count(winner) > 0  # the loser has no stone left
    last = position["last"]
    assert last["removed"] and all(cells[p] == 0 for p in last["removed"])
    assert set(last["removed"]) <= set(last["points"])
    sgf = alice.get(f"/api/v1/games/{gid}/sgf").content
    record = read_game(sgf)
    assert record.kind == "tanbo" and isinstance(record.state, tanbo.TanboState)
    assert list(record.state.cells) == cells and record.state.winner == winner - 1
    assert record.state.plies == position["plies"] == len(final["moves"])


# ----------------------------------------------------------------------------- leaving: resign, timeout


@pytest.mark.parametrize("kind", KINDS)
def test_resignation_ends_the_game(client: TestClient, kind: str) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, kind)
    assert bob.post(f"/api/v1/games/{gid}/resign", {}).status_code == 409  # not bob's turn
    move = snap(alice, gid)["position"]["legal"][0]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    draw = bob.post(f"/api/v1/games/{gid}/draw", {"accept": True})
    assert draw.status_code == 409 and "more than two colours" in draw.json()["message"]
    bob.ok(f"/api/v1/games/{gid}/resign", {})
    flag = bob.post(f"/api/v1/games/{gid}/flag", {"comment": "wrong"})
    assert flag.status_code == 409 and "only scored games" in flag.json()["message"]
    final = snap(alice, gid)
    assert final["status"] == "finished"
    assert final["result"] == {
        "reason": "resign",
        "winners": [1],
        "ranking": [[1], [2]],
        "draw": False,
        "left": [{"team": 2, "seat": 0, "how": "resign", "ply": 2, "team_out": True}],
    }
    assert [m["move"] for m in final["moves"]] == [move, "resign"]
    assert {p["username"]: p["state"] for p in final["players"]} == {"alice": "active", "bob": "resigned"}
    assert final["position"]["last"]["move"] == "resign" and final["position"]["last"]["points"] == []
    sgf = alice.get(f"/api/v1/games/{gid}/sgf").content
    assert read_game(sgf).state.reason == "resign" and b"RE[" in sgf


@pytest.mark.parametrize("kind", KINDS)
def test_running_out_of_time_loses(timed_client: TestClient, clock: FakeClock, kind: str) -> None:
    alice, bob = register(timed_client, "alice"), register(timed_client, "bob")
    gid = start(alice, bob, kind, seconds_per_move=30, clock="fischer", main_time=60, increment=5)
    clock.advance(10)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": snap(alice, gid)["position"]["legal"][0]})
    assert snap(alice, gid)["clocks"]["1"]["main"] == 55  # 60 - 10 + 5
    clock.advance(29)
    run_scheduler(timed_client)
    assert snap(alice, gid)["status"] == "active"
    clock.advance(2)
    run_scheduler(timed_client)
    final = snap(alice, gid)
    assert final["status"] == "finished"
    assert final["result"]["reason"] == "timeout" and final["result"]["winners"] == [1]
    assert final["moves"][-1] == {"ply": 2, "team": 2, "seat": 0, "move": "timeout", "user_id": bob.user_id}
    assert {p["username"]: p["state"] for p in final["players"]}["bob"] == "timed_out"


# ----------------------------------------------------------------------------- the realtime protocol


def test_moves_over_the_socket_carry_the_position(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start(alice, bob, "tanbo")
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
        first = sock.receive_json()
        assert first["t"] == "snapshot" and first["d"]["position"]["kind"] == "tanbo"
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "B19"})
        event = sock.receive_json()
        assert event["t"] == "move" and event["d"]["move"] == "B19"
        position = event["d"]["position"]
        b19 = 18 * 19 + 1
        assert position["last"] == {"team": 1, "seat": 0, "move": "B19", "points": [b19], "removed": []}
        assert position["to_move"] == {"team": 2, "seat": 0} and position["legal"]
        sock.send_json({"t": "move", "d": {"move": "K10", "v": event["v"]}, "id": "m1"})
        error = sock.receive_json()
        assert error["t"] == "error" and error["d"]["error"] == "illegal_move"
        assert error["d"]["reason"] == "not_allowed" and "touches 0 White stones" in error["d"]["message"]
    events = alice.get(f"/api/v1/games/{gid}/events").json()["events"]
    started = next(e for e in events if e["t"] == "started")
    assert started["d"]["kind"] == "tanbo" and started["d"]["team_names"] == ["Black", "White"]


# ----------------------------------------------------------------------------- the computer


def settle(client: TestClient) -> None:
    client.portal.call(client.app.state.computers.idle)  # type: ignore[union-attr,attr-defined]


@pytest.mark.parametrize("kind", KINDS)
def test_the_computer_answers_in_a_practice_game(client: TestClient, kind: str) -> None:
    """The real engine (level 1, in the process pool) opens as the first player and answers a move."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"kind": kind, "colour": "second", "level": 1})["id"]
    settle(client)
    snapshot = snap(alice, gid)
    assert snapshot["kind"] == kind and snapshot["options"]["mode"] == "computer"
    assert [(m["team"], m["ply"]) for m in snapshot["moves"]] == [(1, 1)]
    assert snapshot["to_move"]["user_id"] == alice.user_id and snapshot["deadline"]
    opening = snapshot["moves"][0]["move"]
    assert snapshot["position"]["last"]["move"] == opening
    reply = snapshot["position"]["legal"][-1]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": reply})
    settle(client)
    after = snap(alice, gid)
    assert [m["move"] for m in after["moves"]][:2] == [opening, reply]
    assert len(after["moves"]) == 3 and after["moves"][2]["team"] == 1
    alice.ok(f"/api/v1/games/{gid}/undo")  # takes back alice's move and the computer's answer
    assert [m["move"] for m in snap(alice, gid)["moves"]] == [opening]


def test_local_practice_undo_and_redo(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"kind": "hex", "mode": "local", "size": 7, "opening": "swap"})["id"]
    for move in ["d4", "swap", "a1"]:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    alice.ok(f"/api/v1/games/{gid}/undo")
    assert [m["move"] for m in snap(alice, gid)["moves"]] == ["d4", "swap"]
    alice.ok(f"/api/v1/games/{gid}/start")
    assert snap(alice, gid)["position"]["cells"] == [0] * 49
    alice.ok(f"/api/v1/games/{gid}/end")
    position = snap(alice, gid)["position"]
    assert position["plies"] == 3 and position["cells"][0] == 1 and position["cells"][3 * 7 + 3] == 2
    assert alice.get(f"/api/v1/games/{gid}/area").status_code == 409  # the territory estimate is Go's


def test_a_computer_seat_never_times_out(database_url: str, tmp_path: Path) -> None:
    clock = FakeClock()

    async def never(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
        await asyncio.Event().wait()  # a computer that thinks forever

    app = create_app(make_settings(database_url, tmp_path), now=clock, background=False, chooser=never)
    with TestClient(app) as client:
        alice = register(client, "alice")
        gid = alice.ok("/api/v1/games", {"kind": "amazons", "team": 1, "seconds_per_move": 60})["id"]
        refused = alice.post(f"/api/v1/games/{gid}/computer", {"team": 2, "level": "gnugo"})
        assert refused.status_code == 422
        alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 2})
        alice.ok(f"/api/v1/games/{gid}/confirm")
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": "d1-d7/d1"})
        assert snap(alice, gid)["deadline"] is None  # the computer is on move
        clock.advance(86400)
        run_scheduler(client)
        snapshot = snap(alice, gid)
        assert snapshot["status"] == "active" and [m["move"] for m in snapshot["moves"]] == ["d1-d7/d1"]

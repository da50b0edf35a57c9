"""Games against the computer: automatic replies, undo / redo / start / end, computer seats, no timeouts.

A deterministic stand-in chooses the computer's moves here (the first legal point from the centre out), so
these tests check the server's plumbing; the engine has its own tests, and one test below uses it for real.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.core.go import PASS, GoState, Move, Place
from miai.core.go.vertex import parse_point
from miai.server.app import create_app
from miai.server.engine_jobs.sweep import computers_on_move
from miai.server.play.stream import CommandStream
from miai.server.realtime.hub import Hub
from miai.server.storage import repo
from tests.server.conftest import Player, make_settings, register


async def centre_first(state: GoState, level: int | str, seed: int, seconds: float | None) -> Move:
    size = state.size
    centre = (size // 2) * size + size // 2
    for p in sorted(
        state.legal_points(),
        key=lambda p: (abs(p // size - centre // size) + abs(p % size - centre % size), p),
    ):
        return Place(p)
    return PASS


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path), background=False, chooser=centre_first)
    with TestClient(app) as test_client:
        yield test_client


def settle(client: TestClient) -> None:
    client.portal.call(client.app.state.computers.idle)  # type: ignore[union-attr,attr-defined]


def moves(player: Player, gid: int) -> list[str]:
    return [m["move"] for m in player.get(f"/api/v1/games/{gid}").json()["moves"]]


def computers_after(player: Player) -> int:
    """A started 9x9 game of three teams: `player` (team 1), then computers at levels 1 and 2, with the
    player's first move, A1, played. Its id."""
    gid = player.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1})["id"]
    player.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": 1})
    player.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 2})
    player.ok(f"/api/v1/games/{gid}/confirm")
    player.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
    return int(gid)


def test_the_computer_answers_and_undo_redo_walk_the_game(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 3})["id"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    assert moves(alice, gid) == ["C3", "E5"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})
    settle(client)
    assert moves(alice, gid) == ["C3", "E5", "G7", "E4"]
    alice.ok(f"/api/v1/games/{gid}/undo")  # takes back G7 and the computer's reply
    assert moves(alice, gid) == ["C3", "E5"]
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert snap["to_move"]["user_id"] == alice.user_id
    assert snap["position"]["plies"] == 2
    alice.ok(f"/api/v1/games/{gid}/start")
    assert moves(alice, gid) == []
    alice.ok(f"/api/v1/games/{gid}/redo")
    assert moves(alice, gid) == ["C3", "E5"]
    alice.ok(f"/api/v1/games/{gid}/end")
    assert moves(alice, gid) == ["C3", "E5", "G7", "E4"]
    assert alice.post(f"/api/v1/games/{gid}/redo").status_code == 409
    alice.ok(f"/api/v1/games/{gid}/undo")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "B2"})  # a new move forgets what was undone
    settle(client)
    assert moves(alice, gid) == ["C3", "E5", "B2", "E4"]
    assert alice.post(f"/api/v1/games/{gid}/redo").status_code == 409


def test_playing_white_the_computer_opens(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 13, "colour": "white", "level": 1})["id"]
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert [m["move"] for m in snap["moves"]] == ["G7"]
    assert snap["to_move"]["user_id"] == alice.user_id


def test_handicap_against_the_computer_white_moves_first(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "handicap": 3})["id"]
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    board = snap["position"]["board"]
    assert sum(1 for c in board if c == 1) == 3  # Dgo's table: C3 G7 G3
    assert [(m["team"], m["move"]) for m in snap["moves"]] == [(2, "E5")]


def test_local_two_player_mode(client: TestClient) -> None:
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 7, "mode": "local"})["id"]
    for move in ["D4", "C3", "E5"]:
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})  # one person plays both colours
    alice.ok(f"/api/v1/games/{gid}/undo")
    assert moves(alice, gid) == ["D4", "C3"]
    bob = register(client, "bob")
    assert bob.post(f"/api/v1/games/{gid}/undo").status_code == 403


def test_undo_is_only_for_practice_games(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})
    assert alice.post(f"/api/v1/games/{gid}/undo").status_code == 409


def test_computer_fills_a_seat_in_a_three_colour_game_and_never_times_out(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 3, "team": 1, "seconds_per_move": 60})["id"]
    bob.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    assert bob.post(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 2}).status_code == 403
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 3, "level": 2})
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert snap["status"] == "confirming"
    assert [p["confirmed"] for p in snap["players"]] == [False, False, True]
    assert [p["computer"] for p in snap["players"]] == [None, None, 2]  # the page shows computer seats
    assert snap["created_by"] == alice.user_id  # the page offers computer seats to the creator only
    alice.ok(f"/api/v1/games/{gid}/confirm")
    bob.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
    bob.ok(f"/api/v1/games/{gid}/moves", {"move": "J9"})
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert [(m["team"], m["move"]) for m in snap["moves"]] == [(1, "A1"), (2, "J9"), (3, "E5")]
    assert snap["to_move"]["team"] == 1


def test_computers_on_move_one_after_another_all_play(client: TestClient) -> None:
    """Two computer seats in a row: the second starts when the first one's move is stored."""
    alice = register(client, "alice")
    gid = computers_after(alice)
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert [(m["team"], m["move"]) for m in snap["moves"]] == [(1, "A1"), (2, "E5"), (3, "E4")]
    assert snap["to_move"]["user_id"] == alice.user_id


def read_racing(client: TestClient, gid: int, command: Callable[[Any], Awaitable[Any]]) -> tuple[int, int]:
    """A reader takes the game row; `command(alice)` is stored; then the reader loads the rules state.
    Returns (plies of that state, plies of the reader's row)."""
    games = client.app.state.games  # type: ignore[attr-defined]

    async def race() -> tuple[int, int]:
        async with games.stream.sessions() as db:
            row = await repo.game_row(db, gid)
            async with games.stream.sessions() as other:
                user = await repo.user_by_name(other, "alice")
            await command(user)
            fresh = CommandStream(games.stream.sessions, Hub())  # nothing cached: the state is read
            state = await fresh.current_state(db, row)
            return state.plies, row.plies

    return client.portal.call(race)  # type: ignore[attr-defined,no-any-return]


def test_a_read_racing_a_move_sees_the_game_as_it_read_it(client: TestClient) -> None:
    """GET /games/{id} reads the game row, then the moves; a move stored in between must not make it fail."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local"})["id"]
    games = client.app.state.games  # type: ignore[attr-defined]
    assert read_racing(client, gid, lambda user: games.moves.move(user, gid, "E5")) == (0, 0)
    assert moves(alice, gid) == ["E5"]


def test_a_read_racing_an_undo_reads_the_game_again(client: TestClient) -> None:
    """An undo that removes moves after the reader has the game row: the reader reads the row again."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "mode": "local"})["id"]
    for vertex in ("E5", "D4", "C3"):
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": vertex})
    practice = client.app.state.practice  # type: ignore[attr-defined]
    assert read_racing(client, gid, lambda user: practice.undo(user, gid)) == (2, 2)  # C3 went
    assert moves(alice, gid) == ["E5", "D4"]


def test_a_computer_seat_played_by_an_external_engine_by_name(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Levels may name an operator's GTP engine; such a seat loads and plays like a numbered one."""
    # Configured (the stand-in chooser plays its moves): only a configured engine is accepted as a level.
    monkeypatch.setenv("MIAI_EXTERNAL_ENGINES", '[{"name": "gnugo", "command": ["gnugo", "--mode", "gtp"]}]')
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "teams": 2, "team": 1})["id"]
    alice.ok(f"/api/v1/games/{gid}/computer", {"team": 2, "level": "gnugo"})
    alice.ok(f"/api/v1/games/{gid}/confirm")
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "A1"})
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert [p["computer"] for p in snap["players"]] == [None, "gnugo"]
    assert [(m["team"], m["move"]) for m in snap["moves"]] == [(1, "A1"), (2, "E5")]


def test_a_computer_move_that_differs_from_the_undone_one_forgets_the_redo_stack(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by attack: the computer (Black) opened elsewhere after a take-back, and a redo then replayed its
    old opening as the player's White move, or answered 500 when that point was taken. Back at the start the
    computer now waits and Redo replays its opening; a move other than the undone one forgets the rest."""
    openings = iter(["E5", "D4"])  # the computer's opening, then another one after taking the first back

    async def varying(state: GoState, level: int | str, seed: int, seconds: float | None) -> Move:
        if state.plies == 0:
            return Place(parse_point(next(openings), state.size))
        return await centre_first(state, level, seed, seconds)

    monkeypatch.setattr(client.app.state.jobs.engine, "chooser", varying)  # type: ignore[attr-defined]
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "white", "level": 1})["id"]
    settle(client)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    assert moves(alice, gid) == ["E5", "C3", "E4"]
    alice.ok(f"/api/v1/games/{gid}/start")
    settle(client)
    assert moves(alice, gid) == []  # back at the start the computer waits (Dgo)
    # The held game is stored as such: a restart resumes nothing.
    assert client.portal.call(client.app.state.computers.resume) == 0  # type: ignore[attr-defined]
    alice.ok(f"/api/v1/games/{gid}/redo")
    settle(client)
    assert moves(alice, gid) == ["E5"]
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "G7"})  # another move than the undone C3
    settle(client)
    assert moves(alice, gid) == ["E5", "G7", "E4"]
    refused = alice.post(f"/api/v1/games/{gid}/redo")
    assert refused.status_code == 409
    assert alice.get(f"/api/v1/games/{gid}").json()["redo"] == 0


@pytest.mark.parametrize(("colour", "handicap"), [("white", 0), ("black", 2)])
def test_back_to_the_start_with_the_computer_first_waits_and_redo_replays(
    client: TestClient, colour: str, handicap: int
) -> None:
    """Issue 32: back to the start where the computer moves first (the player White, or a handicap) left the
    computer to play a new first move at once, and the redo line was lost. Going back never makes the
    computer play: it waits, through chat and reloads, until Redo replays its move."""
    alice = register(client, "alice")
    body = {"size": 9, "colour": colour, "level": 1, "handicap": handicap}
    gid = alice.ok("/api/v1/practice", body)["id"]
    settle(client)
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3" if handicap == 0 else "C7"})
    settle(client)
    line = moves(alice, gid)
    assert len(line) == 3
    answer = alice.ok(f"/api/v1/games/{gid}/start")
    assert answer == {"ok": True, "ply": 0, "redo": 3}
    settle(client)
    alice.ok(f"/api/v1/games/{gid}/chat", {"text": "hi", "channel": "public"})  # any command: still waits
    settle(client)
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert snap["moves"] == []
    assert snap["redo"] == 3
    assert snap["to_move"]["held"] is True
    assert snap["to_move"]["user_id"] != alice.user_id
    assert client.portal.call(client.app.state.computers.resume) == 0  # type: ignore[attr-defined]
    sessions = client.app.state.sessions  # type: ignore[attr-defined]
    swept = client.portal.call(computers_on_move, sessions)  # type: ignore[attr-defined]
    assert all(job.game != gid for job in swept)  # nor does the engine queue's sweep move it
    settle(client)
    assert moves(alice, gid) == []
    assert alice.ok(f"/api/v1/games/{gid}/redo")["redo"] == 2  # the computer's first move, as it was
    settle(client)
    assert moves(alice, gid) == line[:1]
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert "held" not in snap["to_move"]
    assert snap["to_move"]["user_id"] == alice.user_id
    alice.ok(f"/api/v1/games/{gid}/end")
    assert moves(alice, gid) == line
    # Undo from there takes back the player's move and the reply only: the computer's opening stays.
    alice.ok(f"/api/v1/games/{gid}/undo")
    settle(client)
    assert moves(alice, gid) == line[:1]


def test_a_practice_game_ended_by_passes_is_resumed_with_undo(client: TestClient) -> None:
    """After two passes the count is shown and the player may play on (issue 32): Undo takes the last pass
    back and the game is in progress again, its result gone."""
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 7, "mode": "local"})["id"]
    for move in ("D4", "pass", "pass"):
        alice.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    assert alice.get(f"/api/v1/games/{gid}").json()["status"] == "finished"
    alice.ok(f"/api/v1/games/{gid}/undo")
    snap = alice.get(f"/api/v1/games/{gid}").json()
    assert (snap["status"], snap["result"], moves(alice, gid)) == ("active", None, ["D4", "pass"])

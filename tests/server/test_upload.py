"""SGF upload (issue 19): a member's record becomes a read-only finished game that replays as the record does;
broken, hostile and oversized files are refused with the reader's message and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from miai.core.go import preset
from miai.core.go.game import new_game
from miai.core.go.moves import PASS, Pass, Place
from miai.formats.sgf import parse_sgf
from miai.formats.sgf.go import dump_go, load_go
from miai.server.play.uploads import MAX_RECORD_BYTES
from miai.server.play.views import board_view
from miai.server.storage.models import Game, GameMove, UploadedRecord
from tests.conftest import shared_data
from tests.server.conftest import Player, register
from tests.server.test_guests import Visitor

UPLOAD = "/api/v1/games/upload"
# GNU Go's regression records: 19x19 with 9 handicap stones, 9x9, 13x13 with variations, NNGS and KGS games.
RECORDS = [
    "9handicap.sgf",
    "9x9-2.sgf",
    "mertin13x13/GNGI1.sgf",
    "nngs/evand-gnugo-3.3.17-200303201727.sgf",
    "kgs/2004-04-10-GnuGoCVS-inuyasha34.sgf",
]
# A small record with a variation at move 3, player names and a result.
WITH_VARIATION = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Honinbo Shusaku]PW[Gennan]RE[B+R];B[ee];W[cc](;B[gc];W[cg])(;B[cd]))"
)
BROKEN = "(;GM[1]SZ[9];B[ee"  # the value never closes


def games(client: TestClient) -> int:
    async def run() -> int:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            total = 0
            for model in (Game, GameMove, UploadedRecord):
                total += int((await db.execute(select(func.count()).select_from(model))).scalar_one())
            return total

    return client.portal.call(run)  # type: ignore[union-attr]


def upload(player: Player, sgf: str) -> Any:
    return player.post(UPLOAD, {"sgf": sgf})


def upload_file(player: Player, data: bytes) -> Any:
    """The file itself as the body, as `curl --data-binary @game.sgf` sends it."""
    headers = {**player.headers, "Content-Type": "application/x-go-sgf"}
    return player.client.post(UPLOAD, content=data, headers=headers)


@pytest.mark.parametrize("name", RECORDS)
def test_gnugo_records_upload_and_replay_as_the_core_replays_them(client: TestClient, name: str) -> None:
    data = shared_data("gnugo", "games", *name.split("/")).read_bytes()
    ann = register(client, "ann")
    response = upload_file(ann, data)
    assert response.status_code == 201, response.text
    gid = response.json()["id"]
    snap = ann.get(f"/api/v1/games/{gid}").json()
    record = load_go(data)
    assert snap["status"] == "finished" and snap["options"]["mode"] == "record"
    assert snap["position"]["board"] == board_view(record.state)
    moves = record.state.moves()
    passes_at_end = len(moves) - len(list(_strip_passes(moves)))
    # Passes after the two that end the game (GNU Go writes a third) are not stored: they change nothing.
    assert len(snap["moves"]) == len(moves) - max(0, passes_at_end - record.state.colours)
    # The history the game page steps through: one `move` event per stored move, the last one the board.
    events = ann.get(f"/api/v1/games/{gid}/events").json()["events"]
    shown = [e["d"]["position"]["board"] for e in events if e["t"] == "move"]
    assert len(shown) == len(snap["moves"]) and (not shown or shown[-1] == snap["position"]["board"])
    unrated = {"rated": False, "kind_key": None, "reason": "the game is not rated", "changes": []}
    assert snap["rating"] == unrated  # records are never rated; the `finished` event says so as well
    assert all(e["d"]["rating"] == unrated for e in events if e["t"] == "finished")
    # The download is the whole record: the same tree, variations included.
    sgf = ann.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.status_code == 200
    assert sum(1 for _ in parse_sgf(sgf.content)[0].nodes()) == sum(1 for _ in parse_sgf(data)[0].nodes())


def _strip_passes(moves: list[Any]) -> list[Any]:
    out = list(moves)
    while out and isinstance(out[-1][1], Pass):
        out.pop()
    return out


def test_an_upload_is_the_uploaders_private_read_only_game(client: TestClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    answer = upload(ann, WITH_VARIATION)
    assert answer.status_code == 201, answer.text
    gid = answer.json()["id"]
    snap = ann.get(f"/api/v1/games/{gid}").json()
    assert [m["move"] for m in snap["moves"]] == ["E5", "C7", "G7", "C3"]
    assert snap["result"]["winners"] == [1] and snap["result"]["reason"] == "resign"
    assert snap["options"]["rated"] is False and snap["options"]["komi"] == [0.0, 6.5]
    record = ann.get(f"/api/v1/games/{gid}/record").json()
    assert snap["options"]["names"] == [["Honinbo Shusaku"], ["Gennan"]]
    lines = [(n["move"], n["main"], n["parent"]) for n in record["nodes"]]
    assert lines == [("E5", True, None), ("C7", True, 0), ("G7", True, 1), ("C3", True, 2), ("C6", False, 1)]
    # Private: not to others, not in the live list or anyone's public archive; in the uploader's archive.
    assert bob.get(f"/api/v1/games/{gid}").status_code == 403
    assert bob.get(f"/api/v1/games/{gid}/record").status_code == 403
    assert all(g["id"] != gid for g in bob.get("/api/v1/games/live").json()["games"])
    assert all(g["id"] != gid for g in bob.get("/api/v1/games/archive").json()["games"])
    assert [g["id"] for g in ann.get("/api/v1/games/archive?user=ann").json()["games"]] == [gid]
    # Read-only: every command is refused, and nothing changes.
    commands = {
        "moves": {"move": "A1"},
        "resign": {},
        "draw": {"accept": True},
        "join": {},
        "leave": {},
        "confirm": {},
        "chat": {"channel": "public", "text": "nice"},
        "flag": {"comment": "wrong score"},
        "computer": {"level": 1},
        "undo": {},
        "redo": {},
        "start": {},
        "end": {},
        "decline": {},
    }
    for path, body in commands.items():
        refused = ann.post(f"/api/v1/games/{gid}/{path}", body)
        assert refused.status_code == 409, (path, refused.text)
        assert "read-only" in refused.json()["message"], path
    assert ann.get(f"/api/v1/games/{gid}").json()["version"] == snap["version"]
    # A game played here has no uploaded record.
    played = ann.ok("/api/v1/games", {"size": 9})["id"]
    assert ann.get(f"/api/v1/games/{played}/record").status_code == 404


def test_a_three_colour_record_uploads_with_its_rules_and_players(client: TestClient) -> None:
    """Miai's N-colour extension (MC, MU, MR): three colours, a team of two, DipGo's rules."""
    state = new_game(9, preset("dipgo", 9, 3), colours=3)
    for point in (40, 0, 80, 41, 1, 79, 30):
        state = state.play(Place(point))
    state = state.play(PASS)
    data = dump_go(state, players={0: ["Ann"], 1: ["Bob"], 2: ["Cy", "Dee"]}, rules_key="dipgo")
    ann = register(client, "ann")
    response = upload_file(ann, data)
    assert response.status_code == 201, response.text
    snap = ann.get(f"/api/v1/games/{response.json()['id']}").json()
    assert snap["options"]["teams"] == 3 and snap["options"]["names"] == [["Ann"], ["Bob"], ["Cy", "Dee"]]
    assert snap["position"]["board"] == board_view(state)
    assert [m["move"] for m in snap["moves"]] == ["E5", "A1", "J9", "F5", "B1", "H9", "D4", "pass"]
    assert snap["rules"]["ko"] == "positional" and snap["rules"]["scoring"] == state.rules.scoring.value


def test_a_guest_may_not_upload_and_nothing_is_stored(client: TestClient) -> None:
    visitor = Visitor(client)
    visitor.practice()
    before = games(client)
    refused = visitor.post(UPLOAD, {"sgf": WITH_VARIATION})
    assert refused.status_code == 403 and refused.json()["error"] == "guest"
    assert client.post(UPLOAD, json={"sgf": WITH_VARIATION}).status_code == 401
    assert games(client) == before


def test_broken_and_hostile_files_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    ann = register(client, "ann")
    before = games(client)
    broken = upload(ann, BROKEN)
    assert broken.status_code == 422
    assert broken.json() == {
        "error": "bad_sgf",
        "message": "line 1, column 15: unterminated property value (no closing ']')",
        "line": 1,
        "column": 15,
    }
    assert upload(ann, "hello, this is not SGF").json()["error"] == "bad_sgf"
    refusals = {
        "another game": upload(ann, "(;GM[11]SZ[11];B[a1])"),
        "no board": upload(ann, "(;GM[1]SZ[99])"),
        "deep nesting": upload(ann, "(;GM[1]SZ[9]" + "(;B[aa]" * 50_000 + ")" * 50_000 + ")"),
        "out of turn": upload(ann, "(;GM[1]SZ[9];B[aa];B[bb])"),
        "mid-game setup": upload(ann, "(;GM[1]SZ[9];B[aa];AW[cc];W[dd])"),
    }
    for what, response in refusals.items():
        assert response.status_code == 422 and response.json()["error"] == "bad_sgf", (what, response.text)
    hostile = [  # JSON bodies as a client may write them
        r'{"sgf": "(;GM[1]SZ[9]C[a\u0000b];B[ee])"}',  # NUL
        r'{"sgf": "(;GM[1]SZ[9]C[\ud800];B[ee])"}',  # a lone surrogate
        '{"sgf": ""}',
        '{"sgf": 19}',
        '{"sgf": ["(;)"]}',
        '{"sgf": "(;GM[1]SZ[9])", "extra": 1}',
        "{}",
        "[]",
        "not json",
        '{"sgf": "(;GM[1]SZ[9])"',
    ]
    for body in hostile:
        headers = {**ann.headers, "Content-Type": "application/json"}
        response = client.post(UPLOAD, content=body.encode(), headers=headers)
        assert response.status_code == 422 and response.json()["error"] == "bad_input", (body, response.text)
    binary = bytes(range(256)) * 64
    raw = upload_file(ann, binary)
    assert raw.status_code == 422 and raw.json()["error"] == "bad_sgf", raw.text
    nul = upload_file(ann, b"(;GM[1]SZ[9]C[a\x00b];B[ee])")
    assert nul.status_code == 422, nul.text
    assert games(client) == before


def test_a_file_over_one_mebibyte_is_refused_as_too_large(client: TestClient) -> None:
    ann = register(client, "ann")
    head, tail = b"(;GM[1]SZ[9]C[", b"];B[ee])"
    exactly = head + b"x" * (MAX_RECORD_BYTES - len(head) - len(tail)) + tail
    before = games(client)
    too_large = upload_file(ann, exactly + b" ")
    assert too_large.status_code == 413 and too_large.json()["error"] == "too_large"
    assert ann.post(UPLOAD, {"sgf": exactly.decode()}).status_code == 413  # the JSON around it counts
    assert games(client) == before
    # Exactly 1 MiB is within the limit; other routes keep the usual one.
    assert upload_file(ann, exactly).status_code == 201
    assert ann.post("/api/v1/games", {"size": 9, "preset": "x" * 100_000}).status_code == 413


def test_the_record_keeps_each_moves_comment_as_text(client: TestClient) -> None:
    """C[] comments reach the record's nodes (GET /games/{id}/record) as their text: on the move's own node,
    or on a node without a move after it (joined to the move before); none on a move without."""
    ann = register(client, "ann")
    sgf = (
        "(;GM[1]FF[4]SZ[9]C[The game.];B[ee]C[Calm \\] start.\nSecond line.];W[cc];C[<b>markup</b>]C[]"
        ";B[gc](;W[cg]C[main])(;W[dg]C[variation]))"
    )
    answer = upload(ann, sgf)
    assert answer.status_code == 201, answer.text
    nodes = ann.get(f"/api/v1/games/{answer.json()['id']}/record").json()["nodes"]
    assert [(n["move"], n.get("comment")) for n in nodes] == [
        ("E5", "Calm ] start.\nSecond line."),
        ("C7", "<b>markup</b>"),
        ("G7", None),
        ("C3", "main"),
        ("D3", "variation"),
    ]

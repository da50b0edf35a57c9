"""An upload's cost is bounded and counted against its uploader ("Safe at the edges, round two").

Hostile megabytes posted to POST /games/upload are refused with `422 bad_sgf` and the reader's reason,
storing nothing; a record whose compressed lists repeat thousands of times is read as the points it names.
Each member may keep `upload_records` records holding `upload_moves` moves of main lines together: past
either, `409 upload_limit` says which and by how much, and GET /me/uploads shows where the member stands.
The memory each shape may cost is asserted in tests/formats/sgf/test_sgf_limits.py and measured on a real
server by bench/uploads.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from tests.formats.sgf import hostile as shapes
from tests.server.conftest import make_settings, register
from tests.server.test_attack_reviews_uploads import rows
from tests.server.test_upload import upload_file

MIB = shapes.MIB
HOSTILE = {
    "compressed lists in 19,000 nodes": (
        b"(;GM[1]SZ[25]" + b";AE[aa:yy]" * 19_000 + b")",
        "the record is too costly to read: reading its point lists went over the 500,000 units",
    ),
    "distinct rectangles": (
        b"(;GM[1]SZ[25]AB" + shapes.rectangles(25, MIB - 40) + b")",
        "the record is too costly to read: reading its point lists went over",
    ),
    "a megabyte of empty nodes": (
        shapes.fill(b"(;GM[1]SZ[9]", b";"),
        "line 1, column 20012: the record has more than 20,000 nodes (the most one may have)",
    ),
    "deep nesting": (
        shapes.fill(b"(;GM[1]SZ[9]", b"(;B[aa]"),
        "line 1, column 7006: variations nested more than 1,000 deep",
    ),
    "open parentheses": (shapes.fill(b"(;GM[1]SZ[9]", b"("), "variations nested more than 1,000 deep"),
    "a megabyte of stray values": (shapes.fill(b"(;GM[1]SZ[9];", b"[]"), "reading its property values"),
    "a megabyte of moves in one node": (shapes.fill(b"(;GM[1]SZ[25];B", b"[aa]"), "reading its moves"),
    "8,000 passes on 25x25": (  # 32 KB: each position replayed is kept, 625 points each
        b"(;GM[1]SZ[25]" + b";B[];W[]" * 4_000 + b")",
        "reading its moves and positions replayed went over",
    ),
    "a komi of 1e14": (b"(;GM[1]SZ[9]KM[100000000000000];B[ee])", "a komi beyond the board's 81 points"),
    "a komi below the board": (b"(;GM[1]SZ[9]KM[-82];B[ee])", "a komi beyond the board's 81 points"),
    "a megabyte comment with NUL": (
        shapes.fill(b"(;GM[1]SZ[9]C[", b"\x00", b"];B[ee])"),
        "the record holds text that cannot be stored: control character U+0000 at position",
    ),
}


def test_the_formats_tests_read_with_the_uploads_limits() -> None:
    from miai.server.play.uploads import UPLOAD_LIMITS
    from tests.formats.sgf.test_sgf_limits import UPLOAD

    assert UPLOAD == UPLOAD_LIMITS


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
@pytest.mark.parametrize("shape", HOSTILE)
def test_hostile_uploads_are_refused_with_the_reason_and_store_nothing(
    client: TestClient, shape: str
) -> None:
    data, reason = HOSTILE[shape]
    ann = register(client, "ann")
    before = rows(client)
    answer = upload_file(ann, data)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "bad_sgf"
    assert reason in answer.json()["message"], answer.json()["message"]
    assert rows(client) == before
    assert ann.get("/api/v1/me/uploads").json()["records"] == 0


def test_repeated_compressed_lists_upload_as_the_points_they_name(client: TestClient) -> None:
    """A megabyte of `AB[aa:yx]` (the issue's shape, all the board but its last row) is 600 stones."""
    ann = register(client, "ann")
    answer = upload_file(ann, shapes.REPEATED["the property repeated"])
    assert answer.status_code == 201, answer.text
    snap = ann.get(f"/api/v1/games/{answer.json()['id']}").json()
    board = snap["position"]["board"]
    assert sum(1 for team in board if team == 1) == 600 and len(board) == 625


@pytest.fixture
def capped(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """A server where a member keeps at most 2 uploaded records, of 5 main-line moves together."""
    settings = make_settings(database_url, tmp_path, upload_records=2, upload_moves=5)
    app = create_app(settings, background=False)
    with TestClient(app) as client:
        yield client


def record(moves: int) -> bytes:
    points = ["ee", "cc", "gg", "cg", "gc"][:moves]
    return ("(;GM[1]SZ[9]" + "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(points)) + ")").encode()


def counts(records: int, moves: int) -> dict[str, int]:
    return {"records": records, "moves": moves, "max_records": 2, "max_moves": 5}


def test_a_members_uploads_are_capped_and_counted(capped: TestClient) -> None:
    ann, bob = register(capped, "ann"), register(capped, "bob")
    assert ann.get("/api/v1/me/uploads").json() == counts(0, 0)
    first = upload_file(ann, record(3))
    assert first.status_code == 201, first.text
    assert first.json()["uploads"] == counts(1, 3)

    before = rows(capped)
    too_many_moves = upload_file(ann, record(3))
    assert too_many_moves.status_code == 409, too_many_moves.text
    assert too_many_moves.json() == {
        "error": "upload_limit",
        "message": "your uploaded records hold 3 moves; this one's 3 would pass the 5 one member's records "
        "may hold together on this server",
        **counts(1, 3),
    }
    assert rows(capped) == before

    assert upload_file(ann, record(2)).json()["uploads"]["moves"] == 5  # exactly the cap
    full = upload_file(ann, record(0))
    assert full.status_code == 409 and full.json()["error"] == "upload_limit"
    message = "you keep 2 uploaded records, the most one member may keep (2) on this server"
    assert full.json() == {"error": "upload_limit", "message": message, **counts(2, 5)}
    # Refused before reading: even a file the reader would refuse gets the cap's answer.
    assert upload_file(ann, b"not a record").json()["error"] == "upload_limit"
    assert ann.get("/api/v1/me/uploads").json() == counts(2, 5)
    # The caps are each member's own.
    assert upload_file(bob, record(5)).status_code == 201
    assert capped.get("/api/v1/me/uploads").status_code == 401


def test_uploads_are_counted_where_the_uploader_is_shown(client: TestClient) -> None:
    """Games played here do not count; the archive lists the uploads the count is of."""
    ann = register(client, "ann")
    ann.ok("/api/v1/games", {"size": 9})
    ids = [upload_file(ann, record(n)).json()["id"] for n in (1, 4)]
    assert ann.get("/api/v1/me/uploads").json()["records"] == 2
    assert ann.get("/api/v1/me/uploads").json()["moves"] == 5
    listed = ann.get("/api/v1/games/archive?user=ann").json()["games"]
    assert sorted(g["id"] for g in listed if g["names"] is not None) == sorted(ids)


def test_uploads_sent_at_once_stay_within_the_cap(capped: TestClient) -> None:
    """Counted and stored in one transaction that holds the uploader's lock: a dozen uploads at once (a
    script's burst) cannot all read the count before any is stored. On SQLite the count used to be read
    before the write lock was taken, and more than two of these got through a cap of 2."""
    ann = register(capped, "ann")
    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(lambda _: upload_file(ann, record(1)), range(12)))
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [201] * 2 + [409] * 10, [answer.text for answer in answers]
    assert ann.get("/api/v1/me/uploads").json() == counts(2, 2)

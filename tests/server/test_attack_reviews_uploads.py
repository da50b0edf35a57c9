"""Reviews, uploads and "opening a game reads its notifications" attacked as a hostile client would: hostile
bodies and paths, SGF bombs and charset tricks, other people's private records, guests, CSRF-less writes,
bots, rate limits, games that cannot be reviewed, and failures that must stay with their own command. Every
answer is the API's error shape, never a 500; nothing half-done is stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from miai.server.app import create_app
from miai.server.storage.models import Game, GameEvent, GameMove, GamePlayer, Review, UploadedRecord
from miai.server.text import clean_text
from tests.server.conftest import Player, make_settings, register
from tests.server.test_finding import new_game
from tests.server.test_guests import Visitor
from tests.server.test_reviews import TINY, computed, finished
from tests.server.test_upload import UPLOAD, upload_file

READ = "/api/v1/me/notifications/read"
SMALL = "(;GM[1]SZ[9]RE[W+R];B[ee];W[cc])"


@pytest.fixture
def attack_client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """A server whose 500s come back as answers (not raised into the test), with tiny reviews."""
    app = create_app(make_settings(database_url, tmp_path, **TINY), background=False)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def rows(client: TestClient) -> dict[str, int]:
    """How many rows every table an upload or a review writes holds."""

    async def run() -> dict[str, int]:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            models = (Game, GamePlayer, GameMove, GameEvent, UploadedRecord, Review)
            return {
                m.__name__: int((await db.execute(select(func.count()).select_from(m))).scalar_one())
                for m in models
            }

    return client.portal.call(run)  # type: ignore[union-attr]


def raw(player: Player, url: str, body: bytes, content_type: str = "application/json") -> Any:
    return player.client.post(url, content=body, headers={**player.headers, "Content-Type": content_type})


# ----------------------------------------------------------------------------- hostile bodies

UNREADABLE = [
    b"\xff\xfe{}",  # not UTF-8
    b"[" * 20_000 + b"]" * 20_000,  # nested deeper than the JSON reader goes
    b'{"depth": ' + b"[" * 5_000 + b"]" * 5_000 + b"}",
]


@pytest.mark.parametrize("body", UNREADABLE, ids=["not-utf8", "deep-array", "deep-field"])
def test_bodies_the_framework_cannot_parse_answer_bad_input_in_the_apis_shape(
    attack_client: TestClient, body: bytes
) -> None:
    """Docs, Errors: a body that is not JSON is `422 bad_input`, never the framework's `400 {"detail"}`."""
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    gid = finished(ann, bob)
    for url in (f"/api/v1/games/{gid}/review", READ, UPLOAD, "/api/v1/games"):
        answer = raw(ann, url, body)
        assert answer.status_code == 422, (url, answer.text)
        assert answer.json()["error"] == "bad_input", (url, answer.text)
    assert rows(attack_client)["Review"] == 0
    # The framework's other errors keep their documented shape.
    assert attack_client.put("/api/v1/games").json() == {"detail": "Method Not Allowed"}


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b'{"depth": "quick"}', "text/plain"),
        (b"depth=quick", "application/x-www-form-urlencoded"),
        (b'{"depth": 1e999}', "application/json"),
        (b'{"depth": "\\ud800"}', "application/json"),
        (b'{"depth": "quick", "depth": "quick\\u0000"}', "application/json"),
        (b'{"depth": "quick", "__proto__": {}}', "application/json"),
    ],
)
def test_hostile_review_bodies_are_refused_and_store_nothing(
    attack_client: TestClient, body: bytes, content_type: str
) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    gid = finished(ann, bob)
    answer = raw(ann, f"/api/v1/games/{gid}/review", body, content_type)
    assert answer.status_code == 422 and answer.json()["error"] == "bad_input", answer.text
    assert rows(attack_client)["Review"] == 0


def test_a_review_asked_for_without_a_body_is_the_quick_one(attack_client: TestClient) -> None:
    """docs/api.md: the depth defaults to `quick`; `curl -X POST` sends no body at all."""
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    gid = finished(ann, bob)
    answer = ann.client.post(f"/api/v1/games/{gid}/review", headers=ann.headers)
    assert answer.status_code == 202, answer.text
    assert answer.json()["depth"] == "quick"
    for nothing in (b"", b"null", b"{}"):  # as for POST /me/notifications/read
        assert raw(ann, f"/api/v1/games/{gid}/review", nothing).json()["id"] == answer.json()["id"]
    too_large = raw(ann, f"/api/v1/games/{gid}/review", b'{"depth": "quick"' + b" " * 70_000 + b"}")
    assert too_large.status_code == 413 and too_large.json()["error"] == "too_large"


@pytest.mark.parametrize("game", ["0", "-1", "2147483648", "1e3", "%00", "%ED%B2%80"])
def test_hostile_game_ids_of_the_record_are_refused(attack_client: TestClient, game: str) -> None:
    ann = register(attack_client, "ann")
    answer = ann.get(f"/api/v1/games/{game}/record")
    assert answer.status_code == 422 and answer.json()["error"] == "bad_input", answer.text


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": 0}',
        b'{"game": 2147483648}',
        b'{"game": 99999999999999999999999999}',
        b'{"game": 1e400}',
        b'{"game": NaN}',
        b'{"game": "1"}',
        b'{"game": true}',
        b'{"game": [1]}',
        b'{"game": 1, "id": 1}',
        b'{"game": 1, "all": true}',
    ],
)
def test_hostile_read_game_bodies_are_refused(attack_client: TestClient, body: bytes) -> None:
    ann = register(attack_client, "ann")
    answer = raw(ann, READ, body)
    assert answer.status_code == 422 and answer.json()["error"] == "bad_input", answer.text


def test_reading_someone_elses_game_marks_only_ones_own_notifications(attack_client: TestClient) -> None:
    ann, bob, eve = (register(attack_client, n) for n in ("ann", "bob", "eve"))
    gid = new_game(ann, bob, visibility="private")
    ann.ok(f"/api/v1/games/{gid}/moves", {"move": "E5"})  # bob's turn: a notification for bob
    assert bob.get("/api/v1/me/notifications").json()["unread"] >= 1
    assert eve.ok(READ, {"game": gid})["marked"] == 0
    assert eve.ok(READ, {"game": 2**31 - 1})["marked"] == 0
    unread = bob.get("/api/v1/me/notifications").json()["unread"]
    assert unread >= 1
    assert bob.ok(READ, {"game": gid}) == {"ok": True, "marked": unread, "unread": 0}


# ----------------------------------------------------------------------------- SGF bombs and charsets

BOMBS = {
    "52x52": b"(;GM[1]SZ[52];B[aa];W[ZZ])",
    "100k variations": b"(;GM[1]SZ[9]" + b"(;B[aa])" * 100_000 + b")",
    "deeply nested variations": b"(;GM[1]SZ[9]" + b"(;B[aa]" * 30_000 + b")" * 30_000 + b")",
    "utf-16 file": "(;GM[1]SZ[9]CA[UTF-16];B[ee])".encode("utf-16"),
    "NUL through latin-1": b"(;GM[1]SZ[9]CA[ISO-8859-1];B[ee]C[\xe9\x00])",
    "C1 control through latin-1": b"(;GM[1]SZ[9]CA[latin1];PB[\x85\x9b];B[ee])",
    "escaped NUL": b"(;GM[1]SZ[9]PB[a\\\x00b];B[ee])",
    "UTF-8 encoded surrogate": b"(;GM[1]SZ[9]PB[\xed\xa0\x80];B[ee])",
    "overlong NUL": b"(;GM[1]SZ[9]PB[\xc0\x80];B[ee])",
}


def test_sgf_bombs_are_refused_with_the_readers_message_and_store_nothing(attack_client: TestClient) -> None:
    ann = register(attack_client, "ann")
    before = rows(attack_client)
    for what, data in BOMBS.items():
        answer = upload_file(ann, data)
        assert answer.status_code == 422, (what, answer.text)
        assert answer.json()["error"] == "bad_sgf" and answer.json()["message"], (what, answer.text)
    assert rows(attack_client) == before


STORED = {
    "1 MB comment": b"(;GM[1]SZ[9]C[" + b"x" * (1024 * 1024 - 40) + b"];B[ee])",
    "900 KB player name": b"(;GM[1]SZ[9]PB[" + b"x" * 900_000 + b"];B[ee])",
    "900 KB komi": b"(;GM[1]SZ[9]KM[" + b"9" * 900_000 + b"];B[ee])",
    "900 KB result": b"(;GM[1]SZ[9]RE[B+" + b"9" * 900_000 + b"];B[ee])",
    "non-finite komi and times": b"(;GM[1]SZ[9]KM[nan]TM[1e400];B[ee]BL[inf])",
    "unknown charset": b"(;GM[1]SZ[9]CA[x-no-such-charset];B[ee]C[\xff\xfe])",
    "empty charset": b"(;GM[1]SZ[9]CA[];B[ee]C[\xff])",
    "a bytes codec as charset": b"(;GM[1]SZ[9]CA[base64]PB[abc];B[ee])",
    "a compression codec as charset": b"(;GM[1]SZ[9]CA[zlib]PB[abc];B[ee])",
    "utf-7 lone surrogate": b"(;GM[1]SZ[9]CA[utf-7];B[ee]C[+2D0-])",
    "BOM and Shift_JIS": b"\xef\xbb\xbf(;GM[1]SZ[9]CA[Shift_JIS];PB[\x82\xa0];B[ee])",
    "bad GB2312": b"(;GM[1]SZ[9]CA[GB2312];PB[\xff\xff];B[ee])",
    "right-to-left override": "(;GM[1]SZ[9]PB[\u202eevil];B[ee])".encode(),
    "9000 variations of two moves": b"(;GM[1]SZ[19]"
    + b"".join(b"(;B[%c%c];W[ss])" % (97 + i % 18, 97 + i // 18 % 18) for i in range(9000))
    + b")",
}


def test_odd_but_readable_records_are_stored_whole_and_every_view_of_them_answers(
    attack_client: TestClient,
) -> None:
    ann = register(attack_client, "ann")
    for what, data in STORED.items():
        answer = upload_file(ann, data)
        assert answer.status_code == 201, (what, answer.text)
        gid = answer.json()["id"]
        for path in ("", "/record", "/sgf", "/events", "/review", "/area"):
            assert ann.get(f"/api/v1/games/{gid}{path}").status_code == 200, (what, path)
        record = ann.get(f"/api/v1/games/{gid}/record").json()
        assert clean_text(record["sgf"], multiline=True) == record["sgf"]  # no NUL, no lone surrogate
    for path in ("/api/v1/games/archive?user=ann", "/api/v1/users/ann", "/api/v1/dashboard"):
        assert ann.get(path).status_code == 200, path


def test_an_upload_that_fails_half_way_stores_nothing(
    attack_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game row is flushed before its record is added: a failure there must roll the game back."""
    import miai.server.storage.uploads as storage

    ann = register(attack_client, "ann")
    before = rows(attack_client)

    def broken(**_columns: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(storage, "UploadedRecord", broken)
    assert ann.post(UPLOAD, {"sgf": SMALL}).status_code == 500
    assert rows(attack_client) == before
    monkeypatch.undo()
    assert ann.post(UPLOAD, {"sgf": SMALL}).status_code == 201  # the next one is stored whole
    after = rows(attack_client)
    assert (after["Game"], after["UploadedRecord"], after["GameMove"]) == (
        before["Game"] + 1,
        before["UploadedRecord"] + 1,
        before["GameMove"] + 2,
    )


# ----------------------------------------------------------------------------- who may see what


def test_someone_elses_private_record_its_review_and_sgf_stay_invisible(attack_client: TestClient) -> None:
    ann, eve = register(attack_client, "ann"), register(attack_client, "eve")
    gid = ann.ok(UPLOAD, {"sgf": SMALL})["id"]
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202  # the owner's
    computed(attack_client)
    invite = ann.get(f"/api/v1/games/{gid}").json()["invite_code"]
    visitor = Visitor(attack_client)
    visitor.practice()
    readers: dict[str, Any] = {"eve": eve.get, "anonymous": attack_client.get, "guest": visitor.get}
    for who, get in readers.items():
        for path in ("", "/record", "/sgf", "/review", "/events", "/area"):
            for query in ("", "?invite=wrong", "?invite=%ED%A0%80"):
                answer = get(f"/api/v1/games/{gid}{path}{query}")
                assert answer.status_code == 403, (who, path, query, answer.text)
                assert answer.json()["error"] == "forbidden"
            assert get(f"/api/v1/games/{gid}{path}?invite=%00").status_code == 422
    refused = eve.post(f"/api/v1/games/{gid}/review", {"depth": "quick"})
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    # The invite is the owner's to share: it shows the record and its review, never a deep review to ask for.
    assert eve.get(f"/api/v1/games/{gid}/record?invite={invite}").status_code == 200
    assert eve.get(f"/api/v1/games/{gid}/review?invite={invite}").json()["reviews"][0]["depth"] == "deep"
    assert eve.post(f"/api/v1/games/{gid}/review?invite={invite}", {"depth": "deep"}).status_code == 403
    # No such game: 404, as everywhere.
    for path in ("/record", "/review"):
        assert eve.get(f"/api/v1/games/2147483647{path}").status_code == 404


def test_a_private_games_review_is_not_heard_on_anothers_socket(attack_client: TestClient) -> None:
    ann, bob, eve = (register(attack_client, n) for n in ("ann", "bob", "eve"))
    gid = finished(ann, bob, visibility="private")
    url = f"/api/v1/games/{gid}/ws?token={eve.token}"
    with pytest.raises(WebSocketDisconnect), attack_client.websocket_connect(url) as socket:
        socket.receive_json()


def test_guests_and_cookie_writes_without_csrf_are_refused_and_store_nothing(
    attack_client: TestClient,
) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    gid = finished(ann, bob)
    visitor = Visitor(attack_client)
    practice = visitor.practice()
    before = rows(attack_client)
    for url, body in ((UPLOAD, {"sgf": SMALL}), (f"/api/v1/games/{gid}/review", {}), (READ, {"game": gid})):
        refused = visitor.post(url, body)
        assert refused.status_code == 403 and refused.json()["error"] == "guest", (url, refused.text)
    assert visitor.post(f"/api/v1/games/{practice}/review", {}).status_code == 403
    logged_in = attack_client.post("/api/v1/session", json={"username": "bob", "password": "correct horse"})
    assert logged_in.status_code == 200
    writes = [
        attack_client.post(UPLOAD, json={"sgf": SMALL}),
        attack_client.post(UPLOAD, content=SMALL.encode(), headers={"Content-Type": "application/x-go-sgf"}),
        attack_client.post(f"/api/v1/games/{gid}/review", json={"depth": "deep"}),
        attack_client.post(READ, json={"game": gid}),
    ]
    attack_client.cookies.clear()
    for answer in writes:
        assert answer.status_code == 403 and answer.json()["error"] == "csrf", answer.text
    assert rows(attack_client) == before


def test_a_bot_uploads_and_reviews_like_a_member_and_sees_no_more(attack_client: TestClient) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    bot = register(attack_client, "robo")
    assert bot.post("/api/v1/me/bot", {"confirm": "irreversible"}).status_code == 200
    own = bot.post(UPLOAD, {"sgf": SMALL})
    assert own.status_code == 201
    assert bot.post(f"/api/v1/games/{own.json()['id']}/review", {"depth": "deep"}).status_code == 202
    private = ann.ok(UPLOAD, {"sgf": SMALL})["id"]
    assert bot.get(f"/api/v1/games/{private}/record").status_code == 403
    assert bot.post(f"/api/v1/games/{private}/review", {}).status_code == 403
    assert bot.post(f"/api/v1/games/{finished(ann, bob)}/review", {"depth": "deep"}).status_code == 403
    profile = ann.get("/api/v1/users/robo").json()
    assert profile["is_bot"] is True and profile["rated_challenges"] is False


# ----------------------------------------------------------------------------- what cannot be reviewed


def test_games_that_are_not_finished_cannot_be_reviewed(attack_client: TestClient) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    waiting = ann.ok("/api/v1/games", {"size": 9})["id"]
    cancelled = ann.ok("/api/v1/games", {"size": 9, "teams": 2, "team": 1})["id"]
    ann.ok(f"/api/v1/games/{cancelled}/computer", {"team": 2, "level": 1})
    ann.ok(f"/api/v1/games/{cancelled}/leave")
    assert ann.get(f"/api/v1/games/{cancelled}").json()["status"] == "cancelled"
    playing = new_game(ann, bob)
    practice = ann.ok("/api/v1/practice", {"size": 9})["id"]
    for gid in (waiting, cancelled, playing, practice):
        answer = ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"})
        assert answer.status_code == 409 and answer.json()["error"] == "conflict", answer.text
        assert ann.get(f"/api/v1/games/{gid}/review").json() == {"reviews": []}
        assert ann.get(f"/api/v1/games/{gid}/record").status_code == 404
    assert rows(attack_client)["Review"] == 0
    # A practice game once over is reviewed for its player, and stays private.
    ann.ok(f"/api/v1/games/{practice}/resign", {})
    assert ann.post(f"/api/v1/games/{practice}/review", {"depth": "deep"}).status_code == 202
    assert bob.post(f"/api/v1/games/{practice}/review", {}).status_code == 403


@pytest.mark.parametrize(
    ("kind", "size", "first"), [("amazons", 10, "d1-d7/g7"), ("hex", 5, "c3"), ("tanbo", 19, None)]
)
def test_the_other_kinds_games_are_reviewed(
    attack_client: TestClient, kind: str, size: int, first: str | None
) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    gid = new_game(ann, bob, kind=kind, size=size)
    if first is not None:
        ann.ok(f"/api/v1/games/{gid}/moves", {"move": first})
        bob.ok(f"/api/v1/games/{gid}/resign", {})
    else:
        ann.ok(f"/api/v1/games/{gid}/resign", {})
    assert ann.post(f"/api/v1/games/{gid}/review", {"depth": "deep"}).status_code == 202
    computed(attack_client)
    [review] = ann.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    assert review["status"] == "done" and review["done"] == review["total"] == (3 if first else 2)
    assert ann.get(f"/api/v1/games/{gid}/record").status_code == 404


def test_hundreds_of_review_requests_make_at_most_the_limits_reviews(
    database_url: str, tmp_path: Path
) -> None:
    settings = make_settings(database_url, tmp_path, rate_limits_enabled=True, **TINY)
    with TestClient(create_app(settings, background=False), raise_server_exceptions=False) as client:
        ann, bob, eve = (register(client, n) for n in ("ann", "bob", "eve"))
        games = [finished(ann, bob) for _ in range(12)]
        asked = [eve.post(f"/api/v1/games/{gid}/review", {}) for gid in games]
        assert [a.status_code for a in asked] == [202] * 10 + [429] * 2  # MIAI_RATE_LIMIT_REVIEWS: 10/hour
        assert asked[-1].json()["error"] == "rate_limited" and asked[-1].headers["Retry-After"]
        # Asking again and again for stored reviews, or for games that cannot be reviewed, costs nothing.
        answers = {eve.post(f"/api/v1/games/{games[i % 10]}/review", {}).status_code for i in range(200)}
        assert answers == {200}
        for gid in range(1_000_000, 1_000_020):
            assert eve.post(f"/api/v1/games/{gid}/review", {}).status_code == 404
        assert rows(client)["Review"] == 10
        computed(client)


# ----------------------------------------------------------------------------- one failure stays alone


def test_a_review_whose_engine_raises_breaks_no_other_review_nor_game(
    attack_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = register(attack_client, "ann"), register(attack_client, "bob")
    doomed = finished(ann, bob)  # 7x7: its positions make the engine raise
    other = new_game(ann, bob, size=9)
    ann.ok(f"/api/v1/games/{other}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{other}/resign", {})
    engine = attack_client.app.state.jobs.engine  # type: ignore[attr-defined]
    review_position = engine.review

    async def flaky(state: Any, playouts: int, seed: int) -> Any:
        if state.size == 7:
            raise RuntimeError("the engine crashed")
        return await review_position(state, playouts, seed)

    monkeypatch.setattr(engine, "review", flaky)
    practice = ann.ok("/api/v1/practice", {"size": 9, "colour": "black"})["id"]
    assert ann.post(f"/api/v1/games/{doomed}/review", {}).status_code == 202
    assert ann.post(f"/api/v1/games/{other}/review", {}).status_code == 202
    computed(attack_client)
    [failed] = ann.get(f"/api/v1/games/{doomed}/review").json()["reviews"]
    [done] = ann.get(f"/api/v1/games/{other}/review").json()["reviews"]
    assert failed["status"] == "failed" and (done["status"], done["done"]) == ("done", done["total"])
    # The computer still plays, and the failed review is computed when asked again (the engine mended).
    ann.ok(f"/api/v1/games/{practice}/moves", {"move": "E5"})
    attack_client.portal.call(attack_client.app.state.computers.idle)  # type: ignore[attr-defined,union-attr]
    assert len(ann.get(f"/api/v1/games/{practice}").json()["moves"]) == 2
    monkeypatch.undo()
    assert ann.post(f"/api/v1/games/{doomed}/review", {}).status_code == 202
    computed(attack_client)
    [again] = ann.get(f"/api/v1/games/{doomed}/review").json()["reviews"]
    assert (again["id"], again["status"]) == (failed["id"], "done")

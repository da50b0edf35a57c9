"""Hostile input at the server's edge (issue 15, findings 2 and 4): text with NUL, lone surrogates and control
characters, numbers beyond 64 bits or not finite, wrong types, deep nesting, binary and over-long websocket
frames, and huge request bodies. Each is refused with a clear 4xx, `bad_message` error or close code before
it reaches the database, and ordinary moves and chat by other players keep working afterwards."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from miai.server.api.body_limit import BodyLimit
from miai.server.api.cookies import COOKIE
from miai.server.identity.admins import set_admin
from tests.server.conftest import Player, register
from tests.server.test_race_and_auth import start_two_player_game
from tests.server.test_websocket import receive_until

HUGE = 2**70  # beyond 64 bits
BAD_TEXTS = {
    "NUL": "a\x00b",
    "lone surrogate": "a\ud800b",
    "bell": "a\x07b",
    "escape": "\x1b[2J",
    "C1": "a\x85b",
}


def post_raw(player: Player, url: str, body: Any) -> Any:
    """POST a body as JSON text with \\u escapes (lone surrogates included) and NaN / Infinity allowed."""
    content = body if isinstance(body, str) else json.dumps(body)
    return player.client.post(
        url, content=content.encode(), headers={**player.headers, "Content-Type": "application/json"}
    )


def assert_refused(response: Any, field: str, status: int = 422, error: str = "bad_input") -> None:
    assert response.status_code == status, (field, response.status_code, response.text)
    body = response.json()
    assert body["error"] == error, body
    assert field in body["message"], body


def still_playing(alice: Player, bob: Player, gid: int) -> None:
    """Ordinary commands of other players on the same process still work."""
    chat = bob.post(f"/api/v1/games/{gid}/chat", {"text": "still here"})
    assert chat.status_code == 201, chat.text
    assert chat.json()["text"] == "still here"
    snap = alice.get(f"/api/v1/games/{gid}").json()
    player = alice if snap["to_move"]["user_id"] == alice.user_id else bob
    free = next(i for i, owner in enumerate(snap["position"]["board"]) if owner == 0)
    vertex = "ABCDEFGHJ"[free % 9] + str(free // 9 + 1)
    move = player.post(f"/api/v1/games/{gid}/moves", {"move": vertex})
    assert move.status_code == 200, move.text


def make_admin(client: TestClient, name: str) -> None:
    """What the operator's `miai admin grant NAME` does."""
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    client.portal.call(set_admin, url, name, True)  # type: ignore[union-attr]


def test_http_text_fields_refuse_nul_surrogates_and_controls(client: TestClient) -> None:
    alice, bob, carol = register(client, "alice"), register(client, "bob"), register(client, "carol")
    make_admin(client, "alice")  # the admin routes answer 403 to anybody else, whatever the body holds
    gid = start_two_player_game(alice, bob)
    waiting = carol.ok("/api/v1/games", {"size": 9})["id"]
    for name, bad in BAD_TEXTS.items():
        cases: list[tuple[str, str, dict[str, Any]]] = [
            ("text", f"/api/v1/games/{gid}/chat", {"text": bad}),
            ("channel", f"/api/v1/games/{gid}/chat", {"text": "hi", "channel": bad}),
            ("comment", f"/api/v1/games/{gid}/flag", {"comment": bad}),
            ("note", f"/api/v1/admin/games/{gid}/dead-stones", {"dead": [], "note": bad}),
            ("dead", f"/api/v1/admin/games/{gid}/dead-stones", {"dead": [f"D{bad}"]}),
            ("move", f"/api/v1/games/{gid}/moves", {"move": f"E{bad}"}),
            ("preset", "/api/v1/games", {"preset": bad}),
            ("kind", "/api/v1/games", {"kind": bad}),
            ("challenge", "/api/v1/games", {"challenge": bad}),
            ("opening", "/api/v1/games", {"kind": "hex", "opening": bad}),
            ("invite", f"/api/v1/games/{waiting}/join", {"invite": bad}),
            ("colour", "/api/v1/practice", {"colour": bad}),
            ("preset", "/api/v1/practice", {"preset": bad}),
            ("kind", "/api/v1/practice", {"kind": bad}),
            ("level", "/api/v1/practice", {"level": f"engine{bad}"}),
            ("opening", "/api/v1/practice", {"kind": "hex", "opening": bad}),
            ("level", f"/api/v1/games/{waiting}/computer", {"level": bad}),
        ]
        for field, url, body in cases:
            assert_refused(post_raw(alice, url, body), field)
        # Multi-line texts keep their line breaks and tabs; one-line texts do not take them.
        if name == "NUL":
            one_line = {"text": "x", "channel": "a\nb"}
            assert_refused(post_raw(alice, f"/api/v1/games/{gid}/chat", one_line), "channel")
            posted = alice.post(f"/api/v1/games/{gid}/chat", {"text": "two\nlines\tand a tab"})
            assert posted.status_code == 201 and posted.json()["text"] == "two\nlines\tand a tab"
        # The names of extra options (echoed in error messages), and the query string's invite (a lone
        # surrogate cannot be percent-encoded: its UTF-8 bytes do not exist).
        assert_refused(post_raw(alice, "/api/v1/games", {"kind": "hex", bad: 1}), "option name")
        if name != "lone surrogate":
            assert_refused(alice.get(f"/api/v1/games/{gid}?invite={quote(bad)}"), "invite")
        still_playing(alice, bob, gid)
    events = alice.get(f"/api/v1/games/{gid}/events").json()["events"]
    assert all(e["d"]["text"] in {"still here", "two\nlines\tand a tab"} for e in events if e["t"] == "chat")


def test_ids_and_versions_beyond_64_bits_answer_422_on_every_route(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    make_admin(client, "alice")  # the admin routes answer 403 to anybody else, whatever the path holds
    gid = start_two_player_game(alice, bob)
    # Routes that refuse API tokens (account changes: test_sudo.py) are sent with a fresh login session.
    logged_in = client.post("/api/v1/session", json={"username": "alice", "password": "correct horse"})
    session = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}", "X-CSRF-Token": logged_in.json()["csrf_token"]}
    client.cookies.clear()
    schema = client.get("/api/v1/openapi.json").json()
    routes = 0
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            numbers = [
                p["name"]
                for p in operation.get("parameters", [])
                if p["in"] == "path" and p["schema"].get("type") == "integer"
            ]
            if not numbers:
                continue
            routes += 1
            for value in (HUGE, -HUGE, 0, 2**63, 2**31):
                url = path
                for name in numbers:
                    url = url.replace("{" + name + "}", str(value))
                body = {"move": "E5", "text": "x", "comment": "x"} if method in {"post", "patch"} else None
                headers = session if path.startswith("/api/v1/me/tokens/") else alice.headers
                response = alice.client.request(method.upper(), url, json=body, headers=headers)
                assert_refused(response, numbers[0])
    assert routes >= 15  # the games, practice, admin and token routes
    queries = (f"since={HUGE}", "since=-1", f"since={2**63}", f"since={2**31}", "since=1e400", "since=abc")
    for query in queries:
        assert_refused(alice.get(f"/api/v1/games/{gid}/events?{query}"), "since")
    for version in (HUGE, 2**31, -1, "1e400", "NaN", "Infinity", '"abc"', "[]"):
        text = f'{{"move": "E5", "version": {version}}}'
        assert_refused(post_raw(alice, f"/api/v1/games/{gid}/moves", text), "version")
        assert_refused(post_raw(alice, f"/api/v1/games/{gid}/resign", f'{{"version": {version}}}'), "version")
    still_playing(alice, bob, gid)


def test_komi_and_times_must_be_finite_and_in_range(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    for komi in ("NaN", "Infinity", "-Infinity", "1e308", "-1e308", "1e400", "50.5"):
        assert_refused(post_raw(alice, "/api/v1/games", f'{{"size": 9, "komi": [{komi}]}}'), "komi")
        assert_refused(post_raw(alice, "/api/v1/games", f'{{"size": 9, "komi": [6.5, {komi}]}}'), "komi")
        assert_refused(post_raw(alice, "/api/v1/practice", f'{{"size": 9, "komi": {komi}}}'), "komi")
        if komi == "50.5":
            continue
        for field in ("seconds_per_move", "main_time", "increment", "period_time"):  # the game's other reals
            assert_refused(post_raw(alice, "/api/v1/games", f'{{"{field}": {komi}}}'), field)
        if komi in {"NaN", "Infinity", "-Infinity", "1e400"}:  # not finite: refused before the kind looks
            hex_option = f'{{"kind": "hex", "opening": {komi}}}'
            assert_refused(post_raw(alice, "/api/v1/games", hex_option), "opening")
    # Nothing was created, and a game with an ordinary komi records and sends only finite numbers.
    assert alice.get("/api/v1/games").json()["games"] == []
    gid = start_two_player_game(alice, bob, komi=[-50], preset="chinese")
    for player, move in ((alice, "pass"), (bob, "pass")):
        player.ok(f"/api/v1/games/{gid}/moves", {"move": move})
    sgf = alice.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.status_code == 200 and "KM[-50" in sgf.text and "nan" not in sgf.text.lower()
    strict = {"parse_constant": lambda constant: pytest.fail(f"bare {constant} in JSON")}
    json.loads(alice.get(f"/api/v1/games/{gid}/events").text, **strict)
    json.loads(alice.get(f"/api/v1/games/{gid}").text, **strict)


def test_websocket_messages_are_validated_like_http_bodies(client: TestClient) -> None:
    alice, bob, carol = register(client, "alice"), register(client, "bob"), register(client, "carol")
    gid = start_two_player_game(alice, bob)
    url = f"/api/v1/games/{gid}/ws"
    hostile = {
        # the message: a JSON escape of a lone surrogate
        "lone surrogate": '{"t":"chat","d":{"text":"a\\ud800b"},"id":"s"}',
        "low surrogate": '{"t":"chat","d":{"text":"\\udc00"},"id":"s2"}',
        "NUL in chat": '{"t":"chat","d":{"text":"a\\u0000b"},"id":"nul"}',
        "control in channel": '{"t":"chat","d":{"text":"hi","channel":"public\\u0007"},"id":"c"}',
        "NUL in move": '{"t":"move","d":{"move":"E5\\u0000"},"id":"m"}',
        "huge version": '{"t":"move","d":{"move":"E5","v":HUGE},"id":"big"}'.replace("HUGE", str(HUGE)),
        "infinite version": '{"t":"move","d":{"move":"E5","v":1e400},"id":"inf"}',
        "NaN version": '{"t":"resign","d":{"v":NaN},"id":"nan"}',
        "negative version": '{"t":"resign","d":{"v":-1},"id":"neg"}',
        "wrong type of move": '{"t":"move","d":{"move":5},"id":"t1"}',
        "wrong type of d": '{"t":"move","d":"E5","id":"t2"}',
        "wrong type of text": '{"t":"chat","d":{"text":["hi"]},"id":"t3"}',
        "missing text": '{"t":"chat","d":{},"id":"t4"}',
        "empty move": '{"t":"move","d":{"move":""},"id":"t5"}',
        "unknown type": '{"t":"dance","id":"t6"}',
        "no type": '{"d":{},"id":"t7"}',
        "not an object": "[1, 2, 3]",
        "not JSON": "{not json",
        "deep nesting": "[" * 4000 + "]" * 4000,
        "deep nesting in d": '{"t":"chat","d":' + "[" * 3000 + "]" * 3000 + ',"id":"deep"}',
        "10,000 nested arrays": "[" * 10_000 + "]" * 10_000,
        "over-long frame": json.dumps({"t": "chat", "d": {"text": "x" * 9000}, "id": "long"}),
        "huge id": '{"t":"ping","id":HUGE}'.replace("HUGE", str(HUGE)),
        "infinite id": '{"t":"ping","id":1e400}',
    }
    expected_ids = {"nul": "nul", "c": "c", "m": "m", "big": "big", "inf": "inf", "nan": "nan", "neg": "neg"}
    expected_ids.update({f"t{i}": f"t{i}" for i in range(1, 8)})
    with (
        client.websocket_connect(f"{url}?token={alice.token}") as a_sock,
        client.websocket_connect(f"{url}?token={carol.token}") as spectator,
    ):
        assert a_sock.receive_json()["t"] == "snapshot"
        assert spectator.receive_json()["t"] == "snapshot"
        for name, text in hostile.items():
            for sock in (spectator, a_sock):
                sock.send_text(text)
                error = receive_until(sock, "error")
                assert error["d"]["error"] == "bad_message", (name, error)
                assert error["d"]["message"], name
                sent_id = re.search(r'"id":"?([a-z0-9]+)"?}$', text)
                wanted = expected_ids.get(sent_id.group(1)) if sent_id else None
                assert error["d"]["id"] == wanted, (name, error)
            if "surrogate" in name:
                assert "surrogate" in error["d"]["message"], error
        # The sockets stay usable: a ping, then a move and a chat.
        spectator.send_json({"t": "ping", "id": 1})
        assert receive_until(spectator, "ack")["d"] == {"id": 1, "pong": True}
        a_sock.send_json({"t": "move", "d": {"move": "E5"}, "id": "ok"})
        ack = receive_until(a_sock, "ack")
        assert ack["d"]["id"] == "ok" and ack["d"]["ok"]
        a_sock.send_json({"t": "chat", "d": {"text": "fine\nthanks"}, "id": "chat"})
        assert receive_until(a_sock, "ack")["d"]["message"]["text"] == "fine\nthanks"
    events = bob.get(f"/api/v1/games/{gid}/events").json()["events"]
    chats = [e["d"]["text"] for e in events if e["t"] == "chat"]
    assert chats == ["fine\nthanks"]
    still_playing(alice, bob, gid)


def test_binary_frames_close_the_socket_with_1003(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={alice.token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"
        sock.send_bytes(b'{"t":"ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_until(sock, "never")
        assert closed.value.code == 1003
    with client.websocket_connect(f"/api/v1/ws?token={alice.token}") as sock:
        sock.send_bytes(b"\x00\xff")
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_until(sock, "never")
        assert closed.value.code == 1003
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={bob.token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"
        sock.send_json({"t": "move", "d": {"move": "E5"}, "id": 1})
        error = receive_until(sock, "error")  # not bob's turn: an ordinary refusal, the socket works
        assert error["d"]["error"] == "conflict"
    still_playing(alice, bob, gid)


def test_user_socket_validates_its_messages(client: TestClient) -> None:
    alice = register(client, "alice")
    with client.websocket_connect(f"/api/v1/ws?token={alice.token}") as sock:
        hostile = ['{"t":"dance"}', "{not json", "[" * 4000 + "]" * 4000, '{"t":"ping","id":1e400}']
        hostile.append("x" * 9000)
        for text in hostile:
            sock.send_text(text)
            sock.send_text('{ "t" : "ping" }')  # answered after the error: the socket still works
            error = sock.receive_json()
            assert error["t"] == "error", (text[:20], error)
            assert error["d"]["error"] == "bad_message" and error["d"]["id"] is None, error
            assert sock.receive_json() == {"t": "pong", "d": {}}


def test_game_socket_ids_and_since_out_of_range_close_with_4422(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    queries = [f"{HUGE}/ws?", "0/ws?", "abc/ws?", f"{gid}/ws?since={HUGE}&", f"{gid}/ws?since=-1&"]
    queries.append(f"{gid}/ws?since=%C2%B2&")  # a superscript two: str.isdigit() says yes, int() says no
    for target in queries:
        with client.websocket_connect(f"/api/v1/games/{target}token={alice.token}") as sock:
            with pytest.raises(WebSocketDisconnect) as closed:
                sock.receive_json()
            assert closed.value.code == 4422, target
            assert closed.value.reason, target
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?since=&token={alice.token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"  # an empty since is no since
    still_playing(alice, bob, gid)


def test_request_bodies_over_the_limit_get_413(client: TestClient) -> None:
    alice, bob = register(client, "alice"), register(client, "bob")
    gid = start_two_player_game(alice, bob)
    hundred_mb = b" " * (100 * 1024 * 1024)
    declared = post_raw(alice, f"/api/v1/games/{gid}/chat", hundred_mb.decode())
    assert declared.status_code == 413
    assert declared.json()["error"] == "too_large"

    def chunks() -> Any:
        for _ in range(100):
            yield b" " * 4096

    headers = {**alice.headers, "Content-Type": "application/json"}
    streamed = client.post(f"/api/v1/games/{gid}/chat", content=chunks(), headers=headers)
    assert streamed.status_code == 413 and streamed.json()["error"] == "too_large"
    # A body under the limit (the longest chat) is read as usual.
    longest = alice.post(f"/api/v1/games/{gid}/chat", {"text": "é" * 2000})
    assert longest.status_code == 201, longest.text
    still_playing(alice, bob, gid)


def test_body_limit_stops_reading_as_soon_as_the_limit_is_passed() -> None:
    """A 100 MB chunked upload: the middleware answers 413 after reading just over the limit."""
    chunk = b"x" * 65536
    reads = 0
    sent: list[Message] = []
    reached_app = False

    async def receive() -> Message:
        nonlocal reads
        reads += 1
        return {"type": "http.request", "body": chunk, "more_body": reads < 1600}

    async def send(message: Message) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal reached_app
        reached_app = True

    limit = BodyLimit(app, max_bytes=100_000)
    scope = {"type": "http", "method": "POST", "path": "/", "headers": [(b"transfer-encoding", b"chunked")]}
    asyncio.run(limit(scope, receive, send))
    assert reads == 2 and not reached_app
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"] == "too_large"


def test_chat_channels_take_ascii_numbers_only(client: TestClient) -> None:
    """`str.isdigit()` accepts "²" and "٣"; int() then fails (a 500) or reads another number."""
    users = [register(client, f"user{i}") for i in range(4)]
    gid = users[0].ok("/api/v1/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    for user, team in zip(users[1:], [1, 2, 2], strict=True):
        user.ok(f"/api/v1/games/{gid}/join", {"team": team})
    for channel in ("team:²", "user:\u0661", "team:", "team:1 ", "everyone"):
        refused = users[0].post(f"/api/v1/games/{gid}/chat", {"text": "x", "channel": channel})
        assert_refused(refused, "channel")
    with client.websocket_connect(f"/api/v1/games/{gid}/ws?token={users[0].token}") as sock:
        assert sock.receive_json()["t"] == "snapshot"
        sock.send_json({"t": "chat", "d": {"text": "x", "channel": "team:²"}, "id": "sq"})
        error = receive_until(sock, "error")
        assert error["d"]["error"] == "bad_message" and error["d"]["id"] == "sq"
        assert error["d"]["message"].startswith("d.channel:")
    posted = users[0].post(f"/api/v1/games/{gid}/chat", {"text": "to team 2", "channel": "team:2"})
    assert posted.status_code == 201, posted.text


OTHER_SIZES = [
    ("hex", float("nan")), ("hex", 1e999), ("hex", 2**63), ("hex", -11), ("hex", 4), ("hex", 20),
    ("hex", True), ("amazons", 9), ("tanbo", 9), ("tanbo", [19]),
]  # fmt: skip


def test_practice_sizes_of_the_other_games_refuse_what_they_do_not_offer(client: TestClient) -> None:
    """The practice form's sizes come from each game's offers: anything else is a 422, never a game."""
    ann = register(client, "ann")
    for kind, size in OTHER_SIZES:
        body = json.dumps({"kind": kind, "size": size, "mode": "computer"})
        answer = post_raw(ann, "/api/v1/practice", body)
        assert answer.status_code == 422, (kind, size, answer.text)
        assert answer.json()["error"] in {"bad_input", "bad_options"}, answer.text
    assert ann.get("/api/v1/dashboard").json()["games"] == []

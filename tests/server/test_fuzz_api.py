"""Hostile-input fuzzing of every HTTP endpoint of the OpenAPI schema, on SQLite and on PostgreSQL.

A logged-in player with games in every state (waiting, confirming, active, finished, practice, Hex) sends
three kinds of requests to each operation the schema lists:

- schemathesis' positive cases (valid by the schema), which reach the game logic;
- its negative cases (wrong types, values out of range, missing fields, bodies that are not JSON);
- hostile cases of our own, which no schema describes: NUL, lone surrogates as JSON escapes (`"a\\ud800b"`),
  64-bit overflows, `NaN` / `Infinity` / `1e400` / 5000-digit literals, deep nesting, garbage bytes, on every
  path parameter, query parameter and body field.

No answer may be a 5xx, nor may an exception escape the app. Afterwards every game's record (its stored moves,
and its SGF download) replays through the rules core to the position its snapshot shows, and the games the
fuzzing player does not play in are exactly as they were.

Every failing request is collected (not only the first), so one run lists them all. The run is bounded and
reproducible: a fixed number of examples per operation, derandomized, no shrinking.
"""

from __future__ import annotations

import contextlib
import json
import re
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import hypothesis.strategies as st
import pytest
import requests
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from miai.server.identity.admins import set_admin
from tests.server.conftest import Player, register
from tests.server.fuzz_support import (
    DEEP,
    FUZZ_SETTINGS,
    Failure,
    assert_no_failures,
    assert_replays,
    encode,
    examples,
    fuzz_client,
    hostile_text,
    hostile_value,
    settle,
    started,
)

# Examples per operation and generator (~37 operations, 3 generators): about a minute per database.
EXAMPLES = {"positive": examples(14), "negative": examples(14), "hostile": examples(20)}
PASSWORD = "correct horse"
BASE = "http://testserver"


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    yield from fuzz_client(database_url, tmp_path)


# --------------------------------------------------------------------------------------------- the world


@dataclass
class World:
    """The players and the games the fuzzer plays against; `fuzzer` sends every generated request."""

    client: TestClient
    fuzzer: Player
    bob: Player
    carol: Player
    admin: Player  # sends the requests to /admin routes, so that they reach more than the role check
    games: dict[str, int] = field(default_factory=dict)  # label -> id
    outsider_games: set[str] = field(default_factory=set)  # labels of games the fuzzer does not play in

    def reader(self, label: str) -> Player:
        return self.bob if label in self.outsider_games else self.fuzzer

    def sender_of(self, shape: Shape) -> Player:
        return self.admin if shape.path.startswith("/api/v1/admin/") else self.fuzzer

    def refresh_token(self) -> None:
        """Log the fuzzer in again if a fuzzed request revoked its token (DELETE /me/tokens/{id})."""
        if self.fuzzer.get("/api/v1/me").status_code != 401:
            return
        login = self.client.post("/api/v1/session", json={"username": "fuzzer", "password": PASSWORD})
        assert login.status_code == 200, login.text
        made = self.client.post(
            "/api/v1/me/tokens", json={"name": "fuzz"}, headers={"X-CSRF-Token": login.json()["csrf_token"]}
        )
        assert made.status_code == 201, made.text
        self.client.cookies.clear()
        self.fuzzer.token = made.json()["token"]


def build_world(client: TestClient) -> World:
    fuzzer, bob, carol, admin = (register(client, name) for name in ("fuzzer", "bob", "carol", "root"))
    app: Any = client.app
    assert client.portal is not None
    url = app.state.settings.effective_database_url
    client.portal.call(set_admin, url, "root", True)  # what the operator's `miai admin grant root` does
    world = World(client, fuzzer, bob, carol, admin)
    games = world.games
    games["waiting"] = fuzzer.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    games["confirming"] = bob.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    fuzzer.ok(f"/api/v1/games/{games['confirming']}/join", {"team": 2})
    games["active"] = started(fuzzer, bob)
    for player, move in [(fuzzer, "D4"), (bob, "C3"), (fuzzer, "E5")]:
        player.ok(f"/api/v1/games/{games['active']}/moves", {"move": move})
    games["finished"] = started(fuzzer, bob)
    fuzzer.ok(f"/api/v1/games/{games['finished']}/moves", {"move": "E5"})
    bob.ok(f"/api/v1/games/{games['finished']}/resign", {})
    games["hex"] = started(fuzzer, bob, kind="hex", size=5, opening="none")
    fuzzer.ok(f"/api/v1/games/{games['hex']}/moves", {"move": "c3"})
    games["practice"] = fuzzer.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    fuzzer.ok(f"/api/v1/games/{games['practice']}/moves", {"move": "C3"})
    settle(world.client)
    fuzzer.ok(f"/api/v1/games/{games['practice']}/chat", {"text": "good luck"})
    games["outsiders_active"] = started(bob, carol)
    for player, move in [(bob, "E5"), (carol, "G7"), (bob, "C3")]:
        player.ok(f"/api/v1/games/{games['outsiders_active']}/moves", {"move": move})
    games["outsiders_finished"] = started(bob, carol)
    bob.ok(f"/api/v1/games/{games['outsiders_finished']}/resign", {})
    private = {"size": 9, "team": 1, "visibility": "private"}
    games["outsiders_private"] = bob.ok("/api/v1/games", private)["id"]
    world.outsider_games = {label for label in games if label.startswith("outsiders")}
    return world


# ------------------------------------------------------------------------------------------- requests


@dataclass
class Sender:
    """Sends raw requests through the app and collects every 5xx and every exception that escapes it."""

    world: World
    failures: list[Failure] = field(default_factory=list)
    sent: int = 0

    def send(self, label: str, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> None:
        self.sent += 1
        described = f"{method} {url.removeprefix(BASE)} body={(body or b'')[:300]!r}"
        client = self.world.client
        raw = {name.encode(): value.encode("latin-1") for name, value in headers.items()}  # on the wire
        try:
            response = client.request(method, url, content=body, headers=raw)
        except Exception as err:  # the TestClient re-raises what escaped the app: a 500 in production
            self.failures.append(Failure(label, described, f"{type(err).__name__} {where(err)}: {err}"))
            return
        finally:
            client.cookies.clear()  # a fuzzed login must not turn later requests into that user's
        if response.status_code >= 500:
            self.failures.append(Failure(label, described, f"{response.status_code} {response.text[:300]}"))
        elif response.status_code < 300 and method != "GET":
            self.world.refresh_token()  # it may have revoked the fuzzer's token


def where(err: BaseException) -> str:
    """The innermost line of Miai's own code that an exception passed through."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if "/miai/" in f.filename.replace("\\", "/")]
    return f"at {frames[-1].filename.rsplit('/miai/', 1)[-1]}:{frames[-1].lineno}" if frames else ""


def schemathesis_request(case: Any, token: str) -> tuple[str, str, dict[str, str], bytes | None]:
    """The exact request a schemathesis case describes, with the fuzzer's token."""
    kwargs = case.as_transport_kwargs(base_url=BASE, headers={"Authorization": f"Bearer {token}"})
    kwargs.pop("cookies", None)
    try:
        prepared = requests.Request(**kwargs).prepare()
    except (ValueError, TypeError):  # e.g. NaN in a body that `requests` refuses to encode: send it anyway
        data = json.dumps(kwargs.pop("json")).encode()
        prepared = requests.Request(**kwargs, data=data).prepare()
    body = prepared.body
    content = body.encode() if isinstance(body, str) else body if isinstance(body, bytes) else None
    headers = {name: str(value) for name, value in prepared.headers.items()}
    return prepared.method or "GET", prepared.url or "", headers, content


# ------------------------------------------------------------------------------- the hostile generator


BODIES_THAT_ARE_NOT_OBJECTS = [
    b"", b"{", b"null", b"[]", b'"text"', b"1e400", b"NaN", b"\xff\xfe\x00", b'{"a": "\\ud800"}',
    DEEP.encode(), b"[" * 5000 + b"]" * 5000, b'{"x": ' + DEEP.encode() + b"}",
    b"{" + b'"k":1,' * 200_000 + b'"k":1}',  # 1.2 MB of repeated keys
]  # fmt: skip
# The Authorization header: mostly the sender's token, else none or a broken one (latin-1, as headers are).
CREDENTIALS = [
    *["Bearer {token}"] * 6, None, "", "Bearer", "Bearer ", "bearer {token}", "Bearer {token}x",
    "Bearer miai_", "Bearer miai_\xe9\xff\x7f", "Bearer " + "A" * 5000, "Basic Zm9vOmJhcg==",
    "Bearer {token} {token}",
]  # fmt: skip
HOSTILE_PATH_TEXTS = [
    "0", "-1", str(2**31 - 1), str(2**31), str(2**63 - 1), str(2**63), str(2**64), "1e3", "NaN", "1.5", "%00",
    "\x00", "\ud800",
]  # fmt: skip


def url_text(value: str) -> str:
    """A path or query value as a client would put it in a URL (lone surrogates as their raw bytes), cut
    to a length that HTTP clients still send."""
    return quote(value[:1000].encode("utf-8", "surrogatepass"), safe="")


@dataclass(frozen=True)
class Shape:
    """What a hostile request to one operation can name: its parameters and body fields."""

    method: str
    path: str
    path_names: tuple[str, ...]
    query_names: tuple[str, ...]
    body_names: tuple[str, ...] | None  # None: the operation takes no body


def shapes(spec: dict[str, Any]) -> Iterator[Shape]:
    components = spec.get("components", {}).get("schemas", {})
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            parameters = operation.get("parameters", [])
            body_names: tuple[str, ...] | None = None
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                schema = body.get("schema", {})
                while "$ref" in schema:
                    schema = components[schema["$ref"].rsplit("/", 1)[-1]]
                body_names = tuple(schema.get("properties", {}))
            yield Shape(
                method.upper(),
                path,
                tuple(p["name"] for p in parameters if p["in"] == "path"),
                tuple(p["name"] for p in parameters if p["in"] == "query"),
                body_names,
            )


def hostile_requests(shape: Shape, game_ids: list[int]) -> st.SearchStrategy[tuple[str, bytes | None]]:
    """(url, body) pairs for one operation: real ids and hostile values everywhere."""
    path_value = st.one_of(
        st.sampled_from(game_ids).map(str),
        st.sampled_from(HOSTILE_PATH_TEXTS),
        st.sampled_from(["fuzzer", "bob", "computer-1"]),
        hostile_text,
    )

    @st.composite
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> tuple[str, bytes | None]:
        path = shape.path
        for name in shape.path_names:
            path = path.replace("{" + name + "}", url_text(draw(path_value)))
        query = []
        for name in [*shape.query_names, "token"]:  # any request may carry a token in its query
            if draw(st.booleans()):
                value = draw(st.one_of(st.sampled_from(HOSTILE_PATH_TEXTS), hostile_text))
                query.append(f"{name}={url_text(value)}")
        url = BASE + path + ("?" + "&".join(query) if query else "")
        if shape.body_names is None:
            return url, None
        if draw(st.integers(0, 9)) == 0:
            return url, draw(st.sampled_from(BODIES_THAT_ARE_NOT_OBJECTS))
        names = list(shape.body_names)
        chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))) if names else []
        body = {name: draw(hostile_value) for name in chosen}
        if draw(st.booleans()):  # the other fields valid-looking, so that the hostile one is reached
            body = {**sensible_body(shape), **body}
        if draw(st.integers(0, 4)) == 0:
            body[draw(hostile_text)] = draw(hostile_value)  # an unknown field
        return url, encode(body).encode("utf-8")

    return build()


def sensible_body(shape: Shape) -> dict[str, Any]:
    """Plausible values for common fields, so a hostile value in one field is not refused for another."""
    known = {"move": "D5", "text": "hello", "channel": "public", "username": "mallory", "password": PASSWORD,
             "name": "bot", "team": 2, "size": 9, "level": 1, "comment": "dead", "accept": True}  # fmt: skip
    return {name: known[name] for name in shape.body_names or () if name in known}


# ------------------------------------------------------------------------------------------ replaying


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What must not change in a game the fuzzer does not play in (chat may: spectators may talk)."""
    keys = ("status", "options", "players", "position", "moves", "result", "to_move", "deadline", "clocks")
    return {key: snapshot.get(key) for key in keys}


# ---------------------------------------------------------------------------------------------- the test


def in_game(operation: Any, mode: GenerationMode, gid: int) -> Any:
    """Cases of `operation` on one of the real games."""
    return operation.as_strategy(generation_mode=mode, path_parameters={"game_id": gid})


def fuzz_operation(world: World, sender: Sender, operation: Any, shape: Shape) -> None:
    game_ids = sorted(world.games.values())
    label = f"{shape.method} {shape.path}"
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        cases = operation.as_strategy(generation_mode=mode)
        if shape.path_names == ("game_id",):  # reach the real games most of the time
            cases = st.one_of(cases, st.sampled_from(game_ids).flatmap(partial(in_game, operation, mode)))
        run_cases(world, sender, shape, mode, cases)

    @settings(FUZZ_SETTINGS, max_examples=EXAMPLES["hostile"])
    @given(request=hostile_requests(shape, game_ids), credentials=st.sampled_from(CREDENTIALS))
    def run_hostile(request: tuple[str, bytes | None], credentials: str | None) -> None:
        url, body = request
        headers = {"Content-Type": "application/json"}
        if credentials is not None:
            headers["Authorization"] = credentials.format(token=world.sender_of(shape).token)
        sender.send(f"{label} (hostile)", shape.method, url, headers, body)

    run_hostile()


def run_cases(world: World, sender: Sender, shape: Shape, mode: GenerationMode, cases: Any) -> None:
    label = f"{shape.method} {shape.path} ({mode.value})"

    @settings(FUZZ_SETTINGS, max_examples=EXAMPLES[mode.value])
    @given(case=cases)
    def run_case(case: Any) -> None:
        sender.send(label, *schemathesis_request(case, world.sender_of(shape).token))

    with contextlib.suppress(Unsatisfiable):  # no negative case exists (no parameters and no body)
        run_case()


@pytest.mark.no_cover  # untraced: thousands of generated requests (README, "Tests and benchmarks")
def test_no_request_gets_a_server_error_and_every_game_replays(client: TestClient) -> None:
    world = build_world(client)
    before = {label: assert_replays(world.reader(label), gid) for label, gid in world.games.items()}
    spec = client.app.openapi()  # type: ignore[attr-defined]
    schema = schemathesis.openapi.from_dict(spec)
    sender = Sender(world)
    for shape in shapes(spec):
        fuzz_operation(world, sender, schema[shape.path][shape.method.lower()], shape)
    settle(world.client)

    assert_no_failures(sender.failures, kind, f"server errors in {sender.sent} requests")
    for label, gid in world.games.items():
        after = assert_replays(world.reader(label), gid)
        if label in world.outsider_games:
            assert comparable(after) == comparable(before[label]), f"{label} game {gid} changed"
    for gid in range(max(world.games.values()) + 1, max(world.games.values()) + 200):  # games the fuzzer made
        if world.fuzzer.get(f"/api/v1/games/{gid}").status_code == 200:
            assert_replays(world.fuzzer, gid)


def kind(failure: Failure) -> tuple[str, str]:
    """A failure's operation and outcome, numbers and quoted values blurred."""
    return failure.where.split(" (")[0], re.sub(r"\d+|'[^']*'", "#", failure.outcome)[:160]

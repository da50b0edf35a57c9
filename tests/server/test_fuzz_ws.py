"""A hypothesis fuzzer over every message of the game websocket, on SQLite and on PostgreSQL.

A player, a spectator and an anonymous visitor send frames to live games (a game between two people and
a practice game): `move`, `resign`, `chat` and `ping` with valid, missing, extra and wrongly typed fields,
unknown types, NUL, lone surrogates as JSON escapes (`"a\\ud800b"`), numbers beyond 64 bits, `NaN`, deep
nesting, frames over the size limit, invalid JSON and binary frames. What docs/realtime.md promises is
checked for each:

- every text frame gets exactly one `ack` or `error`, carrying the client's `id` whenever the frame is
  readable JSON with a valid id (`null` otherwise); refusals of malformed messages are `bad_message`;
- a binary frame closes the socket with 1003 (the fuzzer then connects again);
- a message that was refused changed nothing: the game's version is the same;
- between examples the opponent's ordinary move over HTTP still works, and at the end every game's stored
  moves and SGF replay to the position it shows;
- a socket whose game id or `since` is not a whole number in its range is closed with 4422 (otherwise it
  serves the game, or closes with 4403 / 4404).
"""

from __future__ import annotations

import contextlib
import json
import math
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anyio
import hypothesis.strategies as st
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from starlette.testclient import WebSocketTestSession

from miai.server.errors import CommandError
from tests.server.conftest import Player, register
from tests.server.fuzz_support import (
    DEEP,
    FUZZ_SETTINGS,
    HOSTILE_NUMBERS,
    Failure,
    Raw,
    assert_no_failures,
    assert_replays,
    encode,
    examples,
    free_vertex,
    fuzz_client,
    hostile_text,
    hostile_value,
    settle,
    started,
)


def all_subclasses(cls: type[CommandError]) -> list[type[CommandError]]:
    return [cls, *(sub for direct in cls.__subclasses__() for sub in all_subclasses(direct))]


EXAMPLES = examples(200)  # per database; each example sends 1..4 frames
WAIT = 10.0  # seconds a reply may take before the server counts as hung
MAX_ID = 2**63 - 1  # a client's message id: any 64-bit integer
MAX_KEY = 2**31 - 1  # a game id or `since` in a socket's URL (docs/realtime.md: 32-bit columns)
MAX_MESSAGE = 8192  # characters of a text frame (docs/realtime.md)
BINARY_FRAME_CLOSE = 1003
MAX_DEPTH = 200  # levels of JSON nesting in a message
CONTROL = frozenset({"Cc", "Cs"})  # control characters and lone surrogates
# Error codes that are the websocket's 5xx: the server failed, not the message
SERVER_FAILURES = frozenset(error.code for error in all_subclasses(CommandError) if error.status >= 500)


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    yield from fuzz_client(database_url, tmp_path, rate_limits=True)  # websocket chat is rate-limited too


# ------------------------------------------------------------------------------------------- frames


@dataclass(frozen=True)
class Frame:
    """One frame to send: JSON text (or bytes, a binary frame) and what docs/realtime.md says of its reply."""

    payload: str | bytes
    client_id: Any = None
    id_must_come_back: bool = False  # readable JSON with a valid id: the reply carries exactly this id
    refused: bool = True  # not a JSON object, too long, too deep or a lone surrogate: a `bad_message`

    def __str__(self) -> str:
        return repr(self.payload[:300])


def valid_client_id(value: Any) -> bool:
    """An id the protocol echoes: a 64-bit integer, a short text without control characters, or null."""
    if value is None:
        return True
    if type(value) is int:
        return -MAX_ID - 1 <= value <= MAX_ID
    if not isinstance(value, str):
        return False
    return len(value) <= 64 and not any(unicodedata.category(c) in CONTROL for c in value)


def valid_echo(echoed: Any, sent: Any) -> bool:
    """An id echoed for a message that may not be fully readable: only the one it carried, and valid."""
    return bool(echoed == sent and valid_client_id(echoed))


def readable(text: str) -> bool:
    """Strict JSON (no NaN, no lone surrogates, shallow) that the server surely reads the id of."""

    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    try:
        value = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return False
    return len(text) <= MAX_MESSAGE and isinstance(value, dict) and clean(value, 0, 64, finite=True)


def clean(value: Any, depth: int, max_depth: int, finite: bool) -> bool:
    """No lone surrogate in any text, nesting within `max_depth` (and, if asked, only finite numbers)."""
    if depth > max_depth:
        return False
    if isinstance(value, str):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, float):
        return math.isfinite(value) or not finite
    if isinstance(value, dict):
        value = [*value, *value.values()]  # keys are texts too
    if isinstance(value, list):
        return all(clean(v, depth + 1, max_depth, finite) for v in value)
    return True


def mostly(usual: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`usual` four times in five: most messages are ordinary, so that the game logic is reached."""
    return st.sampled_from([usual, usual, usual, usual, odd]).flatmap(lambda chosen: chosen)


plain_ids = st.integers(-(2**53), 2**53) | st.text("abcxyz-_0189", max_size=8)
HOSTILE_IDS = [2**63, 2**64, -(2**63) - 1, 10**30, True, 1.5, [], {}, "x" * 65, "\x00", "\ud800", Raw("NaN")]
ODD_MOVES = [
    "pass", "resign", "Z99", "T19", "swap", "a4-d4/d7", "", " D4", "D 4", "D4\x00", "\ud800", "0", "-1",
    "9" * 30, "x" * 17, "autopass", "timeout", "draw",
]  # fmt: skip
vertices = st.builds("{}{}".format, st.sampled_from("ABCDEFGHJabcdefghj"), st.integers(1, 9))
moves = mostly(vertices, st.sampled_from(ODD_MOVES) | hostile_text)
versions = mostly(st.none(), st.integers(-2, 40) | st.sampled_from([*HOSTILE_NUMBERS, "3", [], True]))
channels = mostly(st.sampled_from(["public", "team"]), st.sampled_from(["team:1", "user:1", "", "a\ud800"]))
texts = mostly(st.sampled_from(["gg", "hello\nthere", "x" * 2000]), st.just("x" * 2001) | hostile_text)

DATA: dict[str, st.SearchStrategy[Any]] = {
    "move": st.fixed_dictionaries({"move": moves}, optional={"v": versions}),
    "resign": st.fixed_dictionaries({}, optional={"v": versions}),
    "chat": st.fixed_dictionaries({"text": texts}, optional={"channel": channels}),
    "ping": mostly(st.just({}), st.dictionaries(hostile_text, hostile_value, max_size=2)),
}
# resign is rare (it ends the game) and ping common (cheap), like real clients
TYPES = ["move"] * 6 + ["chat"] * 4 + ["ping"] * 2 + ["resign"]
GAME_OF = {"player": "duel", "practice": "practice", "spectator": "duel", "anonymous": "duel"}
SOCKETS = ["player", "player", "practice", "practice", "spectator", "anonymous"]


@st.composite
def messages(draw: Callable[[st.SearchStrategy[Any]], Any]) -> Frame:
    """A JSON object message: a known type with fitting data, then maybe spoiled in one way."""
    kind = draw(st.sampled_from(TYPES))
    message: dict[str, Any] = {"t": kind, "d": draw(DATA[kind])}
    client_id = draw(mostly(plain_ids, st.sampled_from([None, *HOSTILE_IDS])))
    if client_id is not None or draw(st.booleans()):
        message["id"] = client_id
    spoil = draw(st.sampled_from([None, None, None, None, None, "type", "missing", "data", "field", "extra"]))
    if spoil == "type":  # an unknown or wrongly typed type
        message["t"] = draw(hostile_text | st.sampled_from([1, None, [], {}, True, "MOVE", "pong", "ack"]))
    elif spoil == "missing":
        message.pop(draw(st.sampled_from(["t", "d"])), None)
    elif spoil == "data":  # data of the wrong type
        message["d"] = draw(st.sampled_from([[], "D4", 7, None, True, DEEP]) | hostile_value)
    elif spoil == "field":  # a field of the data with a hostile value
        name = draw(st.sampled_from(["move", "v", "text", "channel"]))
        message["d"] = {**message["d"], name: draw(hostile_value)}
    elif spoil == "extra":  # unknown fields
        message[draw(hostile_text)] = draw(hostile_value)
        if isinstance(message.get("d"), dict):
            message["d"] = {**message["d"], draw(hostile_text): draw(hostile_value)}
    return text_frame(encode(message))


def text_frame(text: str) -> Frame:
    """A text frame; its id must come back when the server can surely read it (strict JSON, a valid id),
    and may come back when a lenient reader finds one."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Frame(text)
    if not isinstance(value, dict):
        return Frame(text)
    client_id = value.get("id")
    refused = len(text) > MAX_MESSAGE or not clean(value, 0, MAX_DEPTH, finite=False)
    return Frame(text, client_id, readable(text) and valid_client_id(client_id), refused)


def padded(text: str) -> str:
    """A valid ping made longer than a message may be."""
    return text[:-1] + ',"pad":"' + "x" * MAX_MESSAGE + '"}'


ODD_TEXT_FRAMES = [
    "", " ", "[]", "null", "1", '"ping"', "NaN", "{", '{"t":"ping"', "}{", '{"t":"ping"}{"t":"ping"}',
    "[" * 4000 + "]" * 4000, '{"t":"ping","d":' + "[" * 3000 + "]" * 3000 + "}",
    '{"t":"chat","d":{"text":"a\\ud800b"},"id":5}', '{"t":"ping","id":"\\udfff"}',
    padded('{"t":"ping","id":9}'), "x" * 1_000_000,
]  # fmt: skip
other_frames = st.one_of(
    st.sampled_from(ODD_TEXT_FRAMES).map(text_frame),
    st.text(max_size=40).map(text_frame),
    st.just(text_frame('{"t":"ping","id":1,"id":2}')),  # a repeated key: the last one counts
    st.sampled_from([b'{"t":"ping","id":1}', b"\x00\xff", b""]).map(Frame),  # binary frames
)
frames = mostly(messages(), other_frames)


# ------------------------------------------------------------------------------------------- sockets


def next_message(session: WebSocketTestSession) -> dict[str, Any]:
    """The next ASGI message the server sent; TimeoutError if it sends none within WAIT seconds."""

    async def receive() -> dict[str, Any]:
        with anyio.fail_after(WAIT):
            return dict(await session._send_rx.receive())  # the test client's own queue

    return session.portal.call(receive)


class Socket:
    """A game websocket with bounded waits; connected again after the server closed it."""

    def __init__(self, client: TestClient, url: str) -> None:
        self.client, self.url = client, url
        self.session: WebSocketTestSession | None = None
        self.sentinels = 0

    def connect(self) -> WebSocketTestSession:
        if self.session is None:
            session = self.client.websocket_connect(self.url)
            session.__enter__()
            first = next_message(session)
            assert first["type"] == "websocket.send", first
            self.session = session
        return self.session

    def close(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            session.__exit__(None, None, None)

    def abandon(self) -> None:
        """Forget a socket whose server side failed (its failure is recorded already)."""
        try:
            self.close()
        except Exception:
            self.session = None

    def exchange(self, frame: Frame) -> tuple[list[dict[str, Any]], int | None]:
        """Send the frame, then a ping as a sentinel; the replies to the frame (acks and errors, events left
        out) and the close code if the server closed the socket."""
        session = self.connect()
        if isinstance(frame.payload, bytes):
            session.send_bytes(frame.payload)
        else:
            session.send_text(frame.payload)
        self.sentinels += 1
        sentinel = f"sentinel-{self.sentinels}"
        session.send_text(json.dumps({"t": "ping", "id": sentinel}))
        replies: list[dict[str, Any]] = []
        while True:
            message = next_message(session)
            if message["type"] == "websocket.close":
                self.close()
                return replies, int(message.get("code", 1000))
            data = json.loads(message["text"])
            if data["t"] == "ack" and data["d"].get("id") == sentinel:
                return replies, None
            if data["t"] in {"ack", "error"}:
                replies.append(data)


# ------------------------------------------------------------------------------------------- the world


@dataclass
class World:
    client: TestClient
    fuzzer: Player
    bob: Player
    carol: Player
    duel: int = 0
    practice: int = 0
    sockets: dict[str, Socket] = field(default_factory=dict)
    games: list[tuple[Player, int]] = field(default_factory=list)  # every game played, with a reader
    failures: list[Failure] = field(default_factory=list)

    def new_duel(self) -> None:
        self.duel = started(self.fuzzer, self.bob)
        self.games.append((self.bob, self.duel))
        for name, player in (("player", self.fuzzer), ("spectator", self.carol), ("anonymous", None)):
            self.replace(name, self.duel, player)

    def new_practice(self) -> None:
        self.practice = self.fuzzer.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 1})["id"]
        self.games.append((self.fuzzer, self.practice))
        self.replace("practice", self.practice, self.fuzzer)

    def replace(self, name: str, gid: int, player: Player | None) -> None:
        if name in self.sockets:
            self.sockets[name].close()
        query = f"?token={player.token}" if player else ""
        self.sockets[name] = Socket(self.client, f"/api/v1/games/{gid}/ws{query}")

    def version(self, game: str) -> int:
        reader, gid = (self.fuzzer, self.practice) if game == "practice" else (self.bob, self.duel)
        version: int = reader.get(f"/api/v1/games/{gid}").json()["version"]
        return version

    def keep_playing(self) -> None:
        """The opponent answers over HTTP with an ordinary move; finished games are replaced by new ones."""
        settle(self.client)
        snapshot = self.bob.get(f"/api/v1/games/{self.duel}").json()
        if snapshot["status"] != "active":
            self.new_duel()
        elif snapshot["to_move"].get("user_id") == self.bob.user_id:
            url = f"/api/v1/games/{self.duel}/moves"
            answers = []
            for skip in range(3):  # an empty point may still be illegal (suicide, ko): then the next one
                answers.append(self.bob.post(url, {"move": free_vertex(snapshot["position"], skip)}))
                if answers[-1].status_code == 200:
                    break
            else:
                codes = [answer.status_code for answer in answers]
                self.failures.append(Failure("bob's ordinary HTTP move", url, f"{codes}: {answers[0].text}"))
        if self.fuzzer.get(f"/api/v1/games/{self.practice}").json()["status"] != "active":
            self.new_practice()


def problem_with(frame: Frame, replies: list[dict[str, Any]], closed: int | None) -> str | None:
    """What is wrong with the server's answer to one frame, by docs/realtime.md; None if nothing."""
    if isinstance(frame.payload, bytes):
        return None if closed == BINARY_FRAME_CLOSE else f"binary frame: closed {closed}, replies {replies}"
    if closed is not None:
        return f"the server closed the socket with {closed}"
    if len(replies) != 1:
        return f"{len(replies)} replies instead of one: {replies}"
    kind, reply = replies[0]["t"], replies[0]["d"]
    echoed = reply.get("id")
    if kind == "error" and reply.get("error") in SERVER_FAILURES:
        return f"a server failure: {reply}"
    if frame.id_must_come_back and echoed != frame.client_id:
        return f"id {echoed!r} instead of {frame.client_id!r}: {reply}"
    if not frame.id_must_come_back and echoed is not None and not valid_echo(echoed, frame.client_id):
        return f"id {echoed!r} for an unreadable message or id: {reply}"
    if frame.refused and (kind != "error" or reply.get("error") != "bad_message"):
        return f"a message the protocol refuses answered {replies[0]}"
    return None


@pytest.mark.no_cover  # untraced: thousands of generated requests (README, "Tests and benchmarks")
def test_every_websocket_message_gets_its_reply_and_games_replay(client: TestClient) -> None:
    fuzzer, bob, carol = register(client, "fuzzer"), register(client, "bob"), register(client, "carol")
    world = World(client, fuzzer, bob, carol)
    world.new_duel()
    world.new_practice()
    done: Counter[str] = Counter()  # what the server carried out (acks other than pong), by socket

    @settings(FUZZ_SETTINGS, max_examples=EXAMPLES)
    @given(batch=st.lists(st.tuples(st.sampled_from(SOCKETS), frames), min_size=1, max_size=4))
    def run(batch: list[tuple[str, Frame]]) -> None:
        versions = {game: world.version(game) for game in ("duel", "practice")}
        changed: set[str] = set()
        for socket_name, frame in batch:
            where = f"{socket_name} socket"
            try:
                replies, closed = world.sockets[socket_name].exchange(frame)
            except Exception as err:  # no reply in time, or the server's task failed
                world.failures.append(Failure(where, str(frame), f"{type(err).__name__}: {err}"))
                world.sockets[socket_name].abandon()
                continue
            problem = problem_with(frame, replies, closed)
            if problem:
                world.failures.append(Failure(where, str(frame), problem))
            if any(reply["t"] == "ack" and "pong" not in reply["d"] for reply in replies):
                changed.add(GAME_OF[socket_name])
                done[socket_name] += 1
        for game, version in versions.items():
            if game not in changed and world.version(game) != version:
                world.failures.append(Failure(game, repr(batch)[:300], "all refused, yet the game changed"))
        world.keep_playing()

    try:
        run()
    finally:
        for socket in world.sockets.values():
            socket.close()
    settle(client)
    assert_no_failures(world.failures, lambda f: (f.where, f.outcome[:60]), "failures")
    assert done["player"] and done["practice"], f"the game logic was not reached: {done}"
    for reader, gid in world.games:
        assert_replays(reader, gid)


# ------------------------------------------------------------------------------------------ addresses

ADDRESS_NUMBERS = [
    "0", "-1", "+1", "01", str(2**31 - 1), str(2**31), str(2**63 - 1), str(2**64), "1e3", "NaN", "1.5", "%00",
    "%F0%9F%98%80", "%ED%A0%80", "x", " 1", "9" * 30,
]  # fmt: skip
CLOSES = {4403, 4404, 4422}  # docs/realtime.md: private game, no such game, id or `since` out of range


def answer_to(client: TestClient, url: str) -> str:
    """How the server answers a socket opened at `url`: "open" (it answers a ping) or "closed CODE"."""
    session = client.websocket_connect(url)
    session.__enter__()
    try:
        session.send_text('{"t":"ping","id":"hello"}')
        while True:
            message = next_message(session)
            if message["type"] == "websocket.close":
                return f"closed {message.get('code')}"
            data = json.loads(message["text"])
            if data["t"] == "ack" and data["d"].get("id") == "hello":
                return "open"
    finally:
        session.__exit__(None, None, None)


def in_range(text: str, low: int) -> bool:
    """Whether a URL number is a whole number low..2**31-1 (leniently written, like " 1" or "+1")."""
    try:
        return low <= int(unquote(text)) <= MAX_KEY
    except ValueError:
        return False


def test_socket_addresses_out_of_range_are_closed_with_a_documented_code(client: TestClient) -> None:
    """Game ids and `since` in the socket's URL: a snapshot or events, or a documented close code."""
    fuzzer, bob = register(client, "fuzzer"), register(client, "bob")
    gid = started(fuzzer, bob)
    private = fuzzer.ok("/api/v1/games", {"size": 9, "visibility": "private"})["id"]
    failures: list[Failure] = []
    numbers = st.sampled_from([*ADDRESS_NUMBERS, str(gid), str(private)])

    @settings(FUZZ_SETTINGS, max_examples=examples(60))
    @given(game=numbers, since=st.none() | numbers | st.integers(0, 8).map(str), token=st.booleans())
    def run(game: str, since: str | None, token: bool) -> None:
        query = ([f"since={since}"] if since is not None else []) + ([f"token={bob.token}"] if token else [])
        url = f"/api/v1/games/{game}/ws" + (f"?{'&'.join(query)}" if query else "")
        try:
            answer = answer_to(client, url)
        except Exception as err:
            failures.append(Failure("socket address", url, f"{type(err).__name__}: {err}"))
            return
        allowed = {"open", *(f"closed {code}" for code in CLOSES)}
        if not in_range(game, 1) or (since is not None and since != "" and not in_range(since, 0)):
            allowed = {"closed 4422"}
        if answer not in allowed:
            failures.append(Failure("socket address", url, f"{answer}, expected {sorted(allowed)}"))

    run()
    assert_no_failures(failures, lambda f: (f.sent.split("?")[0], f.outcome[:40]), "failures")


# ----------------------------------------------------------------------------------------- user socket


def user_socket_problem(frame: Frame, replies: list[dict[str, Any]], closed: int | None) -> str | None:
    """What is wrong with the user socket's answer to a frame: a ping gets a pong, anything else an error."""
    if isinstance(frame.payload, bytes):
        return None if closed == BINARY_FRAME_CLOSE else f"binary frame: closed {closed}, replies {replies}"
    if closed is not None or len(replies) != 2 or replies[1]["t"] != "pong":
        return f"closed {closed}, replies {replies}"
    if not frame.id_must_come_back:  # not surely readable: either answer, but one
        return None
    ping = json.loads(frame.payload).get("t") == "ping"
    expected = "pong" if ping else "error"
    if replies[0]["t"] != expected or (not ping and replies[0]["d"].get("error") != "bad_message"):
        return f"{replies[0]} instead of a {expected}"
    return None


@pytest.mark.parametrize("path", ["/api/v1/ws?token={token}", "/api/v1/live/ws"], ids=["user", "live"])
def test_the_user_socket_answers_every_frame(client: TestClient, path: str) -> None:
    """The user socket and the public live socket take only `ping`: every other text frame gets a
    `bad_message` error, a binary frame closes it with 1003, and it keeps serving."""
    fuzzer = register(client, "fuzzer")
    failures: list[Failure] = []
    sessions: list[WebSocketTestSession] = []

    @settings(FUZZ_SETTINGS, max_examples=examples(60))
    @given(frame=frames)
    def run(frame: Frame) -> None:
        if not sessions:
            sessions.append(client.websocket_connect(path.format(token=fuzzer.token)))
            sessions[0].__enter__()
        session = sessions[0]
        if isinstance(frame.payload, bytes):
            session.send_bytes(frame.payload)
        else:
            session.send_text(frame.payload)
        session.send_text('{"t":"ping"}')  # the sentinel: its pong ends the replies to the frame
        replies: list[dict[str, Any]] = []
        closed: int | None = None
        try:
            while len(replies) < 2 and closed is None:
                message = next_message(session)
                if message["type"] == "websocket.close":
                    closed = int(message.get("code", 1000))
                elif (data := json.loads(message["text"]))["t"] in {"pong", "error"}:
                    replies.append(data)  # lobby and dashboard notices left out
        except Exception as err:  # no reply in time, or the server's task failed
            problem: str | None = f"{type(err).__name__}: {err}"
            closed = -1
        else:
            problem = user_socket_problem(frame, replies, closed)
        if problem:
            failures.append(Failure("user socket", str(frame), problem))
        if closed is not None:  # connect again for the next frame
            with contextlib.suppress(Exception):
                sessions.pop().__exit__(None, None, None)

    try:
        run()
    finally:
        for session in sessions:
            session.__exit__(None, None, None)
    assert_no_failures(failures, lambda f: f.outcome[:40], "failures")

"""The websocket spectators benchmark (bench/sockets.py): its hand-written client, and a small run."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import REPO, bench_module, need
from tests.server.conftest import postgres_reachable, redis_reachable


@pytest.fixture(scope="module")
def sockets() -> ModuleType:
    return bench_module("sockets.py")


class Transport(asyncio.Transport):
    """What the spectator writes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def frame(opcode: int, payload: bytes) -> bytes:
    """A server frame (unmasked) with the 7-bit, 16-bit or 64-bit length form."""
    if len(payload) < 126:
        return bytes([0x80 | opcode, len(payload)]) + payload
    if len(payload) < 2**16:
        return bytes([0x80 | opcode, 126]) + len(payload).to_bytes(2, "big") + payload
    return bytes([0x80 | opcode, 127]) + len(payload).to_bytes(8, "big") + payload


def spectate(sockets: ModuleType, chunks: list[bytes]) -> tuple[Any, Transport]:
    async def run() -> tuple[Any, Transport]:
        watch = sockets.Watch(watchers={"7": 1})
        spectator = sockets.Spectator(watch, 8000, "/api/v1/games/7/ws", "7")
        transport = Transport()
        spectator.connection_made(transport)
        for chunk in chunks:
            spectator.data_received(chunk)
        return spectator, transport

    return asyncio.run(run())


def test_move_events_are_counted_even_when_frames_arrive_in_pieces(
    sockets: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    board = b'"board":[' + b"0," * 400 + b"0]"  # a frame over 125 bytes: the 16-bit length form
    stream = (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
        + frame(0x1, b'{"t":"snapshot","d":{},"v":3}')
        + frame(0x1, b'{"t":"move","d":{"ply":12,' + board + b'},"v":4}')
        + frame(0x1, b'{"t":"chat","d":{"ply":99},"v":5}')
    )
    pieces = [stream[i : i + 7] for i in range(0, len(stream), 7)]  # every frame split mid-header
    spectator, transport = spectate(sockets, pieces)
    assert spectator.ready.done() and spectator.ready.exception() is None
    assert transport.written[0].startswith(b"GET /api/v1/games/7/ws HTTP/1.1\r\n")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [["done", "7", "12"]]  # the chat is no move


def test_pings_are_answered_and_a_refused_upgrade_fails_the_socket(sockets: ModuleType) -> None:
    upgrade = b"HTTP/1.1 101 Switching Protocols\r\n\r\n"
    _, transport = spectate(sockets, [upgrade + frame(0x1, b"{}") + frame(0x9, b"abcd")])
    assert transport.written[-1] == bytes([0x8A, 0x84, 0, 0, 0, 0]) + b"abcd"  # a masked pong, zero key
    spectator, transport = spectate(sockets, [b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n"])
    assert transport.closed
    with pytest.raises(ConnectionError, match="403 Forbidden"):
        spectator.ready.result()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sockets", "1"], "--sockets must be 2..40000"),
        (["--games", "0"], "--games must be"),
        (["--moves", "73"], "--moves must be 1..72"),
        (["--gc-threshold", "lots"], "--gc-threshold is"),
        (["--interval", "nan"], "--interval and --settle must be"),
    ],
)
def test_bad_options_say_what_is_wrong(
    sockets: ModuleType, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        sockets.parse_args(options)
    assert message in capsys.readouterr().err


def test_a_small_run_reaches_every_spectator_on_both_servers() -> None:
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    command = [sys.executable, "bench/sockets.py", "--sockets", "200", "--games", "10", "--moves", "2"]
    command += ["--clients", "2", "--interval", "0.1", "--settle", "0.2"]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = {
        line[:37].strip(): line for line in run.stdout.splitlines() if " games " in line or " game " in line
    }
    assert set(rows) == {
        "reference (Starlette)  A: 1 game",
        "reference (Starlette)  B: 10 games",
        "miai (PostgreSQL)      A: 1 game",
        "miai (PostgreSQL)      B: 10 games",
    }
    for row in rows.values():
        sockets_seen, moves = row[37:].split()[:2]
        assert sockets_seen == "200"
        assert moves in {"2", "20"}  # A: 2 moves of one game; B: 2 in each of 10
    assert "x the reference's stored p99" in run.stdout

"""Channels and the controller: in-process against GtpEngine, subprocess against a fake engine."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from miai.formats.gtp import (
    GtpChannelError,
    GtpCommandFailed,
    GtpController,
    GtpEngine,
    GtpEngineDiedError,
    GtpError,
    GtpTimeoutError,
    InProcessChannel,
    SubprocessChannel,
    format_vertex,
    parse_colour,
    parse_int,
    parse_vertex,
)

FAKE_ENGINE = Path(__file__).with_name("fake_gtp_engine.py")


def fake(*options: str, timeout: float = 10.0) -> SubprocessChannel:
    return SubprocessChannel([sys.executable, str(FAKE_ENGINE), *options], timeout=timeout)


# --- a tiny in-process "board" engine, enough to drive every controller helper ----------------


def board_engine() -> GtpEngine:
    engine = GtpEngine(name="Tiny")
    state: dict[str, object] = {"size": 19, "stones": {}, "history": []}

    def stones() -> dict[tuple[int, int], str]:
        return state["stones"]  # type: ignore[return-value]

    def boardsize(args: list[str]) -> str:
        size = parse_int(args[0], "boardsize")
        if not 1 <= size <= 25:
            raise GtpError("unacceptable size")
        state["size"] = size
        stones().clear()
        return ""

    def play(args: list[str]) -> str:
        colour = parse_colour(args[0])
        vertex = parse_vertex(args[1], int(str(state["size"])))
        if vertex is not None:
            if vertex in stones():
                raise GtpError("illegal move")
            stones()[vertex] = colour
        state["history"].append(vertex)  # type: ignore[attr-defined]
        return ""

    def list_stones(args: list[str]) -> str:
        colour = parse_colour(args[0])
        return " ".join(format_vertex(v) for v, c in sorted(stones().items()) if c == colour)

    def is_legal(args: list[str]) -> str:
        vertex = parse_vertex(args[1], int(str(state["size"])))
        return "0" if vertex in stones() else "1"

    def undo(args: list[str]) -> str:
        history: list[tuple[int, int] | None] = state["history"]  # type: ignore[assignment]
        if not history:
            raise GtpError("cannot undo")
        last = history.pop()
        if last is not None:
            del stones()[last]
        return ""

    engine.register("boardsize", boardsize, min_args=1, max_args=1)

    def clear_board(args: list[str]) -> str:
        stones().clear()
        return ""

    engine.register("clear_board", clear_board, max_args=0)
    engine.register("komi", lambda args: "", min_args=1, max_args=1)
    engine.register("play", play, min_args=2, max_args=2)
    engine.register("genmove", lambda args: "resign" if args[0] == "w" else "C3", min_args=1, max_args=1)
    engine.register("list_stones", list_stones, min_args=1, max_args=1)
    engine.register("final_score", lambda args: "B+3.5\n", max_args=0)
    engine.register("loadsgf", lambda args: "white" if len(args) == 2 else "black", min_args=1, max_args=2)
    engine.register("is_legal", is_legal, min_args=2, max_args=2)
    engine.register("undo", undo, max_args=0)
    engine.register("showboard", lambda args: "\n  A B\n2 . .\n1 . .", max_args=0)
    return engine


@pytest.fixture
def controller() -> Iterator[GtpController]:
    with GtpController(InProcessChannel(board_engine())) as gtp:
        yield gtp


def test_in_process_send() -> None:
    channel = InProcessChannel(board_engine())
    assert channel.send("protocol_version") == (True, "2")
    assert channel.send("3 name") == (True, "Tiny")
    assert channel.send("fly") == (False, "unknown command")
    assert channel.send("showboard") == (True, "\n  A B\n2 . .\n1 . .")
    with pytest.raises(ValueError, match="line breaks"):
        channel.send("name\nversion")
    with pytest.raises(ValueError, match="no GTP command"):
        channel.send("# nothing")
    assert channel.send("quit") == (True, "")
    with pytest.raises(GtpChannelError, match="closed"):
        channel.send("name")


def test_controller_helpers(controller: GtpController) -> None:
    controller.boardsize(9)
    assert controller.size == 9
    controller.clear_board()
    controller.komi(6.5)
    controller.play("black", (2, 2))
    controller.play("W", (3, 3))
    controller.play("b", None)
    assert controller.list_stones("b") == {(2, 2)}
    assert controller.list_stones("white") == {(3, 3)}
    assert controller.is_legal("b", (4, 4))
    assert not controller.is_legal("b", (2, 2))
    controller.undo()
    controller.undo()
    assert controller.list_stones("w") == set()
    assert controller.genmove("b") == (2, 2)
    assert controller.genmove("w") == "resign"
    assert controller.final_score() == "B+3.5"
    assert controller.loadsgf(Path("game.sgf")) == "b"
    assert controller.loadsgf("game.sgf", 12) == "w"
    assert controller.showboard().startswith("\n  A B")
    assert controller.known_command("play")
    assert not controller.known_command("fly")
    assert "list_stones" in controller.list_commands()


def test_controller_raises_gtp_error_on_failure(controller: GtpController) -> None:
    controller.boardsize(9)
    controller.play("b", (0, 0))
    with pytest.raises(GtpCommandFailed, match="illegal move") as info:
        controller.play("w", (0, 0))
    assert isinstance(info.value, GtpError)
    assert info.value.command == "play w A1"
    assert info.value.text == "illegal move"
    with pytest.raises(GtpError, match="unknown command"):
        controller.command("fly")
    with pytest.raises(GtpError, match="unacceptable size"):
        controller.boardsize(30)
    assert controller.size == 9  # unchanged when the engine refused


def test_controller_validates_before_sending(controller: GtpController) -> None:
    controller.boardsize(9)
    with pytest.raises(ValueError, match="off a 9x9 board"):
        controller.play("b", (9, 0))
    with pytest.raises(ValueError, match="invalid colour"):
        controller.play("red", (0, 0))
    with pytest.raises(ValueError, match="single GTP token"):
        controller.loadsgf("my game.sgf")


# --- SubprocessChannel against the fake engine ---------------------------------------------


def test_subprocess_happy_path() -> None:
    with fake() as channel:
        assert channel.send("name") == (True, "name")
        assert channel.send("4 play b D4") == (True, "play b D4")
        assert channel.send("multi") == (True, "line one\n  line two\nline three")
        assert channel.send("crlf") == (True, "windows")
        assert channel.send("fail") == (False, "no such luck")
        assert channel.send("flood_stderr") == (True, "flooded")
        assert channel.stderr_tail().endswith("x" * 1023)
    assert channel.returncode == 0
    with pytest.raises(GtpChannelError, match="closed"):
        channel.send("name")


def test_subprocess_blank_lines_before_an_answer_are_skipped() -> None:
    with fake("--banner") as channel:
        assert channel.send("name") == (True, "name")
        assert channel.send("name") == (True, "name")


def test_subprocess_controller() -> None:
    with GtpController(fake()) as gtp:
        assert gtp.command("hello", "world") == "hello world"
        with pytest.raises(GtpCommandFailed, match="no such luck"):
            gtp.command("fail")


def test_engine_dying_mid_answer() -> None:
    with fake() as channel:
        with pytest.raises(GtpEngineDiedError) as info:
            channel.send("die")
        message = str(info.value)
        assert "exited with code 3" in message
        assert "'die'" in message
        assert "fatal: engine exploded" in message
        with pytest.raises(GtpChannelError, match="unusable"):
            channel.send("name")
    assert channel.returncode == 3


def test_engine_crashing_at_start() -> None:
    with fake("--crash-at-start") as channel, pytest.raises(GtpEngineDiedError, match="cannot initialise"):
        channel.send("name")
    assert channel.returncode == 5


def test_slow_engine_times_out() -> None:
    channel = fake(timeout=10.0)
    try:
        assert channel.send("slow 0.1") == (True, "slept")
        started = time.monotonic()
        with pytest.raises(GtpTimeoutError, match=r"did not answer 'slow 30' within 0\.3 s"):
            channel.send("slow 30", timeout=0.3)
        assert time.monotonic() - started < 5
        with pytest.raises(GtpChannelError, match="unusable: timed out"):
            channel.send("name")
    finally:
        started = time.monotonic()
        channel.close()
    assert time.monotonic() - started < 5  # a hung engine is terminated without waiting
    assert channel.returncode is not None


def test_garbage_answer_is_a_channel_error() -> None:
    with fake() as channel, pytest.raises(GtpChannelError, match="malformed response"):
        channel.send("garbage")


def test_response_id_must_match() -> None:
    channel = InProcessChannel(GtpEngine())
    assert channel.send("7 name") == (True, "Miai")
    with fake() as sub:
        assert sub.send("8 name") == (True, "name")
        with pytest.raises(GtpChannelError, match="response id 999 does not match command id 8"):
            sub.send("8 wrong_id")
        assert sub.send("wrong_id") == (True, "not yours")  # no id sent, none to check


def test_engine_ignoring_quit_is_terminated() -> None:
    channel = fake("--hang-on-quit")
    assert channel.send("name") == (True, "name")
    started = time.monotonic()
    channel.close(timeout=0.5)
    assert time.monotonic() - started < 5
    assert channel.returncode is not None


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM cannot be ignored on Windows")
def test_engine_ignoring_sigterm_is_killed() -> None:
    channel = fake("--hang-on-quit", "--ignore-term")
    assert channel.send("name") == (True, "name")
    channel.close(timeout=0.3)
    assert channel.returncode == -9


def test_user_sent_quit_closes_quietly() -> None:
    with fake() as channel:
        assert channel.send("quit") == (True, "")
        with pytest.raises(GtpChannelError, match="told to quit"):
            channel.send("name")
    assert channel.returncode == 0


def test_close_is_idempotent() -> None:
    channel = fake()
    channel.close()
    channel.close()
    assert channel.returncode == 0


def test_missing_program() -> None:
    with pytest.raises(GtpChannelError, match="cannot start engine"):
        SubprocessChannel(["/nonexistent/engine-binary"])
    with pytest.raises(ValueError, match="argv"):
        SubprocessChannel([])


def test_subprocess_refuses_multi_line_commands() -> None:
    with fake() as channel:
        with pytest.raises(ValueError, match="line breaks"):
            channel.send("name\nname")
        with pytest.raises(ValueError, match="no GTP command"):
            channel.send("   ")
        assert channel.send("name") == (True, "name")

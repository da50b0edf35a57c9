"""Ways to talk to a GTP engine: in-process (tests), subprocess (external engines), and a
typed controller that works over either.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Protocol, Self

from miai.formats.gtp.protocol import (
    Colour,
    GtpError,
    GtpProtocolError,
    Move,
    Vertex,
    format_colour,
    format_command,
    format_vertex,
    parse_colour,
    parse_command,
    parse_move,
    parse_response,
    parse_vertex,
)
from miai.formats.gtp.registry import GtpEngine

__all__ = [
    "GtpChannel",
    "GtpChannelError",
    "GtpCommandFailed",
    "GtpController",
    "GtpEngineDiedError",
    "GtpTimeoutError",
    "InProcessChannel",
    "SubprocessChannel",
]


class GtpChannelError(Exception):
    """The transport failed: the engine is gone, hung, or not speaking GTP."""


class GtpTimeoutError(GtpChannelError):
    """No complete response in time; the channel is unusable afterwards (responses would desync)."""


class GtpEngineDiedError(GtpChannelError):
    """The engine process exited (or closed its output) before answering."""


class GtpCommandFailed(GtpError):
    """The engine answered '?'; `command` and `text` keep the details."""

    def __init__(self, command: str, text: str) -> None:
        super().__init__(f"engine rejected {command!r}: {text}")
        self.command = command
        self.text = text


class GtpChannel(Protocol):
    def send(self, command_line: str) -> tuple[bool, str]: ...

    def close(self) -> None: ...


def _checked_line(command_line: str) -> str:
    """One command per send, or responses would no longer match commands."""
    if "\n" in command_line or "\r" in command_line:
        raise ValueError(f"a GTP command line must not contain line breaks: {command_line!r}")
    if parse_command(command_line) is None:
        raise ValueError(f"no GTP command in {command_line!r}")
    return command_line


def _expect_id(command_line: str, response_id: int | None) -> None:
    command = parse_command(command_line)
    if command is not None and command.id is not None and command.id != response_id:
        raise GtpChannelError(f"response id {response_id} does not match command id {command.id}")


class InProcessChannel:
    """Talks to a GtpEngine in the same process, going through the full wire format."""

    def __init__(self, engine: GtpEngine) -> None:
        self.engine = engine
        self._closed = False

    def send(self, command_line: str) -> tuple[bool, str]:
        if self._closed or self.engine.quit_requested:
            raise GtpChannelError("channel is closed (or the engine has quit)")
        raw = self.engine.handle_line(_checked_line(command_line))
        if raw is None:  # unreachable after _checked_line, but keep the type honest
            raise ValueError(f"no GTP command in {command_line!r}")
        response = parse_response(raw)
        _expect_id(command_line, response.id)
        return response.ok, response.text

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_STDERR_LINES = 20
_EOF = None


class SubprocessChannel:
    """Runs an external GTP engine (e.g. GNU Go) and exchanges commands over its stdin/stdout.

    Reader threads feed a queue so that every read can time out portably (no select() on
    Windows pipes) and so a chatty stderr can never fill its pipe and block the engine.
    Not thread-safe: use one channel from one thread.
    """

    def __init__(self, argv: Sequence[str], timeout: float | None = 30.0, cwd: str | None = None) -> None:
        if not argv:
            raise ValueError("argv must name the engine program")
        self.argv = list(argv)
        self.timeout = timeout
        self._closed = False
        self._broken: str | None = None
        self._quit_sent = False
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
            )
        except OSError as exc:
            raise GtpChannelError(f"cannot start engine {self.argv[0]!r}: {exc}") from exc
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._pump_stdout, args=(self._proc.stdout,), daemon=True),
            threading.Thread(target=self._pump_stderr, args=(self._proc.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    def stderr_tail(self) -> str:
        return "".join(self._stderr_tail).rstrip()

    def send(self, command_line: str, timeout: float | None = None) -> tuple[bool, str]:
        """Send one command and return (ok, text); raise GtpChannelError on transport failure."""
        if self._closed:
            raise GtpChannelError("channel is closed")
        if self._broken:
            raise GtpChannelError(f"channel is unusable: {self._broken}")
        if self._quit_sent:
            raise GtpChannelError("the engine has been told to quit")
        line = _checked_line(command_line)
        ok, text = self._exchange(line, self.timeout if timeout is None else timeout)
        command = parse_command(line)
        self._quit_sent = ok and command is not None and command.name == "quit"
        return ok, text

    def _exchange(self, line: str, timeout: float | None) -> tuple[bool, str]:
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(line) from None
        raw = self._read_response(line, timeout)
        try:
            response = parse_response(raw)
        except GtpProtocolError as exc:
            raise GtpChannelError(f"malformed response from {self.argv[0]} to {line!r}: {exc}") from None
        _expect_id(line, response.id)
        return response.ok, response.text

    def _read_response(self, line: str, timeout: float | None) -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        lines: list[str] = []
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                chunk = self._lines.get(timeout=remaining)
            except queue.Empty:
                self._broken = f"timed out waiting for the answer to {line!r}"
                raise GtpTimeoutError(
                    f"engine {self.argv[0]} did not answer {line!r} within {timeout} s"
                ) from None
            if chunk is _EOF:
                raise self._died(line)
            text = chunk.decode("utf-8", errors="replace").rstrip("\r\n")
            if not text.strip():
                if lines:
                    return "\n".join(lines)
                continue  # blank lines before a response carry nothing
            lines.append(text)

    def _died(self, line: str) -> GtpEngineDiedError:
        try:
            code: int | None = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None  # output closed but the process lingers; report what we know
        self._threads[1].join(timeout=1.0)  # let the stderr tail catch up
        self._broken = "the engine has died"
        status = "closed its output" if code is None else f"exited with code {code}"
        message = f"engine {self.argv[0]} {status} while answering {line!r}"
        tail = self.stderr_tail()
        if tail:
            message += f"; stderr tail:\n{tail}"
        return GtpEngineDiedError(message)

    def _pump_stdout(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                self._lines.put(raw)
        except (OSError, ValueError):
            pass  # pipe closed under us: same as EOF
        finally:
            self._lines.put(_EOF)

    def _pump_stderr(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                self._stderr_tail.append(raw.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass

    def close(self, timeout: float = 2.0) -> None:
        """Ask the engine to quit, then terminate and finally kill it if it does not exit."""
        if self._closed:
            return
        self._closed = True
        proc = self._proc
        if proc.poll() is None and self._broken is None and not self._quit_sent:
            with contextlib.suppress(GtpChannelError):  # it is going away either way
                self._exchange("quit", timeout)
        with contextlib.suppress(OSError, ValueError):
            assert proc.stdin is not None
            proc.stdin.close()
        # A hung engine (after a timeout) gets no grace period.
        if self._broken is None or proc.poll() is not None:
            _wait(proc, timeout)
        for stop in (proc.terminate, proc.kill):
            if proc.poll() is not None:
                break
            stop()
            _wait(proc, timeout)
        for thread, stream in zip(self._threads, (proc.stdout, proc.stderr), strict=True):
            thread.join(timeout)
            # Closing a pipe a thread still reads would block on its lock; a grandchild may hold it.
            if not thread.is_alive() and stream is not None:
                stream.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> None:
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout)


class GtpController:
    """Typed GTP commands over any channel; '?' answers raise GtpCommandFailed (a GtpError)."""

    def __init__(self, channel: GtpChannel) -> None:
        self.channel = channel
        self.size: int | None = None  # set by boardsize(), used to validate vertices

    def command(self, name: str, *args: str) -> str:
        line = format_command(name, *args)
        ok, text = self.channel.send(line)
        if not ok:
            raise GtpCommandFailed(line, text)
        return text

    def known_command(self, name: str) -> bool:
        return self.command("known_command", name).strip() == "true"

    def list_commands(self) -> list[str]:
        return [line.strip() for line in self.command("list_commands").split("\n") if line.strip()]

    def boardsize(self, size: int) -> None:
        self.command("boardsize", str(size))
        self.size = size

    def clear_board(self) -> None:
        self.command("clear_board")

    def komi(self, komi: float) -> None:
        self.command("komi", repr(float(komi)))

    def play(self, colour: str, vertex: Vertex | None) -> None:
        self.command("play", format_colour(colour), format_vertex(vertex, self.size))

    def genmove(self, colour: str) -> Move:
        return parse_move(self.command("genmove", format_colour(colour)).strip(), self.size)

    def list_stones(self, colour: str) -> set[Vertex]:
        text = self.command("list_stones", format_colour(colour))
        vertices = (parse_vertex(token, self.size) for token in text.split())
        return {vertex for vertex in vertices if vertex is not None}  # tolerate a stray "pass"

    def final_score(self) -> str:
        """The engine's score text, e.g. "B+3.5", "W+R" or "0"."""
        return self.command("final_score").strip()

    def loadsgf(self, path: str | os.PathLike[str], move: int | None = None) -> Colour | None:
        """Load an SGF file; returns the colour to play when the engine says (GNU Go does)."""
        args = [os.fspath(path)] if move is None else [os.fspath(path), str(move)]
        text = self.command("loadsgf", *args).strip()
        try:
            return parse_colour(text)
        except GtpError:
            return None

    def is_legal(self, colour: str, vertex: Vertex | None) -> bool:
        answer = self.command("is_legal", format_colour(colour), format_vertex(vertex, self.size))
        return answer.strip() == "1"

    def undo(self) -> None:
        self.command("undo")

    def showboard(self) -> str:
        return self.command("showboard")

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

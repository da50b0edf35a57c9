"""The engine side of a GTP stream: read command lines, write responses, until quit or EOF."""

from __future__ import annotations

import io
from typing import IO, cast

from miai.formats.gtp.protocol import format_response, parse_command
from miai.formats.gtp.registry import GtpEngine

__all__ = ["run_gtp_loop"]

_BAD_ENCODING = "invalid UTF-8 in command line"


def _is_binary(stream: object) -> bool:
    return isinstance(stream, io.RawIOBase | io.BufferedIOBase) or "b" in getattr(stream, "mode", "")


def _undecodable(line: str | bytes) -> bool:
    """True if the command part of a line (before any '#') is not valid UTF-8.

    Only the part before '#' matters: comments are discarded anyway, and '#' is ASCII so it
    can never sit inside a multi-byte UTF-8 sequence.
    """
    if isinstance(line, bytes):
        try:
            line.split(b"#", 1)[0].decode("utf-8")
        except UnicodeDecodeError:
            return True
        return False
    try:  # text streams opened with errors="surrogateescape" smuggle bad bytes as surrogates
        line.split("#", 1)[0].encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _answer(engine: GtpEngine, line: str | bytes) -> str | None:
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    if _undecodable(line):
        command = parse_command(text)  # still answer with the id, if one is readable
        return None if command is None else format_response(False, _BAD_ENCODING, command.id)
    return engine.handle_line(text)


def run_gtp_loop(engine: GtpEngine, stdin: IO[str] | IO[bytes], stdout: IO[str] | IO[bytes]) -> None:
    """Serve `engine` over a pair of streams, text or binary (binary is the robust choice).

    Stops after answering 'quit', at end of input, or when the reader of stdout has gone away.
    """
    # A strict text wrapper (like sys.stdin) would drop a whole read-ahead chunk on one bad byte;
    # surrogateescape lets the bad line through, to be answered with an error like in binary mode.
    relaxed = isinstance(stdin, io.TextIOWrapper) and stdin.errors == "strict"
    if relaxed:
        cast(io.TextIOWrapper, stdin).reconfigure(errors="surrogateescape")
    try:
        _serve(engine, stdin, stdout)
    finally:
        if relaxed:
            cast(io.TextIOWrapper, stdin).reconfigure(errors="strict")


def _serve(engine: GtpEngine, stdin: IO[str] | IO[bytes], stdout: IO[str] | IO[bytes]) -> None:
    binary_out = _is_binary(stdout)
    encoding = "utf-8" if binary_out else (getattr(stdout, "encoding", None) or "utf-8")
    while not engine.quit_requested:
        try:
            line = stdin.readline()
        except UnicodeDecodeError:  # a strict text stream choked; the bad chunk is already consumed
            response: str | None = format_response(False, _BAD_ENCODING)
        else:
            if not line:
                return
            response = _answer(engine, line)
        if response is None:
            continue
        # Never let an unencodable character in a handler's text kill the stream.
        data = response.encode(encoding, errors="backslashreplace")
        try:
            if binary_out:
                cast(IO[bytes], stdout).write(data)
            else:
                cast(IO[str], stdout).write(data.decode(encoding))
            stdout.flush()
        except BrokenPipeError:
            return  # nobody is listening any more: same as EOF

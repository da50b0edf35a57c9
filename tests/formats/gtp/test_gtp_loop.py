"""run_gtp_loop over in-memory streams, text and binary."""

from __future__ import annotations

import io
from typing import IO, cast

from miai.formats.gtp import GtpEngine, run_gtp_loop


class FlushCounter(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.flushes = 0
        self.sizes_at_flush: list[int] = []

    def flush(self) -> None:
        self.flushes += 1
        self.sizes_at_flush.append(len(self.getvalue()))
        super().flush()


def make_engine() -> GtpEngine:
    engine = GtpEngine(name="LoopBot", version="0")
    engine.register("echo", " ".join)
    engine.register("crash", lambda args: str(1 / 0))
    engine.register("unicode", lambda args: "caf\u00e9 \udcff")
    return engine


def run_text(script: str) -> str:
    out = io.StringIO()
    run_gtp_loop(make_engine(), io.StringIO(script), out)
    return out.getvalue()


def test_answers_each_command_and_stops_at_eof() -> None:
    script = "protocol_version\n# comment\n\n1 name\n  \nfly\n2 echo a  b\n"
    assert run_text(script) == "= 2\n\n=1 LoopBot\n\n? unknown command\n\n=2 a b\n\n"


def test_last_line_without_newline_is_still_answered() -> None:
    assert run_text("name") == "= LoopBot\n\n"


def test_stops_after_quit() -> None:
    stdin = io.StringIO("name\n3 quit\nname\n")
    out = io.StringIO()
    engine = make_engine()
    run_gtp_loop(engine, stdin, out)
    assert out.getvalue() == "= LoopBot\n\n=3 \n\n"
    assert engine.quit_requested
    assert stdin.readline() == "name\n"  # nothing read past quit


def test_flushes_after_every_response() -> None:
    out = FlushCounter()
    run_gtp_loop(make_engine(), io.StringIO("name\n\nversion\nfly\n"), out)
    assert out.flushes == 3
    assert out.sizes_at_flush == [len("= LoopBot\n\n"), len("= LoopBot\n\n= 0\n\n"), len(out.getvalue())]


def test_handler_crash_does_not_stop_the_loop() -> None:
    assert run_text("crash\nname\n") == "? internal error: division by zero\n\n= LoopBot\n\n"


def test_empty_input() -> None:
    assert run_text("") == ""


def test_binary_streams_and_invalid_utf8() -> None:
    stdin = io.BytesIO(
        b"name\n4 play b \xff\xfe\n# caf\xe9 in a comment is fine\necho ok # \xff\n\xff\n5 quit\n"
    )
    out = io.BytesIO()
    run_gtp_loop(make_engine(), stdin, out)
    assert out.getvalue() == (
        b"= LoopBot\n\n?4 invalid UTF-8 in command line\n\n= ok\n\n? invalid UTF-8 in command line\n\n=5 \n\n"
    )


def test_binary_output_escapes_unencodable_text() -> None:
    out = io.BytesIO()
    run_gtp_loop(make_engine(), io.BytesIO(b"unicode\n"), out)
    assert out.getvalue() == "= caf\u00e9 \\udcff\n\n".encode()


def test_text_output_escapes_unencodable_text() -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    run_gtp_loop(make_engine(), io.StringIO("unicode\nname\n"), out)
    assert raw.getvalue() == b"= caf\\xe9 \\udcff\n\n= LoopBot\n\n"
    out.detach()


def test_surrogateescaped_text_input() -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"7 echo \xff\nname\n"), encoding="utf-8", errors="surrogateescape")
    assert_out = io.StringIO()
    run_gtp_loop(make_engine(), stdin, assert_out)
    assert assert_out.getvalue() == "?7 invalid UTF-8 in command line\n\n= LoopBot\n\n"
    stdin.detach()


def test_strict_text_input_that_cannot_decode_keeps_going() -> None:
    class Flaky:
        """Raises like a strict text stream would on its second read."""

        def __init__(self, text: str) -> None:
            self.lines = io.StringIO(text)
            self.calls = 0

        def readline(self) -> str:
            self.calls += 1
            if self.calls == 2:
                raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            return self.lines.readline()

    out = io.StringIO()
    run_gtp_loop(make_engine(), cast(IO[str], Flaky("name\nversion\n")), out)
    assert out.getvalue() == "= LoopBot\n\n? invalid UTF-8 in command line\n\n= 0\n\n"


def test_stops_quietly_when_the_reader_goes_away() -> None:
    class Closed(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.attempts = 0

        def write(self, text: str) -> int:
            self.attempts += 1
            raise BrokenPipeError

    stdin = io.StringIO("name\nversion\nname\n")
    out = Closed()
    run_gtp_loop(make_engine(), stdin, out)  # returns: no BrokenPipeError escapes
    assert out.attempts == 1  # no answer is attempted after the pipe broke
    assert stdin.readline() == "version\n"  # and no further command is read, let alone run


def test_strict_text_wrapper_loses_nothing_around_a_bad_line() -> None:
    # Like sys.stdin: strict decoding would otherwise drop the whole read-ahead chunk.
    stdin = io.TextIOWrapper(io.BytesIO(b"name\n\xff bad\n2 version\n"), encoding="utf-8")
    out = io.StringIO()
    run_gtp_loop(make_engine(), stdin, out)
    assert out.getvalue() == "= LoopBot\n\n? invalid UTF-8 in command line\n\n=2 0\n\n"
    assert stdin.errors == "strict"  # the caller's stream is left as it was
    stdin.detach()

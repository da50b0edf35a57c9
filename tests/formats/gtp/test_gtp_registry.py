"""GtpEngine: built-ins, dispatch, argument counts, and that nothing ever escapes handle_line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import __version__
from miai.formats.gtp import GtpEngine, GtpError, parse_float, parse_response


def make_engine() -> GtpEngine:
    engine = GtpEngine(name="TestBot", version="1.2")
    state = {"komi": 0.0}

    def komi(args: list[str]) -> str:
        state["komi"] = parse_float(args[0], "komi")
        return ""

    def boom(args: list[str]) -> str:
        raise RuntimeError("kaboom")

    def silent_boom(args: list[str]) -> str:
        raise KeyError()

    def bad_str(args: list[str]) -> str:
        class Weird(Exception):
            def __str__(self) -> str:
                raise TypeError("no str for you")

        raise Weird

    def not_a_string(args: list[str]) -> str:
        return None  # type: ignore[return-value]  # the bug under test

    def refuse(args: list[str]) -> str:
        raise GtpError("cannot do that")

    def echo(args: list[str]) -> str:
        return " ".join(args)

    engine.register("komi", komi, min_args=1, max_args=1, usage="komi KOMI")
    engine.register("boom", boom)
    engine.register("silent_boom", silent_boom)
    engine.register("bad_str", bad_str)
    engine.register("not_a_string", not_a_string)
    engine.register("refuse", refuse)
    engine.register("echo", echo)
    engine.register("multi", lambda args: "one\n\ntwo\n")
    engine.register("range", lambda args: "ok", min_args=1, max_args=3)
    engine.register("many", lambda args: "ok", min_args=2)
    return engine


@pytest.fixture
def engine() -> GtpEngine:
    return make_engine()


@pytest.mark.parametrize(
    ("line", "response"),
    [
        ("protocol_version", "= 2\n\n"),
        ("name", "= TestBot\n\n"),
        ("version", "= 1.2\n\n"),
        ("1 protocol_version", "=1 2\n\n"),
        ("known_command komi", "= true\n\n"),
        ("known_command fly", "= false\n\n"),
        ("known_command quit", "= true\n\n"),
        ("komi 6.5", "= \n\n"),
        ("5 echo a b  c", "=5 a b c\n\n"),
        ("multi", "= one\ntwo\n\n"),
    ],
)
def test_successful_commands(engine: GtpEngine, line: str, response: str) -> None:
    assert engine.handle_line(line) == response


@pytest.mark.parametrize(
    ("line", "response"),
    [
        ("fly", "? unknown command\n\n"),
        ("9 fly", "?9 unknown command\n\n"),
        ("PROTOCOL_VERSION", "? unknown command\n\n"),  # command names are case-sensitive
        ("komi x", "? komi must be a number, got 'x'\n\n"),
        ("2 komi", "?2 wrong number of arguments: komi takes exactly 1, got 0 (usage: komi KOMI)\n\n"),
        ("komi 1 2", "? wrong number of arguments: komi takes exactly 1, got 2 (usage: komi KOMI)\n\n"),
        ("name extra", "? wrong number of arguments: name takes exactly 0, got 1\n\n"),
        ("range", "? wrong number of arguments: range takes 1 to 3, got 0\n\n"),
        ("range 1 2 3 4", "? wrong number of arguments: range takes 1 to 3, got 4\n\n"),
        ("many 1", "? wrong number of arguments: many takes at least 2, got 1\n\n"),
        (
            "known_command",
            "? wrong number of arguments: known_command takes exactly 1, got 0"
            " (usage: known_command COMMAND)\n\n",
        ),
        ("refuse", "? cannot do that\n\n"),
        ("4 boom", "?4 internal error: kaboom\n\n"),
        ("silent_boom", "? internal error: KeyError\n\n"),
        ("bad_str", "? internal error: Weird\n\n"),
        ("not_a_string", "? internal error: handler for not_a_string returned NoneType\n\n"),
        ("12", "?12 missing command name\n\n"),
    ],
)
def test_error_answers(engine: GtpEngine, line: str, response: str) -> None:
    assert engine.handle_line(line) == response


def test_engine_keeps_running_after_internal_errors(engine: GtpEngine) -> None:
    for _ in range(3):
        assert engine.handle_line("boom") == "? internal error: kaboom\n\n"
    assert engine.handle_line("name") == "= TestBot\n\n"


@pytest.mark.parametrize("line", ["", "   ", "# just a comment", "\t\r\n", "\x00"])
def test_empty_and_comment_lines_get_no_answer(engine: GtpEngine, line: str) -> None:
    assert engine.handle_line(line) is None


def test_list_commands_is_sorted_one_per_line(engine: GtpEngine) -> None:
    response = engine.handle_line("list_commands")
    assert response is not None
    names = parse_response(response).text.split("\n")
    assert names == sorted(names)
    for builtin in ("protocol_version", "name", "version", "known_command", "list_commands", "quit"):
        assert builtin in names
    assert "komi" in names


def test_quit_sets_the_flag(engine: GtpEngine) -> None:
    assert not engine.quit_requested
    assert engine.handle_line("8 quit") == "=8 \n\n"
    assert engine.quit_requested


def test_defaults_name_and_version() -> None:
    engine = GtpEngine()
    assert engine.handle_line("name") == "= Miai\n\n"
    assert engine.handle_line("version") == f"= {__version__}\n\n"


def test_register_validation(engine: GtpEngine) -> None:
    with pytest.raises(ValueError, match="already registered"):
        engine.register("komi", lambda args: "")
    engine.register("name", lambda args: "Other", replace=True)
    assert engine.handle_line("name") == "= Other\n\n"
    for bad in ("", "has space", "has#hash", "123", "tab\t", "caf\u00e9"):
        with pytest.raises(ValueError, match="invalid GTP command name"):
            engine.register(bad, lambda args: "")
    with pytest.raises(ValueError, match="argument count"):
        engine.register("x", lambda args: "", min_args=2, max_args=1)
    with pytest.raises(ValueError, match="argument count"):
        engine.register("y", lambda args: "", min_args=-1)
    assert not engine.known_command("x")


def test_handlers_get_a_fresh_list(engine: GtpEngine) -> None:
    seen: list[list[str]] = []

    def grab(args: list[str]) -> str:
        seen.append(args)
        args.append("mutated")
        return ""

    engine.register("grab", grab)
    engine.handle_line("grab a")
    engine.handle_line("grab a")
    assert seen == [["a", "mutated"], ["a", "mutated"]]


def _check_response(response: str | None) -> None:
    if response is None:
        return
    assert response[0] in "=?"
    assert response.endswith("\n\n")
    assert "\n\n" not in response[:-2]


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_random_bytes_never_crash(data: bytes) -> None:
    engine = make_engine()
    for errors in ("replace", "surrogateescape", "latin-1"):
        line = data.decode("latin-1") if errors == "latin-1" else data.decode("utf-8", errors=errors)
        _check_response(engine.handle_line(line))


_VOCABULARY = ["komi", "boom", "refuse", "echo", "known_command", "name", "12", "#", "quit", "multi", "range"]


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from([*_VOCABULARY, "\t", "\r", "\x00", " ", "\n"]) | st.text(max_size=12),
        max_size=8,
    )
)
def test_garbage_built_from_real_words_never_crashes(tokens: list[str]) -> None:
    engine = make_engine()
    response = engine.handle_line(" ".join(tokens))
    _check_response(response)
    # The engine still answers normally afterwards.
    assert engine.handle_line("protocol_version") == "= 2\n\n"

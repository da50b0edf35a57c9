"""GtpEngine: built-ins, dispatch, argument counts, and that nothing ever escapes handle_line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import __version__
from miai.formats.gtp import Command, GtpEngine, GtpError, parse_command, parse_float, parse_response


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


# make_engine()'s commands and their argument counts, built-ins included: a model to predict its answers.
ARITY: dict[str, tuple[int, int | None]] = {
    "protocol_version": (0, 0), "name": (0, 0), "version": (0, 0), "known_command": (1, 1),
    "list_commands": (0, 0), "quit": (0, 0), "komi": (1, 1), "boom": (0, None), "silent_boom": (0, None),
    "bad_str": (0, None), "not_a_string": (0, None), "refuse": (0, None), "echo": (0, None),
    "multi": (0, None), "range": (1, 3), "many": (2, None),
}  # fmt: skip


def expected(command: Command) -> tuple[bool, str]:
    """What make_engine() must answer to `command`: success and text (for arity errors, how it starts)."""
    name, args = command.name, command.args
    if not name:
        return False, "missing command name"
    if name not in ARITY:
        return False, "unknown command"
    low, high = ARITY[name]
    if len(args) < low or (high is not None and len(args) > high):
        return False, "wrong number of arguments: "
    if name == "komi":
        try:
            parse_float(args[0], "komi")
        except GtpError as err:
            return False, str(err)
    answers = {
        "protocol_version": (True, "2"),
        "name": (True, "TestBot"),
        "version": (True, "1.2"),
        "known_command": (True, "true" if args and args[0] in ARITY else "false"),
        "list_commands": (True, "\n".join(sorted(ARITY))),
        "boom": (False, "internal error: kaboom"),
        "silent_boom": (False, "internal error: KeyError"),
        "bad_str": (False, "internal error: Weird"),
        "not_a_string": (False, "internal error: handler for not_a_string returned NoneType"),
        "refuse": (False, "cannot do that"),
        "echo": (True, " ".join(args).rstrip()),  # trailing (Unicode) spaces never reach the wire
        "multi": (True, "one\ntwo"),
        "range": (True, "ok"),
        "many": (True, "ok"),
    }
    return answers.get(name, (True, ""))  # komi and quit answer with nothing


def check_response(line: str, response: str | None) -> None:
    """One well-formed response to `line`, with its id and the answer the model predicts."""
    command = parse_command(line)
    if command is None:
        assert response is None, (line, response)
        return
    assert response is not None, line
    assert response[0] in "=?" and response.endswith("\n\n"), (line, response)
    assert "\n\n" not in response[:-2], (line, response)  # one response, not two
    parsed = parse_response(response)
    ok, text = expected(command)
    assert (parsed.ok, parsed.id) == (ok, command.id), (line, response)
    assert parsed.text.startswith(text) if text.endswith(": ") else parsed.text == text, (line, response)


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_random_bytes_get_the_answers_the_commands_call_for(data: bytes) -> None:
    engine = make_engine()
    for errors in ("replace", "surrogateescape", "latin-1"):
        line = data.decode("latin-1") if errors == "latin-1" else data.decode("utf-8", errors=errors)
        check_response(line, engine.handle_line(line))


_VOCABULARY = [*ARITY, "fly", "12", "#", "1.5", "x"]


@settings(max_examples=500)
@given(
    st.lists(
        st.sampled_from([*_VOCABULARY, "\t", "\r", "\x00", " ", "\n"]) | st.text(max_size=12),
        max_size=8,
    )
)
def test_garbage_built_from_real_words_gets_the_answers_it_calls_for(tokens: list[str]) -> None:
    engine = make_engine()
    line = " ".join(tokens)
    check_response(line, engine.handle_line(line))
    # The engine still answers normally afterwards.
    assert engine.handle_line("protocol_version") == "= 2\n\n"


def test_the_model_matches_the_engine_on_every_command() -> None:
    """Every command of make_engine() is in the model, so the fuzzing above predicts real answers."""
    assert sorted(ARITY) == make_engine().commands

"""GTP wire rules: command lines, responses, vertices, colours, numbers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.formats.gtp import (
    Command,
    GtpError,
    GtpProtocolError,
    Response,
    format_colour,
    format_command,
    format_move,
    format_response,
    format_vertex,
    parse_colour,
    parse_command,
    parse_float,
    parse_int,
    parse_move,
    parse_response,
    parse_vertex,
    preprocess_line,
)

# --- preprocessing and command lines -------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("play b D4", "play b D4"),
        ("  play b D4  \n", "play b D4"),
        ("play\tb\tD4", "play b D4"),
        ("play b D4 # a comment", "play b D4"),
        ("# only a comment", ""),
        ("", ""),
        ("   \t  ", ""),
        ("pl\x00ay b\x07 D4\r\n", "play b D4"),
        ("play b D4\x7f", "play b D4"),
        ("list\x1b_commands", "list_commands"),
    ],
)
def test_preprocess_line(line: str, expected: str) -> None:
    assert preprocess_line(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("protocol_version", Command(None, "protocol_version")),
        ("12 play b D4", Command(12, "play", ("b", "D4"))),
        ("0 name", Command(0, "name")),
        ("  3\tgenmove   w  # think hard", Command(3, "genmove", ("w",))),
        ("play b\r\n", Command(None, "play", ("b",))),
        ("7", Command(7, "")),
        ("12abc foo", Command(None, "12abc", ("foo",))),
        ("-1 name", Command(None, "-1", ("name",))),
    ],
)
def test_parse_command(line: str, expected: Command) -> None:
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["", "\n", "   ", "# comment", "\t# x", "\x00\x01", "\r\n"])
def test_empty_and_comment_lines_are_ignored(line: str) -> None:
    assert parse_command(line) is None


def test_only_gtp_whitespace_separates_tokens() -> None:
    # A no-break space is an ordinary character in GTP, not a separator.
    assert parse_command("play\xa0b D4") == Command(None, "play\xa0b", ("D4",))


def test_non_ascii_digits_are_not_an_id() -> None:
    assert parse_command("\u0663 name") == Command(None, "\u0663", ("name",))


def test_format_command() -> None:
    assert format_command("play", "b", "D4") == "play b D4"
    assert format_command("name", command_id=5) == "5 name"


@pytest.mark.parametrize("bad", ["", "a b", "x#y", "tab\there", "line\nbreak", "ctl\x01", " lead"])
def test_format_command_rejects_tokens_that_would_not_survive(bad: str) -> None:
    with pytest.raises(ValueError, match="single GTP token"):
        format_command("loadsgf", bad)


def test_format_command_rejects_numeric_names() -> None:
    with pytest.raises(ValueError, match="command id"):
        format_command("42")


# --- responses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ok", "text", "command_id", "expected"),
    [
        (True, "", None, "= \n\n"),
        (True, "2", None, "= 2\n\n"),
        (True, "2", 17, "=17 2\n\n"),
        (False, "unknown command", None, "? unknown command\n\n"),
        (False, "illegal move", 4, "?4 illegal move\n\n"),
        (True, "a\nb\nc", None, "= a\nb\nc\n\n"),
        (True, "a\n\n\nb\n", None, "= a\nb\n\n"),
        (True, "a\n   \nb", None, "= a\nb\n\n"),
        (True, "a\r\nb\r\n", None, "= a\nb\n\n"),
        (True, "\n  A B\n1 . .", None, "= \n  A B\n1 . .\n\n"),
        (True, "bell\x07 ok", None, "= bell ok\n\n"),
    ],
)
def test_format_response(ok: bool, text: str, command_id: int | None, expected: str) -> None:
    assert format_response(ok, text, command_id) == expected


@given(st.text(), st.booleans(), st.none() | st.integers(min_value=0, max_value=10**9))
def test_formatted_response_has_exactly_one_blank_line_at_its_end(
    text: str, ok: bool, command_id: int | None
) -> None:
    response = format_response(ok, text, command_id)
    assert response.endswith("\n\n")
    body = response[:-2]
    assert "\n\n" not in body
    assert all(line.strip() for line in body.split("\n")[1:])
    parsed = parse_response(response)
    assert (parsed.ok, parsed.id) == (ok, command_id)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("= \n\n", Response(True, None, "")),
        ("=", Response(True, None, "")),
        ("= C3\n\n", Response(True, None, "C3")),
        ("=12 C3", Response(True, 12, "C3")),
        ("=12", Response(True, 12, "")),
        ("?3 illegal move\n\n", Response(False, 3, "illegal move")),
        ("? unknown command", Response(False, None, "unknown command")),
        ("= line one\n  line two\n\n", Response(True, None, "line one\n  line two")),
        ("= \n   A B C\n 3 . . .", Response(True, None, "\n   A B C\n 3 . . .")),
        ("\n\n= late\n\n", Response(True, None, "late")),
        ("= windows\r\n\r\n", Response(True, None, "windows")),
        ("=12abc", Response(True, None, "12abc")),
    ],
)
def test_parse_response(raw: str, expected: Response) -> None:
    assert parse_response(raw) == expected


@pytest.mark.parametrize("raw", ["", "\n\n", "hello", "! bang", " = leading space"])
def test_parse_response_rejects_non_gtp(raw: str) -> None:
    with pytest.raises(GtpProtocolError):
        parse_response(raw)


def test_gtp_error_is_a_value_error() -> None:
    assert issubclass(GtpError, ValueError)


# --- vertices -----------------------------------------------------------------------------


def test_written_columns_skip_i_and_name_every_column_of_the_largest_board() -> None:
    letters = [format_vertex((col, 0), 25)[0] for col in range(25)]
    assert letters[7:9] == ["H", "J"] and letters[-1] == "Z"
    assert "I" not in letters and len(set(letters)) == 25


@pytest.mark.parametrize(
    ("text", "vertex"),
    [
        ("A1", (0, 0)),
        ("a1", (0, 0)),
        ("H8", (7, 7)),
        ("J9", (8, 8)),  # the column after H is J
        ("j9", (8, 8)),
        ("T19", (18, 18)),
        ("D4", (3, 3)),
        ("Z25", (24, 24)),
        ("pass", None),
        ("PASS", None),
        ("Pass", None),
    ],
)
def test_parse_vertex(text: str, vertex: tuple[int, int] | None) -> None:
    assert parse_vertex(text) == vertex


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("I5", "skip the letter I"),
        ("i5", "skip the letter I"),
        ("A0", "off every GTP board"),
        ("A26", "off every GTP board"),
        ("5A", "invalid vertex"),
        ("AA1", "invalid vertex"),
        ("A", "invalid vertex"),
        ("", "invalid vertex"),
        ("A-1", "invalid vertex"),
        ("A1.5", "invalid vertex"),
        ("\u00c51", "invalid vertex"),
        ("A\u0663", "invalid vertex"),
        ("resign", "'resign' is a move, not a vertex"),
        ("RESIGN", "'resign' is a move, not a vertex"),
    ],
)
def test_parse_vertex_errors(text: str, message: str) -> None:
    with pytest.raises(GtpError, match=message):
        parse_vertex(text)


def test_parse_vertex_is_size_aware() -> None:
    assert parse_vertex("S19", 19) == (17, 18)
    with pytest.raises(GtpError, match="vertex T20 is off a 19x19 board"):
        parse_vertex("T20", 19)
    with pytest.raises(GtpError, match="vertex K1 is off a 9x9 board"):
        parse_vertex("k1", 9)
    with pytest.raises(GtpError, match="vertex A10 is off a 9x9 board"):
        parse_vertex("A10", 9)
    assert parse_vertex("pass", 9) is None


@pytest.mark.parametrize("size", [0, 26, -1])
def test_impossible_board_sizes_are_programming_errors(size: int) -> None:
    with pytest.raises(ValueError, match="1x1 to 25x25"):
        parse_vertex("A1", size)


@pytest.mark.parametrize("size", [1, 9, 13, 19, 25])
def test_every_vertex_round_trips(size: int) -> None:
    seen = set()
    for col in range(size):
        for row in range(size):
            text = format_vertex((col, row), size)
            assert "I" not in text[0]
            assert parse_vertex(text, size) == (col, row)
            assert parse_vertex(text.lower(), size) == (col, row)
            seen.add(text)
    assert len(seen) == size * size


def test_format_vertex() -> None:
    assert format_vertex((0, 0)) == "A1"
    assert format_vertex((8, 0)) == "J1"
    assert format_vertex((24, 24)) == "Z25"
    assert format_vertex(None) == "pass"
    with pytest.raises(ValueError, match="off a 9x9 board"):
        format_vertex((9, 0), 9)
    with pytest.raises(ValueError, match="off a 25x25 board"):
        format_vertex((0, -1))


def test_moves_allow_resign() -> None:
    assert parse_move("resign") == "resign"
    assert parse_move("Resign") == "resign"
    assert parse_move("pass") is None
    assert parse_move("c3", 9) == (2, 2)
    assert format_move("resign") == "resign"
    assert format_move(None) == "pass"
    assert format_move((2, 2)) == "C3"
    with pytest.raises(GtpError, match="off a 9x9 board"):
        parse_move("Q16", 9)


# --- colours and numbers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "colour"),
    [("b", "b"), ("B", "b"), ("black", "b"), ("BLACK", "b"), ("Black", "b"), ("w", "w"), ("White", "w")],
)
def test_parse_colour(text: str, colour: str) -> None:
    assert parse_colour(text) == colour
    assert format_colour(text) == colour


@pytest.mark.parametrize("text", ["", "x", "blue", "bl", "blackk", "empty", "1"])
def test_parse_colour_errors(text: str) -> None:
    with pytest.raises(GtpError, match="invalid colour"):
        parse_colour(text)
    with pytest.raises(ValueError, match="invalid colour"):
        format_colour(text)


@pytest.mark.parametrize(("text", "value"), [("19", 19), ("+3", 3), ("-2", -2), ("007", 7)])
def test_parse_int(text: str, value: int) -> None:
    assert parse_int(text, "boardsize") == value


@pytest.mark.parametrize("text", ["x", "", "1.5", "1_000", "\u0663", " 1", "0x10", "1e3"])
def test_parse_int_errors(text: str) -> None:
    with pytest.raises(GtpError, match=re.escape(f"boardsize must be an integer, got {text!r}")):
        parse_int(text, "boardsize")


@pytest.mark.parametrize(
    ("text", "value"), [("6.5", 6.5), ("7", 7.0), ("-0.5", -0.5), (".5", 0.5), ("5.", 5.0), ("1e1", 10.0)]
)
def test_parse_float(text: str, value: float) -> None:
    assert parse_float(text, "komi") == value


@pytest.mark.parametrize("text", ["x", "", "nan", "inf", "-inf", "1_0", "1e999", "6,5", "\u0667.5", "."])
def test_parse_float_errors(text: str) -> None:
    with pytest.raises(GtpError, match=re.escape(f"komi must be a number, got {text!r}")):
        parse_float(text, "komi")


def test_komi_message_matches_the_documented_wording() -> None:
    with pytest.raises(GtpError) as info:
        parse_float("x", "komi")
    assert str(info.value) == "komi must be a number, got 'x'"

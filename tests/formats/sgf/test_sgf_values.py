"""Typed property codecs: points and moves (row 0 at the bottom), point lists, numbers, text, compose."""

from __future__ import annotations

from datetime import date

import pytest

from miai.formats.sgf import (
    SgfError,
    decode_colour,
    decode_compose,
    decode_double,
    decode_move,
    decode_number,
    decode_point,
    decode_point_list,
    decode_real,
    decode_simpletext,
    decode_text,
    encode_colour,
    encode_compose,
    encode_dates,
    encode_double,
    encode_move,
    encode_number,
    encode_point,
    encode_point_list,
    encode_real,
    encode_simpletext,
    encode_text,
)


@pytest.mark.parametrize(
    ("value", "size", "point"),
    [
        ("aa", 19, (0, 18)),  # top left
        ("as", 19, (0, 0)),  # bottom left
        ("sa", 19, (18, 18)),  # top right
        ("dp", 19, (3, 3)),  # the lower-left 4-4 point
        ("ee", 9, (4, 4)),
        ("zz", 26, (25, 0)),
        ("AA", 52, (26, 25)),
        ("ZZ", 52, (51, 0)),
        ("aa", 1, (0, 0)),
        ("ca", (5, 3), (2, 2)),  # 5 columns, 3 rows
    ],
)
def test_points(value: str, size: int | tuple[int, int], point: tuple[int, int]) -> None:
    assert decode_point(value, size) == point
    assert encode_point(point, size) == value


@pytest.mark.parametrize(
    ("value", "size"), [("tt", 19), ("ja", 9), ("a", 19), ("abc", 19), ("a1", 19), ("", 19), ("aA", 26)]
)
def test_bad_points(value: str, size: int) -> None:
    with pytest.raises(SgfError, match=r"point \["):
        decode_point(value, size)


@pytest.mark.parametrize("size", [0, 53, (19, 0)])
def test_board_size_outside_sgf(size: int | tuple[int, int]) -> None:
    with pytest.raises(SgfError, match="board size"):
        decode_point("aa", size)


def test_encode_point_off_board() -> None:
    with pytest.raises(SgfError, match="off the 9x9 board"):
        encode_point((9, 0), 9)


def test_moves_and_passes() -> None:
    assert decode_move("", 19) is None
    assert decode_move("tt", 19) is None
    assert decode_move("tt", 9) is None
    assert decode_move("tt", 21) == (19, 1)  # a real point on big boards
    assert decode_move("dd", 19) == (3, 15)
    assert encode_move(None, 19) == ""
    assert encode_move(None, 19, pass_as_tt=True) == "tt"
    assert encode_move((3, 15), 19) == "dd"
    with pytest.raises(SgfError, match="larger than 19"):
        encode_move(None, 21, pass_as_tt=True)


def test_compressed_point_lists() -> None:
    assert decode_point_list(["aa:cb"], 19) == [(0, 18), (1, 18), (2, 18), (0, 17), (1, 17), (2, 17)]
    assert sorted(decode_point_list(["cb:aa"], 19)) == sorted(decode_point_list(["aa:cb"], 19))
    assert decode_point_list(["aa", "aa:ab", "dd"], 19) == [(0, 18), (0, 17), (3, 15)]  # no repeats
    assert decode_point_list([""], 19) == []  # the empty list [] of DD, VW, ...
    assert len(decode_point_list(["aa:ss"], 19)) == 361
    with pytest.raises(SgfError):
        decode_point_list(["aa:zz"], 19)
    assert encode_point_list([(0, 18), (3, 15), (0, 18)], 19) == ["aa", "dd"]
    assert encode_point_list([], 19) == [""]


def test_numbers_and_reals() -> None:
    assert decode_number("19") == 19
    assert decode_number(" -3 ") == -3
    assert decode_number("+2") == 2
    assert encode_number(19) == "19"
    for bad in ["", "1.5", "x", "١٢", "9" * 5000]:  # 5,000 digits: more than int() converts
        with pytest.raises(SgfError, match="invalid number"):
            decode_number(bad)
    assert decode_real("6.5") == 6.5
    assert decode_real("-0.5") == -0.5
    assert decode_real("7") == 7.0
    assert decode_real(".5") == 0.5
    for bad in ["", "1e3", "inf", "6,5", "nan", "9" * 400]:  # 400 digits: infinite as a float
        with pytest.raises(SgfError, match="invalid real"):
            decode_real(bad)
    assert [encode_real(x) for x in (6.5, 7.0, -0.5, 0.0, -0.0, 1e-7, 1e20)] == [
        "6.5",
        "7",
        "-0.5",
        "0",
        "0",
        "0.0000001",
        "100000000000000000000",
    ]
    with pytest.raises(SgfError):
        encode_real(float("nan"))


def test_double_and_colour() -> None:
    assert decode_double("1") == 1 and decode_double("2") == 2
    assert encode_double(2) == "2"
    with pytest.raises(SgfError):
        decode_double("3")
    assert decode_colour("B") == "B" and decode_colour(" w ") == "W"
    assert encode_colour("W") == "W"
    with pytest.raises(SgfError, match="B or W"):
        decode_colour("R")


def test_text_and_simpletext() -> None:
    assert decode_text("a\r\nb\rc\nd\n\re") == "a\nb\nc\nd\ne"
    assert encode_text("a ] \\ b") == "a ] \\ b"  # the writer escapes
    assert decode_simpletext("Lee\r\nSedol\tvs\nGu Li") == "Lee Sedol vs Gu Li"
    assert encode_simpletext("a\nb") == "a b"


def test_compose() -> None:
    assert decode_compose("dd:A label") == ("dd", "A label")
    assert decode_compose("dd:a:b") == ("dd", "a:b")  # split on the first colon
    assert decode_compose(":") == ("", "")
    with pytest.raises(SgfError, match="compose"):
        decode_compose("dd")
    assert encode_compose("dd", "x:y") == "dd:x:y"
    with pytest.raises(SgfError, match="first part"):
        encode_compose("a:b", "c")


def test_dates_are_written_as_ff4_shortens_them() -> None:
    assert encode_dates([date(2025, 3, 9)]) == "2025-03-09"
    days = [date(2026, 1, 2), date(2025, 12, 30), date(2025, 12, 31), date(2026, 2, 5), date(2025, 12, 31)]
    assert encode_dates(days) == "2025-12-30,31,2026-01-02,02-05"  # sorted, once each, shortened
    with pytest.raises(SgfError, match="at least one date"):
        encode_dates([])

"""Typed codecs for SGF property values, working on the unescaped strings a Node holds.

Points are (col, row) with (0, 0) at the BOTTOM left, as on a Go board; SGF counts rows from the top, so
every conversion needs the board size. Escapes and soft line breaks are already resolved by the grammar,
so a compose value splits on its first colon: a first part cannot itself contain one.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Literal

from miai.formats.sgf import limits
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.limits import Budget

Point = tuple[int, int]
BoardSize = int | tuple[int, int]  # a square size, or (columns, rows)
Colour = Literal["B", "W"]

MAX_BOARD_SIZE = 52  # the letters a-z then A-Z
_LETTERS = string.ascii_lowercase + string.ascii_uppercase
_INDEX = {letter: index for index, letter in enumerate(_LETTERS)}
_NUMBER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_LINE_BREAK = re.compile(r"\r\n|\n\r|\r|\n")
_WHITESPACE = re.compile(r"\r\n|\n\r|\s")


def _dimensions(size: BoardSize) -> tuple[int, int]:
    columns, rows = (size, size) if isinstance(size, int) else size
    if not (1 <= columns <= MAX_BOARD_SIZE and 1 <= rows <= MAX_BOARD_SIZE):
        raise SgfError(f"board size {size} is outside what SGF points can name (1 to {MAX_BOARD_SIZE})")
    return columns, rows


# --- points and moves ---


def decode_point(value: str, size: BoardSize) -> Point:
    """SGF `[dp]` -> (col, row), row 0 at the bottom."""
    columns, rows = _dimensions(size)
    text = value.strip()
    if len(text) != 2 or text[0] not in _INDEX or text[1] not in _INDEX:
        raise SgfError(f"invalid point [{value}]: expected two letters a-z or A-Z")
    col, row_from_top = _INDEX[text[0]], _INDEX[text[1]]
    if col >= columns or row_from_top >= rows:
        raise SgfError(f"point [{value}] is off the {columns}x{rows} board")
    return col, rows - 1 - row_from_top


def encode_point(point: Point, size: BoardSize) -> str:
    """(col, row), row 0 at the bottom -> SGF letters, e.g. (3, 3) on 19x19 -> 'dp'."""
    columns, rows = _dimensions(size)
    col, row = point
    if not (0 <= col < columns and 0 <= row < rows):
        raise SgfError(f"point {point} is off the {columns}x{rows} board")
    return _LETTERS[col] + _LETTERS[rows - 1 - row]


def _tt_is_pass(size: BoardSize) -> bool:
    return max(_dimensions(size)) <= 19  # on larger boards 'tt' is a real point


def decode_move(value: str, size: BoardSize) -> Point | None:
    """A move's point, or None for a pass: `[]`, or `[tt]` on boards up to 19x19."""
    text = value.strip()
    if not text or (text == "tt" and _tt_is_pass(size)):
        return None
    return decode_point(text, size)


def encode_move(move: Point | None, size: BoardSize, *, pass_as_tt: bool = False) -> str:
    """A move's value; a pass (None) is `[]` (FF[4]), or `[tt]` if asked, which only boards up to 19 allow."""
    if move is not None:
        return encode_point(move, size)
    if not pass_as_tt:
        return ""
    if not _tt_is_pass(size):
        raise SgfError(f"a pass cannot be written as [tt] on a board larger than 19 ({size})")
    return "tt"


def decode_point_list(values: Iterable[str], size: BoardSize, budget: Budget | None = None) -> list[Point]:
    """Points of a list property, expanding rectangles `[aa:cc]`; `[]` is the empty list.

    The points are a set in file order, never more than the board's: a value repeated is read once, and
    once every point is named, further rectangles are only checked. `budget` pays for each point named."""
    columns, rows = _dimensions(size)
    points: dict[Point, None] = {}  # an ordered set
    for value in dict.fromkeys(values):
        if not value.strip():
            continue
        if ":" not in value:
            point = decode_point(value, size)
            if len(points) < columns * rows:
                if budget is not None:
                    budget.spend(limits.POINT, "its point lists")
                points[point] = None
            continue
        first, second = decode_compose(value)
        (col_a, row_a), (col_b, row_b) = decode_point(first, size), decode_point(second, size)
        if len(points) == columns * rows:
            continue
        if budget is not None:
            area = (abs(col_a - col_b) + 1) * (abs(row_a - row_b) + 1)
            budget.spend(area * limits.POINT, "its point lists")
        for row in range(max(row_a, row_b), min(row_a, row_b) - 1, -1):  # SGF order: top row first
            for col in range(min(col_a, col_b), max(col_a, col_b) + 1):
                points[(col, row)] = None
    return list(points)


def encode_point_list(points: Iterable[Point], size: BoardSize) -> list[str]:
    """One value per point, without repeats; an empty list is the single value `[]`."""
    values = list(dict.fromkeys(encode_point(point, size) for point in points))
    return values or [""]


# --- numbers, colours, text ---


def decode_number(value: str) -> int:
    text = value.strip()
    if not _NUMBER.fullmatch(text):
        raise SgfError(f"invalid number [{value}]: expected an integer such as 19 or -3")
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (sys.int_info): no SGF number is that long
        raise SgfError(f"invalid number [{text[:20]}...]: {len(text)} digits") from None


def encode_number(number: int) -> str:
    return str(int(number))


def decode_real(value: str) -> float:
    text = value.strip()
    if not _REAL.fullmatch(text):
        raise SgfError(f"invalid real number [{value}]: expected a decimal such as 6.5")
    number = float(text)
    if not math.isfinite(number):  # 400 digits and more are infinite as a float
        raise SgfError(f"invalid real number [{text[:20]}...]: too large")
    return number


def encode_real(number: float) -> str:
    """Plain decimal notation (SGF has no exponents), as short as the float allows: 6.5, 7, 0.0001."""
    if not math.isfinite(number):
        raise SgfError(f"a real value must be finite, not {number}")
    if number == 0:
        return "0"
    text = format(Decimal(repr(float(number))), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def decode_double(value: str) -> Literal[1, 2]:
    """SGF Double: 1 = normal, 2 = emphasised (as in GB[2], 'very good for black')."""
    text = value.strip()
    if text == "1":
        return 1
    if text == "2":
        return 2
    raise SgfError(f"invalid double [{value}]: expected 1 or 2")


def encode_double(value: Literal[1, 2]) -> str:
    if value not in (1, 2):
        raise SgfError(f"a double is 1 or 2, not {value}")
    return str(value)


def decode_colour(value: str) -> Colour:
    text = value.strip().upper()
    if text == "B":
        return "B"
    if text == "W":
        return "W"
    raise SgfError(f"invalid colour [{value}]: expected B or W")


def encode_colour(colour: Colour) -> str:
    if colour not in ("B", "W"):
        raise SgfError(f"an SGF colour is B or W, not {colour!r}")
    return colour


def decode_text(value: str) -> str:
    """SGF Text: line breaks (CR LF, LF CR, CR, LF) become '\\n'; soft breaks are already gone."""
    return _LINE_BREAK.sub("\n", value)


def encode_text(text: str) -> str:
    return text  # the writer escapes ']' and '\\'; line breaks are written as they are


def decode_simpletext(value: str) -> str:
    """SGF SimpleText: every line break or other whitespace character reads as one space."""
    return _WHITESPACE.sub(" ", value)


def encode_simpletext(text: str) -> str:
    return _WHITESPACE.sub(" ", text)


# --- dates ---


def encode_dates(days: Iterable[date]) -> str:
    """DT as FF[4] writes the days a game was played: ISO dates, sorted, joined by commas, each one
    shortened to what differs from the one before (`2025-12-30,31,2026-01-02,02-05`)."""
    out: list[str] = []
    previous: date | None = None
    for day in sorted(set(days)):
        if previous is None or previous.year != day.year:
            out.append(day.isoformat())
        elif previous.month != day.month:
            out.append(f"{day.month:02d}-{day.day:02d}")
        else:
            out.append(f"{day.day:02d}")
        previous = day
    if not out:
        raise SgfError("DT needs at least one date")
    return ",".join(out)


# --- compose values ---


def decode_compose(value: str) -> tuple[str, str]:
    """`a:b` -> ('a', 'b'), split on the first colon (escaped colons were resolved when reading)."""
    first, colon, second = value.partition(":")
    if not colon:
        raise SgfError(f"invalid compose value [{value}]: expected two parts separated by ':'")
    return first, second


def encode_compose(first: str, second: str) -> str:
    if ":" in first:
        raise SgfError(f"the first part of a compose value cannot contain ':' ({first!r})")
    return f"{first}:{second}"

"""GTP vertex notation for Go and Tanbo points: columns A..Z without I, row 1 at the bottom (SPEC §1.12)."""

from __future__ import annotations

from miai.core.go.moves import PASS, RESIGN, Move, Place

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def format_point(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return f"{LETTERS[col]}{row + 1}"


def parse_point(text: str, size: int) -> int:
    """'D4' (any case, surrounding spaces ignored) -> point; ValueError with a clear message otherwise."""
    vertex = text.strip().upper()
    if len(vertex) < 2 or vertex[0] not in LETTERS or not (vertex[1:].isascii() and vertex[1:].isdigit()):
        raise ValueError(f"{text.strip()!r} is not a vertex like D4 (columns A-Z without I, rows from 1)")
    col, row = LETTERS.index(vertex[0]), int(vertex[1:]) - 1
    if not (col < size and 0 <= row < size):
        raise ValueError(f"{vertex} is off a {size}x{size} board")
    return row * size + col


def parse_move(text: str, size: int) -> Move:
    word = text.strip().lower()
    if word == "pass":
        return PASS
    if word == "resign":
        return RESIGN
    return Place(parse_point(text, size))


def format_move(move: Move, size: int) -> str:
    if isinstance(move, Place):
        return format_point(move.point, size)
    return type(move).__name__.lower()

"""GTP version 2 wire rules: command lines, responses, vertices, colours and numbers.

Everything here is pure string handling, so engines, controllers and tests share one
definition of what is on the wire.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "COLUMNS",
    "MAX_BOARD_SIZE",
    "RESIGN",
    "Colour",
    "Command",
    "GtpError",
    "GtpProtocolError",
    "Move",
    "Response",
    "Vertex",
    "format_colour",
    "format_command",
    "format_move",
    "format_response",
    "format_vertex",
    "parse_colour",
    "parse_command",
    "parse_float",
    "parse_int",
    "parse_move",
    "parse_response",
    "parse_vertex",
    "preprocess_line",
]

# GTP column letters skip "I" (too easily confused with "J"), which caps boards at 25x25.
COLUMNS: Final = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MAX_BOARD_SIZE: Final = len(COLUMNS)
RESIGN: Final = "resign"

Vertex = tuple[int, int]
"""(col, row), both 0-based, row 0 at the bottom (GTP row 1)."""
Move = Vertex | None | Literal["resign"]
"""What an engine may answer to genmove: a vertex, None for pass, or "resign"."""
Colour = Literal["b", "w"]


class GtpError(ValueError):
    """A failure that is answered on the wire with '?' and the exception's message."""


class GtpProtocolError(ValueError):
    """The peer sent something that is not valid GTP (e.g. a response without '=' or '?')."""


# Only ASCII control characters: GTP predates Unicode and C1 codes may be part of UTF-8 text.
_CONTROL_EXCEPT_HT_LF = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SEPARATORS = re.compile(r"[ \n]+")
_ASCII_DIGITS = re.compile(r"[0-9]+")


def preprocess_line(line: str) -> str:
    """Apply the GTP input rules: drop control chars (but HT, LF), HT -> space, cut comments, strip."""
    line = _CONTROL_EXCEPT_HT_LF.sub("", line).replace("\t", " ")
    line = line.split("#", 1)[0]
    # Strip only GTP whitespace; other Unicode spaces are ordinary characters on the wire.
    return line.strip(" \n")


@dataclass(frozen=True)
class Command:
    """One parsed command line. `name` is "" when the line held only an id."""

    id: int | None
    name: str
    args: tuple[str, ...] = ()


def parse_command(line: str) -> Command | None:
    """Parse a command line; None for lines that are empty once preprocessed."""
    text = preprocess_line(line)
    if not text:
        return None
    tokens = _SEPARATORS.split(text)
    command_id: int | None = None
    if _ASCII_DIGITS.fullmatch(tokens[0]):
        command_id = int(tokens.pop(0))
    if not tokens:
        return Command(command_id, "")
    return Command(command_id, tokens[0], tuple(tokens[1:]))


def format_command(name: str, *args: str, command_id: int | None = None) -> str:
    """Build one command line (without newline); refuse tokens that would not survive the wire."""
    for token in (name, *args):
        if not token or preprocess_line(token) != token or _SEPARATORS.search(token):
            raise ValueError(f"cannot send {token!r} as a single GTP token")
    if _ASCII_DIGITS.fullmatch(name):
        raise ValueError(f"command name {name!r} would be read as a command id")
    prefix = "" if command_id is None else f"{command_id} "
    return prefix + " ".join((name, *args))


def format_response(ok: bool, text: str = "", command_id: int | None = None) -> str:
    """Format a full response, ending with the blank line that terminates it."""
    text = _CONTROL_EXCEPT_HT_LF.sub("", text.replace("\r\n", "\n"))
    first, *rest = text.split("\n")
    # A blank line would end the response early; the first line may be empty (e.g. showboard).
    lines = [first.rstrip(), *(line.rstrip() for line in rest if line.strip())]
    body = "\n".join(lines)
    return f"{'=' if ok else '?'}{'' if command_id is None else command_id} {body}\n\n"


@dataclass(frozen=True)
class Response:
    """One response read from an engine; `text` keeps multi-line results."""

    ok: bool
    id: int | None
    text: str


_RESPONSE_HEAD = re.compile(r"([=?])([0-9]+(?=[ \t]|$))?[ \t]*(.*)", re.DOTALL)


def parse_response(text: str) -> Response:
    """Parse one response (its lines, with or without the terminating blank line)."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)  # stray blank lines before a response are harmless
    if not lines:
        raise GtpProtocolError("empty response")
    match = _RESPONSE_HEAD.fullmatch(lines[0])
    if match is None:
        raise GtpProtocolError(f"response does not start with '=' or '?': {lines[0][:80]!r}")
    status, digits, first = match.groups()
    body = "\n".join([first, *lines[1:]]).rstrip()
    return Response(status == "=", None if digits is None else int(digits), body)


def _check_size(size: int | None) -> int:
    if size is None:
        return MAX_BOARD_SIZE
    if not 1 <= size <= MAX_BOARD_SIZE:
        raise ValueError(f"GTP boards are 1x1 to {MAX_BOARD_SIZE}x{MAX_BOARD_SIZE}, not {size}x{size}")
    return size


_VERTEX = re.compile(r"([A-Za-z])([0-9]{1,3})")


def parse_vertex(text: str, size: int | None = None) -> Vertex | None:
    """Parse a GTP vertex ("D4", "pass") into (col, row) 0-based from the bottom, None for pass."""
    board = _check_size(size)
    lowered = text.lower()
    if lowered == "pass":
        return None
    if lowered == RESIGN:
        raise GtpError("'resign' is a move, not a vertex")
    match = _VERTEX.fullmatch(text)
    if match is None:
        raise GtpError(f"invalid vertex {text!r}")
    letter, digits = match.group(1).upper(), match.group(2)
    if letter == "I":
        raise GtpError(f"invalid vertex {text!r}: GTP columns skip the letter I")
    col, row = COLUMNS.index(letter), int(digits) - 1
    if row < 0 or col >= board or row >= board:
        where = f"a {board}x{board} board" if size is not None else "every GTP board (max 25x25)"
        raise GtpError(f"vertex {letter}{digits} is off {where}")
    return col, row


def format_vertex(vertex: Vertex | None, size: int | None = None) -> str:
    """Format (col, row) as "D4", None as "pass"; a vertex off the board is a programming error."""
    if vertex is None:
        return "pass"
    board = _check_size(size)
    col, row = vertex
    if not (0 <= col < board and 0 <= row < board):
        raise ValueError(f"vertex {vertex!r} is off a {board}x{board} board")
    return f"{COLUMNS[col]}{row + 1}"


def parse_move(text: str, size: int | None = None) -> Move:
    """Like parse_vertex, but "resign" is allowed (genmove answers)."""
    if text.lower() == RESIGN:
        return RESIGN
    return parse_vertex(text, size)


def format_move(move: Move, size: int | None = None) -> str:
    return RESIGN if move == RESIGN else format_vertex(move, size)


_COLOURS: Final[dict[str, Colour]] = {"b": "b", "black": "b", "w": "w", "white": "w"}


def parse_colour(text: str) -> Colour:
    """Parse "b", "black", "w" or "white" in any case into "b" or "w"."""
    colour = _COLOURS.get(text.lower())
    if colour is None:
        raise GtpError(f"invalid colour {text!r} (expected b, black, w or white)")
    return colour


def format_colour(colour: str) -> str:
    """Normalise any accepted spelling to the short wire form ("b" or "w")."""
    try:
        return parse_colour(colour)
    except GtpError as exc:
        raise ValueError(str(exc)) from None


# ASCII only: Python's int()/float() also accept "1_000", Arabic-Indic digits, "nan", "inf".
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_int(text: str, what: str = "argument") -> int:
    """Parse an integer argument; `what` names it in the error ("boardsize must be an integer, ...")."""
    if not _INT.fullmatch(text):
        raise GtpError(f"{what} must be an integer, got {text!r}")
    return int(text)


def parse_float(text: str, what: str = "argument") -> float:
    """Parse a finite real-number argument ("komi must be a number, got 'x'")."""
    value = float(text) if _FLOAT.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise GtpError(f"{what} must be a number, got {text!r}")
    return value

"""SPEC-style ASCII diagrams for Amazons, Hex and Tanbo tests: read them into positions, compare boards.

Every diagram has one line per board row that starts with the row number, and a line of column letters.
Amazons and Tanbo number rows from the bottom (the first line is the top row); Hex numbers them from the top.
Marks `+` and `*` are empty points a test can point at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from textwrap import dedent

from miai.core import amazons, hex, tanbo


@dataclass
class Grid:
    size: int
    symbols: dict[tuple[int, int], str] = field(default_factory=dict)  # (col, row number) -> symbol

    def where(self, *wanted: str) -> list[tuple[int, int]]:
        return sorted(at for at, symbol in self.symbols.items() if symbol in wanted)


def read_grid(text: str) -> Grid:
    rows: dict[int, list[str]] = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            rows[int(parts[0])] = parts[1:]
    size = len(rows)
    if sorted(rows) != list(range(1, size + 1)) or any(len(cells) != size for cells in rows.values()):
        raise ValueError(f"not a square diagram:\n{text}")
    grid = Grid(size)
    for number, cells in rows.items():
        for col, symbol in enumerate(cells):
            grid.symbols[(col, number)] = symbol
    return grid


def board_text(text: str) -> str:
    """A diagram as the cores print it: marks become empty points, margins and trailing blanks go."""
    lines = [line.rstrip() for line in dedent(text).strip("\n").splitlines()]
    return "\n".join(line.replace("+", ".").replace("*", ".") for line in lines)


def same_board(state: amazons.AmazonsState | hex.HexState | tanbo.TanboState, expected: str) -> None:
    want = board_text(expected)
    got = state.diagram()
    assert got == want, f"\ngot:\n{got}\nexpected:\n{want}"


# --- Amazons: rank numbers from the bottom, W / B queens, x arrows


def amazons_position(text: str, to_move: int = amazons.WHITE) -> amazons.AmazonsState:
    grid = read_grid(text)
    n = grid.size

    def points(symbol: str) -> list[int]:
        return [(rank - 1) * n + col for col, rank in grid.where(symbol)]

    return amazons.new_game(n, points("W"), points("B"), points("x"), to_move)


# --- Hex: row numbers from the top, X = player 0 (vertical), O = player 1


def hex_setup(text: str) -> tuple[int, dict[int, int]]:
    grid = read_grid(text)
    n = grid.size
    setup = {(row - 1) * n + col: 0 for col, row in grid.where("X")}
    setup.update({(row - 1) * n + col: 1 for col, row in grid.where("O")})
    return n, setup


# --- Tanbo: row numbers from the bottom, X = Black (player 0), O = White


def tanbo_position(text: str, to_move: int = tanbo.BLACK, cap: int = tanbo.CAP) -> tanbo.TanboState:
    grid = read_grid(text)
    n = grid.size
    setup = {(row - 1) * n + col: 0 for col, row in grid.where("X")}
    setup.update({(row - 1) * n + col: 1 for col, row in grid.where("O")})
    return tanbo.new_game(n, setup, to_move, cap)


def marked(text: str, *marks: str) -> list[str]:
    """The GTP vertices of the marked points of a bottom-numbered diagram, sorted."""
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    return sorted(f"{letters[col]}{row}" for col, row in read_grid(text).where(*marks))

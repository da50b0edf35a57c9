"""ASCII board diagrams as in SPEC.md: rows numbered from the top down to 1, GTP letters below.

    5 . . . . .
    4 . X O . .
    3 X O . O .
    2 . X O . .
    1 . . . . .
      A B C D E

Stones are `X` (colour 0), `O` (colour 1), then `R S T U V W Y Z ...` for further colours; `.`, `+`, `*` and
`,` are empty points (`+` and `*` are kept as marks so a test can point at them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from miai.core.go.board import geometry
from miai.core.go.game import GoState

SYMBOLS = "XORSTUVWYZQKLMNP"
EMPTY_MARKS = ".+*,"
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


@dataclass
class Diagram:
    size: int
    stones: dict[int, int] = field(default_factory=dict)  # point -> colour
    marks: dict[int, str] = field(default_factory=dict)  # point -> '+' or '*'

    def point(self, vertex: str) -> int:
        """The point of a GTP vertex such as 'C3' on this diagram's board."""
        col = GTP_LETTERS.index(vertex[0].upper())
        return geometry(self.size).point(col, int(vertex[1:]) - 1)


def parse_diagram(text: str) -> Diagram:
    rows: dict[int, list[str]] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts or not parts[0].isdigit():
            continue
        rows[int(parts[0])] = parts[1:]
    if not rows:
        raise ValueError("no board rows found in the diagram")
    size = max(rows)
    if sorted(rows) != list(range(1, size + 1)) or any(len(r) != size for r in rows.values()):
        raise ValueError(f"the diagram is not a square {size}x{size} board")
    diagram = Diagram(size)
    geo = geometry(size)
    for row_number, cells in rows.items():
        for col, symbol in enumerate(cells):
            p = geo.point(col, row_number - 1)
            if symbol in EMPTY_MARKS:
                if symbol in "+*":
                    diagram.marks[p] = symbol
            elif symbol in SYMBOLS:
                diagram.stones[p] = SYMBOLS.index(symbol)
            else:
                raise ValueError(f"unknown symbol {symbol!r} in row {row_number}")
    return diagram


def render(state: GoState) -> str:
    """The state's board as a diagram in the same format parse_diagram reads."""
    size = state.size
    board = state.board()
    width = len(str(size))
    lines = []
    for row in range(size - 1, -1, -1):
        cells = [SYMBOLS[c] if (c := board[row * size + col]) is not None else "." for col in range(size)]
        lines.append(f"{row + 1:>{width}} " + " ".join(cells))
    lines.append(" " * (width + 1) + " ".join(GTP_LETTERS[:size]))
    return "\n".join(lines)

"""A deliberately naive Amazons, written straight from SPEC §2.1, to check the core against.

Pieces live in a dict keyed by (file, rank); moves are found by stepping in the 8 directions one square at
a time. Nothing is shared with miai.core.
"""

from __future__ import annotations

from dataclasses import dataclass

STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
Square = tuple[int, int]


def name(square: Square) -> str:
    return f"{'abcdefghijklmnopqrstuvwxyz'[square[0]]}{square[1] + 1}"


@dataclass(frozen=True)
class RefAmazons:
    size: int
    pieces: tuple[tuple[Square, str], ...]  # (square, 'W' | 'B' | 'x'), sorted
    mover: str  # 'W' or 'B'

    @staticmethod
    def start(size: int, white: list[str], black: list[str], arrows: list[str], mover: str) -> RefAmazons:
        def sq(text: str) -> Square:
            return ("abcdefghijklmnopqrstuvwxyz".index(text[0]), int(text[1:]) - 1)

        pieces = {sq(s): "W" for s in white} | {sq(s): "B" for s in black} | {sq(s): "x" for s in arrows}
        return RefAmazons(size, tuple(sorted(pieces.items())), mover)

    def slides(self, board: dict[Square, str], origin: Square) -> list[Square]:
        out = []
        for dx, dy in STEPS:
            x, y = origin[0] + dx, origin[1] + dy
            while 0 <= x < self.size and 0 <= y < self.size and (x, y) not in board:
                out.append((x, y))
                x, y = x + dx, y + dy
        return out

    def children(self) -> dict[str, RefAmazons]:
        board = dict(self.pieces)
        out = {}
        for square, piece in self.pieces:
            if piece != self.mover:
                continue
            for to in self.slides(board, square):
                moved = {s: p for s, p in board.items() if s != square}
                moved[to] = piece
                for arrow in self.slides(moved, to):
                    after = dict(moved)
                    after[arrow] = "x"
                    text = f"{name(square)}-{name(to)}/{name(arrow)}"
                    out[text] = RefAmazons(
                        self.size, tuple(sorted(after.items())), "B" if self.mover == "W" else "W"
                    )
        return out

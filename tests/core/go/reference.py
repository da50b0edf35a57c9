"""A deliberately naive two-colour Go, written straight from SPEC §1.5-§1.7, to check the fast core against.

Boards are tuples; groups are found by flood fill every time; histories are plain lists. No code is shared
with miai.core except the move and rule enums.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.core.go import KoRule

Board = tuple[int | None, ...]


def neighbours(size: int, p: int) -> list[int]:
    row, col = divmod(p, size)
    out = []
    if row > 0:
        out.append(p - size)
    if row < size - 1:
        out.append(p + size)
    if col > 0:
        out.append(p - 1)
    if col < size - 1:
        out.append(p + 1)
    return out


def group_and_liberties(board: Board, size: int, p: int) -> tuple[set[int], set[int]]:
    colour = board[p]
    group, libs, todo = {p}, set(), [p]
    while todo:
        q = todo.pop()
        for n in neighbours(size, q):
            if board[n] is None:
                libs.add(n)
            elif board[n] == colour and n not in group:
                group.add(n)
                todo.append(n)
    return group, libs


def resolve(board: Board, size: int, colour: int, p: int) -> Board | None:
    """The board after `colour` plays at p, or None when occupied or suicide."""
    if board[p] is not None:
        return None
    cells = list(board)
    cells[p] = colour
    for n in neighbours(size, p):
        if cells[n] is not None and cells[n] != colour:
            group, libs = group_and_liberties(tuple(cells), size, n)
            if not libs:
                for q in group:
                    cells[q] = None
    _, libs = group_and_liberties(tuple(cells), size, p)
    return tuple(cells) if libs else None


@dataclass(frozen=True)
class RefGame:
    size: int
    ko: KoRule
    board: Board
    to_move: int
    previous: Board  # the board before the most recent turn (basic ko)
    seen: tuple[tuple[Board, int], ...]  # (board, colour that made it, by play or pass); start: 1 - first
    passes: int = 0

    @staticmethod
    def start(size: int, ko: KoRule, to_move: int = 0) -> RefGame:
        empty: Board = (None,) * (size * size)
        return RefGame(size, ko, empty, to_move, empty, ((empty, 1 - to_move),))

    @property
    def over(self) -> bool:
        return self.passes >= 2

    def children(self) -> dict[str, RefGame]:
        """Every legal move ('pass' or a point number) with the game after it."""
        if self.over:
            return {}
        # SPEC G3: under situational superko a pass adds its situation (same board, other colour to move).
        passed = (*self.seen, (self.board, self.to_move)) if self.ko is KoRule.SITUATIONAL else self.seen
        out: dict[str, RefGame] = {
            "pass": RefGame(
                self.size, self.ko, self.board, 1 - self.to_move, self.board, passed, self.passes + 1
            )
        }
        for p in range(self.size * self.size):
            board = resolve(self.board, self.size, self.to_move, p)
            if board is None or not self._ko_ok(board):
                continue
            seen = (*self.seen, (board, self.to_move))
            out[str(p)] = RefGame(self.size, self.ko, board, 1 - self.to_move, self.board, seen, 0)
        return out

    def _ko_ok(self, board: Board) -> bool:
        if self.ko is KoRule.SIMPLE:
            return board != self.previous
        if self.ko is KoRule.POSITIONAL:
            return all(board != b for b, _ in self.seen)
        return (board, self.to_move) not in self.seen


def perft(game: RefGame, depth: int) -> int:
    if depth == 0 or game.over:
        return 1
    return sum(perft(child, depth - 1) for child in game.children().values())

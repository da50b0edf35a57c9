"""A deliberately naive Hex, written straight from SPEC §3, to check the core against.

The board is a dict {(col, row): player}; after every stone the whole board is searched from the mover's
first edge (not from the new stone, as the core does). Nothing is shared with miai.core.
"""

from __future__ import annotations

from dataclasses import dataclass

LETTERS = "abcdefghijklmnopqrstuvwxyz"
Cell = tuple[int, int]


def adjacent(a: Cell, b: Cell) -> bool:
    dc, dr = b[0] - a[0], b[1] - a[1]
    return (dc, dr) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


def connects(size: int, board: dict[Cell, int], player: int) -> bool:
    """Flood fill from every stone of `player` on their first edge; do we reach the opposite edge?"""
    mine = [cell for cell, owner in board.items() if owner == player]
    axis = 1 if player == 0 else 0  # player 0 joins rows, player 1 joins columns
    frontier = [cell for cell in mine if cell[axis] == 0]
    reached = set(frontier)
    while frontier:
        cell = frontier.pop()
        if cell[axis] == size - 1:
            return True
        for other in mine:
            if other not in reached and adjacent(cell, other):
                reached.add(other)
                frontier.append(other)
    return False


@dataclass(frozen=True)
class RefHex:
    size: int
    rule: str  # 'swap' | 'centre_row_ban' | 'none'
    board: tuple[tuple[Cell, int], ...]
    mover: int
    history: tuple[str, ...] = ()
    over: bool = False

    def children(self) -> dict[str, RefHex]:
        if self.over:
            return {}
        board = dict(self.board)
        out = {}
        for row in range(self.size):
            if self.rule == "centre_row_ban" and not self.history and row == (self.size + 1) // 2 - 1:
                continue
            for col in range(self.size):
                if (col, row) in board:
                    continue
                after = dict(board)
                after[(col, row)] = self.mover
                text = f"{LETTERS[col]}{row + 1}"
                out[text] = self._next(after, 1 - self.mover, text)
        if self.rule == "swap" and len(self.history) == 1:
            ((col, row), _) = self.board[0]
            out["swap"] = self._next({(row, col): 1}, 0, "swap")
        return out

    def _next(self, board: dict[Cell, int], mover: int, text: str) -> RefHex:
        won = connects(self.size, board, self.mover if text != "swap" else 1)
        return RefHex(self.size, self.rule, tuple(sorted(board.items())), mover, (*self.history, text), won)

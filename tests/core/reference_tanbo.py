"""A deliberately naive Tanbo, written straight from SPEC §4.2-§4.4 and T5, to check the core against.

After every stone the whole board is split into roots by flood fill and every root is tested for a root
liberty; the core only looks near the new stone. Nothing is shared with miai.core.
"""

from __future__ import annotations

from dataclasses import dataclass

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
Point = tuple[int, int]  # (col, row), row 0 at the bottom


def around(size: int, p: Point) -> list[Point]:
    c, r = p
    return [
        (x, y) for x, y in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)) if 0 <= x < size and 0 <= y < size
    ]


def friendly_count(size: int, board: dict[Point, int], p: Point, colour: int) -> int:
    return sum(1 for q in around(size, p) if board.get(q) == colour)


def roots(size: int, board: dict[Point, int]) -> list[set[Point]]:
    seen: set[Point] = set()
    out = []
    for start, colour in board.items():
        if start in seen:
            continue
        root, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in around(size, p):
                if board.get(q) == colour and q not in root:
                    root.add(q)
                    todo.append(q)
        seen |= root
        out.append(root)
    return out


def bounded(size: int, board: dict[Point, int], root: set[Point]) -> bool:
    colour = board[next(iter(root))]
    for p in root:
        for q in around(size, p):
            if q not in board and friendly_count(size, board, q, colour) == 1:
                return False
    return True


@dataclass(frozen=True)
class RefTanbo:
    size: int
    board: tuple[tuple[Point, int], ...]
    mover: int
    plies: int = 0
    cap: int = 2000
    over: bool = False

    def children(self) -> dict[str, RefTanbo]:
        if self.over:
            return {}
        board = dict(self.board)
        out = {}
        for row in range(self.size):
            for col in range(self.size):
                p = (col, row)
                if p in board or friendly_count(self.size, board, p, self.mover) != 1:
                    continue
                out[f"{LETTERS[col]}{row + 1}"] = self._after(board, p)
        return out

    def _after(self, board: dict[Point, int], p: Point) -> RefTanbo:
        after = dict(board)
        after[p] = self.mover
        all_roots = roots(self.size, after)
        current = next(root for root in all_roots if p in root)
        if bounded(self.size, after, current):
            doomed = current
        else:
            doomed = set().union(*(root for root in all_roots if bounded(self.size, after, root)))
        for q in doomed:
            del after[q]
        colours = set(after.values())
        over = len(colours) < 2 or self.plies + 1 >= self.cap
        return RefTanbo(
            self.size, tuple(sorted(after.items())), 1 - self.mover, self.plies + 1, self.cap, over
        )

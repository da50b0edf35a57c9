"""Board geometry and Zobrist keys.

Points are ints `row * size + col` (row 0 at the bottom, as in GTP). Neighbour tuples are precomputed per
size, so no padding or edge checks are needed in the hot loop.
"""

from __future__ import annotations

from functools import cache

MASK64 = (1 << 64) - 1


class Geometry:
    """Everything about an N×N board that never changes: neighbours and point names."""

    __slots__ = ("n2", "neighbours", "points", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.n2 = size * size
        self.points = range(size * size)
        neighbours: list[tuple[int, ...]] = []
        for p in self.points:
            row, col = divmod(p, size)
            around = []
            if row > 0:
                around.append(p - size)
            if col > 0:
                around.append(p - 1)
            if col < size - 1:
                around.append(p + 1)
            if row < size - 1:
                around.append(p + size)
            neighbours.append(tuple(around))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)

    def point(self, col: int, row: int) -> int:
        if not (0 <= col < self.size and 0 <= row < self.size):
            raise ValueError(f"({col}, {row}) is off a {self.size}x{self.size} board")
        return row * self.size + col

    def col_row(self, point: int) -> tuple[int, int]:
        row, col = divmod(point, self.size)
        return col, row

    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The 8 board symmetries as point permutations (identity first)."""
        n = self.size - 1

        def image(p: int, k: int) -> int:
            c, r = self.col_row(p)
            if k & 4:
                c, r = r, c
            if k & 1:
                c = n - c
            if k & 2:
                r = n - r
            return self.point(c, r)

        return tuple(tuple(image(p, k) for p in self.points) for k in range(8))


@cache
def geometry(size: int) -> Geometry:
    return Geometry(size)


def _splitmix64(seed: int) -> tuple[int, int]:
    seed = (seed + 0x9E3779B97F4A7C15) & MASK64
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return seed, z ^ (z >> 31)


def _zobrist_tables(colours: int, points: int, seed: int) -> tuple[tuple[int, ...], ...]:
    tables = []
    state = seed
    for _ in range(colours):
        row = []
        for _ in range(points):
            state, value = _splitmix64(state)
            row.append(value)
        tables.append(tuple(row))
    return tuple(tables)


MAX_POINTS = 25 * 25
MAX_ZOBRIST_COLOURS = 16
# ZOBRIST[colour][point]: a fixed pseudo-random table, the same in every process (no global randomness).
ZOBRIST = _zobrist_tables(MAX_ZOBRIST_COLOURS, MAX_POINTS, 0x4D69616920476F21)
# Keys mixed in for situational superko: the position plus the colour that made it, by a play or a pass.
# Situational superko is for two colours only (G2), where that colour fixes the colour to move next.
SITUATION = _zobrist_tables(1, MAX_ZOBRIST_COLOURS, 0x5349545541544E21)[0]


def hash_stones(stones: dict[int, int]) -> int:
    """Zobrist hash of a position computed from scratch (point -> colour)."""
    h = 0
    for point, colour in stones.items():
        h ^= ZOBRIST[colour][point]
    return h

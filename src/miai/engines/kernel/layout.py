"""Memory layout of the kernel's Go board: one int32 array per position, so a playout starts with one copy.

Every board size uses the same padded geometry, a 27×27 frame (25 + a border on each side), so that all
offsets below are compile-time constants and the neighbours of a point are simply `p ± 1` and `p ± W`.
A board point `row * size + col` of the core (row 0 at the bottom) is the padded point
`(row + 1) * W + col + 1`. The array holds:

    b[0:HDR]                header fields, the H_* indices below
    b[COL + q]              colour at padded point q: 0..15, EMPTY or OFF (outside the board)
    b[HEAD + q]             head stone of the chain through q
    b[NEXT + q]             next stone of the chain (circular list, so merging is O(1))
    b[LIBS + h]             pseudo-liberties of the chain with head h ((stone, empty neighbour) pairs)
    b[SIZE + h]             stones in the chain with head h
    b[EMPTIES + i]          the empty board points, in no particular order (i < b[H_N_EMPTY])
    b[EPOS + q]             index of q in the empty list, -1 when occupied

Hashes live beside it in a uint64 array `hz = [hash, previous hash]`, with the core's Zobrist keys.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from miai.core.go.board import SITUATION, ZOBRIST

W = 27
P = W * W
MAX_SIZE = W - 2
MAX_COLOURS = 16
EMPTY = -1
OFF = -2
PASS = -1  # the move code of a pass; placements are padded points (always > 0)

HDR = 64
COL = HDR
HEAD = COL + P
NEXT = HEAD + P
LIBS = NEXT + P
SIZE = LIBS + P
EMPTIES = SIZE + P
EPOS = EMPTIES + P
LENGTH = EPOS + P

# Header fields.
H_SIZE = 0
H_COLOURS = 1
H_TO_MOVE = 2
H_KO_POINT = 3  # playout ko: the point the colour H_KO_COLOUR may not retake on its next move
H_KO_COLOUR = 4
H_PASSES = 5
H_N_EMPTY = 6
H_ACTIVE = 7  # bit mask of the colours still in play
H_N_ACTIVE = 8
H_SUICIDE = 9  # 1: multi-stone suicide allowed
H_KO_RULE = 10  # KO_SIMPLE, KO_POSITIONAL or KO_SITUATIONAL
H_PLIES_LEFT = 11  # plies until the move limit, -1 without one
H_LAST = 12  # last move (padded point or PASS), -2 at the start
H_LAST2 = 13
H_CAPTURE_POINTS = 14  # 1: captures count in the score
H_AS_IS = 15  # 1: a game ended by passes is scored as it stands (every stone alive)
H_CAPTURED = 16  # 16 fields: stones captured by each colour

KO_SIMPLE = 0
KO_POSITIONAL = 1
KO_SITUATIONAL = 2

NO_MOVE = -2

Int32Array = npt.NDArray[np.int32]
UInt64Array = npt.NDArray[np.uint64]
Float64Array = npt.NDArray[np.float64]


def padded(point: int, size: int) -> int:
    row, col = divmod(point, size)
    return (row + 1) * W + col + 1


def unpadded(q: int, size: int) -> int:
    row, col = divmod(q, W)
    return (row - 1) * size + col - 1


def board_points(size: int) -> list[int]:
    """The padded points of an N×N board, in the core's point order."""
    return [padded(p, size) for p in range(size * size)]


def _zobrist_array() -> UInt64Array:
    """ZOBRIST[colour][point] of the core, re-indexed by padded point for every board size.

    The core indexes by `row * size + col`, so a padded point maps to a different core point on each
    size; the kernel therefore keeps one table per size, built on demand by `zobrist_for`.
    """
    return np.array(ZOBRIST, dtype=np.uint64)


_CORE_ZOBRIST = _zobrist_array()
_BY_SIZE: dict[int, UInt64Array] = {}
SITUATION_KEYS: UInt64Array = np.array(SITUATION, dtype=np.uint64)


def zobrist_for(size: int) -> UInt64Array:
    """Zobrist keys [colour, padded point] matching `miai.core.go.board.ZOBRIST` on an N×N board."""
    table = _BY_SIZE.get(size)
    if table is None:
        table = np.zeros((MAX_COLOURS, P), dtype=np.uint64)
        for p in range(size * size):
            table[:, padded(p, size)] = _CORE_ZOBRIST[:, p]
        table.setflags(write=False)
        _BY_SIZE[size] = table
    return table

"""Amazons rules on flat arrays for compiled code: cells as int8 (0 empty, 1/2 a queen of player 0/1,
3 an arrow, as `miai.core.amazons`), squares `row * size + col`, a move packed in one int64.

`RAYS[p, d, k]` is the k-th square from p in direction d (-1 past the edge), built once per size.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from miai.engines.kernel.jit import drop_stale_cache, jit

drop_stale_cache(Path(__file__).resolve().parent)

Int8Array = npt.NDArray[np.int8]
Int32Array = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]
Float64Array = npt.NDArray[np.float64]

EMPTY, ARROW = 0, 3
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@cache
def rays(size: int) -> Int32Array:
    """RAYS[p, d, k] for a size×size board (read-only: shared by every searcher of that size)."""
    out = np.full((size * size, 8, size), -1, dtype=np.int32)
    for p in range(size * size):
        row, col = divmod(p, size)
        for d, (dc, dr) in enumerate(_DIRECTIONS):
            c, r, k = col + dc, row + dr, 0
            while 0 <= c < size and 0 <= r < size:
                out[p, d, k] = r * size + c
                c, r, k = c + dc, r + dr, k + 1
    out.setflags(write=False)
    return out


@jit
def pack(frm: int, to: int, arrow: int, n2: int) -> int:
    return (frm * n2 + to) * n2 + arrow


@jit
def unpack(move: int, n2: int) -> tuple[int, int, int]:
    return move // (n2 * n2), (move // n2) % n2, move % n2


@jit
def apply_move(cells: Int8Array, move: int, player: int) -> None:
    """Play a packed move of `player` (not checked: compiled callers only make moves they generated)."""
    n2 = cells.shape[0]
    frm, to, arrow = unpack(move, n2)
    cells[frm] = EMPTY
    cells[to] = player + 1
    cells[arrow] = ARROW


@jit
def can_move(cells: Int8Array, ray: Int32Array, player: int) -> bool:
    """A queen with an empty neighbour can always move there and shoot back: that is a legal move."""
    queen = player + 1
    for p in range(cells.shape[0]):
        if cells[p] == queen:
            for d in range(8):
                q = ray[p, d, 0]
                if q >= 0 and cells[q] == EMPTY:
                    return True
    return False


@jit
def legal_moves(cells: Int8Array, ray: Int32Array, player: int, out: Int64Array) -> int:
    """Every move of `player` into `out` (packed, the core's order); returns how many (out must be big)."""
    n2 = cells.shape[0]
    queen = player + 1
    count = 0
    for frm in range(n2):
        if cells[frm] != queen:
            continue
        for d in range(8):
            for k in range(ray.shape[2]):
                to = ray[frm, d, k]
                if to < 0 or cells[to] != EMPTY:
                    break
                for e in range(8):
                    for j in range(ray.shape[2]):
                        arrow = ray[to, e, j]
                        if arrow < 0 or (cells[arrow] != EMPTY and arrow != frm):
                            break
                        out[count] = pack(frm, to, arrow, n2)
                        count += 1
    return count

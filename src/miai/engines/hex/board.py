"""Hex on flat arrays for compiled code: the board padded with two rings of "edge stones", the winner of
a full board, and the random playout with bridge-saving replies.

A cell of the n×n board at (row r, column c) is `(r + 2) * W + (c + 2)` with `W = n + 4`. The two rows
above and below the board hold stones of the first player (who joins top and bottom), the two columns
left and right stones of the second player, the four corners a neutral code: so a bridge to an edge (the
second-row template) is just a bridge to an edge stone, and the same pattern code serves both.
Codes are as `miai.core.hex.HexState.cells`: 0 empty, 1 first player, 2 second player; 3 neutral.

`OFFSETS` lists the six neighbour steps in turning order, so steps i and i+1 (mod 6) are neighbours of
each other: the two cells they reach are the carrier of a bridge to `p + OFFSETS[i] + OFFSETS[i+1]`.
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
Float32Array = npt.NDArray[np.float32]

EMPTY, NEUTRAL = 0, 3
PAD = 2


def width(size: int) -> int:
    return size + 2 * PAD


def padded(point: int, size: int) -> int:
    """The padded index of the core's cell `row * size + col`."""
    r, c = divmod(point, size)
    return (r + PAD) * width(size) + c + PAD


def unpadded(index: int, size: int) -> int:
    r, c = divmod(index, width(size))
    return (r - PAD) * size + c - PAD


@cache
def offsets(size: int) -> Int32Array:
    """The six neighbour steps in turning order: (+1,0), (+1,-1), (0,-1), (-1,0), (-1,+1), (0,+1) as
    (column, row) steps; consecutive steps reach cells adjacent to each other."""
    w = width(size)
    out = np.array([1, 1 - w, -w, -1, w - 1, w], dtype=np.int32)
    out.setflags(write=False)
    return out


@cache
def inner_cells(size: int) -> Int32Array:
    """The padded index of every board cell, in the core's order."""
    out = np.array([padded(p, size) for p in range(size * size)], dtype=np.int32)
    out.setflags(write=False)
    return out


def empty_board(size: int) -> Int8Array:
    w = width(size)
    cells = np.zeros(w * w, dtype=np.int8)
    for r in range(w):
        for c in range(w):
            row_out = r < PAD or r >= size + PAD
            col_out = c < PAD or c >= size + PAD
            if row_out and col_out:
                cells[r * w + c] = NEUTRAL
            elif row_out:
                cells[r * w + c] = 1
            elif col_out:
                cells[r * w + c] = 2
    return cells


def board_of(core_cells: bytes, size: int) -> Int8Array:
    """The padded board of a core position (`HexState.cells`)."""
    cells = empty_board(size)
    cells[inner_cells(size)] = np.frombuffer(core_cells, dtype=np.uint8).astype(np.int8)
    return cells


@jit
def bridge_reply(cells: Int8Array, last: int, me: int, off: Int32Array, start: int) -> int:
    """The cell that saves a bridge of `me` (code) into whose carrier the opponent just played `last`,
    or -1. `start` rotates which bridge is looked at first when `last` broke two."""
    for k in range(6):
        i = (start + k) % 6
        other = last + off[i]
        if (
            cells[other] == EMPTY
            and cells[last + off[(i + 5) % 6]] == me
            and cells[last + off[(i + 1) % 6]] == me
        ):
            return int(other)
    return -1


@jit
def first_connects(cells: Int8Array, size: int, stack: Int32Array, seen: Int32Array, stamp: int) -> bool:
    """Whether the first player's stones join the top row to the bottom row (a flood fill from the top).
    `seen` marks visited cells with `stamp`, so the caller need not clear it."""
    w = size + 2 * PAD
    top = 0
    for c in range(size):
        p = PAD * w + PAD + c
        if cells[p] == 1:
            seen[p] = stamp
            stack[top] = p
            top += 1
    bottom = (PAD + size - 1) * w
    while top > 0:
        top -= 1
        p = stack[top]
        if p >= bottom:
            return True
        for step in (1, 1 - w, -w, -1, w - 1, w):
            q = p + step
            if cells[q] == 1 and seen[q] != stamp:
                r = q // w
                if PAD <= r < PAD + size:
                    seen[q] = stamp
                    stack[top] = q
                    top += 1
    return False


@jit
def winner_of_full(cells: Int8Array, size: int, stack: Int32Array, seen: Int32Array, stamp: int) -> int:
    """The winner (0 or 1) of a full board: Hex cannot draw, so one connection check decides."""
    return 0 if first_connects(cells, size, stack, seen, stamp) else 1


@jit
def playout(
    cells: Int8Array,
    inner: Int32Array,
    to_move: int,
    last: int,
    off: Int32Array,
    size: int,
    empties: Int32Array,
    where: Int32Array,
    stack: Int32Array,
    seen: Int32Array,
    stamp: int,
    bridges: bool,
) -> int:
    """Fill the board at random from `cells` (changed in place), `to_move` (0/1) first, answering every
    intrusion into a bridge with the other carrier cell when `bridges`; returns the winner.
    `empties`, `where`, `stack` and `seen` are scratch arrays."""
    count = 0
    for k in range(inner.shape[0]):
        p = inner[k]
        if cells[p] == EMPTY:
            empties[count] = p
            where[p] = count
            count += 1
    mover = to_move
    while count > 0:
        cell = -1
        if bridges and last >= 0:
            cell = bridge_reply(cells, last, mover + 1, off, count % 6)
        if cell < 0:
            cell = empties[np.random.randint(count)]
        k = where[cell]
        count -= 1
        moved = empties[count]
        empties[k] = moved
        where[moved] = k
        cells[cell] = mover + 1
        last = cell
        mover = 1 - mover
    return winner_of_full(cells, size, stack, seen, stamp)

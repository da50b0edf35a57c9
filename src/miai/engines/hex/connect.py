"""Union-find over the padded Hex board (see `board`): which stones are joined, kept up to date stone by
stone, so the search knows at once when a move in its tree has won.

Every cell is its own set at first; each stone (edge stones included) joins its neighbours of the same
colour. The first player has connected when the top edge rows and the bottom ones are in one set, the
second player when the left and right edge columns are.
"""

from __future__ import annotations

import numpy as np

from miai.engines.hex.board import PAD, Int8Array, Int32Array
from miai.engines.kernel.jit import jit


@jit
def find(parent: Int32Array, x: int) -> int:
    """The set of `x`, halving the path on the way up."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return int(x)


@jit
def join_stone(cells: Int8Array, parent: Int32Array, p: int, off: Int32Array) -> None:
    """Join the stone at `p` to its neighbours of the same colour."""
    code = cells[p]
    for i in range(6):
        q = p + off[i]
        if cells[q] == code:
            a = find(parent, p)
            b = find(parent, q)
            if a != b:
                parent[a] = b


@jit
def build(cells: Int8Array, size: int, parent: Int32Array) -> None:
    """`parent` for every stone of `cells`, edge stones included."""
    w = size + 2 * PAD
    for p in range(w * w):
        parent[p] = p
    for r in range(w):
        for c in range(w):
            p = r * w + c
            code = cells[p]
            if code < 1 or code > 2:  # empty or neutral
                continue
            for dr, dc in ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)):
                rr = r + dr
                cc = c + dc
                if 0 <= rr < w and 0 <= cc < w and cells[rr * w + cc] == code:
                    a = find(parent, p)
                    b = find(parent, rr * w + cc)
                    if a != b:
                        parent[a] = b


@jit
def has_connected(parent: Int32Array, size: int, player: int) -> bool:
    """Whether `player` (0 joins top and bottom, 1 left and right) has joined their two edges."""
    w = size + 2 * PAD
    if player == 0:
        return find(parent, PAD) == find(parent, (w - 1) * w + PAD)
    return find(parent, PAD * w) == find(parent, PAD * w + w - 1)


def connections(cells: Int8Array, size: int) -> Int32Array:
    """A fresh union-find of a padded board."""
    parent: Int32Array = np.zeros(cells.shape[0], dtype=np.int32)
    build(cells, size, parent)
    return parent

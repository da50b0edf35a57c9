"""The compiled Hex search: UCT with RAVE over a flat node pool.

Nodes live in `ni` (int32: move as a padded cell, first child or -1, child count) and `nf` (float32:
visits, wins, AMAF visits, AMAF wins); a node's statistics are those of the player who made its move, and
the children of a node are contiguous. Hex suits AMAF perfectly: a playout fills the board, and every
cell of the final board was played once by its owner, so a child's move "was played later by the same
player" exactly when the final board has that player's stone there.

Priors ("equivalent experience" in the AMAF statistics): saving a bridge the opponent just intruded into
is nearly forced; making a bridge to an own stone or to an own edge (the second-row template, through the
padded edge stones) is good; filling a carrier of a bridge that stands (an own bridge or the opponent's)
is usually a wasted move; cells near the last move are where the fight is.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.

from __future__ import annotations

import math

import numpy as np

from miai.engines.hex.board import (
    EMPTY,
    Float32Array,
    Int8Array,
    Int32Array,
    Int64Array,
    bridge_reply,
    playout,
)
from miai.engines.hex.connect import has_connected, join_stone
from miai.engines.kernel.jit import jit

# ni columns
MOVE, FIRST, COUNT = 0, 1, 2
# nf columns
VISITS, WINS, AMAF_VISITS, AMAF_WINS = 0, 1, 2, 3
# meta slots
USED, CAPACITY = 0, 1

PRIOR_VISITS = 12.0
RAVE_BIAS = 1.0 / 2500.0  # β = a / (a + n + a·n·bias): how soon a child's own results outweigh its AMAF
EXPLORE = 0.05
EXPAND_AFTER = 2.0  # a leaf grows its children on its this-many-th visit


def new_pool(capacity: int) -> tuple[Int32Array, Float32Array, Int64Array]:
    ni = np.zeros((capacity, 3), dtype=np.int32)
    nf = np.zeros((capacity, 4), dtype=np.float32)
    meta = np.zeros(2, dtype=np.int64)
    meta[CAPACITY] = capacity
    reset(ni, nf, meta)
    return ni, nf, meta


@jit
def reset(ni: Int32Array, nf: Float32Array, meta: Int64Array) -> None:
    """One fresh root (node 0) with no move."""
    ni[0, MOVE] = -1
    ni[0, FIRST] = -1
    ni[0, COUNT] = 0
    for k in range(4):
        nf[0, k] = 0.0
    meta[USED] = 1


@jit
def _prior(cells: Int8Array, m: int, me: int, off: Int32Array, last: int, saving: int) -> tuple[float, float]:
    """(visits, wins) of equivalent experience for `me` (code) playing the empty cell `m`."""
    if m == saving:
        return 3.0 * PRIOR_VISITS, 2.85 * PRIOR_VISITS
    score = 0.5
    for i in range(6):
        a = m + off[i]
        b = m + off[(i + 1) % 6]
        if cells[a] == EMPTY and cells[b] == EMPTY and cells[a + off[(i + 1) % 6]] == me:
            score += 0.12  # a bridge to an own stone or edge
        if cells[a] == EMPTY:
            before = cells[m + off[(i + 5) % 6]]
            after = cells[b]
            if before == after and 1 <= before <= 2:  # both sides one player's stones
                score -= 0.1  # m is a carrier cell of a standing bridge
    if last >= 0:
        for i in range(6):
            q = m + off[i]
            if q == last:
                score += 0.05
                break
    score = min(score, 0.9)
    score = max(score, 0.1)
    return PRIOR_VISITS, score * PRIOR_VISITS


@jit
def _expand(
    ni: Int32Array,
    nf: Float32Array,
    meta: Int64Array,
    node: int,
    cells: Int8Array,
    inner: Int32Array,
    mover: int,
    last: int,
    off: Int32Array,
    allowed: Int8Array,
) -> bool:
    """Give `node` a child per empty cell (per allowed cell at the root); False when the pool is full."""
    count = 0
    for k in range(inner.shape[0]):
        if cells[inner[k]] == EMPTY and allowed[inner[k]]:
            count += 1
    start = meta[USED]
    if start + count > meta[CAPACITY]:
        return False
    me = mover + 1
    saving = -1
    if last >= 0:
        saving = bridge_reply(cells, last, me, off, 0)
    j = start
    for k in range(inner.shape[0]):
        m = inner[k]
        if cells[m] == EMPTY and allowed[m]:
            ni[j, MOVE] = m
            ni[j, FIRST] = -1
            ni[j, COUNT] = 0
            pv, pw = _prior(cells, m, me, off, last, saving)
            nf[j, VISITS] = 0.0
            nf[j, WINS] = 0.0
            nf[j, AMAF_VISITS] = pv
            nf[j, AMAF_WINS] = pw
            j += 1
    ni[node, FIRST] = start
    ni[node, COUNT] = count
    meta[USED] = start + count
    return True


@jit
def _select(ni: Int32Array, nf: Float32Array, node: int) -> int:
    first = ni[node, FIRST]
    log_n = math.log(nf[node, VISITS] + 1.0)
    best = -1.0e9
    chosen = first
    for c in range(first, first + ni[node, COUNT]):
        n = nf[c, VISITS]
        a = nf[c, AMAF_VISITS]
        q = 0.5
        if n > 0.0:
            q = nf[c, WINS] / n
        aq = nf[c, AMAF_WINS] / a
        beta = a / (a + n + a * n * RAVE_BIAS)
        value = (1.0 - beta) * q + beta * aq + EXPLORE * math.sqrt(log_n / (n + 1.0))
        if value > best:
            best = value
            chosen = c
    return int(chosen)


@jit
def simulate(
    ni: Int32Array,
    nf: Float32Array,
    meta: Int64Array,
    root: int,
    root_cells: Int8Array,
    to_move: int,
    last: int,
    inner: Int32Array,
    off: Int32Array,
    size: int,
    allowed: Int8Array,
    everywhere: Int8Array,
    count: int,
    seed: int,
    scratch: Int8Array,
    empties: Int32Array,
    where: Int32Array,
    stack: Int32Array,
    seen: Int32Array,
    path: Int32Array,
    root_parent: Int32Array,
    parent: Int32Array,
) -> int:
    """`count` simulations from `root` (whose position is `root_cells`, `to_move` to play after `last`;
    `root_parent` its union-find); the other arrays are scratch."""
    if seed >= 0:
        np.random.seed(seed)
    for _ in range(count):
        cells = scratch
        cells[:] = root_cells
        parent[:] = root_parent
        node = root
        mover = to_move
        played = last
        path[0] = root
        depth = 1
        won = -1
        while True:
            if ni[node, FIRST] < 0:
                if node != root and nf[node, VISITS] < EXPAND_AFTER:
                    break
                mask = everywhere
                if node == root:
                    mask = allowed
                if not _expand(ni, nf, meta, node, cells, inner, mover, played, off, mask):
                    break
            if ni[node, COUNT] == 0:
                break
            child = _select(ni, nf, node)
            played = ni[child, MOVE]
            cells[played] = mover + 1
            join_stone(cells, parent, played, off)
            if has_connected(parent, size, mover):
                won = mover  # a winning move: the game ends here, no playout and no children
            mover = 1 - mover
            path[depth] = child
            depth += 1
            node = child
            if won >= 0:
                break
        winner = won
        if winner < 0:
            stamp = seen[0] + 1
            seen[0] = stamp
            winner = playout(cells, inner, mover, played, off, size, empties, where, stack, seen, stamp, True)
        for d in range(depth):
            node = path[d]
            nf[node, VISITS] += 1.0
            moved = to_move  # who made path[d]'s move (d ≥ 1), and the opponent of who moves there
            if d % 2 == 0:
                moved = 1 - to_move
            if d > 0 and winner == moved:
                nf[node, WINS] += 1.0
            chooser = 1 - moved
            first = ni[node, FIRST]
            if first >= 0:
                code = chooser + 1
                reward = 0.0
                if winner == chooser:
                    reward = 1.0
                for c in range(first, first + ni[node, COUNT]):
                    if cells[ni[c, MOVE]] == code:
                        nf[c, AMAF_VISITS] += 1.0
                        nf[c, AMAF_WINS] += reward
    return count


@jit
def child_with_move(ni: Int32Array, node: int, move: int) -> int:
    first = ni[node, FIRST]
    if first < 0:
        return -1
    for c in range(first, first + ni[node, COUNT]):
        if ni[c, MOVE] == move:
            return c
    return -1


@jit
def best_child(ni: Int32Array, nf: Float32Array, node: int) -> int:
    """The most visited child (ties: the better AMAF mean), or -1 for an unexpanded node."""
    first = ni[node, FIRST]
    if first < 0:
        return -1
    best = first
    for c in range(first + 1, first + ni[node, COUNT]):
        if nf[c, VISITS] > nf[best, VISITS] or (
            nf[c, VISITS] == nf[best, VISITS]
            and nf[c, AMAF_WINS] / nf[c, AMAF_VISITS] > nf[best, AMAF_WINS] / nf[best, AMAF_VISITS]
        ):
            best = c
    return int(best)


@jit
def compact(
    ni: Int32Array,
    nf: Float32Array,
    root: int,
    to_ni: Int32Array,
    to_nf: Float32Array,
    to_meta: Int64Array,
    queue: Int32Array,
) -> int:
    """Copy the subtree under `root` into the empty pool `to_*` (root becomes node 0), breadth first."""
    to_ni[0, MOVE] = ni[root, MOVE]
    to_ni[0, FIRST] = -1
    to_ni[0, COUNT] = 0
    for k in range(4):
        to_nf[0, k] = nf[root, k]
    queue[0] = root  # old nodes in breadth-first order: a node's new index is its place in the queue
    head = 0
    tail = 1
    used = 1
    while head < tail:
        old = queue[head]
        new = head
        head += 1
        first = ni[old, FIRST]
        if first < 0:
            continue
        count = ni[old, COUNT]
        if used + count > to_meta[CAPACITY]:
            continue
        to_ni[new, FIRST] = used
        to_ni[new, COUNT] = count
        for c in range(first, first + count):
            to_ni[used, MOVE] = ni[c, MOVE]
            to_ni[used, FIRST] = -1
            to_ni[used, COUNT] = 0
            for k in range(4):
                to_nf[used, k] = nf[c, k]
            queue[tail] = c
            tail += 1
            used += 1
    to_meta[USED] = used
    return used

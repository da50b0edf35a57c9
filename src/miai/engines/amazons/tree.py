"""The compiled tree search: UCT over a flat node pool, leaves valued by the territory evaluation.

Amazons has up to ~2,200 moves a turn, far too many to try each. A node is expanded in two stages, as
strong programs do: every queen step is scored by the evaluation of the board with the queen moved (no
arrow yet), the best few are completed with every arrow, and only the best completed moves become
children, sorted, each with its evaluation as a prior (a winning chance worth `PRIOR_WEIGHT` visits).
A simulation walks down by UCT, expands the leaf it reaches and backs up the best child's chance: a
one-ply look-ahead of the evaluation instead of a random playout, which in Amazons says little until
the very end. A child where the opponent cannot move is a proven win for its mover.

Node arrays: `ni` (int64: move, first child, child count) and `nf` (float64: visits, value sum, prior);
values are the winning chance of the player who made the node's move. `meta[USED]` counts nodes in use.
"""

from __future__ import annotations

import math

import numpy as np

from miai.engines.amazons.board import (
    ARROW,
    EMPTY,
    Float64Array,
    Int8Array,
    Int32Array,
    Int64Array,
    apply_move,
    can_move,
    pack,
)
from miai.engines.amazons.evaluate import evaluate, win_chance
from miai.engines.kernel.jit import jit

# ni columns
MOVE = 0
FIRST = 1
COUNT = 2
# nf columns
VISITS = 0
SUM = 1
PRIOR = 2
# meta fields
USED = 0

UNEXPANDED = -1
LOST = -2  # the player to move here has no move: the node's mover has won

# knobs (a float64 array, so that one compiled signature serves every level)
K_ROOT_QUEENS = 0  # queen steps completed with arrows, at the root
K_ROOT_KEEP = 1  # children kept at the root
K_QUEENS = 2  # the same below the root
K_KEEP = 3
K_EXPLORE = 4  # UCT's exploration constant
K_PRIOR_WEIGHT = 5  # visits the prior counts for
N_KNOBS = 6


def default_knobs() -> Float64Array:
    knobs = np.zeros(N_KNOBS, dtype=np.float64)
    knobs[K_ROOT_QUEENS] = 14
    knobs[K_ROOT_KEEP] = 48
    knobs[K_QUEENS] = 8
    knobs[K_KEEP] = 20
    knobs[K_EXPLORE] = 0.25
    knobs[K_PRIOR_WEIGHT] = 2.0
    return knobs


def new_pool(capacity: int) -> tuple[Int64Array, Float64Array, Int64Array]:
    """Empty node arrays for `capacity` nodes, and the meta array."""
    return (
        np.zeros((capacity, 3), dtype=np.int64),
        np.zeros((capacity, 3), dtype=np.float64),
        np.zeros(2, dtype=np.int64),
    )


@jit
def new_root(ni: Int64Array, nf: Float64Array, meta: Int64Array) -> int:
    """Forget every node and start a tree with one unexpanded root."""
    ni[0, MOVE] = -1
    ni[0, FIRST] = UNEXPANDED
    ni[0, COUNT] = 0
    nf[0, VISITS] = 0.0
    nf[0, SUM] = 0.0
    nf[0, PRIOR] = 0.5
    meta[USED] = 1
    return 0


@jit
def expand(
    ni: Int64Array,
    nf: Float64Array,
    meta: Int64Array,
    node: int,
    cells: Int8Array,
    ray: Int32Array,
    player: int,
    queens_kept: int,
    keep: int,
    work: Int32Array,
    qmoves: Int64Array,
    qscore: Float64Array,
    cmoves: Int64Array,
    cscore: Float64Array,
) -> float:
    """Give `node` (where `player` moves on `cells`) its best children; the best child's prior, or -1 when
    `player` has no move (the node is then marked LOST), or -2 when the pool is full (nothing changes)."""
    n2 = cells.shape[0]
    queen = player + 1
    other = 1 - player
    nq = 0
    for frm in range(n2):  # stage 1: queen steps, scored without their arrow
        if cells[frm] != queen:
            continue
        for d in range(8):
            for k in range(ray.shape[2]):
                to = ray[frm, d, k]
                if to < 0 or cells[to] != EMPTY:
                    break
                cells[frm] = EMPTY
                cells[to] = queen
                qmoves[nq] = frm * n2 + to
                qscore[nq] = evaluate(cells, ray, player, other, work)
                cells[to] = EMPTY
                cells[frm] = queen
                nq += 1
    if nq == 0:
        ni[node, FIRST] = LOST
        ni[node, COUNT] = 0
        return -1.0
    order = np.argsort(-qscore[:nq])
    nc = 0
    for i in range(min(queens_kept, nq)):  # stage 2: the best steps with every arrow
        step = qmoves[order[i]]
        frm = step // n2
        to = step % n2
        cells[frm] = EMPTY
        cells[to] = queen
        for e in range(8):
            for j in range(ray.shape[2]):
                arrow = ray[to, e, j]
                if arrow < 0 or cells[arrow] != EMPTY:
                    break
                cells[arrow] = ARROW
                cmoves[nc] = pack(frm, to, arrow, n2)
                cscore[nc] = evaluate(cells, ray, player, other, work)
                cells[arrow] = EMPTY
                nc += 1
        cells[to] = EMPTY
        cells[frm] = queen
    kept = min(keep, nc)
    first = meta[USED]
    if first + kept > ni.shape[0]:
        return -2.0
    meta[USED] = first + kept
    best = np.argsort(-cscore[:nc])
    top = 0.0
    for i in range(kept):
        child = first + i
        move = cmoves[best[i]]
        ni[child, MOVE] = move
        ni[child, FIRST] = UNEXPANDED
        ni[child, COUNT] = 0
        nf[child, VISITS] = 0.0
        nf[child, SUM] = 0.0
        apply_move(cells, move, player)
        if can_move(cells, ray, other):
            prior = win_chance(cscore[best[i]])
        else:
            prior = 1.0
            ni[child, FIRST] = LOST
        nf[child, PRIOR] = prior
        _undo(cells, move, player, n2)
        top = max(top, prior)
    ni[node, FIRST] = first
    ni[node, COUNT] = kept
    return top


@jit
def _undo(cells: Int8Array, move: int, player: int, n2: int) -> None:
    frm = move // (n2 * n2)
    to = (move // n2) % n2
    arrow = move % n2
    cells[arrow] = EMPTY
    cells[to] = EMPTY
    cells[frm] = player + 1


@jit
def select_child(ni: Int64Array, nf: Float64Array, node: int, explore: float, prior_weight: float) -> int:
    """UCT over the children, each child's mean counting its prior as `prior_weight` visits."""
    first = int(ni[node, FIRST])
    log_parent = math.log(nf[node, VISITS] + 1.0)
    best = first
    best_value = -1.0
    for child in range(first, first + ni[node, COUNT]):
        visits = nf[child, VISITS]
        mean = (nf[child, SUM] + nf[child, PRIOR] * prior_weight) / (visits + prior_weight)
        value = mean + explore * math.sqrt(log_parent / (visits + 1.0))
        if value > best_value:
            best_value = value
            best = child
    return best


@jit
def simulate(
    ni: Int64Array,
    nf: Float64Array,
    meta: Int64Array,
    root: int,
    start: Int8Array,
    ray: Int32Array,
    to_move: int,
    knobs: Float64Array,
    cells: Int8Array,
    path: Int64Array,
    work: Int32Array,
    qmoves: Int64Array,
    qscore: Float64Array,
    cmoves: Int64Array,
    cscore: Float64Array,
    count: int,
) -> int:
    """Run `count` simulations from `root` (position `start`, `to_move` to play); returns how many ran
    (fewer when the pool is full)."""
    n2 = start.shape[0]
    for done in range(count):
        cells[:] = start
        node = root
        player = to_move
        depth = 0
        path[0] = root
        while ni[node, FIRST] >= 0:
            node = select_child(ni, nf, node, knobs[K_EXPLORE], knobs[K_PRIOR_WEIGHT])
            apply_move(cells, ni[node, MOVE], player)
            player = 1 - player
            depth += 1
            path[depth] = node
        if ni[node, FIRST] == LOST:
            value = 1.0  # for the node's mover
        else:
            at_root = node == root
            queens_kept = int(knobs[K_ROOT_QUEENS] if at_root else knobs[K_QUEENS])
            keep = int(knobs[K_ROOT_KEEP] if at_root else knobs[K_KEEP])
            top = expand(
                ni,
                nf,
                meta,
                node,
                cells,
                ray,
                player,
                queens_kept,
                keep,
                work,
                qmoves,
                qscore,
                cmoves,
                cscore,
            )
            if top == -2.0:
                return done
            value = 1.0 if top < 0.0 else 1.0 - top
        for i in range(depth, -1, -1):
            nf[path[i], VISITS] += 1.0
            nf[path[i], SUM] += value
            value = 1.0 - value
    _ = n2
    return count

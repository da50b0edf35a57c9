"""The compiled Tanbo tree search: UCT with RAVE over the Go kernel's flat node pool.

Nodes are the Go kernel's (`kernel.tree`: `ni` move/first child/child count/mover, `nf` visits, reward
sum, prior visits, prior reward, AMAF visits, AMAF reward sum), so its `new_pool` and `compact` serve here
too; a move is a padded point of `tanbo.board`. A simulation walks down by the best blend of mean reward
and AMAF mean, expands a leaf visited often enough (children: every legal point, with priors from what the
move does: a capture, a rescue, bounding an own root), plays the game out with the playout policy and
backs the result up. Every statistic is the reward of the colour that made the node's move.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.

from __future__ import annotations

import numpy as np

from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.tree import (  # the Go kernel's node pool and params layout
    COUNT,
    EXPLORE,
    FIRST,
    MOVE,
    MOVER,
    PLAYOUTS,
    PRIOR_N,
    PRIOR_W,
    RAVE_EQUIV,
    RAVE_N,
    RAVE_W,
    USED,
    VISITS,
    back_up,
    select_child,
)
from miai.engines.tanbo.board import (
    DRAW,
    E_OWN_LIBS,
    E_OWN_LOST,
    E_SHORT,
    E_TAKEN,
    FRIENDS,
    H_CAP,
    H_PLIES,
    H_SIZE,
    H_TO_MOVE,
    H_WINNER,
    N_EFFECTS,
    NO_WINNER,
    R_LIBS,
    ROOT,
    Int32Array,
    P,
    effects,
    friend_of,
    legal_at,
    legal_count,
    play,
)
from miai.engines.tanbo.playout import N_KNOBS, run_playout

# parameters (a float64 array, so that tuning needs no recompilation)
EXPAND_VISITS = 2
PRIOR_EVEN = 3
PRIOR_CAPTURE = 4
PRIOR_SAVE = 5
PRIOR_HARM = 6
PRIOR_SHORT = 7
PRIOR_RAVE = 8
PLAYOUT_FACTOR = 9  # a playout stops after this many moves per board point (stone counts then decide)
N_PARAMS = 10

MAX_DEPTH = 1024


def default_params() -> np.ndarray:
    params = np.zeros(N_PARAMS, dtype=np.float64)
    params[EXPLORE] = 0.1
    params[RAVE_EQUIV] = 1000.0
    params[EXPAND_VISITS] = 2.0
    params[PRIOR_EVEN] = 10.0
    params[PRIOR_CAPTURE] = 30.0
    params[PRIOR_SAVE] = 20.0
    params[PRIOR_HARM] = 40.0
    params[PRIOR_SHORT] = 10.0
    params[PRIOR_RAVE] = 1.0
    params[PLAYOUT_FACTOR] = 3.0
    return params


@jit
def prior(b: Int32Array, q: int, params: np.ndarray, out: Int32Array) -> tuple[float, float]:
    """Equivalent-experience prior (visits, reward) of the legal point `q` for the colour to move."""
    n = params[PRIOR_EVEN]
    w = 0.5 * n
    effects(b, q, out)
    if out[E_OWN_LIBS] == 0 or out[E_OWN_LOST] > out[E_TAKEN]:
        n += params[PRIOR_HARM]  # bounds the mover's own root, or kills more of its stones than it takes
        return n, w
    if out[E_TAKEN] > 0:
        n += params[PRIOR_CAPTURE]
        w += params[PRIOR_CAPTURE]
    c = wide(b[H_TO_MOVE])
    mine = wide(b[ROOT + friend_of(b, q, c)])
    if b[R_LIBS + mine] == 1 and b[FRIENDS + (1 - c) * P + q] == 1 and out[E_OWN_LIBS] >= 2:
        n += params[PRIOR_SAVE]  # the root's last liberty, which the opponent could take
        w += params[PRIOR_SAVE]
    if out[E_SHORT] > 0:
        n += params[PRIOR_SHORT]
    return n, w


@jit
def _expand(
    ni: Int32Array, nf: np.ndarray, meta: np.ndarray, node: int, b: Int32Array, params: np.ndarray
) -> bool:
    count = legal_count(b)
    first = meta[USED]
    if first + count > ni.shape[0] or count == 0:
        return False
    meta[USED] = first + count
    colour = wide(b[H_TO_MOVE])
    out = np.zeros(N_EFFECTS, dtype=np.int32)
    for k in range(count):
        child = first + k
        q = legal_at(b, k)
        ni[child, MOVE] = q
        ni[child, FIRST] = -1
        ni[child, COUNT] = 0
        ni[child, MOVER] = colour
        for f in range(6):
            nf[child, f] = 0.0
        pn, pw = prior(b, q, params, out)
        nf[child, PRIOR_N] = pn
        nf[child, PRIOR_W] = pw
        nf[child, RAVE_N] = params[PRIOR_RAVE] * pn
        nf[child, RAVE_W] = params[PRIOR_RAVE] * pw
    ni[node, FIRST] = first
    ni[node, COUNT] = count
    return True


@jit
def search(
    ni: Int32Array,
    nf: np.ndarray,
    meta: np.ndarray,
    root_b: Int32Array,
    rng: np.ndarray,
    params: np.ndarray,
    knobs: np.ndarray,
    playouts: int,
) -> int:
    """Run `playouts` simulations from node 0 (whose position is `root_b`); returns how many ran."""
    b = root_b.copy()
    path = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    amaf_colour = np.empty(P, dtype=np.int32)
    amaf_ply = np.empty(P, dtype=np.int32)
    rewards = np.zeros(2, dtype=np.float64)
    size = wide(root_b[H_SIZE])
    expand_visits = params[EXPAND_VISITS]
    max_moves = wide(params[PLAYOUT_FACTOR] * size * size) + 1
    for _ in range(playouts):
        b[:] = root_b
        amaf_colour[:] = -1
        node = wide(0)
        depth = wide(0)
        path[0] = 0
        while depth < MAX_DEPTH and b[H_WINNER] == NO_WINNER:
            if ni[node, FIRST] < 0:
                if node != 0 and nf[node, VISITS] < expand_visits:
                    break
                if not _expand(ni, nf, meta, node, b, params):
                    break
            child = select_child(ni, nf, node, params)
            q = wide(ni[child, MOVE])
            if amaf_colour[q] < 0:
                amaf_colour[q] = ni[child, MOVER]
                amaf_ply[q] = depth
            play(b, q)
            depth += 1
            path[depth] = child
            node = child
        left = min(max_moves, wide(b[H_CAP]) - wide(b[H_PLIES]))
        winner = run_playout(b, rng, knobs, left, amaf_colour, amaf_ply, depth, True)
        if winner == DRAW:
            rewards[0] = 0.5
            rewards[1] = 0.5
        else:
            rewards[winner] = 1.0
            rewards[1 - winner] = 0.0
        back_up(ni, nf, path, depth, rewards, amaf_colour, amaf_ply, 0)
        meta[PLAYOUTS] += 1
    return playouts


@jit
def flat_search(
    root_b: Int32Array, rng: np.ndarray, wins: np.ndarray, visits: np.ndarray, playouts: int, max_moves: int
) -> None:
    """Flat Monte Carlo with uniform playouts: `playouts` more playouts shared round-robin over the legal
    moves, their wins (for the colour to move) and visits accumulated per legal-list index."""
    b = root_b.copy()
    amaf_colour = np.zeros(P, dtype=np.int32)  # nothing below -1: no AMAF recorded
    amaf_ply = np.zeros(P, dtype=np.int32)
    knobs = np.zeros(N_KNOBS, dtype=np.float64)
    count = legal_count(root_b)
    colour = wide(root_b[H_TO_MOVE])
    start = wide(np.sum(visits))
    for k in range(playouts):
        i = (start + k) % count
        b[:] = root_b
        play(b, legal_at(root_b, i))
        left = min(max_moves, wide(b[H_CAP]) - wide(b[H_PLIES]))
        winner = run_playout(b, rng, knobs, left, amaf_colour, amaf_ply, 0, False)
        visits[i] += 1.0
        if winner == colour:
            wins[i] += 1.0
        elif winner == DRAW:
            wins[i] += 0.5

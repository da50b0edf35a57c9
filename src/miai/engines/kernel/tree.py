"""The compiled tree search: UCT with RAVE over a flat node pool, for any number of colours.

Nodes live in two arrays, `ni` (int32: move, first child, child count, mover) and `nf` (float32: visits,
reward sum, prior visits, prior reward, AMAF visits, AMAF reward sum). The children of a node are
contiguous, so a node costs 40 bytes and nothing is allocated while searching. Every statistic of a node
is the reward of the colour that made its move (max^n: each colour maximises its own result), so one code
path serves two colours and eight.

A simulation walks down from the root choosing the child with the best blend of mean reward and AMAF
(all-moves-as-first) mean (Gelly & Silver's β schedule), expands a leaf once it has been visited often
enough (children are the full-rule legal moves, superko included, minus own-eye fillings, plus pass, each
with "equivalent experience" priors from capture, atari and ladder reading, 3×3 shapes learned from real
games, distance and edge heuristics; on 19×19, once a node has been visited often enough, its children
also get the prior of a small learned move predictor, `policy_net`), finishes the game with a light
playout, scores it by area, and backs the rewards and AMAF statistics up the path.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.

from __future__ import annotations

import math

import numpy as np

from miai.engines.kernel.board import (
    captures_any,
    copy_board,
    history_key,
    is_eye,
    is_over,
    legal,
    liberties_after,
    liberties_upto,
    place,
    play_pass,
)
from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.ladder import atari_caught_by_ladder, caught_by_ladder, new_work
from miai.engines.kernel.layout import (
    COL,
    EMPTIES,
    H_AS_IS,
    H_COLOURS,
    H_KO_RULE,
    H_LAST,
    H_N_EMPTY,
    H_PASSES,
    H_PLIES_LEFT,
    H_SIZE,
    H_TO_MOVE,
    HEAD,
    KO_SIMPLE,
    KO_SITUATIONAL,
    MAX_SIZE,
    PASS,
    Float64Array,
    Int32Array,
    P,
    UInt64Array,
    W,
)
from miai.engines.kernel.open_area import MIN_SIZE, near_stones, open_area_class
from miai.engines.kernel.playout import (
    area_scores,
    pattern_code,
    rewards_from_scores,
    run_playout,
    self_atari,
)
from miai.engines.kernel.policy_net import MARGIN, N_PLANES, encode, forward, point_index

# ni columns
MOVE = 0
FIRST = 1
COUNT = 2
MOVER = 3
# nf columns
VISITS = 0
WINS = 1
PRIOR_N = 2
PRIOR_W = 3
RAVE_N = 4
RAVE_W = 5
# meta fields
USED = 0
PLAYOUTS = 1
# parameters (a float64 array, so that tuning needs no recompilation)
EXPLORE = 0
RAVE_EQUIV = 1
EXPAND_VISITS = 2
PRIOR_EVEN = 3
PRIOR_CAPTURE = 4
PRIOR_SHAPE = 5
PRIOR_SELF_ATARI = 6
PRIOR_NEAR = 7
PRIOR_EDGE = 8
PRIOR_PASS_N = 9
PRIOR_PASS_W = 10
PRIOR_RAVE = 11  # the share of a placement's prior that also seeds its AMAF statistics
PRIOR_NET = 12  # equivalent visits of the move predictor's prior (0: the predictor is not used)
NET_VISITS = 13  # a node's children get the predictor's prior when it has been visited this often
NET_SLOPE = 14  # prior value per doubling of a move's predicted probability over the uniform one
N_PARAMS = 15

MAX_DEPTH = 1024

# The move predictor's weights and layer table, then scratch: planes, liberties, 8 ints, the buffers of
# `policy_net.Buffers` and the logits.
NetScratch = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    Int32Array,
    Int32Array,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]


def default_params() -> Float64Array:
    params = np.zeros(N_PARAMS, dtype=np.float64)
    params[EXPLORE] = 0.1
    params[RAVE_EQUIV] = 3000.0
    params[EXPAND_VISITS] = 2.0
    params[PRIOR_EVEN] = 10.0
    params[PRIOR_CAPTURE] = 15.0
    params[PRIOR_SHAPE] = 20.0
    params[PRIOR_SELF_ATARI] = 10.0
    params[PRIOR_NEAR] = 10.0
    params[PRIOR_EDGE] = 10.0
    params[PRIOR_PASS_N] = 10.0
    params[PRIOR_PASS_W] = 1.0
    params[PRIOR_RAVE] = 1.0
    params[PRIOR_NET] = 0.0
    params[NET_VISITS] = 20.0
    params[NET_SLOPE] = 0.1
    return params


def new_pool(capacity: int) -> tuple[Int32Array, np.ndarray, np.ndarray]:
    """Empty node arrays for `capacity` nodes plus the meta counters; node 0 becomes the root."""
    ni = np.zeros((capacity, 4), dtype=np.int32)
    nf = np.zeros((capacity, 6), dtype=np.float32)
    meta = np.zeros(4, dtype=np.int64)
    ni[0, MOVE] = PASS
    ni[0, FIRST] = -1
    ni[0, MOVER] = -1
    meta[USED] = 1
    return ni, nf, meta


@jit
def _prior(
    b: Int32Array,
    colour: int,
    q: int,
    shape: Float64Array,
    open_values: Float64Array,
    params: Float64Array,
    tmp: Int32Array,
    zob: UInt64Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> tuple[float, float]:
    """Equivalent-experience prior (visits, reward) of a placement for the colour to move."""
    n = params[PRIOR_EVEN]
    w = 0.5 * n
    last = wide(b[H_LAST])
    attacker = wide(b[COL + last]) if last > 0 else wide(-1)
    if captures_any(b, colour, q) > 0:
        n += params[PRIOR_CAPTURE]
        w += params[PRIOR_CAPTURE]
    else:
        for m in (q - W, q - 1, q + 1, q + W):
            v = wide(b[COL + m])
            if v < 0:
                continue
            head = wide(b[HEAD + m])
            libs = liberties_upto(b, head, wide(3), tmp)
            if v == colour and libs == 1:
                # Saving an own chain from atari: good with three liberties, or two out of a ladder.
                after = liberties_after(b, colour, q, wide(3), tmp)
                laddered = (
                    after == 2
                    and attacker >= 0
                    and attacker != colour
                    and caught_by_ladder(b, zob, head, attacker, work, work_hz, tmp)
                )
                if after >= 3 or (after == 2 and not laddered):
                    n += params[PRIOR_CAPTURE]
                    w += params[PRIOR_CAPTURE]
                elif laddered:
                    n += params[PRIOR_CAPTURE]  # running into a ladder only loses more stones
                break
            if (
                v != colour
                and libs == 2
                and atari_caught_by_ladder(b, zob, colour, q, head, work, work_hz, tmp)
            ):
                n += params[PRIOR_CAPTURE]  # an atari whose ladder works captures
                w += params[PRIOR_CAPTURE]
                break
    # The shape's value learned from real games: 0.5 for an average point, near 1 for the shapes players
    # choose most, near 0 for those they avoid.
    n += params[PRIOR_SHAPE]
    w += params[PRIOR_SHAPE] * shape[pattern_code(b, q, colour)]
    if self_atari(b, colour, q, tmp):
        n += params[PRIOR_SELF_ATARI]
    if last > 0:
        d = abs(q // W - last // W) + abs(q % W - last % W)
        if d <= 3:
            bonus = params[PRIOR_NEAR] * (4 - d) / 3.0
            n += bonus
            w += bonus
    size = b[H_SIZE]
    area = open_area_class(b, q)
    if area >= 0:
        # On a big board, an open area's points as often as players choose them: corners first.
        n += params[PRIOR_EDGE]
        w += params[PRIOR_EDGE] * open_values[area]
    elif size >= 9 and size < MIN_SIZE:
        row = q // W - 1
        col = q % W - 1
        line = min(row, col, size - 1 - row, size - 1 - col)
        if line <= 2 and not near_stones(b, q, size, 3):
            # In an empty area the first two lines are slow, the third fine.
            n += params[PRIOR_EDGE]
            if line == 2:
                w += params[PRIOR_EDGE]
    return n, w


@jit
def _expand(
    ni: Int32Array,
    nf: np.ndarray,
    meta: np.ndarray,
    node: int,
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    sit: UInt64Array,
    history: UInt64Array,
    keys: UInt64Array,
    n_keys: int,
    shape: Float64Array,
    open_values: Float64Array,
    params: Float64Array,
    moves: Int32Array,
    tmp: Int32Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> bool:
    colour = wide(b[H_TO_MOVE])
    count = 0
    for i in range(b[H_N_EMPTY]):
        q = wide(b[EMPTIES + i])
        if not is_eye(b, colour, q) and legal(b, hz, zob, sit, history, keys, n_keys, colour, q):
            moves[count] = q
            count += 1
    first = meta[USED]
    if first + count + 1 > ni.shape[0]:
        return False
    meta[USED] = first + count + 1
    for k in range(count + 1):
        child = first + k
        q = wide(moves[k]) if k < count else PASS
        ni[child, MOVE] = q
        ni[child, FIRST] = -1
        ni[child, COUNT] = 0
        ni[child, MOVER] = colour
        for f in range(6):
            nf[child, f] = 0.0
        if q == PASS:
            nf[child, PRIOR_N] = params[PRIOR_PASS_N]
            nf[child, PRIOR_W] = params[PRIOR_PASS_W]
        else:
            pn, pw = _prior(b, colour, q, shape, open_values, params, tmp, zob, work, work_hz)
            nf[child, PRIOR_N] = pn
            nf[child, PRIOR_W] = pw
            # Seeding the AMAF statistics too (Gelly & Silver 2007) lets the knowledge steer the early
            # visits, which the AMAF value dominates; otherwise the prior barely counts.
            nf[child, RAVE_N] = params[PRIOR_RAVE] * pn
            nf[child, RAVE_W] = params[PRIOR_RAVE] * pw
    ni[node, FIRST] = first
    ni[node, COUNT] = count + 1
    return True


@jit
def _apply_net(
    ni: Int32Array,
    nf: np.ndarray,
    node: int,
    b: Int32Array,
    params: Float64Array,
    net: NetScratch,
) -> None:
    """Add the move predictor's prior to the children of `node` (whose position is `b`).

    A move's value is 0.5 when the network gives it the uniform probability over the legal moves, and rises
    (falls) by NET_SLOPE per doubling (halving), within [0, 1]."""
    weights, layers, planes, libs, tmp, act_a, act_b, cols, out, logits = net
    first = ni[node, FIRST]
    count = ni[node, COUNT]
    colour = wide(ni[first, MOVER])
    size = wide(b[H_SIZE])
    encode(b, colour, planes, libs, tmp)
    forward(planes, size, weights, layers, act_a, act_b, cols, out, logits)
    top = -1e30
    placements = 0
    for child in range(first, first + count):
        q = wide(ni[child, MOVE])
        if q > 0:
            placements += 1
            top = max(top, logits[point_index(q, size)])
    if placements == 0:
        return
    total = 0.0
    for child in range(first, first + count):
        q = wide(ni[child, MOVE])
        if q > 0:
            total += math.exp(logits[point_index(q, size)] - top)
    pn = params[PRIOR_NET]
    share = params[PRIOR_RAVE] * pn
    for child in range(first, first + count):
        q = wide(ni[child, MOVE])
        if q <= 0:
            continue
        p = math.exp(logits[point_index(q, size)] - top) / total
        value = 0.5 + params[NET_SLOPE] * math.log2(p * placements)
        value = min(1.0, max(0.0, value))
        nf[child, PRIOR_N] += pn
        nf[child, PRIOR_W] += pn * value
        nf[child, RAVE_N] += share
        nf[child, RAVE_W] += share * value


@jit
def select_child(ni: Int32Array, nf: np.ndarray, node: int, params: Float64Array) -> int:
    """The child to descend into: UCT on the prior-seeded mean blended with RAVE (EXPLORE, RAVE_EQUIV)."""
    first = ni[node, FIRST]
    explore = params[EXPLORE]
    equiv = params[RAVE_EQUIV]
    log_n = math.log(nf[node, VISITS] + 1.0)
    best = -1e30
    chosen = first
    for child in range(first, first + ni[node, COUNT]):
        n = nf[child, VISITS] + nf[child, PRIOR_N]
        value = (nf[child, WINS] + nf[child, PRIOR_W]) / n if n > 0 else 0.5
        rn = nf[child, RAVE_N]
        if rn > 0:
            beta = rn / (rn + n + rn * n / equiv)
            value = (1.0 - beta) * value + beta * nf[child, RAVE_W] / rn
        if explore > 0:
            value += explore * math.sqrt(log_n / (n + 1.0))
        if value > best:
            best = value
            chosen = child
    return wide(chosen)


@jit
def search(
    ni: Int32Array,
    nf: np.ndarray,
    meta: np.ndarray,
    root_b: Int32Array,
    root_hz: UInt64Array,
    zob: UInt64Array,
    sit: UInt64Array,
    history: UInt64Array,
    komi: Float64Array,
    pat: np.ndarray,
    shape: Float64Array,
    open_values: Float64Array,
    rng: UInt64Array,
    params: Float64Array,
    knobs: Float64Array,
    playouts: int,
    ownership: np.ndarray,
    net_weights: np.ndarray,
    net_layers: np.ndarray,
) -> int:
    """Run `playouts` simulations from node 0 (whose position is root_b/root_hz); returns how many ran.

    `knobs` are the playout policy's (`playout.policy_knobs`). `ownership[c, q]` accumulates, per colour
    and padded point, the playouts in which q counted for c. `net_weights`/`net_layers` are the move
    predictor's (`policy_net`), used in two-colour games when params[PRIOR_NET] > 0.
    """
    b = root_b.copy()
    hz = root_hz.copy()
    path = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    keys = np.empty(MAX_DEPTH + 1, dtype=np.uint64)
    amaf_colour = np.empty(P, dtype=np.int32)
    amaf_ply = np.empty(P, dtype=np.int32)
    scratch = np.empty(128, dtype=np.int32)
    tmp = np.empty(8, dtype=np.int32)
    moves = np.empty(P, dtype=np.int32)
    owner = np.empty(P, dtype=np.int32)
    stack = np.empty(2 * P, dtype=np.int32)
    scores = np.zeros(16, dtype=np.float64)
    rewards = np.zeros(16, dtype=np.float64)
    work, work_hz = new_work()
    size = root_b[H_SIZE]
    superko = root_b[H_KO_RULE] != KO_SIMPLE
    situational = root_b[H_KO_RULE] == KO_SITUATIONAL
    expand_visits = params[EXPAND_VISITS]
    max_moves = 3 * size * size + 50
    use_net = params[PRIOR_NET] > 0 and net_layers.shape[0] > 0 and root_b[H_COLOURS] == 2
    net_visits = params[NET_VISITS]
    widest = N_PLANES
    for layer in range(net_layers.shape[0]):
        widest = max(widest, wide(net_layers[layer, 1]))
    side = MAX_SIZE + 2 * MARGIN if use_net else 0  # no scratch when the predictor is not used
    cells = MAX_SIZE * MAX_SIZE if use_net else 0
    net = (
        net_weights,
        net_layers,
        np.zeros((MAX_SIZE, MAX_SIZE, N_PLANES), dtype=np.float32),
        np.empty(P, dtype=np.int32),
        tmp,
        np.zeros((side, side, widest), dtype=np.float32),
        np.zeros((side, side, widest), dtype=np.float32),
        np.zeros(cells * (2 * MARGIN + 1) ** 2 * widest, dtype=np.float32),
        np.zeros(cells * widest, dtype=np.float32),
        np.zeros(cells, dtype=np.float32),
    )
    for _ in range(playouts):
        copy_board(b, root_b)
        hz[:] = root_hz
        amaf_colour[:] = -1
        node = wide(0)
        depth = wide(0)
        n_keys = wide(0)
        path[0] = 0
        terminal = False
        while depth < MAX_DEPTH:
            if is_over(b):
                terminal = True
                break
            if ni[node, FIRST] < 0:
                if node != 0 and nf[node, VISITS] < expand_visits:
                    break
                if not _expand(
                    ni,
                    nf,
                    meta,
                    node,
                    b,
                    hz,
                    zob,
                    sit,
                    history,
                    keys,
                    n_keys,
                    shape,
                    open_values,
                    params,
                    moves,
                    tmp,
                    work,
                    work_hz,
                ):
                    break
            if use_net and nf[node, VISITS] == net_visits:
                _apply_net(ni, nf, node, b, params, net)
            child = select_child(ni, nf, node, params)
            q = wide(ni[child, MOVE])
            mover = wide(ni[child, MOVER])
            if q == PASS:
                play_pass(b, hz, mover)
                if situational:  # G3: a pass creates a situation too (same stones, other colour to move)
                    keys[n_keys] = history_key(b, hz[0], mover, sit)
                    n_keys += 1
            else:
                place(b, hz, zob, mover, q)
                if amaf_colour[q] < 0:
                    amaf_colour[q] = mover
                    amaf_ply[q] = depth
                if superko:
                    keys[n_keys] = history_key(b, hz[0], mover, sit)
                    n_keys += 1
            depth += 1
            path[depth] = child
            node = child
        if not (terminal and b[H_AS_IS] == 1):
            if terminal:
                # Dead stones are judged at the end of such games: let the playout settle them.
                b[H_PASSES] = 0
                b[H_PLIES_LEFT] = -1
            run_playout(
                b, hz, zob, rng, pat, knobs, amaf_colour, amaf_ply, depth, max_moves, scratch, work, work_hz
            )
        area_scores(b, komi, scores, owner, stack)
        rewards_from_scores(b, scores, rewards)
        for row in range(size):
            q = wide((row + 1) * W + 1)
            for _c in range(size):
                who = owner[q]
                if who >= 0:
                    ownership[who, q] += 1.0
                q += 1
        back_up(ni, nf, path, depth, rewards, amaf_colour, amaf_ply, 1)  # 0 is the pass: no AMAF
        meta[PLAYOUTS] += 1
    return playouts


@jit
def back_up(
    ni: Int32Array,
    nf: np.ndarray,
    path: np.ndarray,
    depth: int,
    rewards: np.ndarray,
    amaf_colour: Int32Array,
    amaf_ply: Int32Array,
    first_move: int,
) -> None:
    """One simulation's result along `path[0..depth]`: each node's visit and its mover's reward, and the
    AMAF (RAVE) count of each child whose move its mover played at that depth or later in the simulation
    (moves below `first_move` get none)."""
    for i in range(depth + 1):
        nd = path[i]
        nf[nd, VISITS] += 1.0
        if i > 0:
            nf[nd, WINS] += rewards[ni[nd, MOVER]]
        first = ni[nd, FIRST]
        if first >= 0:
            mover = wide(ni[first, MOVER])
            reward = rewards[mover]
            for child in range(first, first + ni[nd, COUNT]):
                m = wide(ni[child, MOVE])
                if m >= first_move and amaf_colour[m] == mover and amaf_ply[m] >= i:
                    nf[child, RAVE_N] += 1.0
                    nf[child, RAVE_W] += reward


@jit
def compact(ni: Int32Array, nf: np.ndarray, new_root: int, ni2: Int32Array, nf2: np.ndarray) -> int:
    """Copy the subtree under `new_root` into fresh arrays with it as node 0; returns the nodes used."""
    queue_old = np.empty(ni2.shape[0], dtype=np.int64)
    queue_new = np.empty(ni2.shape[0], dtype=np.int64)
    for f in range(4):
        ni2[0, f] = ni[new_root, f]
    for f in range(6):
        nf2[0, f] = nf[new_root, f]
    queue_old[0] = new_root
    queue_new[0] = 0
    head = 0
    tail = 1
    used = 1
    while head < tail:
        old = queue_old[head]
        new = queue_new[head]
        head += 1
        first = ni[old, FIRST]
        count = ni[old, COUNT]
        if first < 0:
            ni2[new, FIRST] = -1
            ni2[new, COUNT] = 0
            continue
        if used + count > ni2.shape[0]:
            ni2[new, FIRST] = -1
            ni2[new, COUNT] = 0
            continue
        ni2[new, FIRST] = used
        for k in range(count):
            for f in range(4):
                ni2[used + k, f] = ni[first + k, f]
            for f in range(6):
                nf2[used + k, f] = nf[first + k, f]
            queue_old[tail] = first + k
            queue_new[tail] = used + k
            tail += 1
        used += count
    return used

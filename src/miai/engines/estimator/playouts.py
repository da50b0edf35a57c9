"""Ownership statistics from many fast playouts, compiled with numba on the kernel's array board.

The policy is tuned for judging finished positions rather than for playing well: take a chain the last
move left in atari (or save one's own), else play a 3×3 shape next to the last move (the kernel's MoGo
patterns), else a uniformly random legal point that does not fill one's own eye. A play that puts a chain
of two or more stones into atari without capturing anything is never made, so a seki stays a seki in the
playouts (any fill of a shared liberty is exactly such a play); a lone stone may still throw in, as killing
a big eye needs. Each playout ends when every colour has passed in a row, and every point then counts for
the colour of its stone or of the only colour around its region.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)` or ternaries.

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from miai.core.go import GoState
from miai.engines.estimator.jit import njit
from miai.engines.kernel.board import place, play_pass, playable
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.jit import wide
from miai.engines.kernel.layout import (
    EMPTIES,
    EPOS,
    H_N_ACTIVE,
    H_N_EMPTY,
    H_PASSES,
    H_PLIES_LEFT,
    H_SIZE,
    H_TO_MOVE,
    MAX_COLOURS,
    PASS,
    Int32Array,
    P,
    UInt64Array,
    W,
    padded,
)
from miai.engines.kernel.patterns import PATTERNS
from miai.engines.kernel.playout import (
    area_scores,
    atari_moves,
    new_rng,
    pattern_moves,
    rand_below,
    rand_unit,
    self_atari,
    stones_joined,
)

Float64Array = npt.NDArray[np.float64]
UInt8Array = npt.NDArray[np.uint8]

# The policy's probabilities, passed to the compiled code as one array (indices below) so that tests and
# tuning can vary them without recompiling.
ANSWER_ATARI = 0  # take (or save) a chain left in atari by the last move
PATTERN = 1  # else a 3×3 shape next to the last move: the fights come out more sensibly
REFUSE_LONE_SELF_ATARI = 2  # a lone stone may still throw in, which killing a big eye needs
DEFAULT_POLICY = (0.9, 0.9, 0.5)


@njit
def _refused(
    b: Int32Array, colour: int, q: int, rng: UInt64Array, policy: Float64Array, tmp: Int32Array
) -> bool:
    """A self-atari the policy will not play: always for two or more stones, sometimes for a lone one."""
    if not self_atari(b, colour, q, tmp):
        return False
    if stones_joined(b, colour, q) >= 2:
        return True
    return bool(rand_unit(rng) < policy[REFUSE_LONE_SELF_ATARI])


@njit
def _random_move(b: Int32Array, colour: int, rng: UInt64Array, policy: Float64Array, tmp: Int32Array) -> int:
    """A uniformly random acceptable point, or PASS; refused candidates leave a shrinking window."""
    window = b[H_N_EMPTY]
    while window > 0:
        k = rand_below(rng, window)
        q = wide(b[EMPTIES + k])
        if playable(b, colour, q) and not _refused(b, colour, q, rng, policy, tmp):
            return q
        window -= 1
        other = b[EMPTIES + window]
        b[EMPTIES + k] = other
        b[EPOS + other] = k
        b[EMPTIES + window] = q
        b[EPOS + q] = window
    return PASS


@njit
def _pick(
    b: Int32Array,
    colour: int,
    rng: UInt64Array,
    policy: Float64Array,
    cands: Int32Array,
    n: int,
    tmp: Int32Array,
) -> int:
    """A random acceptable candidate among the first n, or -1."""
    while n > 0:
        k = rand_below(rng, n)
        q = wide(cands[k])
        if playable(b, colour, q) and not _refused(b, colour, q, rng, policy, tmp):
            return q
        n -= 1
        cands[k] = cands[n]
    return -1


@njit
def _policy_move(
    b: Int32Array,
    colour: int,
    last: int,
    rng: UInt64Array,
    pat: UInt8Array,
    policy: Float64Array,
    cands: Int32Array,
    tmp: Int32Array,
    zob: UInt64Array,
    no_work: Int32Array,
    no_hz: UInt64Array,
) -> int:
    if last > 0:
        if rand_unit(rng) < policy[ANSWER_ATARI]:
            answers = atari_moves(b, colour, last, cands, tmp, zob, no_work, no_hz)
            q = _pick(b, colour, rng, policy, cands, answers, tmp)
            if q > 0:
                return q
        if rand_unit(rng) < policy[PATTERN]:
            q = _pick(b, colour, rng, policy, cands, pattern_moves(b, colour, last, pat, cands), tmp)
            if q > 0:
                return q
    return _random_move(b, colour, rng, policy, tmp)


@njit
def ownership_counts(
    b0: Int32Array,
    hz0: UInt64Array,
    zob: UInt64Array,
    rng: UInt64Array,
    pat: UInt8Array,
    policy: Float64Array,
    starts: Int32Array,
    count: int,
    max_moves: int,
    counts: Float64Array,
) -> None:
    """Add, per colour and padded point, the playouts (of `count`) at whose end the point counts for it.

    Playout i starts with colour starts[i % len(starts)] to move, so no colour gets the tempo every time.
    """
    b = b0.copy()
    hz = hz0.copy()
    cands = np.empty(64, dtype=np.int32)
    tmp = np.empty(8, dtype=np.int32)
    no_work = np.empty(0, dtype=np.int32)  # the estimator's playouts, tuned on scored games, read no ladders
    no_hz = np.empty(0, dtype=np.uint64)
    owner = np.empty(P, dtype=np.int32)
    stack = np.empty(2 * P, dtype=np.int32)
    scores = np.zeros(MAX_COLOURS, dtype=np.float64)
    komi = np.zeros(MAX_COLOURS, dtype=np.float64)
    size = b0[H_SIZE]
    for i in range(count):
        b[:] = b0
        hz[:] = hz0
        b[H_TO_MOVE] = starts[i % starts.shape[0]]
        b[H_PASSES] = 0
        b[H_PLIES_LEFT] = -1
        last = -1
        moves = 0
        while moves < max_moves and b[H_PASSES] < b[H_N_ACTIVE]:
            colour = wide(b[H_TO_MOVE])
            q = _policy_move(b, colour, last, rng, pat, policy, cands, tmp, zob, no_work, no_hz)
            if q == PASS:
                play_pass(b, hz, colour)
            else:
                place(b, hz, zob, colour, q)
            last = q
            moves += 1
        area_scores(b, komi, scores, owner, stack)
        for row in range(size):
            q = (row + 1) * W + 1
            for _ in range(size):
                who = owner[q]
                if who >= 0:
                    counts[who, q] += 1.0
                q += 1


def ownership_shares(
    state: GoState,
    playouts: int,
    seed: int,
    first: int | None = None,
    policy: tuple[float, float, float] = DEFAULT_POLICY,
) -> list[list[float]]:
    """shares[c][p]: the share of `playouts` at whose end point p counts for colour c (core points).

    The playouts start with each colour in play in turn, or all with `first` to move when it is given.
    """
    if playouts < 1:
        raise ValueError(f"need at least one playout, got {playouts}")
    position = from_state(state)
    size = state.size
    colours = [first] if first is not None else state.active_colours or [state.to_move]
    starts = np.array(colours, dtype=np.int32)
    counts = np.zeros((MAX_COLOURS, P), dtype=np.float64)
    rng = new_rng(seed)
    max_moves = 4 * size * size + 50  # cuts the rare long superko-like cycle of a playout
    probabilities = np.array(policy, dtype=np.float64)
    b, hz, zob = position.b, position.hz, position.zob
    ownership_counts(b, hz, zob, rng, PATTERNS, probabilities, starts, playouts, max_moves, counts)
    columns = [padded(p, size) for p in range(size * size)]
    scaled = counts[: state.colours, columns] / playouts
    return [[float(x) for x in row] for row in scaled]

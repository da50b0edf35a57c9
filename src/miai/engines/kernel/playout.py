"""Compiled playouts: a seeded random generator, the light move policy, area scoring and rewards.

The light policy (MoGo, Pachi, Fuego) tries, in this order (the first three steps each with a probability):
around the last move, capture a chain in atari or rescue one's own (an escape into a working ladder is no
rescue); else two-liberty tactics (atari the chain just played when that captures it, directly or by
ladder, or give an own chain the move left with two liberties a third); else a 3×3 shape next to it
(`patterns`); else a point whose whole 3×3 neighbourhood is empty (Fuego's fill-board); else a uniformly
random playable point. No step fills one's own eye. A self-atari of BIG_SELF_ATARI stones or more is
never played; a smaller one (a possible nakade) is refused at random, more often when a step suggested it
than when it was drawn at random (PROB_REJECT_*). The knobs (`policy_knobs`) switch steps on and off, or
replace the whole policy by uniformly random moves (the benchmark's reference playout).

Playouts obey only the simple ko (a superko cycle is cut by the caller's move cap) and end when every
colour in play has passed in a row, or at the game's move limit.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.
# ruff: noqa: PLR1714, SIM109

from __future__ import annotations

import numpy as np

from miai.engines.kernel.board import (
    captures_any,
    copy_board,
    liberties_after,
    liberties_upto,
    place,
    play_pass,
    playable,
)
from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.ladder import atari_caught_by_ladder, caught_by_ladder, new_work
from miai.engines.kernel.layout import (
    COL,
    EMPTIES,
    EMPTY,
    EPOS,
    H_ACTIVE,
    H_CAPTURE_POINTS,
    H_CAPTURED,
    H_COLOURS,
    H_LAST,
    H_N_ACTIVE,
    H_N_EMPTY,
    H_PASSES,
    H_PLIES_LEFT,
    H_SIZE,
    H_TO_MOVE,
    HEAD,
    LIBS,
    NEXT,
    OFF,
    PASS,
    SIZE,
    Float64Array,
    Int32Array,
    P,
    UInt64Array,
    W,
)

PROB_CAPTURE = 0.9  # answer atari (capture or escape) near the last move
PROB_PATTERN = 0.95  # play a 3×3 shape next to the last move
PROB_REJECT_SUGGESTED_SELF_ATARI = 0.9
PROB_REJECT_RANDOM_SELF_ATARI = 0.5  # lower, so that nakade (killing throw-ins) still happen
BIG_SELF_ATARI = 3  # a self-atari of this many stones or more is no nakade: refused whenever the knob says

# Knobs of the policy: a float64 array, so that experiments (bench/selfplay.py) need no recompilation.
K_LIGHT = 0  # > 0: the light policy; 0: uniformly random moves (the benchmark's reference playout)
K_TWO_LIBS = 1  # probability of trying two-liberty tactics around the last move
K_FILL_BOARD = 2  # tries at finding an empty 3×3 area before a random move (0: none)
K_BIG_SELF_ATARI = 3  # > 0: always refuse a self-atari of BIG_SELF_ATARI or more stones
N_KNOBS = 4


def policy_knobs(light: bool = True) -> Float64Array:
    """The playout policy's default knobs (the light policy), or the uniformly random policy."""
    knobs = np.zeros(N_KNOBS, dtype=np.float64)
    if light:
        knobs[K_LIGHT] = 1.0
        knobs[K_TWO_LIBS] = 0.9
        knobs[K_FILL_BOARD] = 4.0
        knobs[K_BIG_SELF_ATARI] = 1.0
    return knobs

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)
_MUL = np.uint64(0x2545F4914F6CDD1D)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_U1 = np.uint64(1)


def new_rng(seed: int) -> UInt64Array:
    """The generator's state for a seed (splitmix64 of the seed, never zero)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & ((1 << 64) - 1)
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@jit
def rand_u32(rng: UInt64Array) -> np.uint64:
    """xorshift64*: fast, seeded, and the same on every machine."""
    x = rng[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    rng[0] = x
    return np.uint64((x * _MUL) >> _S32)


@jit
def rand_below(rng: UInt64Array, n: int) -> int:
    return int((rand_u32(rng) * np.uint64(n)) >> _S32)


@jit
def rand_unit(rng: UInt64Array) -> float:
    return float(rand_u32(rng)) * (1.0 / 4294967296.0)


@jit
def pattern_code(b: Int32Array, q: int, colour: int) -> int:
    code = 0
    for n in (q + W - 1, q + W, q + W + 1, q - 1, q + 1, q - W - 1, q - W, q - W + 1):
        v = b[COL + n]
        if v == EMPTY:
            k = 0
        elif v == OFF:
            k = 3
        elif v == colour:
            k = 1
        else:
            k = 2
        code = code * 4 + k
    return code


@jit
def self_atari(b: Int32Array, colour: int, q: int, tmp: Int32Array) -> bool:
    """A `colour` stone at q would leave its chain with one liberty and capture nothing."""
    empty = 0
    for n in (q - W, q - 1, q + 1, q + W):
        if b[COL + n] == EMPTY:
            empty += 1
    if empty >= 2:
        return False
    if liberties_after(b, colour, q, wide(2), tmp) >= 2:
        return False
    return captures_any(b, colour, q) == 0


@jit
def stones_joined(b: Int32Array, colour: int, q: int) -> int:
    """Stones of the chain a `colour` stone at q would form."""
    total = 1
    d0 = -1
    d1 = -1
    d2 = -1
    for n in (q - W, q - 1, q + 1, q + W):
        if b[COL + n] == colour:
            hd = wide(b[HEAD + n])
            if hd != d0 and hd != d1 and hd != d2:
                total += b[SIZE + hd]
                if d0 < 0:
                    d0 = hd
                elif d1 < 0:
                    d1 = hd
                else:
                    d2 = hd
    return total


@jit
def refused_self_atari(
    b: Int32Array, colour: int, q: int, rng: UInt64Array, reject: float, refuse_big: bool, tmp: Int32Array
) -> bool:
    """Whether the policy refuses q as a self-atari: a big one always (with `refuse_big`), a small one
    (a possible nakade) with probability `reject`."""
    if not self_atari(b, colour, q, tmp):
        return False
    if refuse_big and stones_joined(b, colour, q) >= BIG_SELF_ATARI:
        return True
    return rand_unit(rng) < reject


@jit
def random_move(
    b: Int32Array, colour: int, rng: UInt64Array, reject_self_atari: bool, refuse_big: bool, tmp: Int32Array
) -> int:
    """A uniformly random playable point, or PASS; unplayable candidates leave a shrinking window."""
    window = wide(b[H_N_EMPTY])
    while window > 0:
        k = rand_below(rng, window)
        q = wide(b[EMPTIES + k])
        if playable(b, colour, q) and not (
            reject_self_atari
            and refused_self_atari(b, colour, q, rng, PROB_REJECT_RANDOM_SELF_ATARI, refuse_big, tmp)
        ):
            return q
        window -= 1
        other = b[EMPTIES + window]
        b[EMPTIES + k] = other
        b[EPOS + other] = k
        b[EMPTIES + window] = q
        b[EPOS + q] = window
    return PASS


@jit
def _add_candidate(cands: Int32Array, n: int, q: int) -> int:
    for i in range(n):
        if cands[i] == q:
            return n
    cands[n] = q
    return n + 1


@jit
def atari_moves(
    b: Int32Array,
    colour: int,
    last: int,
    cands: Int32Array,
    tmp: Int32Array,
    zob: UInt64Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> int:
    """Moves answering an atari around `last`: capture a chain in atari, or rescue one's own.

    With a scratch board in `work` (empty: don't), an escape into a working ladder is no rescue.
    """
    attacker = wide(b[COL + last])
    ladders = work.size > 0 and attacker >= 0 and attacker != colour
    n = wide(0)
    seen0 = -1
    seen1 = -1
    seen2 = -1
    seen3 = -1
    for s in (last, last - W, last - 1, last + 1, last + W):
        v = b[COL + s]
        if v < 0:
            continue
        hd = wide(b[HEAD + s])
        if hd == seen0 or hd == seen1 or hd == seen2 or hd == seen3:
            continue
        seen3 = seen2
        seen2 = seen1
        seen1 = seen0
        seen0 = hd
        if b[LIBS + hd] > 4 or liberties_upto(b, hd, wide(2), tmp) != 1:
            continue  # more than 4 stone-liberty pairs: more than one liberty
        lib = wide(tmp[0])
        if v != colour:
            n = _add_candidate(cands, n, lib)  # capture it
        else:
            # Escape by extending when that gives two liberties (three, or two out of a ladder), or by
            # capturing a neighbour.
            libs = liberties_after(b, colour, lib, wide(3), tmp)
            escapes = captures_any(b, colour, lib) > 0 or libs >= 3
            if not escapes and libs == 2:
                escapes = not (ladders and caught_by_ladder(b, zob, hd, attacker, work, work_hz, tmp))
            if escapes:
                n = _add_candidate(cands, n, lib)
            t = hd
            while True:
                for m in (t - W, t - 1, t + 1, t + W):
                    u = b[COL + m]
                    if u >= 0 and u != colour and liberties_upto(b, wide(b[HEAD + m]), wide(2), tmp) == 1:
                        n = _add_candidate(cands, n, wide(tmp[0]))
                t = b[NEXT + t]
                if t == hd:
                    break
    return n


@jit
def pattern_moves(b: Int32Array, colour: int, last: int, pat: np.ndarray, cands: Int32Array) -> int:
    n = 0
    for q in (last + W - 1, last + W, last + W + 1, last - 1, last + 1, last - W - 1, last - W, last - W + 1):
        if b[COL + q] == EMPTY and pat[pattern_code(b, q, colour)]:
            cands[n] = q
            n += 1
    return n


@jit
def _atari_captures(
    b: Int32Array,
    colour: int,
    q: int,
    other: int,
    head: int,
    tmp: Int32Array,
    zob: UInt64Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> bool:
    """`colour` at q ataris the two-liberty chain at `head` (its other liberty `other`): can it escape?
    Counting the liberties its extension to `other` would have settles most cases without reading."""
    defender = wide(b[COL + head])
    libs = liberties_after(b, defender, other, wide(4), tmp)
    for i in range(libs):
        if tmp[i] == q:
            libs -= 1
            break
    if libs >= 3:
        return False
    if libs <= 1:
        return True
    return atari_caught_by_ladder(b, zob, colour, q, head, work, work_hz, tmp)


@jit
def two_liberty_moves(
    b: Int32Array,
    colour: int,
    last: int,
    cands: Int32Array,
    tmp: Int32Array,
    zob: UInt64Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> int:
    """Two-liberty tactics around `last` (Pachi's): atari the chain just played when it has two liberties
    and the atari captures (directly or by ladder); give an own chain next to it that the move left with two
    liberties a third one."""
    n = wide(0)
    v = b[COL + last]
    if v >= 0 and v != colour:
        hd = wide(b[HEAD + last])
        if b[LIBS + hd] <= 8 and liberties_upto(b, hd, wide(3), tmp) == 2:
            x = wide(tmp[0])
            y = wide(tmp[1])
            if _atari_captures(b, colour, x, y, hd, tmp, zob, work, work_hz):
                n = _add_candidate(cands, n, x)
            if _atari_captures(b, colour, y, x, hd, tmp, zob, work, work_hz):
                n = _add_candidate(cands, n, y)
    seen0 = -1
    seen1 = -1
    seen2 = -1
    for s in (last - W, last - 1, last + 1, last + W):
        if b[COL + s] != colour:
            continue
        hd = wide(b[HEAD + s])
        if hd == seen0 or hd == seen1 or hd == seen2:
            continue
        seen2 = seen1
        seen1 = seen0
        seen0 = hd
        if b[LIBS + hd] > 8 or liberties_upto(b, hd, wide(3), tmp) != 2:
            continue  # each liberty makes at most 4 stone-liberty pairs
        x = wide(tmp[0])
        y = wide(tmp[1])
        if liberties_after(b, colour, x, wide(3), tmp) >= 3:
            n = _add_candidate(cands, n, x)
        if liberties_after(b, colour, y, wide(3), tmp) >= 3:
            n = _add_candidate(cands, n, y)
    return n


@jit
def fill_board_move(b: Int32Array, rng: UInt64Array, tries: int) -> int:
    """A random point whose whole 3×3 neighbourhood is empty board (Fuego's fill-board), or -1: early in
    a big-board playout such moves stake out the open areas instead of random contact plays."""
    n_empty = wide(b[H_N_EMPTY])
    for _ in range(tries):
        if n_empty == 0:
            return -1
        q = wide(b[EMPTIES + rand_below(rng, n_empty)])
        empty = True
        for m in (q - W - 1, q - W, q - W + 1, q - 1, q + 1, q + W - 1, q + W, q + W + 1):
            if b[COL + m] != EMPTY:
                empty = False
                break
        if empty:
            return q
    return -1


@jit
def _pick(
    b: Int32Array,
    colour: int,
    rng: UInt64Array,
    cands: Int32Array,
    n: int,
    refuse_big: bool,
    tmp: Int32Array,
) -> int:
    """A random playable candidate that is not a (usually refused) self-atari, or -1."""
    while n > 0:
        k = rand_below(rng, n)
        q = wide(cands[k])
        if playable(b, colour, q) and not refused_self_atari(
            b, colour, q, rng, PROB_REJECT_SUGGESTED_SELF_ATARI, refuse_big, tmp
        ):
            return q
        n -= 1
        cands[k] = cands[n]
    return -1


@jit
def policy_move(
    b: Int32Array,
    colour: int,
    rng: UInt64Array,
    pat: np.ndarray,
    knobs: Float64Array,
    scratch: Int32Array,
    zob: UInt64Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> int:
    """The light policy's move for `colour` (a padded point or PASS); `work` as for `atari_moves`."""
    cands = scratch[:64]
    tmp = scratch[64:72]
    last = wide(b[H_LAST])
    refuse_big = knobs[K_BIG_SELF_ATARI] > 0
    if last > 0:
        if rand_unit(rng) < PROB_CAPTURE:
            n = atari_moves(b, colour, last, cands, tmp, zob, work, work_hz)
            q = _pick(b, colour, rng, cands, n, refuse_big, tmp)
            if q > 0:
                return q
        if knobs[K_TWO_LIBS] > 0 and rand_unit(rng) < knobs[K_TWO_LIBS]:
            n = two_liberty_moves(b, colour, last, cands, tmp, zob, work, work_hz)
            q = _pick(b, colour, rng, cands, n, refuse_big, tmp)
            if q > 0:
                return q
        if rand_unit(rng) < PROB_PATTERN:
            n = pattern_moves(b, colour, last, pat, cands)
            q = _pick(b, colour, rng, cands, n, refuse_big, tmp)
            if q > 0:
                return q
    if knobs[K_FILL_BOARD] > 0:
        q = fill_board_move(b, rng, wide(knobs[K_FILL_BOARD]))
        if q > 0 and playable(b, colour, q):
            return q
    return random_move(b, colour, rng, True, refuse_big, tmp)


@jit
def run_playout(
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    rng: UInt64Array,
    pat: np.ndarray,
    knobs: Float64Array,
    amaf_colour: Int32Array,
    amaf_ply: Int32Array,
    ply0: int,
    max_moves: int,
    scratch: Int32Array,
    work: Int32Array,
    work_hz: UInt64Array,
) -> int:
    """Play until every colour in play has passed in a row (or a move cap); returns the moves played.

    Records in amaf_colour/amaf_ply who first played each point and when (ply0 counts the plies before).
    `knobs` set the policy (see `policy_knobs`; K_LIGHT = 0 is the benchmark's uniformly random playout).
    `work`/`work_hz` are the
    ladder reader's scratch board (see `kernel.ladder.new_work`), or empty arrays to read no ladders.
    """
    moves = 0
    tmp = scratch[64:72]
    light = knobs[K_LIGHT] > 0
    while moves < max_moves:
        if b[H_PASSES] >= b[H_N_ACTIVE] or b[H_PLIES_LEFT] == 0:
            break
        colour = wide(b[H_TO_MOVE])
        if light:
            q = policy_move(b, colour, rng, pat, knobs, scratch, zob, work, work_hz)
        else:
            q = random_move(b, colour, rng, False, False, tmp)
        if q == PASS:
            play_pass(b, hz, colour)
        else:
            place(b, hz, zob, colour, q)
            if amaf_colour[q] < 0:
                amaf_colour[q] = colour
                amaf_ply[q] = ply0 + moves
        moves += 1
    return moves


@jit
def area_scores(
    b: Int32Array, komi: Float64Array, scores: Float64Array, owner: Int32Array, stack: Int32Array
) -> None:
    """Area score of every colour (stones + single-colour regions + komi [+ captures]) and per-point owner.

    owner[q] is the colour a board point counts for, or -1 when neutral. `stack` needs 2 * P entries: the
    flood fill's pending points below P, the current region's points from P on.
    """
    size = b[H_SIZE]
    colours = b[H_COLOURS]
    for c in range(colours):
        scores[c] = komi[c]
        if b[H_CAPTURE_POINTS]:
            scores[c] += b[H_CAPTURED + c]
    for row in range(size):
        q = (row + 1) * W + 1
        for _ in range(size):
            v = b[COL + q]
            if v >= 0:
                scores[v] += 1.0
                owner[q] = v
            else:
                owner[q] = -3  # not visited yet
            q += 1
    for i in range(b[H_N_EMPTY]):
        start = wide(b[EMPTIES + i])
        if owner[start] != -3:
            continue
        owner[start] = -4  # queued
        stack[0] = start
        top = 1
        region = 0
        border = 0
        while top > 0:
            top -= 1
            q = stack[top]
            stack[P + region] = q
            region += 1
            for n in (q - W, q - 1, q + 1, q + W):
                v = b[COL + n]
                if v >= 0:
                    border |= 1 << v
                elif v == EMPTY and owner[n] == -3:
                    owner[n] = -4
                    stack[top] = n
                    top += 1
        who = -1
        if border != 0 and border & (border - 1) == 0:
            who = 0
            while not (border >> who) & 1:
                who += 1
            scores[who] += region
        for k in range(region):
            owner[stack[P + k]] = who


@jit
def rewards_from_scores(b: Int32Array, scores: Float64Array, rewards: Float64Array) -> None:
    """1 shared among the best-scoring colours still in play, 0 for the others (as `GoState.rewards`)."""
    colours = b[H_COLOURS]
    active = b[H_ACTIVE]
    best = -1e18
    for c in range(colours):
        if active >> c & 1 and scores[c] > best:
            best = scores[c]
    winners = 0
    for c in range(colours):
        if active >> c & 1 and scores[c] == best:
            winners += 1
    for c in range(colours):
        rewards[c] = 1.0 / winners if (active >> c & 1 and scores[c] == best) else 0.0


@jit
def repeated_playouts(
    b0: Int32Array,
    hz0: UInt64Array,
    zob: UInt64Array,
    komi: Float64Array,
    rng: UInt64Array,
    pat: np.ndarray,
    knobs: Float64Array,
    count: int,
    max_moves: int,
) -> Float64Array:
    """`count` playouts from one position; returns each colour's summed reward (benchmarks, estimates)."""
    b = b0.copy()
    hz = hz0.copy()
    amaf_colour = np.empty(P, dtype=np.int32)
    amaf_ply = np.empty(P, dtype=np.int32)
    scratch = np.empty(128, dtype=np.int32)
    owner = np.empty(P, dtype=np.int32)
    stack = np.empty(2 * P, dtype=np.int32)
    scores = np.zeros(16, dtype=np.float64)
    rewards = np.zeros(16, dtype=np.float64)
    total = np.zeros(16, dtype=np.float64)
    colours = b0[H_COLOURS]
    work, work_hz = new_work()
    amaf_colour[:] = -1  # recorded but unused here, so never reset
    for _ in range(count):
        copy_board(b, b0)
        hz[:] = hz0
        run_playout(
            b, hz, zob, rng, pat, knobs, amaf_colour, amaf_ply, wide(0), max_moves, scratch, work, work_hz
        )
        area_scores(b, komi, scores, owner, stack)
        rewards_from_scores(b, scores, rewards)
        for c in range(colours):
            total[c] += rewards[c]
    return total

"""The Tanbo playout policy (compiled): captures first, then saving a root down to its last liberty, else a
random legal move that neither bounds the mover's own root nor kills another of its roots.

A root with one liberty dies when the opponent can play there (the point touches exactly one opponent
stone), so those are the urgent points; other moves are drawn at random, and a drawn move that harms the
mover is redrawn a few times before it is accepted (a forced move is still played).
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.

from __future__ import annotations

import numpy as np

from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.playout import rand_below, rand_unit
from miai.engines.tanbo.board import (
    CELL,
    E_OWN_LIBS,
    E_OWN_LOST,
    E_SHORT,
    E_TAKEN,
    EMPTY,
    FRIENDS,
    H_COUNT,
    H_ROOTS,
    H_TO_MOVE,
    H_W,
    H_WINNER,
    N_EFFECTS,
    NEXT,
    NO_WINNER,
    R_COLOUR,
    R_HEAD,
    R_LIBS,
    Int32Array,
    P,
    effects,
    legal_at,
    legal_count,
    play,
)

# knobs (a float64 array, so that tuning needs no recompilation)
K_CAPTURE = 0  # chance of taking a capture when there is one
K_SAVE = 1  # chance of saving a root in danger when it can be saved
K_TRIES = 2  # draws before a harmful random move is accepted
K_SHORT = 3  # chance of redrawing a move that leaves an own root on one liberty
N_KNOBS = 4

# urgent-move kinds, for priors too
URGENT_NONE = 0
URGENT_CAPTURE = 1
URGENT_SAVE = 2


def policy_knobs() -> np.ndarray:
    knobs = np.zeros(N_KNOBS, dtype=np.float64)
    knobs[K_CAPTURE] = 0.9
    knobs[K_SAVE] = 0.8
    knobs[K_TRIES] = 6.0
    knobs[K_SHORT] = 0.5
    return knobs


@jit
def last_liberty(b: Int32Array, r: int) -> int:
    """The liberty of a root that has exactly one (-1 if none is found)."""
    w = wide(b[H_W])
    c = wide(b[R_COLOUR + r])
    head = wide(b[R_HEAD + r])
    s = head
    while True:
        for n in (s - w, s - 1, s + 1, s + w):
            if b[CELL + n] == EMPTY and b[FRIENDS + c * P + n] == 1:
                return wide(n)
        s = wide(b[NEXT + s])
        if s == head:
            break
    return wide(-1)


@jit
def urgent_move(b: Int32Array, rng: np.ndarray, knobs: np.ndarray, out: Int32Array) -> tuple[int, int]:
    """(point, kind) of a capture or a rescue for the colour to move, or (-1, URGENT_NONE).

    A capture takes an opponent root's last liberty (and the mover's root survives it); a rescue plays on
    the last liberty of an own root that the opponent could take, when that leaves the root two or more."""
    c = wide(b[H_TO_MOVE])
    o = 1 - c
    best = -1
    best_gain = 0
    save = -1
    for r in range(b[H_ROOTS]):
        if b[R_HEAD + r] < 0 or b[R_LIBS + r] != 1:
            continue
        q = last_liberty(b, r)
        if q < 0 or b[FRIENDS + c * P + q] != 1:
            continue
        if b[R_COLOUR + r] == o:
            effects(b, q, out)
            if out[E_OWN_LIBS] > 0 and out[E_TAKEN] - out[E_OWN_LOST] > best_gain:
                best = q
                best_gain = wide(out[E_TAKEN]) - wide(out[E_OWN_LOST])
        elif save < 0 and b[FRIENDS + o * P + q] == 1:
            effects(b, q, out)
            if out[E_OWN_LIBS] >= 2 and out[E_OWN_LOST] == 0:
                save = q
    if best >= 0 and rand_unit(rng) < knobs[K_CAPTURE]:
        return best, URGENT_CAPTURE
    if save >= 0 and rand_unit(rng) < knobs[K_SAVE]:
        return save, URGENT_SAVE
    return wide(-1), URGENT_NONE


@jit
def harmful(out: Int32Array) -> bool:
    """A move that bounds its own root, or kills more of the mover's stones than the opponent's."""
    return bool(out[E_OWN_LIBS] == 0 or out[E_OWN_LOST] > out[E_TAKEN])


@jit
def choose(b: Int32Array, rng: np.ndarray, knobs: np.ndarray, out: Int32Array) -> int:
    """The policy's move for the colour to move (the game must not be over)."""
    q, _ = urgent_move(b, rng, knobs, out)
    if q >= 0:
        return q
    n = legal_count(b)
    tries = wide(knobs[K_TRIES])
    q = legal_at(b, rand_below(rng, n))
    for _ in range(tries):
        effects(b, q, out)
        if not harmful(out) and (out[E_SHORT] == 0 or rand_unit(rng) >= knobs[K_SHORT]):
            break
        q = legal_at(b, rand_below(rng, n))
    return q


@jit
def uniform(b: Int32Array, rng: np.ndarray) -> int:
    """A legal move drawn uniformly (the flat Monte Carlo baseline's policy)."""
    return legal_at(b, rand_below(rng, legal_count(b)))


@jit
def run_playout(
    b: Int32Array,
    rng: np.ndarray,
    knobs: np.ndarray,
    max_moves: int,
    amaf_colour: Int32Array,
    amaf_ply: Int32Array,
    ply: int,
    smart: bool,
) -> int:
    """Play the game out (`smart`: the policy, else uniform moves) for at most `max_moves` moves; returns
    the winner (0, 1, or DRAW when the playout stopped early with equal stone counts)."""
    out = np.zeros(N_EFFECTS, dtype=np.int32)
    for _ in range(max_moves):
        if b[H_WINNER] != NO_WINNER:
            break
        q = choose(b, rng, knobs, out) if smart else uniform(b, rng)
        if amaf_colour[q] < 0:
            amaf_colour[q] = b[H_TO_MOVE]
            amaf_ply[q] = ply
        play(b, q)
        ply += 1
    if b[H_WINNER] != NO_WINNER:
        return wide(b[H_WINNER])
    if b[H_COUNT] == b[H_COUNT + 1]:
        return wide(2)
    return wide(1) if b[H_COUNT + 1] > b[H_COUNT] else wide(0)

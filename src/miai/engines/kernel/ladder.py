"""Ladder reading: is a chain in atari lost even if it runs?

A chain in atari that escapes to exactly two liberties can often be chased along a diagonal until it hits
the edge or its pursuer's stones: the ladder (shicho). Playouts that blindly run from atari lose such
chains with many more stones, and a tree that believes in the escape misjudges the whole area, so both
ask this reader first (as Pachi's and Fuego's playouts do).

The reader plays the chase on a scratch copy of the board: the defender extends from atari, the attacker
ataris again from the side that leaves the defender the fewest liberties after its next extension. The
defender escapes when it reaches three liberties or can capture a chain of the attacker's that is in
atari (a ladder breaker or a weak pursuer); it is caught when an extension still leaves it in atari.
Ko and the rare ladders in which the attacker must choose against this rule are not read.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.

from __future__ import annotations

import numpy as np

from miai.engines.kernel.board import copy_board, liberties_after, liberties_upto, place
from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.layout import COL, EMPTY, HEAD, LENGTH, NEXT, Int32Array, UInt64Array, W

MAX_CHASE = 100  # attacker moves; a ladder across a 25×25 board needs fewer


@jit
def new_work() -> tuple[Int32Array, UInt64Array]:
    """The scratch board and hashes the reader plays on (one pair per searching thread)."""
    return np.zeros(LENGTH, dtype=np.int32), np.zeros(2, dtype=np.uint64)


@jit
def _capturable_neighbour(b: Int32Array, head: int, tmp: Int32Array) -> bool:
    """Some chain of another colour touching the chain at `head` is in atari."""
    colour = b[COL + head]
    s = head
    while True:
        for n in (s - W, s - 1, s + 1, s + W):
            v = b[COL + n]
            if v >= 0 and v != colour and liberties_upto(b, wide(b[HEAD + n]), wide(2), tmp) == 1:
                return True
        s = b[NEXT + s]
        if s == head:
            break
    return False


@jit
def _chase(
    w: Int32Array, hz: UInt64Array, zob: UInt64Array, head: int, attacker: int, tmp: Int32Array
) -> bool:
    """On the scratch board `w`, the chain at `head` is in atari with its owner to move: is it caught?"""
    defender = wide(w[COL + head])
    for _ in range(MAX_CHASE):
        if _capturable_neighbour(w, head, tmp):
            return False
        if liberties_upto(w, head, wide(2), tmp) != 1:
            return False  # not in atari after all (the attacker's last stone was not an atari)
        run = wide(tmp[0])
        place(w, hz, zob, defender, run)
        if w[COL + run] != defender:
            return True  # the extension was suicide
        head = wide(w[HEAD + run])
        libs = liberties_upto(w, head, wide(3), tmp)
        if libs >= 3:
            return False
        if libs <= 1:
            return True
        x = wide(tmp[0])
        y = wide(tmp[1])
        # Atari from the side after which the defender's next extension has the fewest liberties.
        after_x = liberties_after(w, defender, y, wide(4), tmp)
        for i in range(after_x):
            if tmp[i] == x:
                after_x -= 1
                break
        after_y = liberties_after(w, defender, x, wide(4), tmp)
        for i in range(after_y):
            if tmp[i] == y:
                after_y -= 1
                break
        atari = x if after_x <= after_y else y
        place(w, hz, zob, attacker, atari)
        if w[COL + atari] != attacker:
            return False  # the atari was suicide
    return False


@jit
def caught_by_ladder(
    board: Int32Array,
    zob: UInt64Array,
    head: int,
    attacker: int,
    work: Int32Array,
    work_hz: UInt64Array,
    tmp: Int32Array,
) -> bool:
    """The chain at `head`, in atari with its owner to move, cannot run away from `attacker`'s ladder."""
    copy_board(work, board)
    return _chase(work, work_hz, zob, head, attacker, tmp)


@jit
def atari_caught_by_ladder(
    board: Int32Array,
    zob: UInt64Array,
    attacker: int,
    q: int,
    head: int,
    work: Int32Array,
    work_hz: UInt64Array,
    tmp: Int32Array,
) -> bool:
    """`attacker` playing q ataris the chain at `head` (two liberties, one of them q) and the ladder works."""
    copy_board(work, board)
    place(work, work_hz, zob, attacker, q)
    if work[COL + q] != attacker or work[COL + head] == EMPTY:
        return False
    return _chase(work, work_hz, zob, wide(work[HEAD + head]), attacker, tmp)

"""A Tanbo position as one int32 array, and the rules of SPEC §4.3 on it (compiled).

The board is padded by one line of border points (`W = size + 2`), so every point has four neighbours.
Besides the cells the array keeps, per point, how many stones of each colour touch it (a point is legal for
a colour when it is empty and touches exactly one of its stones), each stone's root and a circular list of
every root's stones, each root's liberty count (its empty neighbours touching exactly one stone of its
colour), and per colour the list of its legal points.

Roots never merge (a new stone touches exactly one friendly stone) and no root is ever born (every stone
joins one), so a root keeps the id it had in the starting position until it is removed. A point touching
exactly one stone of a colour is a liberty of that stone's root only, so liberty counts need no sets.
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.
# ruff: noqa: PLR1714

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from miai.engines.kernel.jit import jit, wide

Int32Array = NDArray[np.int32]

MAX_SIZE = 25
MAX_W = MAX_SIZE + 2
P = MAX_W * MAX_W  # points of the largest padded board
MAX_ROOTS = P

EMPTY = 0
BORDER = 3  # cells hold 0 empty, 1 Black, 2 White, 3 border
NO_WINNER = -1
DRAW = 2

# header
H_SIZE = 0
H_W = 1
H_TO_MOVE = 2
H_PLIES = 3
H_CAP = 4
H_COUNT = 5  # two: stones of Black, of White
H_WINNER = 7  # NO_WINNER while the game goes on, else 0, 1 or DRAW
H_ROOTS = 8  # roots of the starting position (alive or not)
H_LAST = 9  # the last point played, -1 at the start
H_REMOVED = 10  # stones the last move removed
H_N_LEGAL = 11  # two: legal points of Black, of White
H_DOOMED = 16  # eight: scratch for `play`, the roots that lost a liberty
HEADER = 24
# sections
CELL = HEADER
FRIENDS = CELL + P  # two sections: stones of colour c touching each point at FRIENDS + c * P
ROOT = FRIENDS + 2 * P  # per stone: its root id, -1 on an empty point
NEXT = ROOT + P  # per stone: the next stone of its root (a circular list)
LEGAL_AT = NEXT + P  # two sections: the index of a point in its colour's legal list, or -1
LEGAL = LEGAL_AT + 2 * P  # two sections: the legal points of colour c
R_LIBS = LEGAL + 2 * P  # per root: liberties
R_SIZE = R_LIBS + MAX_ROOTS  # per root: stones (0 once removed)
R_COLOUR = R_SIZE + MAX_ROOTS
R_HEAD = R_COLOUR + MAX_ROOTS  # per root: one of its stones, -1 once removed
LENGTH = R_HEAD + MAX_ROOTS

# `effects` results
E_OWN_LIBS = 0  # liberties of the mover's root after the move (0: the move bounds it, so it dies alone)
E_OWN_LOST = 1  # stones of the mover's other roots the move bounds (removed with it when its root lives)
E_TAKEN = 2  # opponent stones the move bounds
E_SHORT = 3  # the mover's roots left with one liberty (whoever can take it)
E_HIT = 4  # four: scratch, the mover's other roots that lose a liberty
E_LOSS = 8  # four: scratch, how many each loses
N_EFFECTS = 12


def padded(point: int, size: int) -> int:
    """The padded index of a core point (`row * size + col`)."""
    row, col = divmod(point, size)
    return (row + 1) * (size + 2) + col + 1


def unpadded(q: int, size: int) -> int:
    row, col = divmod(q, size + 2)
    return (row - 1) * size + col - 1


def new_board() -> Int32Array:
    return np.zeros(LENGTH, dtype=np.int32)


@jit
def _list_update(b: Int32Array, q: int) -> None:
    """Put `q` in, or take it out of, each colour's legal list as its cell and friend counts say."""
    for c in range(2):
        want = b[CELL + q] == EMPTY and b[FRIENDS + c * P + q] == 1
        at = wide(b[LEGAL_AT + c * P + q])
        if want and at < 0:
            n = wide(b[H_N_LEGAL + c])
            b[LEGAL + c * P + n] = q
            b[LEGAL_AT + c * P + q] = n
            b[H_N_LEGAL + c] = n + 1
        elif not want and at >= 0:
            n = wide(b[H_N_LEGAL + c]) - 1
            moved = wide(b[LEGAL + c * P + n])
            b[LEGAL + c * P + at] = moved
            b[LEGAL_AT + c * P + moved] = at
            b[LEGAL_AT + c * P + q] = -1
            b[H_N_LEGAL + c] = n


@jit
def friend_of(b: Int32Array, q: int, c: int) -> int:
    """The first stone of colour `c` next to `q` (-1 if none)."""
    w = wide(b[H_W])
    code = c + 1
    for n in (q - w, q - 1, q + 1, q + w):
        if b[CELL + n] == code:
            return wide(n)
    return wide(-1)


@jit
def count_liberties(b: Int32Array, r: int) -> int:
    """A root's liberties from scratch (each one touches only this root's colour once, so no set)."""
    w = wide(b[H_W])
    c = wide(b[R_COLOUR + r])
    head = wide(b[R_HEAD + r])
    libs = 0
    s = head
    while True:
        for n in (s - w, s - 1, s + 1, s + w):
            if b[CELL + n] == EMPTY and b[FRIENDS + c * P + n] == 1:
                libs += 1
        s = wide(b[NEXT + s])
        if s == head:
            break
    return libs


@jit
def setup(b: Int32Array, size: int, cells: Int32Array, to_move: int, plies: int, cap: int) -> None:
    """Fill `b` from core cells (0 empty, 1 Black, 2 White by core point); roots found by flood fill."""
    w = size + 2
    b[:] = 0
    b[H_SIZE] = size
    b[H_W] = w
    b[H_TO_MOVE] = to_move
    b[H_PLIES] = plies
    b[H_CAP] = cap
    b[H_WINNER] = NO_WINNER
    b[H_LAST] = -1
    for q in range(P):
        b[CELL + q] = BORDER if q < w * w else EMPTY
        b[ROOT + q] = -1
        b[LEGAL_AT + q] = -1
        b[LEGAL_AT + P + q] = -1
    for p in range(size * size):
        q = (p // size + 1) * w + p % size + 1
        b[CELL + q] = cells[p]
        if cells[p] > 0:
            b[H_COUNT + cells[p] - 1] += 1
    for p in range(size * size):
        q = (p // size + 1) * w + p % size + 1
        for n in (q - w, q - 1, q + 1, q + w):
            v = wide(b[CELL + n])
            if v == 1 or v == 2:
                b[FRIENDS + (v - 1) * P + q] += 1
    stack = np.empty(P, dtype=np.int64)
    roots = 0
    for p in range(size * size):
        q = (p // size + 1) * w + p % size + 1
        v = wide(b[CELL + q])
        if (v != 1 and v != 2) or b[ROOT + q] >= 0:
            continue
        r = roots
        roots += 1
        b[R_COLOUR + r] = v - 1
        b[R_HEAD + r] = q
        b[ROOT + q] = r
        b[NEXT + q] = q
        stones = 1
        stack[0] = q
        top = 1
        while top > 0:
            top -= 1
            s = stack[top]
            for n in (s - w, s - 1, s + 1, s + w):
                if b[CELL + n] == v and b[ROOT + n] < 0:
                    b[ROOT + n] = r
                    b[NEXT + n] = b[NEXT + q]
                    b[NEXT + q] = n
                    stones += 1
                    stack[top] = n
                    top += 1
        b[R_SIZE + r] = stones
        b[R_LIBS + r] = count_liberties(b, r)
    b[H_ROOTS] = roots
    for p in range(size * size):
        _list_update(b, (p // size + 1) * w + p % size + 1)
    if b[H_COUNT] == 0 and b[H_COUNT + 1] == 0:
        b[H_WINNER] = DRAW
    elif b[H_COUNT] == 0:
        b[H_WINNER] = 1
    elif b[H_COUNT + 1] == 0:
        b[H_WINNER] = 0


@jit
def effects(b: Int32Array, q: int, out: Int32Array) -> None:
    """What a legal stone at `q` by the colour to move would do, without playing it (see E_*).

    Only the mover's root and roots that lose a liberty can change: the opponent root whose liberty `q`
    was, and the mover's roots whose liberty next to `q` now touches two friendly stones."""
    w = wide(b[H_W])
    c = wide(b[H_TO_MOVE])
    o = 1 - c
    mine = wide(b[ROOT + friend_of(b, q, c)])
    own_libs = wide(b[R_LIBS + mine]) - 1  # q itself was one of them
    n_hit = 0
    for n in (q - w, q - 1, q + 1, q + w):
        if b[CELL + n] != EMPTY:
            continue
        friends = b[FRIENDS + c * P + n]
        if friends == 0:
            own_libs += 1
        elif friends == 1:
            r = wide(b[ROOT + friend_of(b, n, c)])
            if r == mine:
                own_libs -= 1
            else:
                k = 0
                while k < n_hit and out[E_HIT + k] != r:
                    k += 1
                if k == n_hit:
                    out[E_HIT + k] = r
                    out[E_LOSS + k] = 0
                    n_hit += 1
                out[E_LOSS + k] += 1
    out[E_OWN_LIBS] = own_libs
    out[E_OWN_LOST] = 0
    out[E_TAKEN] = 0
    out[E_SHORT] = 0
    if own_libs == 0:
        return
    if own_libs == 1:
        out[E_SHORT] += 1  # whether the opponent can take it is left open: a cheap, cautious guess
    for k in range(n_hit):
        r = wide(out[E_HIT + k])
        left = b[R_LIBS + r] - out[E_LOSS + k]
        if left == 0:
            out[E_OWN_LOST] += b[R_SIZE + r]
        elif left == 1:
            out[E_SHORT] += 1
    if b[FRIENDS + o * P + q] == 1:
        r = wide(b[ROOT + friend_of(b, q, o)])
        if b[R_LIBS + r] == 1:
            out[E_TAKEN] = b[R_SIZE + r]


@jit
def _remove_root(b: Int32Array, r: int, touched: Int32Array) -> int:
    """Empty every stone of root `r` (friend counts and legal lists follow); returns how many roots'
    liberty counts must be recounted, listed in `touched` (which may repeat one)."""
    w = wide(b[H_W])
    c = wide(b[R_COLOUR + r])
    head = wide(b[R_HEAD + r])
    s = head
    while True:
        b[CELL + s] = EMPTY
        b[ROOT + s] = -1
        for n in (s - w, s - 1, s + 1, s + w):
            b[FRIENDS + c * P + n] -= 1
        s = wide(b[NEXT + s])
        if s == head:
            break
    b[H_COUNT + c] -= b[R_SIZE + r]
    b[H_REMOVED] += b[R_SIZE + r]
    b[R_SIZE + r] = 0
    b[R_HEAD + r] = -1
    b[R_LIBS + r] = 0
    n_touched = 0
    s = head
    while True:
        _list_update(b, s)
        for n in (s - w, s - 1, s + 1, s + w):
            v = wide(b[CELL + n])
            if v == 1 or v == 2:
                touched[n_touched] = b[ROOT + n]  # a root next to a freed point may gain it
                n_touched += 1
            elif v == EMPTY:
                _list_update(b, n)
                t = friend_of(b, n, c)
                if t >= 0:
                    touched[n_touched] = b[ROOT + t]  # one friend fewer there: may be a liberty now
                    n_touched += 1
        nxt = wide(b[NEXT + s])
        b[NEXT + s] = 0
        s = nxt
        if s == head:
            break
    return n_touched


@jit
def play(b: Int32Array, q: int) -> None:
    """Place a stone of the colour to move at the legal point `q` and resolve it (SPEC §4.3, §4.4, T5)."""
    w = wide(b[H_W])
    c = wide(b[H_TO_MOVE])
    o = 1 - c
    mine = wide(b[ROOT + friend_of(b, q, c)])
    doomed = b[H_DOOMED : H_DOOMED + 8]
    n_doomed = 0
    b[R_LIBS + mine] -= 1  # q was its liberty
    if b[FRIENDS + o * P + q] == 1:
        r = wide(b[ROOT + friend_of(b, q, o)])
        b[R_LIBS + r] -= 1
        doomed[n_doomed] = r
        n_doomed += 1
    for n in (q - w, q - 1, q + 1, q + w):
        if b[CELL + n] == EMPTY:
            friends = b[FRIENDS + c * P + n]
            if friends == 0:
                b[R_LIBS + mine] += 1
            elif friends == 1:
                r = wide(b[ROOT + friend_of(b, n, c)])
                b[R_LIBS + r] -= 1
                doomed[n_doomed] = r
                n_doomed += 1
    b[CELL + q] = c + 1
    b[ROOT + q] = mine
    head = wide(b[R_HEAD + mine])
    b[NEXT + q] = b[NEXT + head]
    b[NEXT + head] = q
    b[R_SIZE + mine] += 1
    b[H_COUNT + c] += 1
    for n in (q - w, q - 1, q + 1, q + w):
        b[FRIENDS + c * P + n] += 1
    _list_update(b, q)
    for n in (q - w, q - 1, q + 1, q + w):
        _list_update(b, n)
    b[H_REMOVED] = 0
    n_touched = 0
    touched = b[H_DOOMED : H_DOOMED + 1]  # replaced by room for the roots around removed stones
    if b[R_LIBS + mine] == 0:
        touched = np.empty(4 * wide(b[R_SIZE + mine]), dtype=np.int32)
        n_touched = _remove_root(b, mine, touched)  # bounded: it dies alone (§4.3)
    else:
        # Every bounded root dies at once: decide them all before removing any.
        for i in range(n_doomed):
            r = wide(doomed[i])
            if b[R_LIBS + r] != 0 or b[R_HEAD + r] < 0:
                doomed[i] = -1
                continue
            else:
                for k in range(i):
                    if doomed[k] == r:
                        doomed[i] = -1
        room = 0
        for i in range(n_doomed):
            if doomed[i] >= 0:
                room += 4 * wide(b[R_SIZE + doomed[i]])
        if room > 0:
            touched = np.empty(room, dtype=np.int32)
            for i in range(n_doomed):
                if doomed[i] >= 0:
                    n_touched += _remove_root(b, wide(doomed[i]), touched[n_touched:])
    for i in range(n_touched):
        r = wide(touched[i])
        if b[R_HEAD + r] >= 0:
            b[R_LIBS + r] = count_liberties(b, r)
    b[H_LAST] = q
    b[H_PLIES] += 1
    b[H_TO_MOVE] = o
    if b[H_COUNT + c] == 0:
        b[H_WINNER] = o
    elif b[H_COUNT + o] == 0:
        b[H_WINNER] = c
    elif b[H_PLIES] >= b[H_CAP]:
        if b[H_COUNT] == b[H_COUNT + 1]:
            b[H_WINNER] = DRAW
        elif b[H_COUNT + 1] > b[H_COUNT]:
            b[H_WINNER] = 1
        else:
            b[H_WINNER] = 0


@jit
def legal_count(b: Int32Array) -> int:
    if b[H_WINNER] != NO_WINNER:
        return 0
    return wide(b[H_N_LEGAL + b[H_TO_MOVE]])


@jit
def legal_at(b: Int32Array, i: int) -> int:
    """The i-th legal point of the colour to move (in the list's own order)."""
    return wide(b[LEGAL + b[H_TO_MOVE] * P + i])

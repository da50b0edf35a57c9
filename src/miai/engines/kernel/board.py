"""Compiled Go board operations on the arrays described in layout.py: setting up, playing, legality.

`place` resolves a play exactly as the core's `placement.place` does (SPEC §1.5: every colour left without
liberties is removed at once, then multi-stone suicide when allowed), which the differential test
tests/engines/test_kernel_vs_core.py checks move by move. `legal` is the full rule check including simple
ko and positional or situational superko; `playable` is the cheap check of playouts (simple ko only, no
suicide, no filling of one's own eyes).
"""

# numba compiles plain comparisons and loops best; keep them rather than `in (...)`, any() or ternaries.
# ruff: noqa: PLR1714, SIM109, SIM110

from __future__ import annotations

import numpy as np

from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.layout import (
    COL,
    EMPTIES,
    EMPTY,
    EPOS,
    H_ACTIVE,
    H_CAPTURED,
    H_COLOURS,
    H_KO_COLOUR,
    H_KO_POINT,
    H_KO_RULE,
    H_LAST,
    H_LAST2,
    H_N_ACTIVE,
    H_N_EMPTY,
    H_PASSES,
    H_PLIES_LEFT,
    H_SIZE,
    H_SUICIDE,
    H_TO_MOVE,
    HDR,
    HEAD,
    KO_SIMPLE,
    KO_SITUATIONAL,
    LENGTH,
    LIBS,
    NEXT,
    NO_MOVE,
    OFF,
    PASS,
    SIZE,
    Int32Array,
    P,
    UInt64Array,
    W,
)


@jit
def new_board(size: int, colours: int) -> Int32Array:
    """An empty N×N board with every colour active and colour 0 to move."""
    b = np.zeros(LENGTH, dtype=np.int32)
    for q in range(P):
        b[COL + q] = OFF
        b[EPOS + q] = -1
    n = 0
    for row in range(size):
        for col in range(size):
            q = (row + 1) * W + col + 1
            b[COL + q] = EMPTY
            b[EMPTIES + n] = q
            b[EPOS + q] = n
            n += 1
    b[H_SIZE] = size
    b[H_COLOURS] = colours
    b[H_N_EMPTY] = n
    b[H_ACTIVE] = (1 << colours) - 1
    b[H_N_ACTIVE] = colours
    b[H_KO_POINT] = -1
    b[H_KO_COLOUR] = -1
    b[H_PLIES_LEFT] = -1
    b[H_LAST] = NO_MOVE
    b[H_LAST2] = NO_MOVE
    return b


@jit
def next_colour(b: Int32Array, colour: int) -> int:
    colours = b[H_COLOURS]
    if colours == 2 and b[H_N_ACTIVE] == 2:
        return 1 - colour
    active = b[H_ACTIVE]
    for step in range(1, colours + 1):
        c = wide((colour + step) % colours)
        if active >> c & 1:
            return c
    return colour


@jit
def _take_empty(b: Int32Array, q: int) -> None:
    i = b[EPOS + q]
    last = b[EMPTIES + b[H_N_EMPTY] - 1]
    b[EMPTIES + i] = last
    b[EPOS + last] = i
    b[EPOS + q] = -1
    b[H_N_EMPTY] -= 1


@jit
def _give_empty(b: Int32Array, q: int) -> None:
    n = b[H_N_EMPTY]
    b[EMPTIES + n] = q
    b[EPOS + q] = n
    b[H_N_EMPTY] = n + 1


@jit
def _remove_chain(b: Int32Array, zob: UInt64Array, head: int, h: np.uint64) -> tuple[int, np.uint64]:
    """Empty the chain's points (liberties of the neighbours are restored afterwards by the caller)."""
    count = 0
    s = head
    while True:
        h ^= zob[b[COL + s], s]
        b[COL + s] = EMPTY
        _give_empty(b, s)
        count += 1
        s = b[NEXT + s]
        if s == head:
            break
    return count, h


@jit
def _restore_liberties(b: Int32Array, head: int) -> None:
    """After a chain is removed, every stone next to one of its points gains a pseudo-liberty."""
    s = head
    while True:
        for n in (s - W, s - 1, s + 1, s + W):
            if b[COL + n] >= 0:
                b[LIBS + b[HEAD + n]] += 1
        s = b[NEXT + s]
        if s == head:
            break


@jit
def place(b: Int32Array, hz: UInt64Array, zob: UInt64Array, colour: int, q: int) -> int:
    """Play a `colour` stone at the empty point q (legality is the caller's job); returns stones removed.

    Updates chains, the empty list, hashes, capture counts, the playout ko point, the pass counter and the
    colour to move, like the core's `GoState._apply` for a placement.
    """
    h = hz[0] ^ zob[colour, q]
    b[COL + q] = colour
    _take_empty(b, q)
    free = 0
    mine = wide(-1)  # a non-literal -1, so numba compiles the helpers below once
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v == EMPTY:
            free += 1
            continue
        if v < 0:
            continue
        hd = wide(b[HEAD + n])
        b[LIBS + hd] -= 1  # that chain loses its (stone, q) pseudo-liberty
        if v != colour:
            continue
        if mine < 0:
            mine = hd
        elif hd != mine:
            # Union by size: relabel the smaller chain, splice the two circular lists, add the counts.
            small = hd
            big = mine
            if b[SIZE + small] > b[SIZE + big]:
                small, big = big, small
            s = small
            while True:
                b[HEAD + s] = big
                s = b[NEXT + s]
                if s == small:
                    break
            t = b[NEXT + big]
            b[NEXT + big] = b[NEXT + small]
            b[NEXT + small] = t
            b[SIZE + big] += b[SIZE + small]
            b[LIBS + big] += b[LIBS + small]
            mine = big
    if mine < 0:
        mine = q
        b[HEAD + q] = q
        b[NEXT + q] = q
        b[SIZE + q] = 1
        b[LIBS + q] = free
    else:
        b[HEAD + q] = mine
        b[NEXT + q] = b[NEXT + mine]
        b[NEXT + mine] = q
        b[SIZE + mine] += 1
        b[LIBS + mine] += free
    # SPEC G1: every other colour's chain left without liberties goes at once, then liberties come back.
    e0 = wide(-1)
    e1 = wide(-1)
    e2 = wide(-1)
    e3 = wide(-1)
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v >= 0 and v != colour:
            hd = wide(b[HEAD + n])
            if b[LIBS + hd] == 0 and hd != e0 and hd != e1 and hd != e2:
                if e0 < 0:
                    e0 = hd
                elif e1 < 0:
                    e1 = hd
                elif e2 < 0:
                    e2 = hd
                else:
                    e3 = hd
    removed = 0
    ko = -1
    ko_colour = -1
    for hd in (e0, e1, e2, e3):
        if hd >= 0:
            if b[SIZE + hd] == 1:
                ko = hd
                ko_colour = b[COL + hd]
            n_removed, h = _remove_chain(b, zob, hd, h)
            removed += n_removed
    if removed:
        b[H_CAPTURED + colour] += removed
        for hd in (e0, e1, e2, e3):
            if hd >= 0:
                _restore_liberties(b, hd)
    elif b[LIBS + mine] == 0:
        # Allowed multi-stone suicide (G14): the mover's own chain goes; no capture points.
        n_removed, h = _remove_chain(b, zob, mine, h)
        removed = n_removed
        _restore_liberties(b, mine)
    if removed == 1 and ko >= 0 and b[COL + q] == colour and b[SIZE + mine] == 1 and b[LIBS + mine] == 1:
        b[H_KO_POINT] = ko
        b[H_KO_COLOUR] = ko_colour
    else:
        b[H_KO_POINT] = -1
        b[H_KO_COLOUR] = -1
    hz[1] = hz[0]
    hz[0] = h
    b[H_PASSES] = 0
    b[H_LAST2] = b[H_LAST]
    b[H_LAST] = q
    b[H_TO_MOVE] = next_colour(b, colour)
    if b[H_PLIES_LEFT] > 0:
        b[H_PLIES_LEFT] -= 1
    return removed


@jit
def play_pass(b: Int32Array, hz: UInt64Array, colour: int) -> None:
    hz[1] = hz[0]
    b[H_PASSES] += 1
    b[H_KO_POINT] = -1
    b[H_KO_COLOUR] = -1
    b[H_LAST2] = b[H_LAST]
    b[H_LAST] = PASS
    b[H_TO_MOVE] = next_colour(b, colour)
    if b[H_PLIES_LEFT] > 0:
        b[H_PLIES_LEFT] -= 1


@jit
def play(b: Int32Array, hz: UInt64Array, zob: UInt64Array, colour: int, move: int) -> int:
    """A placement (padded point) or PASS by `colour`."""
    if move == PASS:
        play_pass(b, hz, colour)
        return 0
    return place(b, hz, zob, colour, move)


@jit
def is_over(b: Int32Array) -> bool:
    return bool(b[H_PASSES] >= b[H_N_ACTIVE] or b[H_N_ACTIVE] <= 1 or b[H_PLIES_LEFT] == 0)


@jit
def _pairs(b: Int32Array, q: int, head: int) -> int:
    """How many of q's neighbours belong to the chain `head`: its (stone, q) pseudo-liberties."""
    k = 0
    for m in (q - W, q - 1, q + 1, q + W):
        if b[COL + m] >= 0 and b[HEAD + m] == head:
            k += 1
    return k


@jit
def _chain_hash(b: Int32Array, zob: UInt64Array, head: int) -> np.uint64:
    h = np.uint64(0)
    s = head
    while True:
        h ^= zob[b[COL + s], s]
        s = b[NEXT + s]
        if s == head:
            break
    return np.uint64(h)


@jit
def seen(key: np.uint64, history: UInt64Array, extra: UInt64Array, n_extra: int) -> bool:
    """Whether `key` is in the sorted `history` or among the first n_extra keys of `extra`."""
    i = np.searchsorted(history, key)
    if i < history.shape[0] and history[i] == key:
        return True
    for j in range(n_extra):
        if extra[j] == key:
            return True
    return False


@jit
def result_hash(
    b: Int32Array, hz: UInt64Array, zob: UInt64Array, colour: int, q: int
) -> tuple[int, np.uint64]:
    """What a placement would do without doing it: (-1 illegal by stones | 0 plain | 1 removes stones, hash).

    Illegal by stones means occupied or suicide (forbidden, or a lone stone). Ko is not checked here.
    """
    if b[COL + q] != EMPTY:
        return -1, hz[0]
    has_liberty = False
    friend = False
    captures = False
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v == EMPTY:
            has_liberty = True
        elif v >= 0:
            hd = wide(b[HEAD + n])
            only_q = b[LIBS + hd] == _pairs(b, q, hd)
            if v == colour:
                friend = True
                if not only_q:
                    has_liberty = True
            elif only_q:
                captures = True
    h = hz[0] ^ zob[colour, q]
    if captures:
        d0 = -1
        d1 = -1
        d2 = -1
        for n in (q - W, q - 1, q + 1, q + W):
            v = b[COL + n]
            if v >= 0 and v != colour:
                hd = b[HEAD + n]
                if hd != d0 and hd != d1 and hd != d2 and b[LIBS + hd] == _pairs(b, q, hd):
                    h ^= _chain_hash(b, zob, hd)
                    if d0 < 0:
                        d0 = hd
                    elif d1 < 0:
                        d1 = hd
                    else:
                        d2 = hd
        return 1, h
    if has_liberty:
        return 0, h
    if b[H_SUICIDE] == 0 or not friend:
        return -1, h
    # Multi-stone suicide: the new stone and every friendly chain next to it leave the board.
    h = hz[0]
    d0 = -1
    d1 = -1
    d2 = -1
    for n in (q - W, q - 1, q + 1, q + W):
        if b[COL + n] == colour:
            hd = b[HEAD + n]
            if hd != d0 and hd != d1 and hd != d2:
                h ^= _chain_hash(b, zob, hd)
                if d0 < 0:
                    d0 = hd
                elif d1 < 0:
                    d1 = hd
                else:
                    d2 = hd
    return 1, h


@jit
def history_key(b: Int32Array, board_hash: np.uint64, colour: int, sit: UInt64Array) -> np.uint64:
    if b[H_KO_RULE] == KO_SITUATIONAL:
        return np.uint64(board_hash ^ sit[colour])
    return board_hash


@jit
def legal(
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    sit: UInt64Array,
    history: UInt64Array,
    extra: UInt64Array,
    n_extra: int,
    colour: int,
    q: int,
) -> bool:
    """The core's full legality of a placement: occupied, suicide, simple ko or superko."""
    kind, h = result_hash(b, hz, zob, colour, q)
    if kind < 0:
        return False
    if b[H_KO_RULE] == KO_SIMPLE:
        return kind == 0 or h != hz[1]
    return not seen(history_key(b, h, colour, sit), history, extra, n_extra)


@jit
def is_eye(b: Int32Array, colour: int, q: int) -> bool:
    """An empty point surrounded by `colour` whose diagonals do not make it false (the usual playout test)."""
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v != colour and v != OFF:
            return False
    bad = 0
    edge = False
    for n in (q - W - 1, q - W + 1, q + W - 1, q + W + 1):
        v = b[COL + n]
        if v == OFF:
            edge = True
        elif v >= 0 and v != colour:
            bad += 1
    if edge:
        return bad == 0
    return bad < 2


@jit
def playable(b: Int32Array, colour: int, q: int) -> bool:
    """Cheap legality for playouts: empty, not the playout ko, not suicide (any suicide), not an own eye."""
    if b[COL + q] != EMPTY:
        return False
    if q == b[H_KO_POINT] and colour == b[H_KO_COLOUR]:
        return False
    friendly = 0  # own stones and edges around q
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v == EMPTY:
            return True  # a liberty of its own, and an eye has none
        if v == colour or v == OFF:
            friendly += 1
    if friendly == 4 and is_eye(b, colour, q):
        return False
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v >= 0:
            hd = wide(b[HEAD + n])
            only_q = b[LIBS + hd] == _pairs(b, q, hd)
            if v == colour:
                if not only_q:
                    return True
            elif only_q:
                return True
    return False


@jit
def liberties_upto(b: Int32Array, head: int, limit: int, out: Int32Array) -> int:
    """Distinct liberties of a chain, at most `limit` (<= out.size), written to `out`; returns the count."""
    if b[LIBS + head] == 0:
        return 0
    count = 0
    s = head
    while True:
        for n in (s - W, s - 1, s + 1, s + W):
            if b[COL + n] == EMPTY:
                known = False
                for i in range(count):
                    if out[i] == n:
                        known = True
                        break
                if not known:
                    out[count] = n
                    count += 1
                    if count >= limit:
                        return count
        s = b[NEXT + s]
        if s == head:
            break
    return count


@jit
def liberties_after(b: Int32Array, colour: int, q: int, limit: int, out: Int32Array) -> int:
    """Liberties (at most `limit`) of the chain a `colour` stone at q would form, ignoring captures."""
    count = 0
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v == EMPTY:
            known = False
            for i in range(count):
                if out[i] == n:
                    known = True
            if not known:
                out[count] = n
                count += 1
                if count >= limit:
                    return count
        elif v == colour:
            hd = b[HEAD + n]
            s = hd
            while True:
                for m in (s - W, s - 1, s + 1, s + W):
                    if b[COL + m] == EMPTY and m != q:
                        known = False
                        for i in range(count):
                            if out[i] == m:
                                known = True
                        if not known:
                            out[count] = m
                            count += 1
                            if count >= limit:
                                return count
                s = b[NEXT + s]
                if s == hd:
                    break
    return count


@jit
def captures_any(b: Int32Array, colour: int, q: int) -> int:
    """Stones of other colours that a `colour` stone at q would capture (0 when none)."""
    total = 0
    d0 = -1
    d1 = -1
    d2 = -1
    for n in (q - W, q - 1, q + 1, q + W):
        v = b[COL + n]
        if v >= 0 and v != colour:
            hd = wide(b[HEAD + n])
            if hd != d0 and hd != d1 and hd != d2 and b[LIBS + hd] == _pairs(b, q, hd):
                total += b[SIZE + hd]
                if d0 < 0:
                    d0 = hd
                elif d1 < 0:
                    d1 = hd
                else:
                    d2 = hd
    return total


@jit
def legal_points(
    b: Int32Array,
    hz: UInt64Array,
    zob: UInt64Array,
    sit: UInt64Array,
    history: UInt64Array,
    extra: UInt64Array,
    n_extra: int,
    colour: int,
    out: Int32Array,
) -> int:
    """Every legal placement of `colour` (full rules) written to `out`; returns how many."""
    n = 0
    for i in range(b[H_N_EMPTY]):
        q = b[EMPTIES + i]
        if legal(b, hz, zob, sit, history, extra, n_extra, colour, q):
            out[n] = q
            n += 1
    return n


@jit
def copy_board(dst: Int32Array, src: Int32Array) -> None:
    """dst := src, copying only the rows a board of this size uses (a 9x9 board needs a third of it)."""
    span = (src[H_SIZE] + 2) * W
    dst[:HDR] = src[:HDR]
    for field in range(7):
        base = HDR + field * P
        dst[base : base + span] = src[base : base + span]

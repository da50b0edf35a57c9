"""Resolving one play on a flat board array (SPEC §1.5), and building the array for a given position.

The whole position lives in one `array('h')` of 5 × N² shorts, so that a play costs a single memcpy plus
O(1) work for the usual move (the classic layout of GNU Go and Fuego):

    cells[p]           colour of the stone at p, or -1 when empty
    cells[HEAD + p]    head point of the chain through p
    cells[NEXT + p]    next stone of the same chain (a circular list, so merging is O(1))
    cells[PSEUDO + h]  pseudo-liberties of the chain with head h: (stone, empty neighbour) pairs,
                       zero exactly when the chain has no liberty
    cells[SIZE + h]    number of stones of the chain with head h

with HEAD = N², NEXT = 2N², PSEUDO = 3N², SIZE = 4N².
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping

from miai.core.errors import IllegalMove, IllegalReason
from miai.core.go.board import ZOBRIST, Geometry

EMPTY = -1
_SUICIDE = IllegalMove(IllegalReason.SUICIDE)


def empty_cells(geo: Geometry) -> array[int]:
    return array("h", [EMPTY]) * (5 * geo.size * geo.size)


def chain_points(cells: array[int], n2: int, p: int) -> list[int]:
    """The stones of the chain through the occupied point p, by walking its circular list."""
    nxt = 2 * n2
    out = [p]
    s = cells[nxt + p]
    while s != p:
        out.append(s)
        s = cells[nxt + s]
    return out


def place(
    geo: Geometry, cells: array[int], board_hash: int, colour: int, p: int, multi_stone_suicide: bool
) -> tuple[array[int], int, list[int]]:
    """Put a `colour` stone on the empty point `p`; returns (cells, hash, emptied points).

    Raises IllegalMove(SUICIDE) when the stone's chain is left without a liberty and nothing was captured
    (unless multi-stone suicide is allowed and the chain has more than one stone). Ko is the caller's job.
    """
    n2 = geo.n2
    head_at = n2
    nxt = 2 * n2
    ps = 3 * n2
    sz = 4 * n2
    neighbours = geo.neighbours
    new = cells[:]
    new[p] = colour
    new_hash = board_hash ^ ZOBRIST[colour][p]
    pseudo = 0
    friends: list[int] = []
    enemies: list[int] = []
    for n in neighbours[p]:
        c = new[n]
        if c < 0:
            pseudo += 1
            continue
        head = new[head_at + n]
        new[ps + head] -= 1  # that stone loses its (stone, p) pseudo-liberty
        if c == colour:
            if head not in friends:
                friends.append(head)
        elif head not in enemies:
            enemies.append(head)
    if not friends:
        mine = p
        new[head_at + p] = p
        new[nxt + p] = p
        new[sz + p] = 1
        new[ps + p] = pseudo
    else:
        mine = friends[0]
        for head in friends:
            if new[sz + head] > new[sz + mine]:
                mine = head
        size = 1
        for head in friends:
            size += new[sz + head]
            pseudo += new[ps + head]
            if head != mine:
                # Union by size: relabel the smaller chain, then splice the two circular lists.
                s = head
                while True:
                    new[head_at + s] = mine
                    s = new[nxt + s]
                    if s == head:
                        break
                new[nxt + mine], new[nxt + head] = new[nxt + head], new[nxt + mine]
        new[head_at + p] = mine
        new[nxt + p] = new[nxt + mine]
        new[nxt + mine] = p
        new[sz + mine] = size
        new[ps + mine] = pseudo
    removed: list[int] = []
    for head in enemies:
        if not new[ps + head]:
            removed.extend(chain_points(new, n2, head))  # G1: every colour without liberties goes at once
    if not removed and not pseudo:
        if not multi_stone_suicide or new[sz + mine] == 1:
            raise _SUICIDE
        removed = chain_points(new, n2, mine)  # G14: allowed multi-stone suicide removes the mover's chain
    if removed:
        for s in removed:
            new_hash ^= ZOBRIST[new[s]][s]
            new[s] = EMPTY
        for s in removed:
            for n in neighbours[s]:
                if new[n] >= 0:
                    new[ps + new[head_at + n]] += 1
    return new, new_hash, removed


def build_position(geo: Geometry, position: Mapping[int, int]) -> tuple[array[int], int]:
    """Cells and Zobrist hash of a position given as point -> colour, by flood fill."""
    n2 = geo.n2
    cells = empty_cells(geo)
    neighbours = geo.neighbours
    board_hash = 0
    for point, colour in position.items():
        cells[point] = colour
        board_hash ^= ZOBRIST[colour][point]
    done = [False] * n2
    for start, colour in position.items():
        if done[start]:
            continue
        stones = [start]
        done[start] = True
        pseudo = 0
        i = 0
        while i < len(stones):
            q = stones[i]
            i += 1
            for n in neighbours[q]:
                other = cells[n]
                if other < 0:
                    pseudo += 1
                elif other == colour and not done[n]:
                    done[n] = True
                    stones.append(n)
        for i, s in enumerate(stones):
            cells[n2 + s] = start
            cells[2 * n2 + s] = stones[(i + 1) % len(stones)]
        cells[3 * n2 + start] = pseudo
        cells[4 * n2 + start] = len(stones)
    return cells, board_hash

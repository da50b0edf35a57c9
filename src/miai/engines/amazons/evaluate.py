"""The territory evaluation of strong Amazons programs (Invader, Amazong): who reaches each square first.

For each player, a breadth-first search gives every empty square's distance in queen moves (`dq`) and in
king moves (`dk`) from that player's nearest queen, through empty squares. A square belongs to the
player who reaches it in fewer moves; equal distances count a little for the player to move (he gets
there first). Queen-distance territory decides the long run; king distance tells who holds a square
more firmly and weighs most early, when the queen figures are still vague. A queen with few empty
neighbours is penalised (it is about to be shut in). The score is from one player's side, in squares.
"""

from __future__ import annotations

import math

import numpy as np

from miai.engines.amazons.board import EMPTY, Int8Array, Int32Array
from miai.engines.kernel.jit import jit

FAR = 127  # a square nobody reaches
TIE = 0.2  # what an equally reached square is worth to the player to move
KING_WEIGHT = 0.4
TRAPPED_WEIGHT = 0.5  # per missing empty neighbour below TRAPPED_BELOW, per queen
TRAPPED_BELOW = 3
SCALE = 4.0  # squares of advantage that make a 73% winning chance (logistic)


def new_work(size: int) -> Int32Array:
    """Scratch space for `evaluate`: 4 distance rows (dq0, dq1, dk0, dk1) and a queue."""
    return np.zeros((5, size * size), dtype=np.int32)


@jit
def distances(
    cells: Int8Array, ray: Int32Array, player: int, king: bool, dist: Int32Array, queue: Int32Array
) -> None:
    """`dist[p]`: moves `player`'s nearest queen needs to reach empty square p (FAR when it cannot)."""
    n2 = cells.shape[0]
    head = 0
    tail = 0
    for p in range(n2):
        if cells[p] == player + 1:
            dist[p] = 0
            queue[tail] = p
            tail += 1
        else:
            dist[p] = FAR
    reach = 1 if king else ray.shape[2]
    while head < tail:
        p = queue[head]
        head += 1
        step = dist[p] + 1
        for d in range(8):
            for k in range(reach):
                q = ray[p, d, k]
                if q < 0 or cells[q] != EMPTY:
                    break
                if dist[q] > step:
                    dist[q] = step
                    queue[tail] = q
                    tail += 1


@jit
def _trapped(cells: Int8Array, ray: Int32Array, player: int) -> float:
    """Empty neighbours missing below TRAPPED_BELOW, summed over `player`'s queens."""
    missing = 0
    for p in range(cells.shape[0]):
        if cells[p] == player + 1:
            free = 0
            for d in range(8):
                q = ray[p, d, 0]
                if q >= 0 and cells[q] == EMPTY:
                    free += 1
            if free < TRAPPED_BELOW:
                missing += TRAPPED_BELOW - free
    return float(missing)


@jit
def evaluate(cells: Int8Array, ray: Int32Array, me: int, to_move: int, work: Int32Array) -> float:
    """The position's score in squares for player `me`, `to_move` being the player to move."""
    other = 1 - me
    distances(cells, ray, me, False, work[0], work[4])
    distances(cells, ray, other, False, work[1], work[4])
    distances(cells, ray, me, True, work[2], work[4])
    distances(cells, ray, other, True, work[3], work[4])
    tie = TIE if to_move == me else -TIE
    queen_part = 0.0
    king_part = 0.0
    for p in range(cells.shape[0]):
        if cells[p] != EMPTY:
            continue
        a, b = work[0, p], work[1, p]
        if a < b:
            queen_part += 1.0
        elif b < a:
            queen_part -= 1.0
        elif a < FAR:
            queen_part += tie
        a, b = work[2, p], work[3, p]
        if a < b:
            king_part += 1.0
        elif b < a:
            king_part -= 1.0
        elif a < FAR:
            king_part += tie
    trapped = _trapped(cells, ray, other) - _trapped(cells, ray, me)
    return queen_part + KING_WEIGHT * king_part + TRAPPED_WEIGHT * trapped


@jit
def win_chance(score: float) -> float:
    """A score in squares as a winning chance (logistic)."""
    return 1.0 / (1.0 + math.exp(-score / SCALE))

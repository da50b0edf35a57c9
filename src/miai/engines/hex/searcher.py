"""The Hex computer player: the compiled search behind `miai.engines.game_search`'s `GameSearcher`.

One searcher serves one seat. Its tree is kept between moves: when the new state follows the one its
root stands for (`game_search.moves_since`, which also follows the one-step records engine processes are
sent), the root walks down those moves; otherwise the tree is rebuilt. Levels as `miai.engines.levels`
defines them for these games: 1..9 search a fixed number of playouts (within a time cap) and the lowest
ones sometimes play at random, 10 searches for the time.

Swap (the opening rule): as second player the engine swaps a first stone at least two cells away from
every edge (central first moves win for the first player); as first player under the swap rule it opens
on the second ring from the edge (row or column 2 or n−1), which its own rule would not swap.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from miai.core.hex import SWAP, HexMove, HexState, Opening
from miai.core.twoplayer import Place
from miai.engines.game_search import moves_since
from miai.engines.hex.board import (
    Int8Array,
    Int32Array,
    board_of,
    empty_board,
    inner_cells,
    offsets,
    padded,
    unpadded,
    width,
)
from miai.engines.hex.connect import connections
from miai.engines.hex.tree import (
    AMAF_VISITS,
    AMAF_WINS,
    COUNT,
    FIRST,
    MOVE,
    USED,
    VISITS,
    WINS,
    best_child,
    child_with_move,
    compact,
    new_pool,
    reset,
    simulate,
)
from miai.engines.levels import game_budget
from miai.engines.mcts import MCTS
from miai.engines.result import MoveStats, SearchResult

CAPACITY = 1_000_000  # nodes (28 bytes each)
LOOKS = 40  # looks at the clock per move at least: batches shrink when the machine is busy
MIN_SIZE = 3  # the padded board and its edge templates: on 2×2 the compiled search answers off the board
EVALUATE_SECONDS = 600.0  # a review's search is bounded by its playouts; this only guards against a hang
_compiled: list[bool] = []  # set once this process has run the compiled search


def edge_distance(point: int, size: int) -> int:
    r, c = divmod(point, size)
    return min(r, c, size - 1 - r, size - 1 - c)


def should_swap(state: HexState) -> bool:
    """Swap a first stone at least two cells from every edge."""
    (first,) = [p for p, code in enumerate(state.cells) if code]
    return edge_distance(first, state.size) >= 2


def root_mask(state: HexState, legal: list[HexMove]) -> Int8Array:
    """Per padded cell, 1 where the root may move: the legal cells, only the second ring when opening
    under the swap rule."""
    size = state.size
    allowed = np.zeros(width(size) * width(size), dtype=np.int8)
    opening_under_swap = state.opening is Opening.SWAP and not any(state.cells)
    for move in legal:
        if isinstance(move, Place) and (not opening_under_swap or edge_distance(move.point, size) == 1):
            allowed[padded(move.point, size)] = 1
    return allowed


class HexSearcher:
    """UCT with RAVE over compiled playouts, the tree kept between the moves of one game."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.pool: tuple[Any, Any, Any] | None = None
        self.root = 0
        self.at: HexState | None = None  # the position the root stands for
        self.last_playouts = 0
        self.compactions = 0

    def close(self) -> None:
        self.pool = None
        self.at = None

    def move(self, state: HexState, level: int, seconds: float | None, seed: int) -> HexMove:
        budget = game_budget(level, seconds)  # checks the level; an unusable time is the level's own
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        rng = random.Random(seed)
        legal = state.legal_moves()
        if state.size < MIN_SIZE:  # the generic search is enough there (and the compiled one is wrong)
            return MCTS(rng).search(state, playouts=budget.playouts, seconds=budget.seconds).move
        if state.swap_available:
            return SWAP if should_swap(state) else self._search(state, legal, level, seconds, seed)
        if budget.blunders and rng.random() < budget.blunders:
            return rng.choice(legal)
        return self._search(state, legal, level, seconds, seed)

    def evaluate(self, state: HexState, playouts: int, seed: int) -> SearchResult[HexMove]:
        """The root's statistics after `playouts` simulations of a new tree (a game review): no level, no
        deliberate error; the swap, when available, valued by a search of the swapped position."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        if state.size < MIN_SIZE:
            return MCTS(random.Random(seed), reuse=False).search(state, playouts=playouts)
        started = time.monotonic()
        legal = state.legal_moves()
        self.close()  # a new tree the size of the budget: the review's position follows no earlier search
        self.pool = new_pool(min(self.capacity, 1 + playouts * state.size * state.size))
        self.root, self.at = 0, state
        done = self._simulate(state, legal, EVALUATE_SECONDS, playouts, seed)
        ni, nf, _ = self.pool
        first, count = int(ni[0, FIRST]), int(ni[0, COUNT])
        stats: list[MoveStats[HexMove]] = []
        for c in range(first, first + count) if first >= 0 else range(0):
            visits = float(nf[c, VISITS])
            rate = float(nf[c, WINS]) / visits if visits else float(nf[c, AMAF_WINS] / nf[c, AMAF_VISITS])
            stats.append(MoveStats(Place(unpadded(int(ni[c, MOVE]), state.size)), int(visits), rate))
        self.close()
        stats.sort(key=lambda s: (-s.visits, -s.win_rate))
        best = stats[0] if stats else None
        if state.swap_available:  # the better of swapping and the most visited placement
            swapped = self.evaluate(state.play(SWAP), playouts, seed)
            swap: MoveStats[HexMove] = MoveStats(SWAP, swapped.playouts, 1.0 - swapped.win_rate)
            done += swapped.playouts
            best = swap if best is None or swap.win_rate > best.win_rate else best
            stats = sorted([*stats, swap], key=lambda s: (-s.visits, -s.win_rate))
        if best is None:  # the pool was full before the root could grow
            return MCTS(random.Random(seed), reuse=False).search(state, playouts=playouts)
        elapsed = time.monotonic() - started
        return SearchResult(best.move, best.visits, best.win_rate, done, elapsed, [best.move], stats)

    # --- internals

    def _search(
        self, state: HexState, legal: list[HexMove], level: int, seconds: float | None, seed: int
    ) -> HexMove:
        allowance = game_budget(level, seconds)
        ni, nf, _ = self.follow(state)
        self.last_playouts = self._simulate(state, legal, allowance.seconds, allowance.playouts, seed)
        best = int(best_child(ni, nf, self.root))
        if best < 0:  # the pool was full before the root could grow: any legal move
            return legal[0]
        chosen = Place(unpadded(int(ni[best, 0]), state.size))
        self.root = best
        self.at = state.play(chosen)
        return chosen

    def _simulate(
        self, state: HexState, legal: list[HexMove], budget: float, playouts: int | None, seed: int
    ) -> int:
        """Simulations from the root (at `state`) for `budget` seconds or `playouts`; how many ran."""
        assert self.pool is not None
        ni, nf, meta = self.pool
        size = state.size
        cells = board_of(state.cells, size)
        allowed = root_mask(state, legal)
        everywhere = np.ones_like(cells)
        last = state.last_move
        last_cell = padded(last.point, size) if isinstance(last, Place) else -1
        playouts = playouts or 1 << 62
        inner, off = inner_cells(size), offsets(size)
        scratch = empty_board(size)
        area = width(size) * width(size)
        empties: Int32Array = np.zeros(area, dtype=np.int32)
        where: Int32Array = np.zeros(area, dtype=np.int32)
        stack: Int32Array = np.zeros(area, dtype=np.int32)
        seen: Int32Array = np.zeros(area, dtype=np.int32)
        path: Int32Array = np.zeros(area + 2, dtype=np.int32)
        root_parent = connections(cells, size)
        parent = root_parent.copy()
        root = self.root

        def run(count: int, start_seed: int) -> int:
            """`count` simulations; a seed ≥ 0 reseeds the compiled generator, -1 continues its sequence."""
            return simulate(
                ni, nf, meta, root, cells, state.to_move, last_cell, inner, off, size, allowed, everywhere,
                count, start_seed, scratch, empties, where, stack, seen, path, root_parent, parent,
            )  # fmt: skip

        done = 0
        if not _compiled:  # the first search of a process compiles (or loads) the code: not thinking time
            done = run(1, seed & 0x7FFFFFFF)
            _compiled.append(True)
        now = time.monotonic()
        deadline = now + budget
        batch = 16
        while done < playouts and (done == 0 or now < deadline):
            done += run(min(batch, playouts - done), seed & 0x7FFFFFFF if done == 0 else -1)
            spent, now = time.monotonic() - now, time.monotonic()
            rate = batch / max(spent, 1e-5)  # simulations a second just now
            batch = max(1, min(4096, int(rate * min(budget / LOOKS, deadline - now))))
        return done

    def follow(self, state: HexState) -> tuple[Any, Any, Any]:
        """The pool with `self.root` at `state`: walked down from the last search, or fresh."""
        pool, at = self.pool, self.at
        moves = None if pool is None or at is None else moves_since(at, state, _same_position)
        if pool is not None and moves is not None:
            node = self.root
            for move in moves:
                if not isinstance(move, Place):  # a swap: the tree is of the other colour's view
                    node = -1
                    break
                node = int(child_with_move(pool[0], node, padded(move.point, state.size)))
                if node < 0:
                    break
            if node >= 0:
                self.root, self.at = node, state
                return self._compacted(pool)
        if pool is None:
            pool = new_pool(self.capacity)
        else:
            reset(*pool)
        self.pool, self.root, self.at = pool, 0, state
        return pool

    def _compacted(self, pool: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        """Past half the pool, copy the subtree under the root into a fresh pool (the rest is history)."""
        ni, nf, meta = pool
        if meta[USED] <= self.capacity // 2:
            return pool
        fresh = new_pool(self.capacity)
        queue: Int32Array = np.zeros(self.capacity, dtype=np.int32)
        compact(ni, nf, self.root, fresh[0], fresh[1], fresh[2], queue)
        self.pool, self.root = fresh, 0
        self.compactions += 1
        return fresh


def _same_position(a: HexState, b: HexState) -> bool:
    return (a.size, a.cells, a.to_move, a.plies, a.opening) == (
        b.size,
        b.cells,
        b.to_move,
        b.plies,
        b.opening,
    )

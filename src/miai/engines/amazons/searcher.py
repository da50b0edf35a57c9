"""The Amazons searcher of one game seat: the compiled tree search behind `GameSearcher`'s interface.

The tree is kept between moves: when the next state is the one searched followed by the moves played
since (this seat's and the opponent's), the search goes on from the matching grandchild; any other
state (another game, an undo, a process restart) starts a new tree.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from miai.core.amazons import AmazonsMove, AmazonsState, QueenMove, new_game
from miai.engines.amazons.board import Int8Array, rays, unpack
from miai.engines.amazons.evaluate import new_work
from miai.engines.amazons.tree import (
    COUNT,
    FIRST,
    K_ROOT_KEEP,
    MOVE,
    PRIOR,
    SUM,
    VISITS,
    default_knobs,
    new_pool,
    new_root,
    simulate,
)
from miai.engines.game_search import moves_since
from miai.engines.levels import TOP_LEVEL, game_budget
from miai.engines.result import MoveStats, SearchResult

CAPACITY = 150_000  # nodes (48 bytes each: 7 MB a seat; a process holds up to 64 seats)
RESERVE = 30_000  # a search starts a new tree rather than begin with fewer free nodes than this
BATCH = 1  # simulations between two looks at the clock (one takes milliseconds)
# Simulations per level below the top (each expands one node); level 10 searches for the whole time.
EVALUATE_SECONDS = 600.0  # a review's search is bounded by its playouts; this only guards against a hang
SIMULATIONS = {1: 1, 2: 3, 3: 8, 4: 20, 5: 50, 6: 120, 7: 300, 8: 700, 9: 1_500}


class AmazonsSearcher:
    """One seat's Amazons player (`miai.engines.game_search.GameSearcher`)."""

    def __init__(self, now: Callable[[], float] = time.monotonic, capacity: int = CAPACITY) -> None:
        self.now = now
        self.capacity = capacity
        self.knobs = default_knobs()
        self.ni, self.nf, self.meta = new_pool(capacity)
        self.root = -1  # no tree yet
        self.searched: AmazonsState | None = None  # the state the tree's root stands for
        self.last_playouts = 0
        self.carried_visits = 0  # simulations the last search inherited from the kept tree

    def move(self, state: AmazonsState, level: int, seconds: float | None, seed: int) -> AmazonsMove:
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        rng = random.Random(seed)
        allowance = game_budget(level, seconds)
        if allowance.blunders and rng.random() < allowance.blunders:
            return rng.choice(state.legal_moves())
        budget, limit = allowance.seconds, None if level == TOP_LEVEL else SIMULATIONS[level]
        warm_up()  # before the clock starts
        self._follow(state)
        self._search(state, budget, limit)
        return self._best(state)

    def evaluate(self, state: AmazonsState, playouts: int, seed: int) -> SearchResult[AmazonsMove]:
        """The root's statistics after `playouts` simulations of a new tree (a game review): no level, no
        deliberate error, no clock. The search is deterministic: `seed` is not needed."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        started = self.now()
        warm_up()
        capacity = self.capacity
        self.close()  # a new tree for the position, in a pool the size of the budget (a node a child)
        self.capacity = min(capacity, 1 + (playouts + 1) * int(self.knobs[K_ROOT_KEEP]))
        try:
            self._follow(state)
            self._search(state, EVALUATE_SECONDS, playouts)
        finally:
            self.capacity = capacity
        n2 = state.size * state.size
        first, count = int(self.ni[self.root, FIRST]), int(self.ni[self.root, COUNT])
        stats: list[MoveStats[AmazonsMove]] = []
        for c in range(first, first + count) if first >= 0 else range(0):
            visits = float(self.nf[c, VISITS])
            rate = float(self.nf[c, SUM]) / visits if visits else float(self.nf[c, PRIOR])
            frm, to, arrow = unpack(int(self.ni[c, MOVE]), n2)
            stats.append(MoveStats(QueenMove(int(frm), int(to), int(arrow)), int(visits), rate))
        done = self.last_playouts
        self.close()
        if not stats:
            raise RuntimeError("the search pool is too small to hold the root's moves")
        stats.sort(key=lambda s: (-s.visits, -s.win_rate))
        best = stats[0]
        elapsed = self.now() - started
        return SearchResult(best.move, best.visits, best.win_rate, done, elapsed, [best.move], stats)

    def close(self) -> None:
        self.ni, self.nf, self.meta = new_pool(1)
        self.root = -1
        self.searched = None

    # --- internals

    def _follow(self, state: AmazonsState) -> None:
        """Move the root to `state` when the tree holds it, else start a new tree."""
        root = self._descend(state) if self.ni.shape[0] == self.capacity else None
        if root is None or self.meta[0] > self.capacity - min(RESERVE, self.capacity // 2):
            if self.ni.shape[0] != self.capacity:
                self.ni, self.nf, self.meta = new_pool(self.capacity)
            root = int(new_root(self.ni, self.nf, self.meta))
        self.root = root
        self.searched = state
        self.carried_visits = int(self.nf[root, VISITS])

    def _descend(self, state: AmazonsState) -> int | None:
        old = self.searched
        if old is None or self.root < 0 or old.size != state.size:
            return None
        path = moves_since(old, state, _same_position)
        if path is None:
            return None
        node = self.root
        n2 = state.size * state.size
        for move in path:
            if not isinstance(move, QueenMove) or int(self.ni[node, FIRST]) < 0:
                return None
            wanted = (move.frm * n2 + move.to) * n2 + move.arrow
            first, count = int(self.ni[node, FIRST]), int(self.ni[node, COUNT])
            found = [c for c in range(first, first + count) if int(self.ni[c, MOVE]) == wanted]
            if not found:
                return None
            node = found[0]
        return node

    def _search(self, state: AmazonsState, budget: float, limit: int | None) -> None:
        size = state.size
        n2 = size * size
        ray = rays(size)
        start: Int8Array = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
        queens = sum(1 for code in state.cells if code in (1, 2))
        steps = max(1, queens * 4 * (size - 1))
        cells = start.copy()
        path = np.zeros(n2 + 2, dtype=np.int64)
        work = new_work(size)
        qmoves = np.zeros(steps, dtype=np.int64)
        qscore = np.zeros(steps, dtype=np.float64)
        wide = int(max(self.knobs[0], self.knobs[2]))
        cmoves = np.zeros(wide * 4 * (size - 1) + 1, dtype=np.int64)
        cscore = np.zeros(wide * 4 * (size - 1) + 1, dtype=np.float64)
        deadline = self.now() + budget
        total = 0
        while True:
            batch = BATCH if limit is None else min(BATCH, limit - total)
            ran = int(
                simulate(
                    self.ni, self.nf, self.meta, self.root, start, ray, state.to_move, self.knobs,
                    cells, path, work, qmoves, qscore, cmoves, cscore, batch,
                )
            )  # fmt: skip
            total += ran
            if ran < batch or (limit is not None and total >= limit) or self.now() >= deadline:
                break
        self.last_playouts = total

    def _best(self, state: AmazonsState) -> AmazonsMove:
        """The most visited child of the root (the best prior on a tie)."""
        first, count = int(self.ni[self.root, FIRST]), int(self.ni[self.root, COUNT])
        if first < 0 or count == 0:  # nothing searched (an exhausted pool): any legal move
            return state.legal_moves()[0]
        children = range(first, first + count)
        best = max(children, key=lambda c: (float(self.nf[c, VISITS]), float(self.nf[c, PRIOR])))
        frm, to, arrow = unpack(int(self.ni[best, MOVE]), state.size * state.size)
        return QueenMove(int(frm), int(to), int(arrow))


_warmed = False


def warm_up() -> None:
    """Load the compiled search (numba's cache; a first install compiles it) once per process, with a
    tiny search, so that a timed move does not spend its time on that."""
    global _warmed
    if not _warmed:
        _warmed = True
        toy = AmazonsSearcher(capacity=1_000)
        state = new_game(4, white=[0], black=[15])
        toy._follow(state)
        toy._search(state, budget=600.0, limit=2)


def _same_position(a: AmazonsState, b: AmazonsState) -> bool:
    return a.cells == b.cells and a.to_move == b.to_move and a.size == b.size and a.plies == b.plies

"""Tanbo tree search driven from Python: budgets per level, an injected clock, and tree reuse.

`TanboSearch` runs the compiled search (`tanbo.tree.search`) in chunks so that a time budget is honoured
within a few milliseconds, and keeps the subtree of the moves played since its last search. `TanboSearcher`
is the game seat's player (`game_search.GameSearcher`): levels 1..9 search the playout budget of the other
games' level table (`levels.game_budget`, capped in time) and 1..5 play its share of deliberate
errors, level 10 searches for the whole time given.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable

import numpy as np

from miai.core.tanbo import TanboState, new_game
from miai.core.twoplayer import Place
from miai.engines.game_search import moves_since as game_moves_since
from miai.engines.kernel.playout import new_rng
from miai.engines.kernel.tree import COUNT, FIRST, MOVE, USED, VISITS, WINS, compact, new_pool
from miai.engines.levels import game_budget
from miai.engines.result import MoveStats, SearchResult
from miai.engines.tanbo.board import (
    E_OWN_LIBS,
    E_OWN_LOST,
    E_TAKEN,
    N_EFFECTS,
    effects,
    new_board,
    padded,
    setup,
    unpadded,
)
from miai.engines.tanbo.playout import policy_knobs
from miai.engines.tanbo.tree import default_params, search

DEFAULT_CAPACITY = 400_000
MAX_CAPACITY = 1_000_000  # nodes (40 bytes each); a Tanbo node has a few dozen children at most


def to_board(state: TanboState) -> np.ndarray:
    """The compiled position of a core state (which must not be over)."""
    b = new_board()
    cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int32)
    setup(b, state.size, cells, state.to_move, state.plies, state.cap)
    return b


def _same_position(a: TanboState, b: TanboState) -> bool:
    return (a.size, a.cells, a.to_move, a.plies, a.cap) == (b.size, b.cells, b.to_move, b.plies, b.cap)


def moves_since(root: TanboState, state: TanboState) -> list[int] | None:
    """The points played from the position `root` to `state`, or None when `state` does not follow it."""
    moves = game_moves_since(root, state, _same_position)
    if moves is None or not all(isinstance(m, Place) for m in moves):
        return None
    return [m.point for m in moves]


class TanboSearch:
    """UCT-RAVE search of Tanbo positions over the compiled rules, keeping its tree between moves.
    Deterministic for a given seed and playout budget; a time budget uses the injected `now`."""

    def __init__(
        self,
        seed: int = 0,
        capacity: int = DEFAULT_CAPACITY,
        now: Callable[[], float] = time.monotonic,
        params: np.ndarray | None = None,
        knobs: np.ndarray | None = None,
    ) -> None:
        if capacity < 1000:
            raise ValueError(f"the node pool needs at least 1000 nodes, not {capacity}")
        self.capacity = capacity
        self.now = now
        self.params = default_params() if params is None else params
        self.knobs = policy_knobs() if knobs is None else knobs
        self.rng = new_rng(seed)
        self.pool = new_pool(capacity)
        self._root: TanboState | None = None  # the position of node 0

    def _reroot(self, state: TanboState) -> int:
        """Keep the subtree of the moves played since the last search (or start afresh); returns the
        visits the root inherits."""
        path = None if self._root is None else moves_since(self._root, state)
        node = -1 if path is None else 0
        ni = self.pool[0]
        for point in path or ():
            code = padded(point, state.size)
            first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
            node = next((c for c in range(first, first + count) if int(ni[c, MOVE]) == code), -1)
            if first < 0 or node < 0:
                node = -1
                break
        if node > 0:
            ni, nf, _ = self.pool
            fresh = new_pool(self.capacity)
            fresh[2][USED] = compact(ni, nf, node, fresh[0], fresh[1])
            self.pool = fresh
        elif node < 0:
            self.pool = new_pool(self.capacity)
        self._root = dataclasses.replace(state, parent=None)  # the position only, not the whole record
        return int(self.pool[1][0, VISITS])

    def search(
        self, state: TanboState, playouts: int | None = None, seconds: float | None = None
    ) -> SearchResult[Place]:
        """Search `state` for the player to move within a budget (give at least one)."""
        if playouts is None and seconds is None:
            raise ValueError("give a playout budget, a time budget or both")
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        start = self.now()
        reused = self._reroot(state)
        b = to_board(state)
        ni, nf, meta = self.pool
        done = 0
        chunk = 16
        deadline = None if seconds is None else start + seconds
        t0 = self.now()
        while True:
            todo = chunk if playouts is None else min(chunk, playouts - done)
            if todo <= 0:
                break
            search(ni, nf, meta, b, self.rng, self.params, self.knobs, todo)
            done += todo
            t1 = self.now()
            if deadline is not None:
                if t1 >= deadline:
                    break
                # Aim each chunk at a twentieth of the remaining time, growing at most twofold a step.
                per = (t1 - t0) / todo
                wanted = int((deadline - t1) / 20 / per) if per > 0 else chunk * 2
                chunk = max(1, min(chunk * 2, wanted, 4096))
            else:
                chunk = min(chunk * 2, 1024)
            t0 = t1
        return self._result(state.size, done, self.now() - start, reused)

    def _result(self, size: int, done: int, elapsed: float, reused: int) -> SearchResult[Place]:
        ni, nf, _ = self.pool
        first, count = int(ni[0, FIRST]), int(ni[0, COUNT])
        stats = []
        for child in range(first, first + count) if first >= 0 else range(0):
            visits = int(nf[child, VISITS])
            rate = float(nf[child, WINS]) / visits if visits else 0.0
            stats.append(MoveStats(Place(unpadded(int(ni[child, MOVE]), size)), visits, rate))
        stats.sort(key=lambda s: (-s.visits, -s.win_rate, s.move.point))
        if not stats:
            raise RuntimeError("the search pool is too small to hold the root's moves")
        best = stats[0]
        return SearchResult(best.move, best.visits, best.win_rate, done, elapsed, [best.move], stats, reused)


def useful_points(state: TanboState) -> list[int]:
    """Legal points that neither bound the mover's own root nor kill more of its stones than they take
    (all legal points when every one does)."""
    b = to_board(state)
    out = np.zeros(N_EFFECTS, dtype=np.int32)
    useful = []
    for point in state.legal_points():
        effects(b, padded(point, state.size), out)
        if out[E_OWN_LIBS] > 0 and out[E_OWN_LOST] <= out[E_TAKEN]:
            useful.append(point)
    return useful or state.legal_points()


_warmed: list[bool] = []  # set once this process has run the compiled search


def warm_up() -> None:
    """Load the compiled search (numba's cache; a first install compiles it, about half a minute) once per
    process with a tiny search, so that a timed move does not spend its thinking time on that."""
    if not _warmed:
        _warmed.append(True)
        TanboSearch(capacity=1000).search(new_game(9), playouts=2)


class TanboSearcher:
    """One seat's Tanbo player: the tree kept between moves, levels as the other games' table says."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._search: TanboSearch | None = None
        self.last: SearchResult[Place] | None = None

    def move(self, state: TanboState, level: int, seconds: float | None, seed: int) -> Place:
        if not isinstance(state, TanboState):
            raise TypeError(f"a Tanbo searcher cannot play {type(state).__name__}")
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        budget = game_budget(level, seconds)
        rng = random.Random(seed)
        if self._search is None:
            self._search = TanboSearch(seed, MAX_CAPACITY if level >= 7 else DEFAULT_CAPACITY, self.now)
        if budget.blunders and rng.random() < budget.blunders:
            return Place(rng.choice(useful_points(state)))  # a deliberate error, but never a suicide
        warm_up()  # before the clock starts
        result = self._search.search(state, budget.playouts, budget.seconds)
        self.last = result
        return result.move

    def evaluate(self, state: TanboState, playouts: int, seed: int) -> SearchResult[Place]:
        """The root's statistics after `playouts` simulations of a new tree (a game review): no level, no
        deliberate error, no clock; a pool the size of the budget (a few dozen children a node)."""
        capacity = min(MAX_CAPACITY, max(1000, 64 * playouts))
        return TanboSearch(seed, capacity, self.now).search(state, playouts=playouts)

    def close(self) -> None:
        self._search = None

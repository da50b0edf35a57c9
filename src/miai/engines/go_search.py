"""Go tree search driven from Python: budgets, an injected clock, tree reuse and reading the results.

The simulations themselves run in compiled code (`kernel.tree.search`), in chunks, so that the clock is
read between chunks and a time budget is honoured within a few milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from miai.core.go import GoState, Move, Pass, Place, new_game
from miai.core.go.moves import PASS
from miai.engines.kernel.convert import KernelPosition, from_state
from miai.engines.kernel.layout import MAX_COLOURS, SITUATION_KEYS, P, padded
from miai.engines.kernel.layout import PASS as KERNEL_PASS
from miai.engines.kernel.open_area import OPEN_AREA_VALUES
from miai.engines.kernel.patterns import PATTERNS
from miai.engines.kernel.playout import new_rng, policy_knobs
from miai.engines.kernel.policy_net import load_net
from miai.engines.kernel.shapes import SHAPE_VALUES
from miai.engines.kernel.tree import (
    COUNT,
    EXPAND_VISITS,
    FIRST,
    MOVE,
    MOVER,
    PLAYOUTS,
    PRIOR_N,
    PRIOR_NET,
    PRIOR_W,
    USED,
    VISITS,
    WINS,
    compact,
    default_params,
    new_pool,
    search,
)
from miai.engines.result import MoveStats, SearchResult

DEFAULT_CAPACITY = 400_000
NET_PRIOR = 40.0  # equivalent visits of the move predictor's prior (from NET_MIN_SIZE up)
NET_MIN_SIZE = 19  # learned from and measured on 19x19 games; smaller boards are left as they were
POLICY_NET = load_net()
MAX_THREADS = 64


@dataclass(frozen=True)
class _Root:
    """What the tree's node 0 stands for, to decide whether a later position can reuse the tree."""

    game: tuple[object, ...]  # size, colours, rules and the starting position's hash
    events: tuple[tuple[int, Move], ...]

    def continued_by(self, game: tuple[object, ...], events: tuple[tuple[int, Move], ...]) -> bool:
        return game == self.game and events[: len(self.events)] == self.events


def first_state(state: GoState) -> GoState:
    """The start of the game `state` belongs to."""
    *_, start = state.lineage()
    return start


def _game_key(state: GoState) -> tuple[object, ...]:
    start = first_state(state)
    return (state.size, state.colours, state.rules, start.hash, start.to_move)


@dataclass
class _Tree:
    """One thread's search tree: its node pool, its random generator and its ownership counts."""

    pool: tuple[np.ndarray, np.ndarray, np.ndarray]
    rng: np.ndarray
    ownership: np.ndarray
    done: int = 0


class KernelSearch:
    """UCT-RAVE search of Go positions over the compiled kernel, keeping its tree between moves.

    With `threads` > 1 it searches in parallel at the root: each thread grows its own tree (the compiled
    code releases the GIL) and the root moves' statistics are summed, which on a few cores is about as good
    as searching that much longer (Chaslot, Winands & van den Herik 2008) and needs no locking.
    Deterministic for a given seed and playout budget; a time budget uses the injected `now`.
    """

    def __init__(
        self,
        seed: int = 0,
        capacity: int = DEFAULT_CAPACITY,
        now: Callable[[], float] = time.monotonic,
        params: np.ndarray | None = None,
        reuse: bool = True,
        threads: int = 1,
        knobs: np.ndarray | None = None,
    ) -> None:
        if capacity < 1000:
            raise ValueError(f"the node pool needs at least 1000 nodes, not {capacity}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"search threads must be 1..{MAX_THREADS}, not {threads}")
        self.capacity = capacity
        self.now = now
        self.params = default_params() if params is None else params
        self._tuned = params is None  # our own parameters may follow the board size
        self.knobs = policy_knobs() if knobs is None else knobs  # the playout policy's
        self.net_prior = NET_PRIOR  # the move predictor's weight from NET_MIN_SIZE up (own parameters)
        self.reuse = reuse
        self._trees = [
            _Tree(new_pool(capacity), new_rng(seed + 7919 * k), np.zeros((MAX_COLOURS, P), dtype=np.float64))
            for k in range(threads)
        ]
        self._root: _Root | None = None
        self.position: KernelPosition | None = None
        self.ownership_playouts = 0

    @property
    def threads(self) -> int:
        return len(self._trees)

    @property
    def _pool(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first thread's tree (its principal variation is the one reported)."""
        return self._trees[0].pool

    # ----------------------------------------------------------------- tree reuse

    def continues(self, state: GoState) -> bool:
        """Whether `state` follows on from the last position searched (the same game, moves added)."""
        return self._root is not None and self._root.continued_by(_game_key(state), tuple(state.moves()))

    def _reusable_node(
        self,
        ni: np.ndarray,
        state: GoState,
        colour: int,
        game: tuple[object, ...],
        events: tuple[tuple[int, Move], ...],
    ) -> int:
        """The node standing for `state` with `colour` to play in a kept tree, or -1."""
        old = self._root
        if not self.reuse or old is None or not old.continued_by(game, events):
            return -1
        node = 0
        for event_colour, move in events[len(old.events) :]:
            if not isinstance(move, Place | Pass):
                return -1
            code = padded(move.point, state.size) if isinstance(move, Place) else KERNEL_PASS
            first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
            node = -1
            for child in range(first, first + count) if first >= 0 else range(0):
                if int(ni[child, MOVE]) == code and int(ni[child, MOVER]) == event_colour:
                    node = child
                    break
            if node < 0:
                return -1
        first = int(ni[node, FIRST])
        if first >= 0 and int(ni[first, MOVER]) != colour:
            return -1  # the tree was grown for another colour to play here (GTP free order)
        return node

    def _reroot(self, state: GoState, colour: int) -> None:
        """Keep each tree's subtree of the moves played since the last search, or start afresh."""
        game = _game_key(state)
        events = tuple(state.moves())
        for tree in self._trees:
            ni, nf, _ = tree.pool
            node = self._reusable_node(ni, state, colour, game, events)
            if node > 0:
                ni2, nf2, meta2 = new_pool(self.capacity)
                meta2[USED] = compact(ni, nf, node, ni2, nf2)
                tree.pool = (ni2, nf2, meta2)
            elif node < 0:
                tree.pool = new_pool(self.capacity)
        self._root = _Root(game, events)

    # ----------------------------------------------------------------- searching

    def search(
        self,
        state: GoState,
        colour: int | None = None,
        playouts: int | None = None,
        seconds: float | None = None,
        give: float = 0.0,
    ) -> SearchResult[Move]:
        """Search `state` for `colour` (default: the colour to move) within a budget (give at least one).

        `give` points come off the searching colour's score in the playouts (dynamic komi): a search that
        wins anyway then looks for the moves that keep a margin."""
        if playouts is None and seconds is None:
            raise ValueError("give a playout budget, a time budget or both")
        if state.is_over:
            raise ValueError("the game is over: there is no move to search")
        colour = state.to_move if colour is None else colour
        start = self.now()
        self._reroot(state, colour)
        position = from_state(state, colour)
        position.komi[colour] -= give
        self.position = position
        if self._tuned:
            # Big boards grow a child per legal move on expansion: wait a little longer, to save memory.
            self.params[EXPAND_VISITS] = 2.0 if state.size <= 13 else 3.0
            self.params[PRIOR_NET] = self.net_prior if state.size >= NET_MIN_SIZE else 0.0
        reused = sum(int(tree.pool[1][0, VISITS]) for tree in self._trees)
        deadline = None if seconds is None else start + seconds
        shares = [None] * self.threads if playouts is None else _split(playouts, self.threads)
        if self.threads == 1:
            self._run(self._trees[0], position, shares[0], deadline)
        else:
            executor = _executor(self.threads)
            jobs = [
                executor.submit(self._run, tree, position, share, deadline)
                for tree, share in zip(self._trees, shares, strict=True)
            ]
            for job in jobs:
                job.result()
        done = sum(tree.done for tree in self._trees)
        self.ownership_playouts = done
        return self._result(position, done, self.now() - start, reused)

    def _run(
        self, tree: _Tree, position: KernelPosition, playouts: int | None, deadline: float | None
    ) -> None:
        """One thread's simulations, in chunks so that the clock is read every few milliseconds."""
        ni, nf, meta = tree.pool
        tree.ownership[:] = 0.0
        tree.done = 0
        chunk = 16
        t0 = self.now()
        while True:
            todo = chunk if playouts is None else min(chunk, playouts - tree.done)
            if todo <= 0:
                break
            search(
                ni,
                nf,
                meta,
                position.b,
                position.hz,
                position.zob,
                SITUATION_KEYS,
                position.history,
                position.komi,
                PATTERNS,
                SHAPE_VALUES,
                OPEN_AREA_VALUES,
                tree.rng,
                self.params,
                self.knobs,
                todo,
                tree.ownership,
                POLICY_NET.weights,
                POLICY_NET.layers,
            )
            tree.done += todo
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

    def _result(self, position: KernelPosition, done: int, elapsed: float, reused: int) -> SearchResult[Move]:
        ni = self._pool[0]
        children = self._root_children()
        if not children:
            return SearchResult(PASS, 0, 0.0, done, elapsed, [PASS], [], reused)
        stats: list[MoveStats[Move]] = [
            MoveStats(position.core_move(code), visits, rate) for code, visits, rate in children
        ]
        best_code = children[0][0]
        pv: list[Move] = [stats[0].move]
        own = self._children(0)
        node = next((index for index, code, _, _ in own if code == best_code), -1)
        ranked = self._children(node) if node >= 0 else []
        node = ranked[0][0] if ranked and ranked[0][2] > 0 else -1
        while node >= 0 and len(pv) < 30:
            pv.append(position.core_move(int(ni[node, MOVE])))
            ranked = self._children(node)
            node = ranked[0][0] if ranked and ranked[0][2] > 0 else -1
        return SearchResult(stats[0].move, children[0][1], children[0][2], done, elapsed, pv, stats, reused)

    def _root_children(self) -> list[tuple[int, int, float]]:
        """(move code, visits, mover's mean reward) of the root's moves summed over the trees, best first."""
        visits: dict[int, int] = {}
        wins: dict[int, float] = {}
        prior: dict[int, float] = {}
        for tree in self._trees:
            ni, nf, _ = tree.pool
            first, count = int(ni[0, FIRST]), int(ni[0, COUNT])
            for child in range(first, first + count) if first >= 0 else range(0):
                code = int(ni[child, MOVE])
                visits[code] = visits.get(code, 0) + int(nf[child, VISITS])
                wins[code] = wins.get(code, 0.0) + float(nf[child, WINS])
                prior.setdefault(code, float(nf[child, PRIOR_W]) / max(1.0, float(nf[child, PRIOR_N])))
        out = [(code, n, wins[code] / n if n else prior[code]) for code, n in visits.items()]
        out.sort(key=lambda entry: (-entry[1], -entry[2], entry[0]))
        return out

    def _children(self, node: int) -> list[tuple[int, int, int, float]]:
        """(index, move code, visits, mover's mean reward) of a node's children in the first tree."""
        ni, nf, _ = self._pool
        first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
        if first < 0:
            return []
        out = []
        for child in range(first, first + count):
            visits = int(nf[child, VISITS])
            mean = (
                float(nf[child, WINS]) / visits
                if visits
                else float(nf[child, PRIOR_W]) / max(1.0, float(nf[child, PRIOR_N]))
            )
            out.append((child, int(ni[child, MOVE]), visits, mean))
        out.sort(key=lambda entry: (-entry[2], -entry[3], entry[0]))
        return out

    # ----------------------------------------------------------------- reading the last search

    @property
    def total_playouts(self) -> int:
        return sum(int(tree.pool[2][PLAYOUTS]) for tree in self._trees)

    @property
    def ownership_counts(self) -> np.ndarray:
        total: np.ndarray = sum((tree.ownership for tree in self._trees[1:]), self._trees[0].ownership.copy())
        return total

    def ownership(self) -> list[list[float]]:
        """Per colour, per core point: the share of the last search's playouts in which it was theirs."""
        position = self.position
        if position is None or not self.ownership_playouts:
            return []
        size = position.size
        points = [padded(p, size) for p in range(size * size)]
        share = self.ownership_counts / self.ownership_playouts
        return [[float(share[c, q]) for q in points] for c in range(position.colours)]


_warmed: set[int] = set()


def warm_up(threads: int = 1) -> None:
    """Load the compiled kernel (numba's cache) and start the search threads, so that the first timed move
    is not slowed by them; once per process and thread count."""
    if threads not in _warmed:
        KernelSearch(capacity=1000, threads=threads).search(new_game(5), playouts=threads)
        _warmed.add(threads)


_shared: tuple[ThreadPoolExecutor, int] | None = None  # the pool and its size
_shared_lock = threading.Lock()


def _executor(threads: int) -> ThreadPoolExecutor:
    """One thread pool for every search of the process, grown to the most threads a search asked for."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared[1] < threads:
            _shared = (ThreadPoolExecutor(threads, "miai-search"), threads)
        return _shared[0]


def _split(playouts: int, threads: int) -> list[int | None]:
    """A playout budget shared out between threads (the first ones take the remainder)."""
    base, extra = divmod(playouts, threads)
    return [base + (1 if k < extra else 0) for k in range(threads)]

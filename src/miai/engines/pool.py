"""Searches in worker processes, so that an asyncio server never blocks on a computer move.

    async with EnginePool(workers=2) as pool:
        move = await pool.choose_move(state, level=5, seed=7)

A task travels as (compact state record, level, seed, seconds): see `miai.engines.record`. Workers are
started with the 'spawn' method by default (safe with threads in the parent, and the same on every
platform); the first task of each worker loads the compiled kernel from numba's cache. Other games than Go
travel as their (picklable) state objects, cut from their record (see `portable`).

`choose_move(state, level, seed, seconds=None)` uses one shared pool for the whole process, created on
first use; `shutdown_default_pool()` stops it (an application's shutdown hook should call it).

Games: `choose(MoveRequest)` plays a game's computer seat with the player its worker holds for that game
(`miai.engines.players`): each worker is a process of its own and a game always goes to the same one (the
least busy one when the game first asks, remembered until `release(game)` closes that game's players), so
the player reuses its tree, an external engine keeps one process for the game, and busy games spread over
the workers. One-off searches (`choose_move`, `run`) and other
work (`run_call`) go to the least busy worker. A worker that dies (killed, out of memory) is replaced by a
fresh process and the call is tried once more there; its players are lost, and come back from the memo of
the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar

from miai.core.go import GoState, Move
from miai.engines import players
from miai.engines.players import MoveChoice, MoveRequest
from miai.engines.record import decode_move, decode_state, encode_move, encode_state

T = TypeVar("T")
MAX_GAMES = 4096  # games whose worker a pool remembers; beyond, the oldest is forgotten (its players expire)


@dataclass(frozen=True)
class SearchTask:
    """One move to choose: a Go record (or another game's state), the level, the seed and the time."""

    state: dict[str, Any] | Any
    level: int | str
    seed: int
    seconds: float | None = None
    colour: int | None = None


def portable(state: Any) -> Any:
    """A state of another game than Go without its long record: such states chain to their parents, and
    pickling a few hundred plies of chain overflows the stack. The search needs the position only, plus one
    step back (Hex's swap is allowed only on the second move)."""
    parent = getattr(state, "parent", None)
    if parent is None or not dataclasses.is_dataclass(state) or isinstance(state, type):
        return state
    if getattr(parent, "parent", None) is not None:
        parent = dataclasses.replace(parent, parent=None)
    return dataclasses.replace(state, parent=parent)


def run_task(task: SearchTask) -> str | Any:
    """Worker side: rebuild the state and choose a move (Go moves come back as record text)."""
    from miai.engines.levels import make_move_generator
    from miai.engines.searchers import choose_move_any_game

    if isinstance(task.state, dict):
        state = decode_state(task.state)
        colour = state.to_move if task.colour is None else task.colour
        move = make_move_generator(task.level, task.seconds, task.seed)(state, colour, task.seconds)
        return encode_move(move)
    if not isinstance(task.level, int):
        raise ValueError(f"levels for this game are 1..10, not {task.level!r}")
    return choose_move_any_game(task.state, task.level, task.seed, task.seconds)


# Searches take every cycle they are given: on a host shared with web processes (the embedded default, or a
# worker beside `miai serve`), the people's requests must come first, so engine processes yield the CPU.
ENGINE_NICENESS = 10


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # a platform without priorities still plays
        os.nice(ENGINE_NICENESS)


def _exit_with_parent() -> None:
    """A worker whose parent died without shutting the pool down (kill -9, the OOM killer) ends too, and
    its external engines with it: otherwise it waits forever on its call queue (it holds the write end)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        with contextlib.suppress(Exception):
            players.cache().clear()
        os._exit(1)

    threading.Thread(target=watch, name="miai-parent-watch", daemon=True).start()


def _start_worker() -> None:
    _lower_priority()
    _exit_with_parent()


def _warm_up(only: tuple[str, ...]) -> int:
    """Load the compiled kernels named in `only` (`miai.engines.warm`'s names) in a worker: numba's cache,
    or a first compilation on a fresh install (10-15 s each), so that no first real move waits for them."""
    from miai.engines.go_search import warm_up
    from miai.engines.levels import search_threads
    from miai.engines.warm import warm_all

    if "go" in only:
        warm_up(search_threads())
    warm_all(only=only)
    return os.getpid()


class EnginePool:
    """Worker processes for searches; use `async with`, or call `shutdown()` when done."""

    def __init__(self, workers: int | None = None, context: str = "spawn") -> None:
        if context not in ("spawn", "forkserver"):
            raise ValueError(f"use the 'spawn' or 'forkserver' start method, not {context!r}")
        workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self.workers = workers
        self._context = multiprocessing.get_context(context)
        # One single-process executor per worker, so that a game can be sent to the same process each time.
        self._executors: list[ProcessPoolExecutor] | None = [self._new_executor() for _ in range(workers)]
        self._busy = [0] * workers
        self._games: OrderedDict[int, int] = OrderedDict()  # game -> its worker, most recently used last

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=1, mp_context=self._context, initializer=_start_worker)

    @property
    def closed(self) -> bool:
        return self._executors is None

    def _live(self) -> list[ProcessPoolExecutor]:
        if self._executors is None:
            raise RuntimeError("the engine pool has been shut down")
        return self._executors

    def worker_of(self, game: int | None) -> int:
        """The worker that plays `game` (None: the least busy one)."""
        executors = self._live()
        if game is None:
            return min(range(len(executors)), key=lambda i: self._busy[i])
        if isinstance(game, bool) or not isinstance(game, int):
            raise ValueError(f"a game is identified by a whole number, not {game!r}")
        worker = self._games.get(game)
        if worker is None:
            # The least busy now; among equals the one holding fewest games (idle games come back).
            held = [0] * len(executors)
            for w in self._games.values():
                held[w] += 1
            worker = min(range(len(executors)), key=lambda i: (self._busy[i], held[i]))
            self._games[game] = worker
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        self._games.move_to_end(game)
        return worker

    async def _submit(self, worker: int, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        self._busy[worker] += 1
        try:
            for attempt in (1, 2):
                executor = self._live()[worker]
                try:
                    return await loop.run_in_executor(executor, fn, *args)
                except BrokenProcessPool:
                    self._replace(worker, executor)
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._busy[worker] -= 1

    def _replace(self, worker: int, broken: ProcessPoolExecutor) -> None:
        """A worker process died: start another in its place (once, however many calls noticed)."""
        executors = self._live()
        if executors[worker] is broken:
            executors[worker] = self._new_executor()
            broken.shutdown(wait=False, cancel_futures=True)

    async def run(self, task: SearchTask) -> Any:
        return await self._submit(self.worker_of(None), run_task, task)

    async def run_call(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the least busy worker (`fn` and its arguments must pickle)."""
        return await self._submit(self.worker_of(None), fn, *args)

    async def run_for(self, game: int, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the worker that holds the players of `game` (e.g. `players.held`)."""
        return await self._submit(self.worker_of(game), fn, *args)

    async def choose(self, request: MoveRequest) -> MoveChoice:
        """The move of a computer seat, by the player that the game's worker holds (see `players`)."""
        return await self._submit(self.worker_of(request.game), players.choose, request)

    async def release(self, game: int) -> int:
        """Close the players of `game` in its worker (external engines quit); returns how many. A game this
        pool never played (or forgot beyond `MAX_GAMES`) holds no player it knows of: nothing to do."""
        if isinstance(game, bool) or not isinstance(game, int) or game not in self._games:
            return 0
        worker = self._games.pop(game)
        return await self._submit(worker, players.release, game)

    async def choose_move(
        self,
        state: GoState | Any,
        level: int | str,
        seed: int = 0,
        seconds: float | None = None,
        colour: int | None = None,
    ) -> Move | Any:
        """The engine's move for the player to move (or `colour`, for Go), computed in a worker."""
        if isinstance(state, GoState):
            text = await self.run(SearchTask(encode_state(state), level, seed, seconds, colour))
            return decode_move(text)
        return await self.run(SearchTask(portable(state), level, seed, seconds))

    async def warm_up(self) -> list[int]:
        """Start every worker and load Go's kernels, then each other engine's, one job at a time: a move asked
        for meanwhile waits for one warm-up at most, not for all of them. Returns the workers' process ids."""
        from miai.engines.warm import steps

        def everywhere(names: tuple[str, ...]) -> Awaitable[list[int]]:
            return asyncio.gather(*(self._submit(i, _warm_up, names) for i in range(self.workers)))

        pids = await everywhere(("go",))
        for name, _ in steps():
            if name != "go":
                await everywhere((name,))
        return list(pids)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (queued searches are cancelled). Safe to call twice."""
        executors, self._executors = self._executors, None
        for executor in executors or []:
            executor.shutdown(wait=wait, cancel_futures=True)

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.shutdown)

    async def __aenter__(self) -> EnginePool:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


_default: EnginePool | None = None


def default_pool() -> EnginePool:
    global _default
    if _default is None or _default.closed:
        _default = EnginePool()
    return _default


async def choose_move(state: GoState | Any, level: int | str, seed: int, seconds: float | None = None) -> Any:
    """The engine's move for the player to move, from the process-wide pool."""
    return await default_pool().choose_move(state, level, seed, seconds)


def shutdown_default_pool(wait: bool = True) -> None:
    global _default
    if _default is not None:
        _default.shutdown(wait)
        _default = None

"""Searches in worker processes, so that an asyncio server never blocks on a computer move.

    async with EnginePool(workers=2) as pool:
        move = await pool.choose_move(state, level=5, seed=7)

A task travels as (compact state record, level, seed, seconds): see `miai.engines.record`. Workers are
started with the 'spawn' method by default (safe with threads in the parent, and the same on every
platform); the first task of each worker loads the compiled kernel from numba's cache. Other games than Go
travel as their (picklable) state objects, cut from their record (see `portable`).

`choose_move(state, level, seed, seconds=None)` uses one shared pool for the whole process, created on
first use; `shutdown_default_pool()` stops it (an application's shutdown hook should call it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from miai.core.go import GoState, Move
from miai.engines.record import decode_move, decode_state, encode_move, encode_state


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
    from miai.engines.levels import choose_move_any_game, make_move_generator

    if isinstance(task.state, dict):
        state = decode_state(task.state)
        colour = state.to_move if task.colour is None else task.colour
        move = make_move_generator(task.level, task.seconds, task.seed)(state, colour, task.seconds)
        return encode_move(move)
    if not isinstance(task.level, int):
        raise ValueError(f"levels for this game are 1..10, not {task.level!r}")
    return choose_move_any_game(task.state, task.level, task.seed, task.seconds)


def _warm_up() -> int:
    """Load the compiled kernel in a worker (numba's cache), so the first real move is not slowed."""
    from miai.engines.go_search import warm_up
    from miai.engines.levels import search_threads

    warm_up(search_threads())
    return os.getpid()


class EnginePool:
    """A process pool for searches; use `async with`, or call `shutdown()` when done."""

    def __init__(self, workers: int | None = None, context: str = "spawn") -> None:
        if context not in ("spawn", "forkserver"):
            raise ValueError(f"use the 'spawn' or 'forkserver' start method, not {context!r}")
        workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self.workers = workers
        self._executor: Executor | None = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context(context)
        )

    @property
    def closed(self) -> bool:
        return self._executor is None

    def _live(self) -> Executor:
        if self._executor is None:
            raise RuntimeError("the engine pool has been shut down")
        return self._executor

    async def run(self, task: SearchTask) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._live(), run_task, task)

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
        """Start every worker and load the kernel; returns the workers' process ids."""
        loop = asyncio.get_running_loop()
        executor = self._live()
        return list(
            await asyncio.gather(*(loop.run_in_executor(executor, _warm_up) for _ in range(self.workers)))
        )

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (queued searches are cancelled). Safe to call twice."""
        executor, self._executor = self._executor, None
        if executor is not None:
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

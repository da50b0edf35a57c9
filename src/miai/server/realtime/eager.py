"""Run a coroutine at once, in the caller, and hand it to a task only if it has to wait.

This is what Python 3.12's eager tasks do, without a Task object per call: the hub's fan-out writes one
event to thousands of sockets, and a websocket send does not wait unless the socket's buffer is full
(uvicorn then waits for the transport to drain). Running each send in the dispatching code, instead of
waking a task per socket, saves a wake-up per delivery and the garbage that made Python collect during
every event (bench/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from collections.abc import Coroutine, Generator
from typing import Any


def run(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run `coroutine` up to its first wait. None when it finished (an error it raised is raised here);
    otherwise a task that finishes it (await the task for its error)."""
    try:
        waiting_for = coroutine.send(None)
    except StopIteration:
        return None
    return asyncio.ensure_future(_finish(coroutine, waiting_for))


async def _finish(coroutine: Coroutine[Any, Any, None], waiting_for: Any) -> None:
    """Go on with a coroutine that yielded `waiting_for`: wait for that, as a task would, then resume it."""
    while True:
        try:
            await _wait(waiting_for)
        except BaseException as err:  # a cancellation too: the coroutine decides what to do with it
            try:
                waiting_for = coroutine.throw(err)
            except StopIteration:
                return
            continue
        try:
            waiting_for = coroutine.send(None)
        except StopIteration:
            return


@types.coroutine
def _wait(waiting_for: Any) -> Generator[Any, None, None]:
    """Yield to the loop what the coroutine yielded: None (a bare `asyncio.sleep(0)`) or a future, waited
    for here; its result or error reaches the coroutine when it resumes (Future.__await__ reads it)."""
    if waiting_for is None:
        yield None
        return
    # As a task does with the future its coroutine yielded: take the wait over, else awaiting the future
    # again would fail ("await wasn't used with future").
    waiting_for._asyncio_future_blocking = False
    with contextlib.suppress(Exception):  # the coroutine reads the future's error itself when resumed
        yield from waiting_for.__await__()

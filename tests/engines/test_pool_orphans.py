"""Found by attack (issue 18): a `miai worker` killed with SIGKILL left its engine processes running forever
(each blocked on a queue whose write end it holds itself), one per `--concurrency`, with their GNU Go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

PARENT = """
import asyncio, os
from miai.engines.pool import EnginePool

async def main():
    pool = EnginePool(workers=2)
    pids = await asyncio.gather(*(pool.run_for(game, os.getpid) for game in range(2)))
    print(*pids, flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_engine_processes_end_when_their_parent_is_killed() -> None:
    children: list[int] = []
    with subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True) as parent:
        try:
            assert parent.stdout is not None
            children = [int(pid) for pid in parent.stdout.readline().split()]
            assert len(children) == 2
            parent.send_signal(signal.SIGKILL)
            parent.wait(timeout=10)
            deadline = time.monotonic() + 15
            while any(alive(pid) for pid in children) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not [pid for pid in children if alive(pid)]
        finally:
            parent.kill()
            for pid in children:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)

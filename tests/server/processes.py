"""Real server processes for tests: `miai serve` (one process or several workers) or uvicorn's factory, on a
free loopback port, started the same way everywhere.

The server gets the environment of this process without its MIAI_* variables (a developer's settings never
leak into a test) plus what the test names, with cheap password hashing; it runs in a process group of its
own, its output (both streams) goes to a log file, and every wait is bounded: the start until
/api/v1/health answers, the stop until the whole group (workers too) is gone.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.conftest import REPO

START_SECONDS = 60.0  # until the server answers /api/v1/health
STOP_SECONDS = 20.0  # after SIGTERM, before the group is killed


def free_port() -> int:
    """A loopback port nobody listens on (just released by the OS)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(**variables: str) -> dict[str, str]:
    """This process's environment without MIAI_* variables, plus `variables` (MIAI_* names, as the server
    reads them)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MIAI_")}
    env.update(
        PYTHONPATH=str(REPO / "src"),
        PYTHONUNBUFFERED="1",  # log lines reach the file as they are written
        MIAI_ARGON2_TIME_COST="1",
        MIAI_ARGON2_MEMORY_KIB="64",
    )
    env.update(variables)
    return env


def answers(response: httpx.Response) -> bool:
    return response.status_code == 200


@dataclass
class Server:
    base: str  # http://127.0.0.1:PORT
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def miai_serve(log: Path, *options: str, cwd: Path | None = None, **variables: str) -> Iterator[Server]:
    """`miai serve OPTIONS` on 127.0.0.1 and a free port (options such as --workers or --data-dir)."""
    port = free_port()
    command = [sys.executable, "-m", "miai", "serve", "--host", "127.0.0.1", "--port", str(port), *options]
    with running(command, port, log, server_env(**variables), cwd=cwd) as server:
        yield server


@contextmanager
def uvicorn_factory(
    log: Path,
    ready: Callable[[httpx.Response], bool] = answers,
    crash: bool = False,
    port: int | None = None,
    **variables: str,
) -> Iterator[Server]:
    """`uvicorn --factory miai.server.main:app_from_env`, configured by MIAI_* `variables` alone, as an
    operator who runs uvicorn themselves would; `crash`: stopped with SIGKILL, not a clean shutdown."""
    port = port or free_port()
    command = [sys.executable, "-m", "uvicorn", "--factory", "miai.server.main:app_from_env"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    env = server_env(MIAI_PORT=str(port), **variables)
    with running(command, port, log, env, ready=ready, crash=crash) as server:
        yield server


@contextmanager
def running(
    command: Sequence[str],
    port: int,
    log: Path,
    env: Mapping[str, str],
    ready: Callable[[httpx.Response], bool] = answers,
    crash: bool = False,
    cwd: Path | None = None,
) -> Iterator[Server]:
    """Run `command`, yield once GET /api/v1/health satisfies `ready`; AssertionError with the server's
    output if it stops first or takes longer than START_SECONDS. Stopped (with its workers) on exit."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            list(command),
            env=dict(env),
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            start_new_session=True,  # one group: the stop reaches every worker
        )
    server = Server(f"http://127.0.0.1:{port}", port, process, log)
    try:
        _wait_until_ready(server, ready)
        yield server
    finally:
        _stop(process, crash)


def _wait_until_ready(server: Server, ready: Callable[[httpx.Response], bool]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if server.process.poll() is not None:
            code = server.process.returncode
            raise AssertionError(f"the server stopped with code {code}:\n{server.output()}")
        try:
            if ready(httpx.get(f"{server.base}/api/v1/health", timeout=1)):
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"no answer within {START_SECONDS:.0f} s; its output:\n{server.output()}")
        time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes], crash: bool) -> None:
    """SIGTERM to the group (SIGKILL for a crash), SIGKILL after STOP_SECONDS; then any worker that outlived
    the supervisor (they share its group) until none is left or ten seconds passed."""
    if process.poll() is None:
        _signal_group(process.pid, signal.SIGKILL if crash else signal.SIGTERM)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            _signal_group(process.pid, signal.SIGKILL)
            process.wait(5)
    deadline = time.monotonic() + 10
    while _signal_group(process.pid, signal.SIGKILL) and time.monotonic() < deadline:
        time.sleep(0.05)


def _signal_group(group: int, signal_: signal.Signals) -> bool:
    """Whether the group still had a process to signal."""
    try:
        os.killpg(group, signal_)
    except ProcessLookupError:
        return False
    return True

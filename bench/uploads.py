"""SGF upload benchmark: what hostile uploads cost a real server, and how its other requests fare meanwhile.

    .venv/bin/python bench/uploads.py [--size-kib 1024] [--concurrent 4] [--shapes NAME,NAME...]
                                      [--port PORT] [--database sqlite|postgres] [--database-url URL]
                                      [--record PATH] [--no-reference] [--one-server]

Starts the real server (uvicorn, `miai.server.main:app_from_env`, as bench/server.py does) on a fresh
database: a SQLite file in a temporary folder, a PostgreSQL database created here and dropped at the end,
or the empty database that `--database-url` names (migrated by the server). It listens on a free loopback
port, or `--port`. One member with an API token uploads (POST /api/v1/games/upload, the file as the body):

- the references, normal records: a real one (`--record`, by default a KGS game of GNU Go's regression
  records in ../shared/data when present) and a 903-move game on 25x25 made here (the size of the record
  issue #5 measured);
- the hostile shapes, `--size-kib` each (1 MiB, the largest upload, by default): the issue's compressed
  list `AB[aa:yy]` repeated, one list of it, distinct rectangles, empty nodes, nested variations, open
  parentheses, a huge comment, stray values and moves in one node.

Each upload runs alone, then `--concurrent` copies at once, each run on a server process of its own (so
that no run inherits the memory another left; `--one-server`: one for all), after two seconds without any
upload (the machine's own /health latency, the reference for the others). Reported for each: the answers
(status and
reason), the time of each upload (from sending it to its answer), the server process's peak resident memory
above what it held before (VmHWM of /proc/PID/status, reset through /proc/PID/clear_refs before each run;
where that cannot be reset, the highest VmRSS sampled every 5 ms), what it still holds after, and the
latency of GET /api/v1/health asked every 50 ms meanwhile (p50 and max). Progress goes to stderr, the table
to stdout; everything stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import string
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from siblings import load

MIB = 1024 * 1024
# A KGS game of GNU Go's, in the shared data beside the repository (where tests/conftest.py finds it).
SHARED_RECORD = Path(__file__).resolve().parents[2] / "shared/data/gnugo/games/kgs"
SHARED_RECORD /= "2004-04-10-GnuGoCVS-inuyasha34.sgf"
UPLOAD = "/api/v1/games/upload"
SAMPLE_SECONDS = 0.005  # VmRSS sampling, where VmHWM cannot be reset
HEALTH_SECONDS = 0.05
TIMEOUT = 300.0  # seconds one upload may take before the run is declared broken


def _base() -> ModuleType:
    """bench/server.py (servers, databases, registration, log)."""
    return load("server.py")


def log(text: str) -> None:
    _base().log(text)


# ------------------------------------------------------------------------------------------- the records


def fill(head: bytes, unit: bytes, tail: bytes, size: int) -> bytes:
    """`head`, `unit` repeated, `tail`: as close to `size` bytes as whole units allow."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def rectangles(board: int, size: int) -> bytes:
    """Distinct rectangles `[ab:cd]` of a board x board board, `size` bytes of them at most."""
    letters = string.ascii_lowercase[: board - 1]  # never the last row or column: they never fill the board
    values = (f"[{a}{b}:{c}{d}]".encode() for a, b, c, d in itertools.product(letters, repeat=4))
    return b"".join(itertools.islice(values, size // 7))


def hostile_shapes(size: int) -> dict[str, bytes]:
    """The hostile records, `size` bytes each at most."""
    return {
        "compressed lists": fill(b"(;GM[1]SZ[25]", b"AB[aa:yy]", b")", size),
        "one compressed list": fill(b"(;GM[1]SZ[25]AB", b"[aa:yy]", b")", size),
        "distinct rectangles": b"(;GM[1]SZ[25]AB" + rectangles(25, size - 16) + b")",
        "empty nodes": fill(b"(;GM[1]SZ[9]", b";", b")", size),
        "nested variations": fill(b"(;GM[1]SZ[9]", b"(;B[aa]", b"", size),
        "open parentheses": fill(b"(;GM[1]SZ[9]", b"(", b"", size),
        "huge comment": fill(b"(;GM[1]SZ[9]C[", b"x", b"];B[ee])", size),
        "stray values": fill(b"(;GM[1]SZ[9];", b"[]", b")", size),
        "moves in one node": fill(b"(;GM[1]SZ[25];B", b"[aa]", b")", size),
    }


def long_game(size: int, moves: int, seed: int = 1) -> bytes:
    """A game of `moves` random legal moves (passes when none is left), as Miai writes it."""
    from miai.core.go import preset
    from miai.core.go.game import new_game
    from miai.core.go.moves import PASS, Place
    from miai.formats.sgf.go import dump_go

    rng = random.Random(seed)
    state = new_game(size, preset("japanese", size, 2))
    points = list(range(size * size))
    while state.plies < moves and state.ended is None:
        rng.shuffle(points)
        for point in points:
            with contextlib.suppress(ValueError):  # IllegalMove is a ValueError
                state = state.play(Place(point))
                break
        else:
            state = state.play(PASS)
    return dump_go(state, players={0: ["Black"], 1: ["White"]})


def reference_records(real: Path | None) -> dict[str, bytes]:
    records = {}
    real = real or (SHARED_RECORD if SHARED_RECORD.exists() else None)
    if real is not None:
        records[f"real record ({real.name[:12]})"] = real.read_bytes()
    records["903 moves on 25x25"] = long_game(25, 903)
    return records


# ------------------------------------------------------------------------------------------- measuring


def status_kib(text: str, key: str) -> int:
    """A `Key:   123 kB` line of /proc/PID/status, in KiB (0 when absent)."""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name == key:
            return int(value.split()[0])
    return 0


class Memory:
    """The server process's resident memory, from /proc (Linux)."""

    def __init__(self, pid: int) -> None:
        self.status = Path(f"/proc/{pid}/status")
        self.clear_refs = Path(f"/proc/{pid}/clear_refs")

    def read(self, key: str) -> int:
        try:
            return status_kib(self.status.read_text(), key)
        except OSError:
            return 0

    def rss(self) -> int:
        return self.read("VmRSS")

    def reset_peak(self) -> bool:
        """Set VmHWM back to the current RSS (Linux 4.0 and later, for a process one may trace)."""
        try:
            self.clear_refs.write_text("5")
        except OSError:
            return False
        return self.read("VmHWM") <= self.rss() + 1024


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Run:
    name: str
    copies: int
    size: int  # bytes of each upload
    answers: list[tuple[int, str]] = field(default_factory=list)  # status, reason
    seconds: list[float] = field(default_factory=list)
    before: int = 0  # KiB
    peak: int = 0
    after: int = 0
    health: list[float] = field(default_factory=list)  # seconds
    health_failures: int = 0

    def line(self) -> str:
        statuses = ", ".join(sorted({f"{n} x {s}" for s, n in _counted(a for a, _ in self.answers)}))
        reasons = sorted({reason for _, reason in self.answers})
        upload = f"{percentile(self.seconds, 0.5):6.2f} s" + (
            f" (max {max(self.seconds):5.2f} s)" if self.copies > 1 else " " * 14
        )
        worst = max(self.health or [0.0])
        health = f"{1000 * percentile(self.health, 0.5):6.1f} ms, max {1000 * worst:7.1f} ms"
        if self.health_failures:
            health += f", {self.health_failures} failed"
        return (
            f"{self.name:<26} {self.copies:>2} x {self.size / 1024:6.0f} KiB  {statuses:<8}  "
            f"upload {upload}  peak +{(self.peak - self.before) / 1024:6.1f} MB  "
            f"after +{(self.after - self.before) / 1024:6.1f} MB  /health p50 {health}  "
            f"{'; '.join(reasons)[:110]}"
        )


def _counted(items: Iterator[int]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return sorted(counts.items())


def reason(status: int, body: dict[str, Any]) -> str:
    if status == 201:
        return f"stored: {body.get('moves')} moves, {body.get('variation_moves')} in variations"
    return f"{body.get('error')}: {body.get('message', '')}"


@contextlib.asynccontextmanager
async def watching(client: Any, memory: Memory, run: Run) -> AsyncIterator[None]:
    """Samples memory and /health while the block runs."""
    stop = asyncio.Event()
    run.before = memory.rss()
    exact = memory.reset_peak()
    highest = run.before

    async def sample() -> None:
        nonlocal highest
        while not stop.is_set():
            highest = max(highest, memory.rss())
            await asyncio.sleep(SAMPLE_SECONDS)

    async def health() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                answer = await client.get("/api/v1/health")
                if answer.status_code != 200:
                    run.health_failures += 1
            except Exception:  # a refused or timed-out probe is what is counted
                run.health_failures += 1
            run.health.append(time.perf_counter() - started)
            await asyncio.sleep(HEALTH_SECONDS)

    tasks = [asyncio.create_task(sample()), asyncio.create_task(health())]
    try:
        yield
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        run.peak = max(memory.read("VmHWM"), highest) if exact else highest
        run.after = memory.rss()


async def upload_runs(server: Any, plan: list[tuple[str, bytes, int]], idle: bool, user: str) -> list[Run]:
    """Each (name, record, copies) of `plan` on `server`, after two seconds without uploads if `idle`."""
    import httpx

    copies = max(count for _, _, count in plan)
    limits = httpx.Limits(max_connections=copies + 4)
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT, limits=limits) as client:
        token = await _base().register(client, user)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/x-go-sgf"}
        memory = Memory(server.process.pid)
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as probe:
            runs = []
            if idle:
                quiet = Run("no upload (2 s)", 0, 0)  # the machine's own /health latency, for comparison
                async with watching(probe, memory, quiet):
                    await asyncio.sleep(2)
                runs.append(quiet)
            for name, data, count in plan:
                run = Run(name, count, len(data))
                log(f"{name}: {count} upload(s) of {len(data):,} bytes")

                async def one(run: Run = run, data: bytes = data) -> None:
                    started = time.perf_counter()
                    answer = await client.post(UPLOAD, content=data, headers=headers)
                    run.seconds.append(time.perf_counter() - started)
                    run.answers.append((answer.status_code, reason(answer.status_code, answer.json())))

                async with watching(probe, memory, run):
                    await asyncio.gather(*(one() for _ in range(count)))
                log(f"  {run.line()}")
                runs.append(run)
        return runs


# ------------------------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--size-kib", type=int, default=1024, help="each hostile upload's size (1..1024 KiB)")
    parser.add_argument("--concurrent", type=int, default=4, help="uploads at once in the second run (1..32)")
    parser.add_argument("--shapes", default="", help="comma-separated hostile shapes (default: all)")
    parser.add_argument("--port", type=int, default=None, help="the server's port (default: a free one)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--database-url", default="", help="an empty database to use instead of a fresh one")
    parser.add_argument("--record", type=Path, default=None, help="a real SGF record as a reference")
    parser.add_argument("--no-reference", action="store_true", help="skip the normal records")
    parser.add_argument("--one-server", action="store_true", help="every run on one server process")
    args = parser.parse_args(argv)
    if not 1 <= args.size_kib <= 1024:
        parser.error("--size-kib must be 1..1024 (the server refuses bodies over 1 MiB)")
    if not 1 <= args.concurrent <= 32:
        parser.error("--concurrent must be 1..32")
    if args.port is not None and not 1 <= args.port <= 65535:
        parser.error("--port must be 1..65535")
    known = hostile_shapes(1024)
    args.shapes = [s.strip() for s in args.shapes.split(",") if s.strip()] or list(known)
    unknown = [s for s in args.shapes if s not in known]
    if unknown:
        parser.error(f"unknown shapes {', '.join(unknown)}; known: {', '.join(known)}")
    return args


@contextlib.contextmanager
def database(args: argparse.Namespace, data: Path) -> Iterator[dict[str, str]]:
    """The server's environment for the chosen database."""
    import miai

    env = {"MIAI_DATA_DIR": str(data), "MIAI_ARGON2_TIME_COST": "1", "MIAI_ARGON2_MEMORY_KIB": "1024"}
    env["MIAI_RATE_LIMITS_ENABLED"] = "false"  # the uploads come faster than the `games` rate limit
    # The server runs in a temporary folder: it imports the same miai as this script, wherever that is.
    here = str(Path(miai.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH", "")]))
    if args.database_url:
        yield {**env, "MIAI_DATABASE_URL": args.database_url}
    elif args.database == "postgres":
        with _base().postgres_database() as url:
            yield {**env, "MIAI_DATABASE_URL": url}
    else:
        yield env


async def bench(args: argparse.Namespace, env: dict[str, str], workdir: Path) -> list[Run]:
    records = {} if args.no_reference else reference_records(args.record)
    shapes = hostile_shapes(args.size_kib * 1024)
    records.update({name: shapes[name] for name in args.shapes})
    counts = dict.fromkeys((1, args.concurrent))  # alone, then at once
    plan = [(name, data, count) for name, data in records.items() for count in counts]
    parts = [plan] if args.one_server else [[step] for step in plan]
    target = ["--factory", "miai.server.main:app_from_env"]
    runs: list[Run] = []
    for number, part in enumerate(parts):
        async with _base().running(target, env, workdir, None, args.port) as server:
            log(f"server on port {server.port} (pid {server.process.pid})")
            runs += await upload_runs(server, part, idle=number == 0, user=f"uploader{number}")
    return runs


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="miai-bench-") as tmp:
        workdir = Path(tmp)
        with database(args, workdir) as env:
            runs = asyncio.run(bench(args, env, workdir))
    where = "PostgreSQL" if args.database == "postgres" or args.database_url else "SQLite"
    print(f"SGF uploads to one server process ({where}, {os.cpu_count()} CPUs): memory is the server's RSS")
    for run in runs:
        print(run.line())
    broken = [r for r in runs if any(status >= 500 for status, _ in r.answers)]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

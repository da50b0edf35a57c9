"""Engine workers benchmark: many games against the computer at once, served by 1 and then 2 `miai worker`s.

    .venv/bin/python bench/engines.py [--games 50] [--level 5] [--computer-moves 5] [--people 20] [--rate 10]

Starts one Miai web process (uvicorn, as bench/server.py does) on a fresh PostgreSQL database with
MIAI_ENGINE_QUEUE=redis (the shared Redis under a prefix of its own), so that every computer move is a job for
the workers, and measures three phases:

- `idle`: no computer game; only games between people, each moving once a period (bench/server.py's paced
  phase), for `--idle-seconds`;
- `1 worker`: one `miai worker` (started and warmed up first) while `--games` 9x9 games against the
  computer at `--level` play `--computer-moves` moves each, all at once: the person sends a random empty
  point (a pass when it is refused) as soon as the computer has answered;
- `2 workers`: the same with a second worker, on new games.

The games between people go on through all three phases. Per phase: the computers' moves per second, the
wait a person sees from sending a move to receiving the computer's reply on its own websocket (p50, p99),
the workers' CPU time per computer move, and the web process's latency for people's moves (sent -> the
opponent's `move` event; only moves sent while the phase's computer games ran). Results on stdout as ratios
(2 workers / 1 worker; busy / idle). Progress goes to stderr. Everything runs on loopback and stops by
itself; the database and the Redis keys are removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from siblings import load

# bench/server.py, for its server start-up, databases, accounts, games and websocket helpers
server_bench = load("server.py")
log = server_bench.log
REDIS_URL = os.environ.get("MIAI_BENCH_REDIS", "redis://127.0.0.1:6379/0")
COLUMNS = "ABCDEFGHJKLMNOPQRST"
STEP_TIMEOUT = 300.0  # seconds one computer reply may take before the run is declared broken


# ------------------------------------------------------------------------------------------- workers


@dataclass
class Worker:
    process: subprocess.Popen[bytes]

    def cpu_seconds(self) -> float:
        """CPU time of the worker and its engine processes (its session), from /proc; 0 elsewhere."""
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == self.process.pid:  # session id: the worker started it
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total


@contextlib.contextmanager
def workers_running(
    count: int, env: dict[str, str], workdir: Path, concurrency: int
) -> Iterator[list[Worker]]:
    started = []
    try:
        for index in range(count):
            output = (workdir / f"worker{index + 1}.log").open("wb")
            command = [sys.executable, "-m", "miai", "worker", "--concurrency", str(concurrency)]
            process = subprocess.Popen(
                command,
                env={**os.environ, **env},
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            started.append(Worker(process))
        yield started
    finally:
        for worker in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.process.pid, signal.SIGTERM)
        for worker in started:
            try:
                worker.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.process.pid, signal.SIGKILL)
                worker.process.wait()


# ------------------------------------------------------------------------------------------- people


@dataclass
class Sample:
    sent: float  # time.perf_counter() when the move was sent
    latency: float  # seconds


@dataclass
class People:
    """Games between people, each moving once a period until stopped (bench/server.py's paced load)."""

    pairs: list[Any]
    period: float
    samples: list[Sample] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, moves: list[str]) -> None:
        await asyncio.gather(*(self._game(pair, moves) for pair in self.pairs))

    async def _game(self, sockets: tuple[Any, Any], moves: list[str]) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time() + random.uniform(0, self.period)
        for index, move in enumerate(moves):
            await asyncio.sleep(max(0.0, start + index * self.period - loop.time()))
            if self.stop.is_set():
                return
            ply = index + 1
            mover, opponent = sockets[index % 2], sockets[1 - index % 2]
            seen, acked = opponent.expect_move(ply), mover.expect_ack(ply)
            sent = time.perf_counter()
            await mover.connection.send(json.dumps({"t": "move", "d": {"move": move}, "id": ply}))
            reply = await asyncio.wait_for(acked, STEP_TIMEOUT)
            if reply["t"] != "ack":
                self.refused.append(json.dumps(reply["d"]))
                return
            self.samples.append(Sample(sent, await asyncio.wait_for(seen, STEP_TIMEOUT) - sent))

    def during(self, start: float, end: float) -> list[float]:
        return [s.latency for s in self.samples if start <= s.sent <= end]


# ------------------------------------------------------------------------------------------- the computer


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    computer_moves: int = 0
    waits: list[float] = field(default_factory=list)
    worker_cpu: float = 0.0
    web_cpu: float = 0.0  # the web process's CPU seconds in the phase
    people: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.computer_moves / self.seconds if self.seconds else 0.0


async def computer_game(url: str, size: int, moves: int, phase: Phase) -> None:
    """A person's side of a game against the computer: `moves` random points, each answered by it."""
    from websockets.asyncio.client import connect

    chooser = random.Random(url)
    async with connect(url, max_size=2**22, open_timeout=60) as socket:
        position: dict[str, Any] | None = None
        version = 0
        played = 0
        sent_at = 0.0
        waiting_reply = False
        while played < moves:
            message = json.loads(await asyncio.wait_for(socket.recv(), STEP_TIMEOUT))
            kind, data = message["t"], message.get("d") or {}
            if kind == "snapshot":
                position, version = data["position"], data["version"]
            elif kind == "move":
                position, version = data["position"], message["v"]
                if data.get("team") == 2 and waiting_reply:
                    phase.waits.append(time.perf_counter() - sent_at)
                    phase.computer_moves += 1
                    waiting_reply = False
                    played += 1
            elif kind == "error":  # a refused point (suicide, ko): a pass instead
                await socket.send(
                    json.dumps({"t": "move", "d": {"move": "pass", "v": version}, "id": -version})
                )
                continue
            elif kind == "finished":
                return
            if position is None or position["over"] or waiting_reply:
                continue
            if (position["to_move"] or {}).get("team") == 1:
                empty = [i for i, colour in enumerate(position["board"]) if colour == 0]
                point = chooser.choice(empty)
                move = f"{COLUMNS[point % size]}{point // size + 1}"
                sent_at = time.perf_counter()
                waiting_reply = True
                await socket.send(json.dumps({"t": "move", "d": {"move": move, "v": version}, "id": version}))


async def new_computer_games(http: Any, tokens: list[str], size: int, level: int) -> list[int]:
    gate = asyncio.Semaphore(8)

    async def one(token: str) -> int:
        auth = {"Authorization": f"Bearer {token}"}
        async with gate:
            made = await http.post("/api/v1/games", json={"size": size, "team": 1}, headers=auth)
            made.raise_for_status()
            game_id = int(made.json()["id"])
            body = {"team": 2, "level": level}
            (await http.post(f"/api/v1/games/{game_id}/computer", json=body, headers=auth)).raise_for_status()
            (await http.post(f"/api/v1/games/{game_id}/confirm", json={}, headers=auth)).raise_for_status()
            return game_id

    return list(await asyncio.gather(*(one(t) for t in tokens)))


async def computer_phase(
    name: str,
    server: Any,
    http: Any,
    tokens: list[str],
    workers: list[Worker],
    people: People,
    args: argparse.Namespace,
) -> Phase:
    ws = server.ws
    warm_tokens = tokens[: 2 * len(workers)]
    log(f"[{name}] warming up the workers ({len(warm_tokens)} computer moves)")
    warm = Phase("warm-up")
    warm_ids = await new_computer_games(http, warm_tokens, args.size, args.level)
    urls = [f"{ws}/api/v1/games/{g}/ws?token={t}" for g, t in zip(warm_ids, warm_tokens, strict=True)]
    await asyncio.gather(*(computer_game(url, args.size, 1, warm) for url in urls))
    log(f"[{name}] creating {args.games} games against the computer (level {args.level})")
    game_ids = await new_computer_games(http, tokens[: args.games], args.size, args.level)
    urls = [f"{ws}/api/v1/games/{g}/ws?token={t}" for g, t in zip(game_ids, tokens, strict=False)]
    phase = Phase(name)
    cpu_before, web_before = sum(w.cpu_seconds() for w in workers), server.cpu_seconds()
    log(f"[{name}] {args.games} games play {args.computer_moves} moves each against the computer")
    started = time.perf_counter()
    await asyncio.gather(*(computer_game(url, args.size, args.computer_moves, phase) for url in urls))
    ended = time.perf_counter()
    phase.seconds = ended - started
    phase.worker_cpu = sum(w.cpu_seconds() for w in workers) - cpu_before
    phase.web_cpu = server.cpu_seconds() - web_before
    phase.people = people.during(started, ended)
    log(f"[{name}] {phase.computer_moves} computer moves in {phase.seconds:.1f} s")
    return phase


# ------------------------------------------------------------------------------------------- the run


async def bench(args: argparse.Namespace, env: dict[str, str], workdir: Path) -> list[Phase]:
    import httpx

    phases: list[Phase] = []
    target = ["--factory", "miai.server.main:app_from_env"]
    async with (
        server_bench.running(target, env, workdir, None) as server,
        httpx.AsyncClient(base_url=server.http, timeout=120) as http,
    ):
        log(f"registering {args.games + 2 * args.people} users")
        gate = asyncio.Semaphore(4)

        async def account(name: str) -> str:
            async with gate, httpx.AsyncClient(base_url=server.http, timeout=60) as own:
                return str(await server_bench.register(own, name))

        tokens = await asyncio.gather(*(account(f"bench{i}") for i in range(args.games + 2 * args.people)))
        players, pairs_tokens = tokens[: args.games], tokens[args.games :]
        log(f"starting {args.people} games between people")
        people_ids = [
            await server_bench.start_game(http, pairs_tokens[2 * i], pairs_tokens[2 * i + 1])
            for i in range(args.people)
        ]
        urls = [
            (
                f"{server.ws}/api/v1/games/{g}/ws?token={pairs_tokens[2 * i]}",
                f"{server.ws}/api/v1/games/{g}/ws?token={pairs_tokens[2 * i + 1]}",
            )
            for i, g in enumerate(people_ids)
        ]
        people = People(await server_bench.connect_all(urls), args.people / args.rate)
        traffic = asyncio.create_task(people.run(server_bench.move_sequence(72)))
        try:
            log(f"[idle] people's games only, {args.idle_seconds:g} s")
            started, web_before = time.perf_counter(), server.cpu_seconds()
            await asyncio.sleep(args.idle_seconds)
            idle = Phase("idle", seconds=time.perf_counter() - started)
            idle.web_cpu = server.cpu_seconds() - web_before
            idle.people = people.during(started, time.perf_counter())
            phases.append(idle)
            for count in (1, 2):
                name = f"{count} worker" + ("s" if count > 1 else "")
                with workers_running(count, env, workdir, args.concurrency) as workers:
                    phases.append(await computer_phase(name, server, http, players, workers, people, args))
        finally:
            people.stop.set()
            await asyncio.wait_for(traffic, STEP_TIMEOUT)
            for a, b in people.pairs:
                await a.close()
                await b.close()
        if people.refused:
            log(f"people's games: {len(people.refused)} moves refused, e.g. {people.refused[0]}")
    return phases


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def report(args: argparse.Namespace, phases: list[Phase]) -> None:
    print(
        f"{args.games} games against the computer ({args.size}x{args.size}, level {args.level}, "
        f"{args.computer_moves} moves each, worker concurrency {args.concurrency}); {args.people} games "
        f"between people at {args.rate:g} moves/s in all; {os.cpu_count()} CPUs"
    )
    print(
        f"{'phase':<10} {'computer moves/s':>16} {'reply wait p50':>15} {'p99':>9} {'worker CPU/move':>16}"
        f"   people's moves: {'p50':>8} {'p99':>9} {'(n)':>6}   web CPU"
    )
    for p in phases:
        computer = (
            f"{p.rate:16.2f} {percentile(p.waits, 0.5):12.0f} ms {percentile(p.waits, 0.99):6.0f} ms "
            f"{1000 * p.worker_cpu / max(1, p.computer_moves):13.0f} ms"
            if p.computer_moves
            else f"{'-':>16} {'-':>15} {'-':>9} {'-':>16}"
        )
        people = (
            f"{percentile(p.people, 0.5):5.1f} ms {percentile(p.people, 0.99):6.1f} ms {len(p.people):6d}"
        )
        web = f"{100 * p.web_cpu / p.seconds:5.0f} %" if p.seconds else ""
        print(f"{p.name:<10} {computer}   {'':16} {people}   {web}")
    by_name = {p.name: p for p in phases}
    one, two, idle = by_name.get("1 worker"), by_name.get("2 workers"), by_name.get("idle")
    if one and two and one.rate:
        print(
            f"2 workers / 1 worker: computer moves/s {two.rate / one.rate:.2f} x, reply wait p50 "
            f"{percentile(two.waits, 0.5) / percentile(one.waits, 0.5):.2f} x, p99 "
            f"{percentile(two.waits, 0.99) / percentile(one.waits, 0.99):.2f} x"
        )
    if idle and idle.people:
        for busy in (one, two):
            if busy and busy.people:
                print(
                    f"busy ({busy.name}) / idle, people's moves: p50 "
                    f"{percentile(busy.people, 0.5) / percentile(idle.people, 0.5):.2f} x, p99 "
                    f"{percentile(busy.people, 0.99) / percentile(idle.people, 0.99):.2f} x"
                )


def drop_redis_keys(prefix: str) -> None:
    from redis import Redis

    with Redis.from_url(REDIS_URL) as redis:
        keys = list(redis.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            redis.delete(*keys)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--games", type=int, default=50, help="games against the computer at once (default 50)"
    )
    parser.add_argument("--level", type=int, default=5, help="the computer's level, 1..10 (default 5)")
    parser.add_argument("--size", type=int, default=9, choices=[7, 9, 13, 19], help="board size (default 9)")
    parser.add_argument(
        "--computer-moves", type=int, default=5, help="computer moves in each game and phase (default 5)"
    )
    parser.add_argument("--concurrency", type=int, default=1, help="jobs at a time per worker (default 1)")
    parser.add_argument("--people", type=int, default=20, help="games between people alongside (default 20)")
    parser.add_argument(
        "--rate", type=float, default=10.0, help="moves per second of the people's games in all (default 10)"
    )
    parser.add_argument(
        "--idle-seconds", type=float, default=10.0, help="length of the phase without computers (default 10)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 1000:
        parser.error("--games must be 1..1000")
    if not 1 <= args.level <= 10:
        parser.error("--level must be 1..10")
    if not 1 <= args.computer_moves <= 20:
        parser.error("--computer-moves must be 1..20")
    if not 1 <= args.concurrency <= 64:
        parser.error("--concurrency must be 1..64")
    if not 1 <= args.people <= 500:
        parser.error("--people must be 1..500")
    if not 0 < args.rate <= 10_000:
        parser.error("--rate must be a positive number of moves per second")
    if not 0 < args.idle_seconds <= 600:
        parser.error("--idle-seconds must be 0..600")
    if args.people / args.rate * 72 < args.idle_seconds:
        parser.error("the people's games would run out of moves (72 each): lower --rate or --idle-seconds")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prefix = f"bench-{uuid.uuid4().hex[:10]}"
    with tempfile.TemporaryDirectory(prefix="miai-bench-") as tmp, server_bench.postgres_database() as url:
        workdir = Path(tmp)
        env = {
            "MIAI_DATABASE_URL": url,
            "MIAI_DATA_DIR": str(workdir),
            "MIAI_REDIS_URL": REDIS_URL,
            "MIAI_REDIS_PREFIX": prefix,
            "MIAI_ENGINE_QUEUE": "redis",
            "MIAI_SEARCH_THREADS": "1",
            # Registration is not what is measured, and hundreds of users come from one address.
            "MIAI_ARGON2_TIME_COST": "1",
            "MIAI_ARGON2_MEMORY_KIB": "1024",
            "MIAI_RATE_LIMITS_ENABLED": "false",
        }
        try:
            phases = asyncio.run(bench(args, env, workdir))
        finally:
            drop_redis_keys(prefix)
    report(args, phases)
    return 0


if __name__ == "__main__":
    sys.exit(main())

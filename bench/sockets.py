"""Websocket spectators benchmark: 10,000 sockets watching one game, then 100 games, over two web processes.

    .venv/bin/python bench/sockets.py [--sockets 10000] [--games 100] [--moves 20] [--interval 1.0]
                                      [--clients 4] [--database postgres|sqlite] [--quick] [--profile PATH]

Starts two Miai web processes (uvicorn, as bench/server.py does) on one fresh database with Redis fan-out
under a prefix of their own, registers two players per game, starts the games (9x9, public), connects the
players by websocket to the process of their game, and connects the spectators (anonymous) half to each
process from `--clients` client processes. Scenario A puts every spectator on one game; scenario B spreads
them over `--games` games. In each, every game plays `--moves` moves, one every `--interval` seconds at
most and never before its previous move reached all its spectators.

Latency of a move runs to the moment the LAST of its spectators received it (each client process reports
its own last arrival; arrival times are wall clock, `time.time()`, the one clock all processes share), from:
- `stored`: the `turn_started_at` timestamp of the `move` event, the server's clock when it applied the
  move, just before the COMMIT that stores it (so this slightly over-states the latency);
- `sent`: the mover sending its `move` command (the client side of the same clock).
The mover's acknowledgement (sent after the COMMIT and after the publish to Redis) is reported beside them.

Memory per socket is the growth of each server process's RSS (/proc/<pid>/status VmRSS) from before to after
connecting its spectators, divided by their number.

The reference is a bare Starlette relay, two uvicorn processes linked by Redis pub/sub like Miai's, with the
same clients: a `move` command is stamped, published to Redis and acknowledged; each process sends every
message from Redis to its local sockets of that room in a loop. Ratios are Miai / reference, measured in the
same run. Spectator clients are raw asyncio protocols (no task per socket, frames parsed by hand) so that
the 10,000 client sockets cost as little CPU as possible on a machine the servers share. Progress goes to
stderr, the table to stdout; everything stops by itself and removes its databases and Redis keys.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from siblings import load

HERE = Path(__file__).resolve().parent
REDIS_URL = os.environ.get("MIAI_BENCH_REDIS", "redis://127.0.0.1:6379/0")
STEP_TIMEOUT = 120.0  # seconds a move may take to reach every spectator before the run counts as broken
CONNECT_TIMEOUT = 600.0


def _base() -> ModuleType:
    """bench/server.py (servers, databases, registration, moves)."""
    return load("server.py")


def log(text: str) -> None:
    _base().log(text)


# ------------------------------------------------------------------------------------------- the reference


def reference_factory() -> Any:
    """The bare relay (uvicorn --factory): `move` -> stamped event published to Redis, then an ack; every
    process sends each message from Redis to its own sockets of the room, one after the other."""
    from redis.asyncio import Redis
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    prefix = os.environ["BENCH_REFERENCE_PREFIX"]
    redis = Redis.from_url(os.environ["BENCH_REFERENCE_REDIS"])
    rooms: dict[str, set[WebSocket]] = {}
    versions: dict[str, int] = {}

    async def relay(subscribed: asyncio.Event) -> None:
        pubsub = redis.pubsub()
        await pubsub.psubscribe(f"{prefix}:*")
        subscribed.set()
        async for raw in pubsub.listen():
            if raw["type"] != "pmessage":
                continue
            room, text = raw["channel"].decode().split(":", 1)[1], raw["data"].decode()
            for member in list(rooms.get(room, ())):
                with contextlib.suppress(Exception):  # a socket closing meanwhile
                    await member.send_text(text)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        subscribed = asyncio.Event()
        task = asyncio.create_task(relay(subscribed))
        await asyncio.wait_for(subscribed.wait(), 10)
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await redis.aclose()

    async def health(_request: Any) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def game(websocket: WebSocket) -> None:
        room = websocket.path_params["room"]

        async def publish(version: int, move: str) -> None:
            event = {"t": "move", "d": _reference_event(version, move), "v": version}
            await redis.publish(f"{prefix}:{room}", json.dumps(event, separators=(",", ":")))

        await _base().reference_room(websocket, room, rooms, versions, publish)

    return Starlette(
        routes=[Route("/api/v1/health", health), WebSocketRoute("/api/v1/games/{room}/ws", game)],
        lifespan=lifespan,
    )


def _reference_event(ply: int, move: str) -> dict[str, Any]:
    """About the size and shape of Miai's `move` event data (about 800 bytes of JSON)."""
    now = datetime.fromtimestamp(time.time()).astimezone().isoformat()
    return {
        "ply": ply,
        "team": 2 - ply % 2,
        "seat": 0,
        "move": move,
        "user_id": 1,
        "position": {
            "kind": "go",
            "size": 9,
            "board": [0] * 81,
            "to_move": {"team": 1 + ply % 2, "seat": 0},
            "captures": [0, 0],
            "prisoners": [0, 0],
            "active": [True, True],
            "passes": 0,
            "plies": ply,
            "rounds": (ply + 1) // 2,
            "last": {"team": 2 - ply % 2, "seat": 0, "move": move, "point": 0, "captured": []},
            "over": False,
        },
        "deadline": now,
        "turn_started_at": now,
        "clocks": {"1": {"main": 0.0, "periods": 0}, "2": {"main": 0.0, "periods": 0}},
    }


# ------------------------------------------------------------------------------------------- spectators
# A client process (`sockets.py --client`) reads one JSON line {"sockets": [[port, path, key], ...],
# "parallel": n} on stdin, connects them all, prints `ready <n> <failed>`, then `done <key> <ply> <time>`
# when every one of its sockets on `key` has received the `move` event of `ply` (time: the last arrival),
# `lost <key>` for a socket closed by the server; on `close` it disconnects and prints `cpu <seconds>`.

MOVE_PREFIX = b'{"t":"move"'
PLY = b'"ply":'


class Spectator(asyncio.Protocol):
    """A websocket client in a few lines: no extensions, unmasked server frames, pings answered."""

    def __init__(self, watch: Watch, port: int, path: str, key: str) -> None:
        self.watch, self.key = watch, key
        secret = base64.b64encode(os.urandom(16)).decode()
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {secret}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        self.buffer = bytearray()
        self.upgraded = False
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.closing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"closed before the first message: {exc}"))
        elif not self.closing:
            self.watch.lost(self.key)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self._fail(buffer[: buffer.find(b"\r\n")].decode(errors="replace"))
                return
            del buffer[: end + 4]
            self.upgraded = True
        while len(buffer) >= 2:
            opcode, length, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            self._frame(opcode, payload, now)

    def _frame(self, opcode: int, payload: bytes, now: float) -> None:
        if opcode == 0x1:  # text
            if not self.ready.done():
                self.ready.set_result(None)  # the snapshot (or the catch-up): the socket is live
            if payload.startswith(MOVE_PREFIX):
                at = payload.find(PLY) + len(PLY)
                end = at
                while 48 <= payload[end] <= 57:
                    end += 1
                self.watch.arrived(self.key, int(payload[at:end]), now)
        elif opcode == 0x9 and self.transport is not None:  # ping: pong, masked with a zero key
            self.transport.write(bytes([0x8A, 0x80 | len(payload), 0, 0, 0, 0]) + payload)
        elif opcode == 0x8:  # close
            if not self.ready.done():
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 0
                self._fail(f"closed with {code} {payload[2:].decode(errors='replace')}")
            elif self.transport is not None:
                self.transport.close()

    def _fail(self, why: str) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(why))
        if self.transport is not None:
            self.transport.close()

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.write(b"\x88\x82\x00\x00\x00\x00\x03\xe8")  # close 1000, masked with a zero key
            self.transport.close()


@dataclass
class Watch:
    """Per game key: how many of this process's sockets watch it, and per ply how many have it so far."""

    watchers: dict[str, int] = field(default_factory=dict)
    seen: dict[tuple[str, int], list[float]] = field(default_factory=dict)  # [count, last arrival]

    def arrived(self, key: str, ply: int, now: float) -> None:
        entry = self.seen.setdefault((key, ply), [0, 0.0])
        entry[0] += 1
        entry[1] = max(entry[1], now)
        if entry[0] == self.watchers[key]:
            print(f"done {key} {ply} {entry[1]:.6f}", flush=True)
            del self.seen[(key, ply)]

    def lost(self, key: str) -> None:
        print(f"lost {key}", flush=True)


async def client_main() -> None:
    plan = json.loads(sys.stdin.readline())
    loop = asyncio.get_running_loop()
    watch = Watch()
    gate = asyncio.Semaphore(plan["parallel"])
    failures: list[str] = []

    async def one(port: int, path: str, key: str) -> Spectator | None:
        async with gate:
            for attempt in range(3):
                try:
                    _, spectator = await loop.create_connection(
                        lambda: Spectator(watch, port, path, key), "127.0.0.1", port
                    )
                    await asyncio.wait_for(spectator.ready, 60)
                    return spectator
                except (OSError, TimeoutError) as err:
                    if attempt == 2:
                        failures.append(str(err))
                    await asyncio.sleep(0.5)
            return None

    for _, _, key in plan["sockets"]:
        watch.watchers[key] = watch.watchers.get(key, 0) + 1
    spectators = await asyncio.gather(*(one(*s) for s in plan["sockets"]))
    print(f"ready {sum(s is not None for s in spectators)} {len(failures)} {failures[:1]}", flush=True)
    while (await loop.run_in_executor(None, sys.stdin.readline)).strip() == "cpu":  # else "close" or EOF
        print(f"cpu {time.process_time():.3f}", flush=True)
    for spectator in spectators:
        if spectator is not None:
            spectator.close()
    await asyncio.sleep(0.5)


# ------------------------------------------------------------------------------------------- the parent


class Clients:
    """The spectator client processes and what they report."""

    def __init__(self) -> None:
        self.processes: list[asyncio.subprocess.Process] = []
        self.readers: list[asyncio.Task[None]] = []
        self.ready: list[asyncio.Future[str]] = []
        self.pending: dict[tuple[str, int], list[Any]] = {}  # [children left, last arrival, future]
        self.expected: dict[str, int] = {}  # game key -> how many client processes watch it
        self.lost = 0
        self.cpu_marks: list[float] = []  # the CPU seconds each client process reported so far

    async def start(self, plans: list[list[tuple[int, str, str]]], parallel: int) -> int:
        """Start one client process per plan, wait until all sockets are connected; returns how many."""
        for plan in plans:
            for key in {k for _, _, k in plan}:
                self.expected[key] = self.expected.get(key, 0) + 1
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--client",
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=2**20,
            )
            assert process.stdin is not None
            process.stdin.write(json.dumps({"sockets": plan, "parallel": parallel}).encode() + b"\n")
            await process.stdin.drain()
            ready = asyncio.get_running_loop().create_future()
            self.processes.append(process)
            self.ready.append(ready)
            self.readers.append(asyncio.create_task(self._read(process, ready)))
        connected = 0
        for reply in await asyncio.wait_for(asyncio.gather(*self.ready), CONNECT_TIMEOUT):
            _, count, failed, why = reply.split(" ", 3)
            if int(failed):
                raise SystemExit(f"{failed} spectators could not connect, e.g. {why}")
            connected += int(count)
        return connected

    async def _read(self, process: asyncio.subprocess.Process, ready: asyncio.Future[str]) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            line = raw.decode().strip()
            kind, _, rest = line.partition(" ")
            if kind == "done":
                key, ply, at = rest.split()
                entry = self.expect(key, int(ply))
                entry[0] -= 1
                entry[1] = max(entry[1], float(at))
                if entry[0] == 0 and not entry[2].done():
                    entry[2].set_result(entry[1])
            elif kind == "ready":
                ready.set_result(line)
            elif kind == "lost":
                self.lost += 1
            elif kind == "cpu":
                self.cpu_marks.append(float(rest))
        if not ready.done():
            ready.set_exception(SystemExit(f"a client process exited with {await process.wait()}"))

    def expect(self, key: str, ply: int) -> list[Any]:
        """The entry that resolves with the last arrival of (key, ply) over every client process."""
        entry = self.pending.get((key, ply))
        if entry is None:
            future = asyncio.get_running_loop().create_future()
            entry = self.pending[(key, ply)] = [self.expected.get(key, 0), 0.0, future]
        return entry

    async def cpu(self) -> float:
        """The CPU seconds used by all client processes so far."""
        count = len(self.cpu_marks) + len(self.processes)
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write(b"cpu\n")
            await process.stdin.drain()
        for _ in range(100):
            if len(self.cpu_marks) >= count:
                break
            await asyncio.sleep(0.05)
        return sum(self.cpu_marks[-len(self.processes) :])

    async def close(self) -> None:
        for process in self.processes:
            if process.stdin is not None and process.returncode is None:
                with contextlib.suppress(ConnectionError):
                    process.stdin.write(b"close\n")
                    await process.stdin.drain()
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 60)
            except TimeoutError:
                process.kill()
                await process.wait()
        for reader in self.readers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 5)


class Player:
    """A player's websocket (the `websockets` library): acks and the turn_started_at of its move events."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.acks: dict[int, asyncio.Future[tuple[float, dict[str, Any]]]] = {}
        self.stored: dict[int, asyncio.Future[float | None]] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())

    def future(self, table: dict[int, asyncio.Future[Any]], key: int) -> asyncio.Future[Any]:
        return table.setdefault(key, asyncio.get_running_loop().create_future())

    async def _read(self) -> None:
        async for raw in self.connection:
            arrived = time.time()
            message = json.loads(raw)
            kind, data = message.get("t"), message.get("d") or {}
            if not self.ready.done():
                self.ready.set_result(None)
            if kind == "move":
                stamp = data.get("turn_started_at")
                stored = datetime.fromisoformat(stamp).timestamp() if stamp else None
                future = self.future(self.stored, int(data["ply"]))
                if not future.done():
                    future.set_result(stored)
            elif kind in {"ack", "error"}:
                ack = self.future(self.acks, int(data.get("id") or 0))
                if not ack.done():
                    ack.set_result((arrived, message))

    async def close(self) -> None:
        await self.connection.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader


@dataclass
class Samples:
    stored: list[float] = field(default_factory=list)  # turn_started_at -> last spectator
    sent: list[float] = field(default_factory=list)  # move sent -> last spectator
    ack: list[float] = field(default_factory=list)  # move sent -> ack to the mover
    failed: list[str] = field(default_factory=list)


async def play(
    key: str, players: tuple[Player, Player], moves: list[str], clients: Clients, interval: float, s: Samples
) -> None:
    """One game's moves: each at most one per `interval`, never before the last reached all spectators."""
    loop = asyncio.get_running_loop()
    due = loop.time() + random.uniform(0, interval)  # the games' moves spread over the interval
    for ply, move in enumerate(moves, start=1):
        await asyncio.sleep(max(0.0, due - loop.time()))
        due += interval
        mover = players[(ply - 1) % 2]
        last = clients.expect(key, ply)[2]
        acked, stored = mover.future(mover.acks, ply), mover.future(mover.stored, ply)
        sent = time.time()
        await mover.connection.send(json.dumps({"t": "move", "d": {"move": move}, "id": ply}))
        try:
            at, reply = await asyncio.wait_for(acked, STEP_TIMEOUT)
            if reply["t"] != "ack":
                s.failed.append(f"game {key} move {ply}: {json.dumps(reply['d'])}")
                return
            arrived = await asyncio.wait_for(last, STEP_TIMEOUT)
            stamp = await asyncio.wait_for(stored, STEP_TIMEOUT)
        except TimeoutError:
            s.failed.append(f"game {key} move {ply} did not reach every spectator in {STEP_TIMEOUT:.0f} s")
            return
        s.ack.append(at - sent)
        s.sent.append(arrived - sent)
        if stamp is not None:
            s.stored.append(arrived - stamp)


def profiling(setup: Setup, args: argparse.Namespace) -> None:
    """Start or stop the profiler of profiled servers."""
    if args.profile is not None:
        for server in setup.servers:
            os.kill(server.process.pid, signal.SIGUSR1)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Result:
    name: str
    scenario: str
    sockets: int
    samples: Samples
    kib_per_socket: list[float]  # per server process
    server_cpu: float
    client_cpu: float
    seconds: float
    lost: int
    fresh: bool  # the first sockets of these server processes: later ones reuse memory the first freed

    def percentile(self, values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    def line(self) -> str:
        s = self.samples
        stored = "  ".join(f"{self.percentile(s.stored, q):7.1f}" for q in (0.5, 0.99, 1.0))
        sent = "  ".join(f"{self.percentile(s.sent, q):7.1f}" for q in (0.5, 0.99, 1.0))
        memory = "/".join(f"{k:.0f}" for k in self.kib_per_socket)
        moves = len(s.sent)
        return (
            f"{self.name:<22} {self.scenario:<14} {self.sockets:>6} {moves:>6}  {stored}   {sent}  "
            f"{self.percentile(s.ack, 0.99):7.1f}  {memory:>9}  {1000 * self.server_cpu / max(1, moves):8.1f}"
            f"  {1000 * self.client_cpu / max(1, moves):7.1f}"
        )


@dataclass
class Setup:
    """What a scenario needs: the servers, per game its key, its players' URLs and its spectators' paths."""

    name: str
    servers: list[Any]
    games: list[tuple[str, tuple[str, str], int, str]]  # key, player URLs, server index, spectator path


async def scenario(
    setup: Setup,
    title: str,
    games: list[tuple[str, tuple[str, str], int, str]],
    args: argparse.Namespace,
    fresh: bool,
) -> Result:
    from websockets.asyncio.client import connect

    servers = setup.servers
    log(f"[{setup.name}] {title}: connecting {2 * len(games)} players")
    players: list[tuple[Player, Player]] = []
    for _key, urls, _server, _path in games:
        pair = []
        for url in urls:
            player = Player(await connect(url, max_size=2**22, open_timeout=30))
            await asyncio.wait_for(player.ready, STEP_TIMEOUT)
            pair.append(player)
        players.append((pair[0], pair[1]))
    await asyncio.sleep(args.settle)
    before = [rss_kib(s.process.pid) for s in servers]
    # Spectator k of a game goes to server k % 2 and to client process (k // 2) % clients.
    plans: list[list[tuple[int, str, str]]] = [[] for _ in range(args.clients)]
    per_server = [0] * len(servers)
    for index in range(args.sockets):
        key, _urls, _server, path = games[index % len(games)]
        k = index // len(games)
        server = k % len(servers)
        per_server[server] += 1
        plans[(k // len(servers)) % args.clients].append((servers[server].port, path, key))
    clients = Clients()
    try:
        log(f"[{setup.name}] {title}: connecting {args.sockets} spectators from {args.clients} processes")
        started = time.perf_counter()
        connected = await clients.start([p for p in plans if p], args.parallel)
        log(f"[{setup.name}] {title}: {connected} connected in {time.perf_counter() - started:.1f} s")
        await asyncio.sleep(args.settle)
        after = [rss_kib(s.process.pid) for s in servers]
        memory = [(a - b) / max(1, n) for a, b, n in zip(after, before, per_server, strict=True)]
        moves = _base().move_sequence(args.moves)
        log(f"[{setup.name}] {title}: {args.moves} moves in each of {len(games)} games")
        samples = Samples()
        profiling(setup, args)
        cpu_before, client_before = sum(s.cpu_seconds() for s in servers), await clients.cpu()
        started = time.perf_counter()
        await asyncio.gather(
            *(
                play(key, pair, moves, clients, args.interval, samples)
                for (key, *_), pair in zip(games, players, strict=True)
            )
        )
        seconds = time.perf_counter() - started
        server_cpu = sum(s.cpu_seconds() for s in servers) - cpu_before
        profiling(setup, args)
        client_cpu = await clients.cpu() - client_before
    finally:
        await clients.close()
        for a, b in players:
            await a.close()
            await b.close()
    result = Result(
        setup.name, title, connected, samples, memory, server_cpu, client_cpu, seconds, clients.lost, fresh
    )
    log(f"[{setup.name}] {title}: {result.line()}")
    await asyncio.sleep(args.settle)  # let the servers drop the closed sockets before the next scenario
    return result


async def scenarios(setup: Setup, args: argparse.Namespace) -> list[Result]:
    one, many = setup.games[:1], setup.games[1:]
    results = []
    if args.scenario in {"a", "both"}:
        results.append(await scenario(setup, "A: 1 game", one, args, fresh=True))
    if args.scenario in {"b", "both"}:
        results.append(await scenario(setup, f"B: {len(many)} games", many, args, fresh=not results))
    return results


@contextlib.asynccontextmanager
async def two_servers(
    target: list[str], env: dict[str, str], workdir: Path, profile: Path | None
) -> AsyncIterator[list[Any]]:
    """Two uvicorn processes, the second started once the first is up (it has migrated the database)."""
    running = _base().running
    async with contextlib.AsyncExitStack() as stack:
        servers = []
        for index in range(2):
            own = {**env, "PYTHONPATH": str(workdir / "profiler")}  # for PROFILER
            (workdir / "profiler").mkdir(exist_ok=True)
            (workdir / "profiler" / "sitecustomize.py").write_text(PROFILER)
            if profile is not None:  # profiled while the moves are played only
                own["BENCH_PROFILE_OUT"] = str(profile.with_suffix(f".{index}.prof"))
            servers.append(await stack.enter_async_context(running(target, own, workdir, None)))
        yield servers


# Loaded by the profiled servers' interpreter (PYTHONPATH): SIGUSR1 starts the profiler, the next one stops it
# and writes the file, so that the profile holds the moves and not the thousands of connections before them.
PROFILER = """
import cProfile, gc, os, signal, sys, time

if os.environ.get("BENCH_GC_THRESHOLD"):  # --gc-threshold: gc.set_threshold(*comma-separated numbers)
    gc.set_threshold(*map(int, os.environ["BENCH_GC_THRESHOLD"].split(",")))

if os.environ.get("BENCH_PROFILE_OUT"):
    _profile, _on, _gc = cProfile.Profile(), [False], {"started": 0.0, "seconds": 0.0, "runs": [0, 0, 0]}

    def _collecting(phase, info):  # the collector's own time is in no function of the profile
        if phase == "start":
            _gc["started"] = time.perf_counter()
        elif _on[0]:
            _gc["seconds"] += time.perf_counter() - _gc["started"]
            _gc["runs"][info["generation"]] += 1

    def _toggle(*_):
        _on[0] = not _on[0]
        if _on[0]:
            _profile.enable()
        else:
            _profile.disable()
            _profile.dump_stats(os.environ["BENCH_PROFILE_OUT"])
            print(f"profiled server {os.getpid()}: garbage collection {_gc}", file=sys.stderr, flush=True)

    gc.callbacks.append(_collecting)

    signal.signal(signal.SIGUSR1, _toggle)
"""


async def bench_reference(args: argparse.Namespace, workdir: Path, prefix: str) -> list[Result]:
    env = {"BENCH_REFERENCE_PREFIX": f"{prefix}-reference", "BENCH_REFERENCE_REDIS": REDIS_URL}
    env["BENCH_GC_THRESHOLD"] = args.gc_threshold
    target = ["--factory", "--app-dir", str(HERE), "sockets:reference_factory"]
    profile = args.profile.with_name(f"{args.profile.name}-reference") if args.profile else None
    async with two_servers(target, env, workdir, profile) as servers:
        games = []
        for index in range(args.games + 1):
            room, server = f"r{index}", servers[index % 2]
            path = f"/api/v1/games/{room}/ws"
            games.append((room, (f"{server.ws}{path}", f"{server.ws}{path}"), index % 2, path))
        return await scenarios(Setup("reference (Starlette)", servers, games), args)


async def bench_miai(
    name: str, env: dict[str, str], args: argparse.Namespace, workdir: Path, profile: Path | None
) -> list[Result]:
    import httpx

    base = _base()
    target = ["--factory", "miai.server.main:app_from_env"]
    async with two_servers(target, env, workdir, profile) as servers:
        count = args.games + 1
        first = servers[0]
        log(f"[{name}] registering {2 * count} players, starting {count} games")
        gate = asyncio.Semaphore(4)

        async def user(i: int) -> str:
            async with gate, httpx.AsyncClient(base_url=first.http, timeout=60) as own:
                return str(await base.register(own, f"bench{i}"))

        tokens = await asyncio.gather(*(user(i) for i in range(2 * count)))
        async with httpx.AsyncClient(base_url=first.http, timeout=60) as client:
            game_ids = [await base.start_game(client, tokens[2 * i], tokens[2 * i + 1]) for i in range(count)]
        games = []
        for index, gid in enumerate(game_ids):
            server = servers[index % 2]
            urls = tuple(
                f"{server.ws}/api/v1/games/{gid}/ws?token={t}" for t in tokens[2 * index : 2 * index + 2]
            )
            games.append((str(gid), (urls[0], urls[1]), index % 2, f"/api/v1/games/{gid}/ws"))
        return await scenarios(Setup(name, servers, games), args)


def clean_redis(prefix: str) -> int:
    """Delete every key under the run's prefix (SCAN, never FLUSH: the Redis is shared)."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        client = Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()
        return len(keys)
    except RedisError as err:
        log(f"could not clean the Redis keys under {prefix}: {err}")
        return 0


def redis_ok() -> None:
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except RedisError as err:
        raise SystemExit(f"Redis is needed at {REDIS_URL} (MIAI_BENCH_REDIS): {err}") from None


# ------------------------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sockets", type=int, default=None, help="spectators (default 10000; 1000 --quick)")
    parser.add_argument("--games", type=int, default=100, help="games of scenario B (default 100)")
    parser.add_argument("--moves", type=int, default=None, help="moves per game, 1..72 (20; 5 --quick)")
    parser.add_argument(
        "--interval", type=float, default=1.0, help="seconds between a game's moves at most (default 1.0)"
    )
    parser.add_argument("--clients", type=int, default=4, help="spectator client processes (default 4)")
    parser.add_argument("--parallel", type=int, default=50, help="connections opened at once per client")
    parser.add_argument("--scenario", choices=["a", "b", "both"], default="both", help="A: one game; B: many")
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument(
        "--gc-threshold",
        default="",
        help="gc.set_threshold(N0,N1,N2) in every server process, e.g. 700,10,10 (Python's); without it the "
        "reference keeps Python's and Miai its MIAI_GC_THRESHOLD default",
    )
    parser.add_argument(
        "--settle", type=float, default=2.0, help="seconds to wait before measuring memory (default 2)"
    )
    parser.add_argument("--quick", action="store_true", help="a small run to check the bench: 1000 sockets")
    parser.add_argument("--no-reference", action="store_true", help="skip the bare Starlette reference")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="cProfile the servers during the moves: PATH[-reference].N.prof",
    )
    args = parser.parse_args(argv)
    args.sockets = args.sockets if args.sockets is not None else (1000 if args.quick else 10_000)
    args.moves = args.moves if args.moves is not None else (5 if args.quick else 20)
    if not 2 <= args.sockets <= 40_000:
        parser.error("--sockets must be 2..40000")
    if not 1 <= args.games <= min(1000, args.sockets):
        parser.error("--games must be 1..1000 and at most --sockets")
    if not 1 <= args.moves <= 72:
        parser.error("--moves must be 1..72 (moves without captures on 9x9)")
    if not 0 <= args.interval <= 60 or not 0 <= args.settle <= 60:
        parser.error("--interval and --settle must be 0..60 seconds")
    numbers = args.gc_threshold.split(",")
    if args.gc_threshold and (len(numbers) != 3 or not all(n.isdigit() and int(n) > 0 for n in numbers)):
        parser.error("--gc-threshold is 3 whole numbers above 0 separated by commas")
    if not 1 <= args.clients <= 32 or not 1 <= args.parallel <= 1000:
        parser.error("--clients must be 1..32 and --parallel 1..1000")
    # Each client socket is one file descriptor in a client process.
    if args.sockets / args.clients > 0.9 * _fd_limit():
        parser.error(f"{args.sockets} sockets need more --clients under a limit of {_fd_limit()} files")
    return args


def _fd_limit() -> int:
    import resource

    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def report(args: argparse.Namespace, results: list[Result]) -> None:
    print(
        f"{args.sockets} spectators over 2 server processes (Redis fan-out), {args.moves} moves per game, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}\n"
        "latency in ms to the LAST spectator, from `stored` (the event's turn_started_at) and from `sent` "
        "(the mover's send); ack = sent -> the mover's ack; KiB/socket per server process (RSS growth; "
        "only the first scenario's counts: later sockets reuse the memory the first ones freed)"
    )
    print(
        f"{'':<22} {'scenario':<14} {'socks':>6} {'moves':>6}  {'stored p50':>7}  {'p99':>7}  {'max':>7}   "
        f"{'sent p50':>7}  {'p99':>7}  {'max':>7}  {'ack p99':>7}  {'KiB/sock':>9}  {'srv CPU/mv':>8}  "
        f"{'cli CPU/mv':>7}"
    )
    reference = {r.scenario: r for r in results if r.name.startswith("reference")}
    for result in results:
        print(result.line())
        base = reference.get(result.scenario)
        if base is not None and result is not base:
            p99 = result.percentile(result.samples.stored, 0.99) / base.percentile(base.samples.stored, 0.99)
            sent = result.percentile(result.samples.sent, 0.99) / base.percentile(base.samples.sent, 0.99)
            memory = sum(result.kib_per_socket) / max(1e-9, sum(base.kib_per_socket))
            print(
                f"{'':<37} {p99:.2f} x the reference's stored p99, {sent:.2f} x its sent p99"
                + (f", {memory:.1f} x its memory per socket" if result.fresh and base.fresh else "")
            )
        if result.samples.failed or result.lost:
            failed = result.samples.failed
            print(f"{'':<37} {len(failed)} games stopped, {result.lost} sockets lost; {failed[:1]}")


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:] == ["--client"]:
        asyncio.run(client_main())
        return 0
    args = parse_args(argv)
    redis_ok()
    prefix = f"bench-sockets-{uuid.uuid4().hex[:10]}"
    results: list[Result] = []
    try:
        with tempfile.TemporaryDirectory(prefix="miai-bench-") as tmp:
            workdir = Path(tmp)
            if not args.no_reference:
                results += asyncio.run(bench_reference(args, workdir, prefix))
            env = {
                "MIAI_DATA_DIR": str(workdir),
                "MIAI_ARGON2_TIME_COST": "1",  # registration is not what is measured
                "MIAI_ARGON2_MEMORY_KIB": "1024",
                "MIAI_RATE_LIMITS_ENABLED": "false",  # thousands of sockets from one address
                "MIAI_REDIS_URL": REDIS_URL,
                "MIAI_REDIS_PREFIX": prefix,
                "BENCH_GC_THRESHOLD": args.gc_threshold,
            }
            if args.gc_threshold:  # Miai sets its own once started: give it the same
                env["MIAI_GC_THRESHOLD"] = args.gc_threshold
            name = f"miai ({'PostgreSQL' if args.database == 'postgres' else 'SQLite'})"
            if args.database == "postgres":
                with _base().postgres_database() as url:
                    env["MIAI_DATABASE_URL"] = url
                    results += asyncio.run(bench_miai(name, env, args, workdir, args.profile))
            else:
                results += asyncio.run(bench_miai(name, env, args, workdir, args.profile))
    finally:
        clean_redis(prefix)
    report(args, results)
    return 0 if all(not r.samples.failed and not r.lost for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Realtime game server benchmark: many concurrent 2-player games playing moves over websockets.

    .venv/bin/python bench/server.py [--games 200] [--moves-per-game 60] [--rate 500]
                                     [--database sqlite|postgres|both] [--profile PATH]

Starts the real server (uvicorn in a subprocess on a free loopback port) on a fresh database (a SQLite file
in a temporary folder, or a PostgreSQL database created and dropped here), registers two users per game with
API tokens, creates and starts every game (9x9), connects every player by websocket and lets all games play
at once. Each move is a websocket `move` command from the player on move; its latency runs from sending it to
the OPPONENT receiving the `move` event on its own websocket.

Two phases: `saturation` (every game sends its next move as soon as the previous one arrived: the most moves
per second the server manages, and latency = games in flight / throughput) and `paced` (all games together
offer `--rate` moves per second, each game one move per period: the latency at that load).

The reference is a minimal Starlette app served by uvicorn the same way under the same load: the same
sockets and messages (ack to the mover, event to both players) with no rules, database or auth; the ratio
to it shows what Miai's command stream costs over the bare ASGI/websocket floor on this machine. Progress
goes to stderr, results to stdout. Everything runs on loopback and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN = os.environ.get("MIAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
COLUMNS = "ABCDEFGHJ"  # 9x9 GTP letters (no I)
STEP_TIMEOUT = 120.0  # seconds one move may take before the run is declared broken


_T0 = time.perf_counter()


def log(text: str) -> None:
    print(f"{time.perf_counter() - _T0:7.1f}s {text}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------- the reference


def _reference_app() -> Any:
    """Websocket relay with Miai's message shape: `move` -> ack to the sender, `move` event to the others."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    rooms: dict[str, set[WebSocket]] = {}
    versions: dict[str, int] = {}

    async def health(_request: Any) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def game(websocket: WebSocket) -> None:
        room = websocket.path_params["game_id"]

        async def deliver(version: int, move: str) -> None:
            event = {"t": "move", "d": {"ply": version, "move": move}, "v": version}
            for member in list(rooms[room]):
                await member.send_json(event)

        await reference_room(websocket, room, rooms, versions, deliver)

    return Starlette(
        routes=[Route("/api/v1/health", health), WebSocketRoute("/api/v1/games/{game_id}/ws", game)]
    )


async def reference_room(
    websocket: Any,
    room: str,
    rooms: dict[str, set[Any]],
    versions: dict[str, int],
    deliver: Callable[[int, str], Awaitable[None]],
) -> None:
    """A reference app's game socket: it joins `room` and gets a snapshot; each `move` command takes the
    room's next version, is delivered (`deliver(version, move)`: the app's fan-out), then acknowledged."""
    from starlette.websockets import WebSocketDisconnect

    await websocket.accept()
    members = rooms.setdefault(room, set())
    members.add(websocket)
    await websocket.send_json({"t": "snapshot", "d": {}, "v": versions.get(room, 0)})
    try:
        while True:
            message = json.loads(await websocket.receive_text())
            if message.get("t") != "move":
                continue
            version = versions[room] = versions.get(room, 0) + 1
            await deliver(version, message["d"]["move"])
            ack = {"id": message.get("id"), "ok": True, "version": version, "ply": version}
            await websocket.send_json({"t": "ack", "d": ack})
    except WebSocketDisconnect:
        pass
    finally:
        members.discard(websocket)


if __name__ != "__main__":  # imported by uvicorn in the reference server's process
    reference_app = _reference_app()


# ------------------------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc; 0 elsewhere)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def running(
    target: list[str], env: dict[str, str], workdir: Path, profile: Path | None, port: int | None = None
) -> AsyncIterator[Server]:
    """The server on `port` (default: a free one) until the block ends, then stopped like Ctrl-C."""
    import httpx

    port = port or free_port()
    python = [sys.executable] + (["-m", "cProfile", "-o", str(profile)] if profile else [])
    command = [
        *python,
        "-m",
        "uvicorn",
        *target,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--ws-max-queue",
        "64",
    ]
    process = subprocess.Popen(command, env={**os.environ, **env, "MIAI_PORT": str(port)}, cwd=workdir)
    server = Server(process, port)
    try:
        async with httpx.AsyncClient(base_url=server.http, timeout=5) as client:
            for _ in range(300):
                if process.poll() is not None:
                    raise SystemExit(f"the server exited with code {process.returncode} before it was ready")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/api/v1/health")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            else:
                raise SystemExit("the server did not answer /api/v1/health within 30 s")
        yield server
    finally:
        process.send_signal(
            signal.SIGINT
        )  # like Ctrl-C: uvicorn shuts down cleanly and cProfile writes its file
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one run, dropped afterwards."""
    import asyncpg

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(PG_ADMIN)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    name = f"miai_bench_{uuid.uuid4().hex[:10]}"
    try:
        asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError) as err:
        raise SystemExit(f"cannot create a PostgreSQL database via {PG_ADMIN}: {err}") from None
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# ------------------------------------------------------------------------------------------- the games


def move_sequence(count: int) -> list[str]:
    """Legal 9x9 moves without captures: Black fills columns A-D, White F-J, column E stays empty."""
    black = [f"{c}{r}" for r in range(1, 10) for c in COLUMNS[:4]]
    white = [f"{c}{r}" for r in range(1, 10) for c in COLUMNS[5:]]
    moves = [m for pair in zip(black, white, strict=True) for m in pair]
    if not 1 <= count <= len(moves):
        raise SystemExit(f"--moves-per-game must be 1..{len(moves)}")
    return moves[:count]


class Socket:
    """One player's websocket with a reader task that timestamps `move` events and resolves acks."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.moves: dict[int, asyncio.Future[float]] = {}
        self.acks: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())

    def expect_move(self, ply: int) -> asyncio.Future[float]:
        return self.moves.setdefault(ply, asyncio.get_running_loop().create_future())

    def expect_ack(self, request_id: Any) -> asyncio.Future[dict[str, Any]]:
        return self.acks.setdefault(request_id, asyncio.get_running_loop().create_future())

    async def _read(self) -> None:
        async for raw in self.connection:
            arrived = time.perf_counter()
            message = json.loads(raw)
            kind, data = message.get("t"), message.get("d") or {}
            if kind == "snapshot" and not self.ready.done():
                self.ready.set_result(None)
            elif kind == "move":
                future = self.expect_move(int(data["ply"]))
                if not future.done():
                    future.set_result(arrived)
            elif kind in {"ack", "error"}:
                future_ack = self.expect_ack(data.get("id"))
                if not future_ack.done():
                    future_ack.set_result(message)

    async def close(self) -> None:
        await self.connection.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: list[str] = field(default_factory=list)


async def play_game(
    sockets: tuple[Socket, Socket], moves: list[tuple[int, str]], tally: Tally, period: float | None
) -> None:
    """Play `moves` (ply, vertex) in one game; with a `period`, one move per period (open loop, no burst)."""
    loop = asyncio.get_running_loop()
    start = loop.time() + (random.uniform(0, period) if period else 0.0)  # spread the games over a period
    for index, (ply, move) in enumerate(moves):
        if period:
            await asyncio.sleep(max(0.0, start + index * period - loop.time()))
        mover, opponent = sockets[(ply - 1) % 2], sockets[ply % 2]
        seen = opponent.expect_move(ply)
        acked = mover.expect_ack(ply)
        sent = time.perf_counter()
        await mover.connection.send(json.dumps({"t": "move", "d": {"move": move}, "id": ply}))
        try:
            reply = await asyncio.wait_for(acked, STEP_TIMEOUT)
            if reply["t"] != "ack":
                tally.refused.append(json.dumps(reply["d"]))
                return
            tally.latencies.append(await asyncio.wait_for(seen, STEP_TIMEOUT) - sent)
        except TimeoutError:
            tally.refused.append(f"move {ply} ({move}) got no ack or event within {STEP_TIMEOUT:.0f} s")
            return
        tally.accepted += 1


async def connect_all(url_pairs: list[tuple[str, str]]) -> list[tuple[Socket, Socket]]:
    from websockets.asyncio.client import connect

    limit = asyncio.Semaphore(20)

    async def one(url: str) -> Socket:
        async with limit:
            sock = Socket(await connect(url, max_size=2**22, open_timeout=30))
            await asyncio.wait_for(sock.ready, STEP_TIMEOUT)
            return sock

    sockets = await asyncio.gather(*(one(u) for pair in url_pairs for u in pair))
    return [(sockets[i], sockets[i + 1]) for i in range(0, len(sockets), 2)]


@dataclass
class Result:
    name: str
    phase: str
    accepted: int
    seconds: float
    latencies: list[float]
    refused: list[str]
    cpu: float  # the server process's CPU seconds in the phase
    client_cpu: float  # this benchmark's own CPU seconds (it shares the machine)

    @property
    def rate(self) -> float:
        return self.accepted / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    def line(self) -> str:
        return (
            f"{self.name:<22} {self.phase:<14} {self.accepted:>6} moves in {self.seconds:6.2f} s = "
            f"{self.rate:7.1f} moves/s  latency p50 {self.percentile(0.5):7.1f} ms  "
            f"p99 {self.percentile(0.99):7.1f} ms  max {self.percentile(1.0):7.1f} ms  "
            f"CPU per move: server {1000 * self.cpu / max(1, self.accepted):5.2f} ms, "
            f"bench client {1000 * self.client_cpu / max(1, self.accepted):4.2f} ms"
        )


async def play_phases(
    name: str, server: Server, pairs: list[tuple[Socket, Socket]], moves: list[str], rate: float
) -> list[Result]:
    """Saturation (every game moves as fast as the server answers), then a paced phase at `rate` moves/s."""
    half = len(moves) // 2
    phases = [
        ("saturation", list(enumerate(moves[:half], start=1)), None),
        (f"paced {rate:g}/s", list(enumerate(moves, start=1))[half:], len(pairs) / rate),
    ]
    results = []
    for phase, plan, period in phases:
        log(f"[{name}] {phase}: {len(plan)} moves in each of {len(pairs)} games at once")
        tally = Tally()
        cpu_before, client_before = server.cpu_seconds(), time.process_time()
        started = time.perf_counter()
        await asyncio.gather(*(play_game(pair, plan, tally, period) for pair in pairs))
        seconds = time.perf_counter() - started
        results.append(
            Result(
                name,
                phase,
                tally.accepted,
                seconds,
                tally.latencies,
                tally.refused,
                server.cpu_seconds() - cpu_before,
                time.process_time() - client_before,
            )
        )
        if tally.refused:
            break  # the games are out of step now
    for a, b in pairs:
        await a.close()
        await b.close()
    return results


# ------------------------------------------------------------------------------------------- Miai


async def register(client: Any, name: str) -> str:
    """A new user and a personal API token for it."""
    response = await client.post("/api/v1/accounts", json={"username": name, "password": "bench password"})
    response.raise_for_status()
    csrf = response.json()["csrf_token"]
    token = await client.post("/api/v1/me/tokens", json={"name": "bench"}, headers={"X-CSRF-Token": csrf})
    token.raise_for_status()
    client.cookies.clear()
    return str(token.json()["token"])


async def start_game(client: Any, black: str, white: str) -> int:
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    async def post(url: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        response = await client.post(url, json=body, headers=auth(token))
        if response.status_code >= 300:
            raise SystemExit(f"POST {url} failed: {response.status_code} {response.text}")
        return dict(response.json())

    game_id = int(
        (await post("/api/v1/games", black, {"size": 9, "team": 1, "seconds_per_move": 3600}))["id"]
    )
    await post(f"/api/v1/games/{game_id}/join", white, {"team": 2})
    await post(f"/api/v1/games/{game_id}/confirm", black, {})
    await post(f"/api/v1/games/{game_id}/confirm", white, {})
    return game_id


async def bench_miai(
    name: str,
    env: dict[str, str],
    args: argparse.Namespace,
    moves: list[str],
    workdir: Path,
    profile: Path | None,
) -> list[Result]:
    import httpx

    games = args.games
    async with running(["--factory", "miai.server.main:app_from_env"], env, workdir, profile) as server:
        limits = httpx.Limits(max_connections=8)
        async with httpx.AsyncClient(base_url=server.http, timeout=60, limits=limits) as client:
            log(f"[{name}] registering {2 * games} users")
            gate = asyncio.Semaphore(4)

            async def one(i: int) -> str:
                async with gate, httpx.AsyncClient(base_url=server.http, timeout=60) as own:
                    return await register(own, f"bench{i}")

            tokens = await asyncio.gather(*(one(i) for i in range(2 * games)))
            log(f"[{name}] creating and starting {games} games")
            game_gate = asyncio.Semaphore(8)

            async def start(i: int) -> int:
                async with game_gate:
                    return await start_game(client, tokens[2 * i], tokens[2 * i + 1])

            game_ids = await asyncio.gather(*(start(i) for i in range(games)))
        log(f"[{name}] connecting {2 * games} websockets")
        urls = [
            (
                f"{server.ws}/api/v1/games/{gid}/ws?token={tokens[2 * i]}",
                f"{server.ws}/api/v1/games/{gid}/ws?token={tokens[2 * i + 1]}",
            )
            for i, gid in enumerate(game_ids)
        ]
        pairs = await connect_all(urls)
        return await play_phases(name, server, pairs, moves, args.rate)


async def bench_reference(args: argparse.Namespace, moves: list[str], workdir: Path) -> list[Result]:
    target = ["--app-dir", str(Path(__file__).resolve().parent), "server:reference_app"]
    async with running(target, {}, workdir, None) as server:
        log(f"[reference] connecting {2 * args.games} websockets")
        urls = [
            (f"{server.ws}/api/v1/games/{g}/ws", f"{server.ws}/api/v1/games/{g}/ws")
            for g in range(args.games)
        ]
        pairs = await connect_all(urls)
        return await play_phases("reference (Starlette)", server, pairs, moves, args.rate)


# ------------------------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="concurrent 2-player games (default 200)")
    parser.add_argument(
        "--moves-per-game",
        type=int,
        default=60,
        help="moves each game plays, 2..72, half in each phase (default 60)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=500.0,
        help="moves per second offered by all games together in the paced phase (default 500)",
    )
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="write a cProfile of the Miai server to PATH.<database>.prof",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 2000:
        parser.error("--games must be 1..2000")
    if not 2 <= args.moves_per_game <= 72:
        parser.error("--moves-per-game must be 2..72 (moves without captures on 9x9)")
    if not 0 < args.rate <= 100_000:
        parser.error("--rate must be a positive number of moves per second")
    return args


def report(args: argparse.Namespace, moves: list[str], results: list[Result]) -> None:
    print(
        f"{args.games} concurrent 9x9 games, {len(moves)} moves each over websockets, {os.cpu_count()} CPUs; "
        f"latency = a move sent -> the opponent receives its `move` event"
    )
    reference = {r.phase: r for r in results if r.name.startswith("reference")}
    for result in results:
        print(result.line())
        base = reference.get(result.phase)
        if base is not None and result is not base and base.rate:
            print(
                f"{'':<37} {result.rate / base.rate:.2f} x the reference's moves/s, "
                f"p99 {result.percentile(0.99) / base.percentile(0.99):.1f} x its p99"
            )
        if result.refused:
            print(f"{'':<37} {len(result.refused)} games stopped on a refused move, e.g. {result.refused[0]}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    moves = move_sequence(args.moves_per_game)
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="miai-bench-") as tmp:
        workdir = Path(tmp)
        results += asyncio.run(bench_reference(args, moves, workdir))
        for database in ["sqlite", "postgres"] if args.database == "both" else [args.database]:
            profile = args.profile.with_suffix(f".{database}.prof") if args.profile else None
            data = workdir / database
            data.mkdir()
            # Registration is not what is measured: cheap password hashes keep the setup short.
            env = {"MIAI_DATA_DIR": str(data), "MIAI_ARGON2_TIME_COST": "1", "MIAI_ARGON2_MEMORY_KIB": "1024"}
            env["MIAI_RATE_LIMITS_ENABLED"] = "false"  # it registers hundreds of users from one address
            if database == "postgres":
                with postgres_database() as url:
                    env["MIAI_DATABASE_URL"] = url
                    results += asyncio.run(bench_miai("miai (PostgreSQL)", env, args, moves, data, profile))
            else:
                results += asyncio.run(bench_miai("miai (SQLite)", env, args, moves, data, profile))
    report(args, moves, results)
    return 0 if all(not r.refused for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

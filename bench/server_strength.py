"""The server's computer against `miai gtp`, through the server's own path: do they play as well?

    .venv/bin/python bench/server_strength.py --games 20 --seconds 1 [--size 9] [--level 10] [--queue redis]

Starts `miai serve` on a free loopback port (SQLite in a temporary folder, engine jobs in the server's own
pool; `--queue redis` sends them to one `miai worker` instead, through the shared Redis under a prefix of
its own), registers a user and, game after game, creates a game (Chinese rules, komi 7.5, a move limit of
half `--max-moves` rounds) and seats the server's computer at `--level` with `POST /games/{id}/computer`.
The user's side is `miai gtp --level 10 --time SECONDS` in a subprocess (one process for the whole match,
`clear_board` between games, as Sabaki or GoGui would drive it): it answers every computer move the user's
websocket receives and its moves go back over that websocket. Both think the same seconds per move: the
server's computer by MIAI_COMPUTER_SECONDS. Colours alternate (the server takes Black in the first game).
The server ends and scores every game itself (two passes, resignation or the move limit; dead stones by
its estimator, the one behind `miai gtp`'s `final_score`).

Reported: the server side's wins with a 95% Wilson interval, the average seconds per move of each side (the
server's from the user's move being stored to the computer's move arriving on the socket; GTP's the
`genmove` call) and how the games ended; progress on stderr. A game the server refused a move in counts
as void, not as a result.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from miai.formats.gtp import GtpController, SubprocessChannel
from miai.formats.gtp.protocol import Move as GtpMove
from miai.formats.gtp.protocol import Vertex, format_vertex, parse_vertex

COLOURS = ("b", "w")
START_TIMEOUT = 120.0  # seconds for the server (migrations) and a worker to come up
REDIS_URL = os.environ.get("MIAI_BENCH_REDIS", "redis://127.0.0.1:6379/0")


def _bench_strength() -> ModuleType:
    """bench/strength.py (the GNU Go match), for its Wilson interval: bench/ is no package."""
    spec = importlib.util.spec_from_file_location("bench_strength", Path(__file__).with_name("strength.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_strength"] = module
    spec.loader.exec_module(module)
    return module


wilson = _bench_strength().wilson
_T0 = time.monotonic()


def log(text: str) -> None:
    print(f"{time.monotonic() - _T0:7.1f}s {text}", file=sys.stderr, flush=True)


def gtp_vertex(move: str, size: int) -> Vertex | None:
    """A move of the server's notation ("C3", "pass") as GTP's vertex (None for a pass)."""
    return parse_vertex(move, size)


def notation(answer: GtpMove, size: int) -> str:
    """A `genmove` answer as a move the server takes ("C3", "pass", "resign")."""
    return "resign" if answer == "resign" else format_vertex(answer, size)


@dataclass
class Game:
    """One game's outcome as the server stored it, and each side's seconds per move."""

    server_colour: int
    result: dict[str, Any] | None = None
    void: str = ""  # why the game does not count
    server_seconds: list[float] = field(default_factory=list)
    gtp_seconds: list[float] = field(default_factory=list)

    def score(self) -> float:
        """1 for a server win, 0.5 for a draw, 0 for a loss."""
        assert self.result is not None
        if self.result.get("draw"):
            return 0.5
        return 1.0 if self.server_colour + 1 in self.result.get("winners", []) else 0.0

    def ending(self) -> str:
        """How the game ended: "passes", "move_limit", "server resigned", "gtp resigned", "void: ..."."""
        if self.result is None:
            return f"void: {self.void}"
        reason = str(self.result.get("reason"))
        if reason != "resign":
            return reason
        left = self.result.get("left") or [{}]
        return "server resigned" if left[0].get("team") == self.server_colour + 1 else "gtp resigned"

    def sgf_result(self) -> str:
        if self.result is None:
            return "void"
        if self.result.get("draw"):
            return "0"
        winner = "B" if 1 in self.result["winners"] else "W"
        margin = self.result.get("margin")
        reason = str(self.result.get("reason"))
        return f"{winner}+{'R' if reason == 'resign' else margin}"


# ------------------------------------------------------------------------------------ server and worker


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def process(command: list[str], env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A child process, stopped like Ctrl-C at the end (killed if it does not stop in 30 s)."""
    child = subprocess.Popen(command, env={**os.environ, **env}, cwd=cwd)
    try:
        yield child
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


@contextlib.contextmanager
def redis_prefix(queue: str) -> Iterator[str]:
    """A Redis key prefix of this run's own; its keys are deleted at the end (never the others')."""
    prefix = f"bench-strength-{uuid.uuid4().hex[:12]}"
    try:
        yield prefix
    finally:
        if queue == "redis":
            from redis import Redis

            with contextlib.suppress(Exception), Redis.from_url(REDIS_URL) as client:
                for key in client.scan_iter(match=f"{prefix}*", count=1000):
                    client.delete(key)


@contextlib.asynccontextmanager
async def serving(args: argparse.Namespace, workdir: Path) -> AsyncIterator[str]:
    """`miai serve` (and with `--queue redis` one `miai worker`), ready: yields its http address."""
    import httpx

    port = free_port()
    with redis_prefix(args.queue) as prefix, contextlib.ExitStack() as stack:
        env = {
            "MIAI_DATA_DIR": str(workdir),
            "MIAI_DATABASE_URL": "",
            "MIAI_RATE_LIMITS_ENABLED": "false",  # a match creates more games an hour than a person may
            "MIAI_COMPUTER_SECONDS": str(args.seconds),
            "MIAI_ENGINE_QUEUE": args.queue,
            "MIAI_REDIS_URL": REDIS_URL if args.queue == "redis" else "",
            "MIAI_REDIS_PREFIX": prefix,
        }
        serve = [sys.executable, "-m", "miai", "serve", "--port", str(port), "--log-level", "warning"]
        server = stack.enter_context(process(serve, env, workdir))
        if args.queue == "redis":
            worker = [sys.executable, "-m", "miai", "worker", "--concurrency", "1", "--log-level", "warning"]
            stack.enter_context(process(worker, env, workdir))
        address = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=address, timeout=5) as client:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                if server.poll() is not None:
                    raise SystemExit(f"miai serve exited with code {server.returncode} before it was ready")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/api/v1/health")).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise SystemExit(f"miai serve did not answer /api/v1/health within {START_TIMEOUT:g} s")
                await asyncio.sleep(0.2)
        yield address


async def register(client: Any, name: str) -> str:
    """A new user and a personal API token for it."""
    made = await client.post("/api/v1/accounts", json={"username": name, "password": "bench password"})
    made.raise_for_status()
    csrf = made.json()["csrf_token"]
    token = await client.post("/api/v1/me/tokens", json={"name": "bench"}, headers={"X-CSRF-Token": csrf})
    token.raise_for_status()
    client.cookies.clear()
    return str(token.json()["token"])


async def post(client: Any, token: str, url: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = await client.post(url, json=body, headers={"Authorization": f"Bearer {token}"})
    if answer.status_code >= 300:
        raise SystemExit(f"POST {url} failed: {answer.status_code} {answer.text}")
    return dict(answer.json())


async def new_game(client: Any, token: str, server_colour: int, args: argparse.Namespace) -> int:
    """A game against the server's computer at `args.level`, waiting for the user's confirmation."""
    options = {
        "size": args.size,
        "preset": "chinese",
        "komi": [args.komi],
        "move_limit": (args.max_moves + 1) // 2,
        "seconds_per_move": 3600,  # GTP's think never times out; the computer's turns have no deadline
        "visibility": "private",
        "team": 2 - server_colour,
    }
    game = int((await post(client, token, "/api/v1/games", options))["id"])
    await post(
        client, token, f"/api/v1/games/{game}/computer", {"team": server_colour + 1, "level": args.level}
    )
    return game


# ------------------------------------------------------------------------------------------- one game


async def play_game(
    http: Any, token: str, game_id: int, gtp: GtpController, game: Game, args: argparse.Namespace
) -> None:
    """The user's side of one game over its websocket: connects, confirms (which starts the game), then
    answers the computer until the server says the game is finished."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    size = args.size
    mine = 1 - game.server_colour  # the GTP side's colour (0 Black)
    url = (
        str(http.base_url).rstrip("/").replace("http://", "ws://")
        + f"/api/v1/games/{game_id}/ws?token={token}"
    )
    version = 0
    computer_since = time.monotonic()  # when the computer's current turn began
    unanswered: int | None = None  # the id of our last move until its ack
    async with connect(url, max_size=2**22, open_timeout=60) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), args.step_timeout))
            kind, data = message["t"], message.get("d") or {}
            if message.get("v") is not None:
                version = max(version, int(message["v"]))
            position: dict[str, Any] | None = None
            if kind == "snapshot":  # connected before the start: every move arrives as an event
                await post(http, token, f"/api/v1/games/{game_id}/confirm", {})
                continue
            if kind == "ack" and data.get("id") == unanswered:
                unanswered = None
            if kind == "finished":
                game.result = data["result"]
                if unanswered is not None:  # the ack of the move that ended it follows: close after it
                    with contextlib.suppress(TimeoutError, ConnectionClosed):
                        await asyncio.wait_for(_ack(ws, unanswered), 10)
                return
            if kind == "error":  # the server refused our move: the two sides disagree on the rules
                game.void = f"the server refused a move: {data.get('message')}"
                return
            if kind == "started":
                position = data["position"]
                computer_since = time.monotonic()
            elif kind == "move":
                position = data["position"]
                if data["team"] == mine + 1:
                    computer_since = time.monotonic()  # our move is stored: the computer's turn begins
                    continue
                game.server_seconds.append(time.monotonic() - computer_since)
                if data["move"] != "resign":
                    await asyncio.to_thread(gtp.play, COLOURS[1 - mine], gtp_vertex(data["move"], size))
            if position is None or position["over"] or (position["to_move"] or {}).get("team") != mine + 1:
                continue
            start = time.monotonic()
            answer = await asyncio.to_thread(gtp.genmove, COLOURS[mine])
            game.gtp_seconds.append(time.monotonic() - start)
            move = {"move": notation(answer, size), "v": version}
            unanswered = version
            await ws.send(json.dumps({"t": "move", "d": move, "id": version}))


async def _ack(ws: Any, request: int) -> None:
    """Read until the ack (or error) of command `request`."""
    while True:
        message = json.loads(await ws.recv())
        if message["t"] in ("ack", "error") and (message.get("d") or {}).get("id") == request:
            return


# ----------------------------------------------------------------------------------------------- match


async def run(args: argparse.Namespace) -> list[Game]:
    import httpx

    games: list[Game] = []
    gtp_argv = [sys.executable, "-m", "miai", "gtp", "--level", "10", "--time", str(args.seconds)]
    with tempfile.TemporaryDirectory(prefix="miai-strength-") as tmp:
        async with (
            serving(args, Path(tmp)) as address,
            httpx.AsyncClient(base_url=address, timeout=60) as http,
        ):
            token = await register(http, "strength")
            channel = SubprocessChannel(gtp_argv, timeout=max(120.0, 20 * args.seconds))
            with GtpController(channel) as gtp:
                for number in range(args.games):
                    if args.minutes and time.monotonic() - _T0 > 60 * args.minutes:
                        log(f"{args.minutes:g} minutes are up: no more games")
                        break
                    game = Game(server_colour=number % 2)
                    gtp.boardsize(args.size)
                    gtp.clear_board()
                    gtp.komi(args.komi)
                    started = time.monotonic()
                    game_id = await new_game(http, token, game.server_colour, args)
                    await play_game(http, token, game_id, gtp, game, args)
                    games.append(game)
                    counted = [g for g in games if g.result is not None]
                    wins = sum(g.score() for g in counted)
                    side = "Black" if game.server_colour == 0 else "White"
                    outcome = (
                        "void"
                        if game.result is None
                        else {1.0: "win", 0.5: "draw", 0.0: "loss"}[game.score()]
                    )
                    log(
                        f"game {number + 1}/{args.games}: server {side}, {game.sgf_result()} ({outcome},"
                        f" {game.ending()}), {len(game.server_seconds) + len(game.gtp_seconds)} moves,"
                        f" {time.monotonic() - started:.0f} s; so far {wins:g}/{len(counted)}"
                    )
    return games


def report(args: argparse.Namespace, games: list[Game]) -> None:
    counted = [g for g in games if g.result is not None]
    wins = sum(g.score() for g in counted)
    low, high = wilson(wins, len(counted))
    server = [s for g in games for s in g.server_seconds]
    gtp = [s for g in games for s in g.gtp_seconds]
    endings = Counter(g.ending() for g in games)
    print(
        f"server (miai serve, queue {args.queue}, level {args.level}) vs miai gtp --level 10:"
        f" {args.size}x{args.size}, komi {args.komi}, {args.seconds:g} s a move, {len(games)} games"
    )
    print("ended: " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))
    print(f"{'wins':>8} {'win rate':>9} {'95% CI':>15} {'server s/move':>14} {'gtp s/move':>11}")
    interval = f"[{low:.0%}, {high:.0%}]"
    rate = wins / len(counted) if counted else 0.0
    print(
        f"{wins:>4g}/{len(counted):<3} {rate:>9.0%} {interval:>15}"
        f" {sum(server) / max(1, len(server)):>14.2f} {sum(gtp) / max(1, len(gtp)):>11.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the server's computer vs miai gtp, through the server")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per move, both sides")
    parser.add_argument("--level", default="10", help="the server side's level (default 10)")
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--max-moves", type=int, default=0, help="move cap in plies (default 3 × size²)")
    parser.add_argument(
        "--minutes", type=float, default=0, help="start no game after this long (0: no limit)"
    )
    parser.add_argument("--queue", choices=("local", "redis"), default="local", help="where engine jobs run")
    args = parser.parse_args(argv)
    if args.size not in (7, 9, 13, 19) or not 1 <= args.games <= 10_000 or not 0 < args.seconds <= 60:
        parser.error("need a size of 7, 9, 13 or 19, 1..10000 games and 0 < seconds <= 60")
    if not -50 <= args.komi <= 50 or not 0 <= args.max_moves <= 20_000 or not 0 <= args.minutes <= 10_000:
        parser.error("need a komi of -50..50, a move cap of 0..20000 and 0..10000 minutes")
    args.level = int(args.level) if args.level.isdigit() else args.level
    args.max_moves = args.max_moves or 3 * args.size * args.size
    args.step_timeout = 60 + 30 * args.seconds  # one move (with the computer's start-up) or the run is broken
    report(args, asyncio.run(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The deployment's topology (issue 18; docs/operations.md, Deployment) in real processes: `miai migrate`,
then two web processes (`miai serve`) and two engine workers (`miai worker`) on one fresh PostgreSQL
database and a Redis prefix of this test's own, with MIAI_ENGINE_QUEUE=redis as compose.yaml sets it.

Twenty people play the computer at once over the API and websockets (7x7, level 1): each plays a few random
points, then passes; a spectator of each game watches on the OTHER web process. In the middle, one worker
is killed with SIGKILL while it holds a job. Every game must still end with a result, its events must be
versioned without a gap, the computer must never have answered one move twice, the spectators must have
seen every computer move (and been counted by the web process they do not use), and the web processes must
never have started an engine process.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from websockets.asyncio.client import ClientConnection, connect

from miai.server.engine_jobs.wire import Keys
from tests.conftest import need
from tests.server.conftest import fresh_database, postgres_reachable, redis_reachable, unique_redis_prefix
from tests.server.engine_jobs_support import holders, kill_group, miai_worker
from tests.server.processes import Server, miai_serve, server_env

pytestmark = pytest.mark.slow

REDIS_URL = "redis://127.0.0.1:6379/0"
GAMES = 20
SIZE = 7
LEVEL = 1
COLUMNS = "ABCDEFGHJKLMNOPQRST"
RANDOM_MOVES = 4  # a player's own stones before it passes
MAX_TURNS = 20  # a player still on move after this many turns resigns: every game ends
VISIBILITY = 3.0  # seconds before a killed worker's job is taken over
STEP_SECONDS = 60.0  # the longest wait for one message of a game
ALL_SECONDS = 150.0  # the whole play

_T0 = time.monotonic()


def progress(text: str) -> None:
    print(f"[topology {time.monotonic() - _T0:6.1f}s] {text}", file=sys.stderr, flush=True)


@dataclass
class Game:
    id: int
    token: str
    player: Server  # the web process the player uses
    spectator: Server  # the other one
    result: dict[str, Any] | None = None
    seen: list[tuple[int, str]] = field(default_factory=list)  # (ply, move) of the computer, as watched


def test_two_web_processes_and_two_workers_finish_every_game_through_a_worker_crash(tmp_path: Path) -> None:
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    prefix = unique_redis_prefix()
    with fresh_database("postgres", tmp_path) as url:
        variables = {
            "MIAI_DATABASE_URL": url,
            "MIAI_DATA_DIR": str(tmp_path),  # one secret key for both web processes
            "MIAI_REDIS_URL": REDIS_URL,
            "MIAI_REDIS_PREFIX": prefix,
            "MIAI_ENGINE_QUEUE": "redis",
            "MIAI_ENGINE_JOB_VISIBILITY": str(VISIBILITY),
            "MIAI_SEARCH_THREADS": "1",
            "MIAI_RATE_LIMITS_ENABLED": "false",  # twenty players from one address
        }
        try:
            migrated = subprocess.run(
                [sys.executable, "-m", "miai", "migrate"],
                env=server_env(**variables),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert migrated.returncode == 0, migrated.stderr
            with ExitStack() as stack:
                webs = [
                    stack.enter_context(miai_serve(tmp_path / f"web{i}.log", **variables)) for i in (1, 2)
                ]
                workers = [
                    stack.enter_context(miai_worker(tmp_path / f"worker{i}.log", variables)) for i in (1, 2)
                ]
                progress(f"web processes on {[w.port for w in webs]}, workers {[w.pid for w in workers]}")
                games, killed_holding = asyncio.run(play_everything(webs, workers[0], prefix))
                for web in webs:
                    assert web.process.poll() is None, web.output()
                    assert children(web.process.pid) == [], "a web process started engine processes"
                assert workers[1].poll() is None, (tmp_path / "worker2.log").read_text()
                check_records(games)
                assert workers[0].poll() is not None, "the first worker was never killed"
                if killed_holding:
                    assert "taken over" in (tmp_path / "worker2.log").read_text()
                until_queue_empty(prefix)
        finally:
            drop_keys(prefix)


# ------------------------------------------------------------------------------------------- processes


def children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc; an engine pool would show here)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def until_queue_empty(prefix: str, seconds: float = 20.0) -> None:
    """Every job acknowledged (the workers delete what they acknowledge)."""
    deadline = time.monotonic() + seconds
    with Redis.from_url(REDIS_URL) as redis:
        while redis.xlen(Keys(prefix).stream) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert redis.xlen(Keys(prefix).stream) == 0, redis.xrange(Keys(prefix).stream)


def drop_keys(prefix: str) -> None:
    with Redis.from_url(REDIS_URL) as redis:
        keys = list(redis.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            redis.delete(*keys)


# ------------------------------------------------------------------------------------------- the games


async def play_everything(
    webs: list[Server], victim: subprocess.Popen[bytes], prefix: str
) -> tuple[list[Game], bool]:
    # All at once, on both web processes: they race to make the computer's account (test_bot_accounts_race).
    games = list(await asyncio.gather(*(start_game(webs[i % 2], webs[1 - i % 2], i) for i in range(GAMES))))
    progress(f"{GAMES} games started against the computer; playing")
    killer = asyncio.create_task(kill_mid_job(victim, prefix, games))
    counted = asyncio.create_task(spectators_counted(webs[0], webs[1], games))
    await asyncio.wait_for(asyncio.gather(*(play(game) for game in games)), ALL_SECONDS)
    assert await counted, f"{webs[0].base} never counted a spectator watching on {webs[1].base}"
    return games, await killer


async def spectators_counted(web: Server, other: Server, games: list[Game]) -> bool:
    """Whether `web`'s live list counted a spectator whose socket is on `other` while the games went on
    (spectator counts are every process's with Redis: realtime/watchers.py)."""
    watched_there = {game.id for game in games if game.spectator is other}
    async with httpx.AsyncClient(base_url=f"{web.base}/api/v1", timeout=30) as http:
        while not all(game.result is not None for game in games):
            live = (await http.get("/games/live", params={"limit": 100})).json()["games"]
            if any(g["id"] in watched_there and g["spectators"] == 1 for g in live):
                return True
            await asyncio.sleep(0.2)
    return False


async def start_game(player: Server, spectator: Server, index: int) -> Game:
    """A new account (its own client, so its own session cookie), its token, its game against the computer."""
    async with httpx.AsyncClient(base_url=f"{player.base}/api/v1", timeout=30) as http:
        made = await http.post("/accounts", json={"username": f"player{index}", "password": "correct horse"})
        assert made.status_code == 201, made.text
        csrf = {"X-CSRF-Token": made.json()["csrf_token"]}
        issued = await http.post("/me/tokens", json={"name": "topology"}, headers=csrf)
        assert issued.status_code == 201, issued.text
        token = issued.json()["token"]
        http.cookies.clear()
        auth = {"Authorization": f"Bearer {token}"}

        async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            answer = await http.post(path, json=body, headers=auth)
            assert answer.status_code < 300, f"{path}: {answer.text}"
            return dict(answer.json())

        game_id = int((await post("/games", {"size": SIZE, "team": 1, "seconds_per_move": 3600}))["id"])
        await post(f"/games/{game_id}/computer", {"team": 2, "level": LEVEL})
        await post(f"/games/{game_id}/confirm", {})
    return Game(game_id, token, player, spectator)


async def kill_mid_job(victim: subprocess.Popen[bytes], prefix: str, games: list[Game]) -> bool:
    """SIGKILL the victim's process group as soon as, a few computer moves into the games, it holds a job;
    whether it still held one once dead (False also when every game ended first)."""
    mark = f"-{victim.pid}-"
    while sum(len(game.seen) for game in games) < GAMES or not any(mark in h for h in holders(prefix)):
        if all(game.result is not None for game in games):
            return False
        await asyncio.sleep(0.01)
    kill_group(victim)
    # Its job may have been stored and acknowledged between the look and the kill (level-1 moves take
    # milliseconds): only a job still pending after its death must be taken over. test_engine_worker_kill.py
    # kills a worker mid-search every time.
    held = any(mark in h for h in holders(prefix))
    progress(f"worker {victim.pid} killed {'holding a job' if held else 'just after finishing its job'}")
    return held


async def play(game: Game) -> None:
    """The person's side of one game (on one web process) and a spectator (on the other) until it ends."""
    ws = f"/api/v1/games/{game.id}/ws"
    async with (
        connect(f"{game.player.base.replace('http', 'ws', 1)}{ws}?token={game.token}") as player,
        connect(f"{game.spectator.base.replace('http', 'ws', 1)}{ws}") as spectator,
    ):
        watching = asyncio.create_task(watch(spectator, game))
        await person(player, game)
        await asyncio.wait_for(watching, STEP_SECONDS)
    progress(f"game {game.id} over: {game.result and game.result['reason']}")


async def receive(socket: ClientConnection) -> dict[str, Any]:
    message = json.loads(await asyncio.wait_for(socket.recv(), STEP_SECONDS))
    assert isinstance(message, dict)
    return message


async def watch(socket: ClientConnection, game: Game) -> None:
    while True:
        message = await receive(socket)
        data = message.get("d") or {}
        if message["t"] == "move" and data.get("team") == 2:
            game.seen.append((data["ply"], data["move"]))
        elif message["t"] == "finished":
            return


async def person(socket: ClientConnection, game: Game) -> None:
    """Random empty points for RANDOM_MOVES turns, then passes (a refused point: a pass instead); resigns
    after MAX_TURNS. Each command names the version it answers."""
    chooser = random.Random(game.id)
    turns, position, version, waiting = 0, None, 0, None
    while game.result is None:
        message = await receive(socket)
        kind, data = message["t"], message.get("d") or {}
        if kind == "snapshot":
            position, version = data["position"], data["version"]
        elif kind == "move":
            position, version = data["position"], message["v"]
        elif kind == "finished":
            game.result = data["result"]
        elif kind == "error" and data.get("id") == waiting:
            waiting = None
            await send(socket, {"t": "move", "d": {"move": "pass", "v": version}, "id": -version})
            waiting = -version
            continue
        elif kind == "ack" and data.get("id") == waiting:
            waiting = None
        if (
            waiting is None
            and position
            and not position["over"]
            and (position["to_move"] or {}).get("team") == 1
        ):
            turns += 1
            if turns > MAX_TURNS:
                await send(socket, {"t": "resign", "d": {}, "id": version})
            else:
                move = random_point(position, chooser) if turns <= RANDOM_MOVES else "pass"
                await send(socket, {"t": "move", "d": {"move": move, "v": version}, "id": version})
            waiting = version


async def send(socket: ClientConnection, message: dict[str, Any]) -> None:
    await socket.send(json.dumps(message))


def random_point(position: dict[str, Any], chooser: random.Random) -> str:
    empty = [i for i, colour in enumerate(position["board"]) if colour == 0]
    point = chooser.choice(empty)
    return f"{COLUMNS[point % SIZE]}{point // SIZE + 1}"


# ------------------------------------------------------------------------------------------- the records


def check_records(games: list[Game]) -> None:
    reasons: dict[str, int] = {}
    for game in games:
        snapshot = httpx.get(f"{game.player.base}/api/v1/games/{game.id}", timeout=10).json()
        assert snapshot["status"] == "finished" and snapshot["result"], snapshot
        reasons[snapshot["result"]["reason"]] = reasons.get(snapshot["result"]["reason"], 0) + 1
        events = httpx.get(f"{game.spectator.base}/api/v1/games/{game.id}/events?since=0", timeout=10).json()
        assert [e["v"] for e in events["events"]] == list(
            range(1, snapshot["version"] + 1)
        )  # no gap, no double
        moves = [
            (e["d"]["ply"], e["d"]["team"], e["d"]["move"]) for e in events["events"] if e["t"] == "move"
        ]
        assert [ply for ply, _, _ in moves] == list(range(1, len(moves) + 1))
        teams = [team for _, team, _ in moves]
        # The computer answered every move of the person once: never two of its moves in a row.
        assert all(a != b for a, b in itertools.pairwise(teams)), moves
        computer = [(ply, move) for ply, team, move in moves if team == 2]
        assert computer, moves
        assert game.seen == computer, (game.id, game.seen, computer)  # the spectator on the other process
    progress(f"records checked: {reasons}")

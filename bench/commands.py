"""The command path alone: moves through `GameService.move` in one process, no HTTP, no websockets.

    .venv/bin/python bench/commands.py [--games 200] [--moves-per-game 20] [--database sqlite|postgres]
                                       [--profile PATH]

Builds the server's services on a fresh database (a SQLite file in a temporary folder, or a PostgreSQL
database created and dropped here), creates two users per game straight in the database (no argon2), starts
every 9x9 game, then lets all games play at once, each game one move after another. Prints moves per second
and CPU milliseconds per move of this process, beside a reference measured in the same run: one trivial
ORM transaction (a SELECT by primary key and a commit) per move on the same database, which is the floor any
command that reads and writes through SQLAlchemy pays. `bench/server.py` measures the whole server with
websockets; this one shows what the command stream itself costs, and `--profile` writes a cProfile of it.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.game_options import GoOptions
from miai.server.notify.mailer import Mailer
from miai.server.play.service import GameService
from miai.server.realtime.hub import Hub
from miai.server.storage.db import make_engine, migrate, sessions
from miai.server.storage.models import Game, User

PG_ADMIN = os.environ.get("MIAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
COLUMNS = "ABCDEFGHJ"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@asynccontextmanager
async def database(kind: str) -> AsyncIterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite+aiosqlite:///{Path(folder, 'bench.db').as_posix()}"
        return
    import asyncpg

    name = f"miai_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1) + f"/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def make_users(maker: async_sessionmaker[AsyncSession], count: int) -> list[User]:
    async with maker() as db:
        users = [
            User(username=f"bench{i}", password_hash="-", created_at=datetime.now(UTC), settings={})
            for i in range(count)
        ]
        db.add_all(users)
        await db.commit()
        return users


async def start_games(service: GameService, users: list[User], games: int) -> list[tuple[int, User, User]]:
    started = []
    for i in range(games):
        black, white = users[2 * i], users[2 * i + 1]
        game_id = await service.lobby.create(black, GoOptions(size=9), team=1)
        await service.lobby.join(white, game_id, 2, None)
        await service.lobby.confirm(black, game_id)
        await service.lobby.confirm(white, game_id)
        started.append((game_id, black, white))
    return started


async def play_all(service: GameService, started: list[tuple[int, User, User]], moves: int) -> int:
    async def one_game(game_id: int, black: User, white: User, seed: int) -> int:
        points = [f"{c}{r}" for c in COLUMNS for r in range(1, 10)]
        random.Random(seed).shuffle(points)
        done = 0
        for ply in range(moves):
            player = black if ply % 2 == 0 else white
            await service.moves.move(player, game_id, points[ply])
            done += 1
        return done

    counts = await asyncio.gather(*(one_game(g, b, w, g) for g, b, w in started))
    return sum(counts)


async def reference(maker: async_sessionmaker[AsyncSession], game_ids: list[int], moves: int) -> int:
    async def one(game_id: int) -> int:
        for _ in range(moves):
            async with maker() as db:
                await db.get(Game, game_id, populate_existing=True)
                await db.commit()
        return moves

    return sum(await asyncio.gather(*(one(g) for g in game_ids)))


async def timed(label: str, work: Callable[[], Awaitable[int]], profile: cProfile.Profile | None) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    if profile is not None:
        profile.enable()
    count = await work()
    if profile is not None:
        profile.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"{label:34s} {count:6d} moves in {wall:6.2f} s = {count / wall:7.1f} moves/s,"
        f" CPU {1000 * cpu / count:5.2f} ms per move"
    )


async def run(args: argparse.Namespace) -> None:
    async with database(args.database) as url:
        engine = make_engine(url)
        await migrate(engine)
        maker = sessions(engine)
        service = GameService(maker, Hub(), Mailer(enabled=False, base_url=""))
        log(f"[{args.database}] creating {2 * args.games} users and starting {args.games} games")
        started = await start_games(service, await make_users(maker, 2 * args.games), args.games)
        await timed(
            f"reference ({args.database}: get+commit)",
            lambda: reference(maker, [g for g, _, _ in started], args.moves_per_game),
            None,
        )
        profile = cProfile.Profile() if args.profile else None
        await timed(
            f"GameService.move ({args.database})",
            lambda: play_all(service, started, args.moves_per_game),
            profile,
        )
        if profile is not None:
            profile.dump_stats(args.profile)
            log(f"profile written to {args.profile}")
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves-per-game", type=int, default=20)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--profile", default="", help="write a cProfile of the move phase here")
    args = parser.parse_args()
    if not 1 <= args.moves_per_game <= 60:
        parser.error("--moves-per-game must be 1..60 (a 9x9 board without captures)")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

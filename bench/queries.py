"""Finding queries benchmark: the archive, live list, profile and leaderboard pages on a big database.

    .venv/bin/python bench/queries.py [--finished 1000000] [--active 100000] [--users 50000]
                                      [--samples 300] [--seed 1] [--quick] [--keep]

Creates a fresh PostgreSQL database (MIAI_TEST_POSTGRES, default postgresql://postgres@127.0.0.1:5432/
postgres, names the server), migrates it, bulk-loads synthetic users, finished and active games with their
players (COPY, asyncpg's copy_records_to_table) and ratings, runs ANALYZE, then times each page's queries
over `--samples` random parameter sets: the statements of src/miai/server/storage/finding.py and the
ratings leaderboard, run through SQLAlchemy as the API runs them. Prints p50/p99 per page (ms) on stdout,
progress on stderr; drops the database at the end (unless --keep). `--quick`: 20,000 finished games,
2,000 active, 2,000 users, 40 samples.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.ratings.systems import MIN_ESTABLISHED_GAMES, PROVISIONAL_DEVIATION
from miai.server.storage import finding
from miai.server.storage import ratings as rating_store
from miai.server.storage.db import make_engine, migrate, sessions
from miai.server.storage.finding import ArchiveFilter, GameFilter
from miai.server.storage.models import UserRating

ADMIN_URL = os.environ.get("MIAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
START = datetime(2023, 1, 1, tzinfo=UTC)
SPAN = timedelta(days=3 * 365)
SIZES = (9, 13, 19)
KEYS = ("go-9", "go-13", "go-19")
REASONS = ("resign", "resign", "timeout", "passes", "passes")
PAGE = 20
BATCH = 50_000  # rows per COPY


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Shape:
    finished: int
    active: int
    users: int
    seed: int = 1


def _options(rng: random.Random, teams: int) -> tuple[str, int, bool]:
    size = rng.choice(SIZES)
    rated = teams == 2 and rng.random() < 0.6
    body = {"size": size, "teams": teams, "players_per_team": 1, "rated": rated, "mode": "standard"}
    return json.dumps(body), size, rated


def _seats(rng: random.Random, users: int) -> list[int]:
    teams = 2 if rng.random() < 0.9 else rng.choice((3, 4))
    return rng.sample(range(1, users + 1), teams)


def _rows(shape: Shape) -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]:
    """(game row, its player rows): finished games first (in time order), then active ones."""
    rng = random.Random(shape.seed)
    total = shape.finished + shape.active
    step = SPAN / max(shape.finished, 1)
    for gid in range(1, total + 1):
        seated = _seats(rng, shape.users)
        options, _size, _rated = _options(rng, len(seated))
        visibility = "public" if rng.random() < 0.9 else "private"
        players = [(gid * 4 + i, gid, user, i + 1, 0, i, True, "active") for i, user in enumerate(seated)]
        game: tuple[Any, ...]
        if gid <= shape.finished:
            finished_at = START + step * gid + timedelta(seconds=rng.uniform(0, 60))
            draw = rng.random() < 0.02
            winner = rng.randint(1, len(seated))
            result = {"reason": rng.choice(REASONS), "winners": [] if draw else [winner], "draw": draw}
            game = (
                gid,
                "go",
                "finished",
                seated[0],
                finished_at - timedelta(minutes=30),
                options,
                visibility,
                rng.randint(20, 300),
                json.dumps(result),
                finished_at,
                None,
                "{}",
            )
        else:
            moment = START + SPAN + timedelta(seconds=gid - shape.finished)
            to_move = json.dumps({"team": 1, "seat": 0, "user_id": seated[0]})
            game = (
                gid,
                "go",
                "active",
                seated[0],
                moment,
                options,
                visibility,
                rng.randint(0, 200),
                None,
                None,
                moment,
                to_move,
            )
        yield game, players


GAME_COLUMNS = [
    "id",
    "kind",
    "status",
    "created_by",
    "created_at",
    "options",
    "visibility",
    "plies",
    "result",
    "finished_at",
    "turn_started_at",
    "to_move",
]
PLAYER_COLUMNS = ["id", "game_id", "user_id", "team", "seat", "joined_seq", "confirmed", "state"]


async def _copy(
    conn: asyncpg.Connection, table: str, rows: list[tuple[Any, ...]], columns: list[str]
) -> None:
    await conn.copy_records_to_table(table, records=rows, columns=columns)


async def fill(dsn: str, shape: Shape) -> None:
    """Bulk-load users, games, players and ratings into the migrated database at `dsn`, then ANALYZE."""
    conn = await asyncpg.connect(dsn)
    try:
        # the defaults the ORM fills in: COPY needs them in the table
        for column, default in [
            ("version", "0"),
            ("clocks", "'{}'"),
            ("draw_offers", "'[]'"),
            ("result_history", "'[]'"),
            ("redo", "'[]'"),
        ]:
            await conn.execute(f"ALTER TABLE games ALTER COLUMN {column} SET DEFAULT {default}")
        rng = random.Random(shape.seed + 1)
        users = [
            (i, f"u{i}", "x", False, START - timedelta(days=rng.randint(0, 900)), "{}", False)
            for i in range(1, shape.users + 1)
        ]
        user_columns = ["id", "username", "password_hash", "is_admin", "created_at", "settings", "is_bot"]
        await _copy(conn, "users", users, user_columns)
        log(f"users: {shape.users}")
        games: list[tuple[Any, ...]] = []
        players: list[tuple[Any, ...]] = []
        started = time.perf_counter()
        for count, (game, seated) in enumerate(_rows(shape), start=1):
            games.append(game)
            players.extend(seated)
            if len(games) >= BATCH:
                await _copy(conn, "games", games, GAME_COLUMNS)
                await _copy(conn, "game_players", players, PLAYER_COLUMNS)
                games, players = [], []
                log(f"games: {count} ({time.perf_counter() - started:.0f} s)")
        if games:
            await _copy(conn, "games", games, GAME_COLUMNS)
            await _copy(conn, "game_players", players, PLAYER_COLUMNS)
        ratings: list[tuple[Any, ...]] = []
        for user in range(1, shape.users + 1):
            for key in rng.sample(KEYS, rng.randint(1, 2)):
                deviation = rng.uniform(45, 350)
                ratings.append(
                    (
                        len(ratings) + 1,
                        user,
                        key,
                        "glicko2",
                        rng.gauss(1500, 300),
                        deviation,
                        0.06,
                        rng.randint(1, 400),
                        START + SPAN,
                    )
                )
        rating_columns = [
            "id",
            "user_id",
            "kind_key",
            "system",
            "rating",
            "deviation",
            "volatility",
            "games",
            "updated_at",
        ]
        await _copy(conn, "ratings", ratings, rating_columns)
        log(f"ratings: {len(ratings)}; ANALYZE")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


def pages(shape: Shape, dialect: str = "postgresql") -> dict[str, Callable[[random.Random], list[Any]]]:
    """Each page's statements for random parameters: what the API runs for that page."""

    def user(rng: random.Random) -> int:
        return rng.randint(1, shape.users)

    def since(rng: random.Random) -> datetime:
        return START + SPAN * rng.random()

    def archive_by_user(rng: random.Random) -> list[Any]:
        return [finding.archive_page(dialect, ArchiveFilter(user_id=user(rng)), None, PAGE + 1)]

    def archive_filtered(rng: random.Random) -> list[Any]:
        choice = rng.randrange(3)
        if choice == 0:  # a user's wins of one size against anyone, in a date range
            where = ArchiveFilter(user_id=user(rng), outcome="win", size=rng.choice(SIZES), since=START)
        elif choice == 1:  # everyone's games: size, colours, how it ended, up to a date
            start = since(rng)
            where = ArchiveFilter(
                size=rng.choice(SIZES), teams=2, reason=rng.choice(REASONS), until=start, rated=True
            )
        else:  # two players' games together
            where = ArchiveFilter(user_id=user(rng), opponent_id=user(rng), viewer_id=user(rng))
        return [finding.archive_page(dialect, where, None, PAGE + 1)]

    def live(rng: random.Random) -> list[Any]:
        where = GameFilter(
            kind="go",
            size=rng.choice((None, *SIZES)),
            teams=rng.choice((None, 2)),
            rated=rng.choice((None, True, False)),
        )
        before = rng.choice((None, shape.finished + rng.randint(1, shape.active)))
        return [
            finding.live_page(dialect, where, before, PAGE + 1),
            finding.players_query(list(range(1, PAGE + 1))),
        ]

    def profile(rng: random.Random) -> list[Any]:
        who = user(rng)
        return [
            finding.current_query(who, None, 10),
            finding.record_query(dialect, who),
            finding.archive_page(dialect, ArchiveFilter(user_id=who), None, 10),
            finding.players_query([rng.randint(1, shape.finished) for _ in range(20)]),
            rating_store.user_ratings_query(who),
        ]

    def leaderboard(rng: random.Random) -> list[Any]:
        key = rng.choice(KEYS)
        established = (PROVISIONAL_DEVIATION, MIN_ESTABLISHED_GAMES)
        return [rating_store.leaderboard_query(key, UserRating.rating, *established, 50)]

    return {
        "archive by user": archive_by_user,
        "archive with filters": archive_filtered,
        "live list with filters": live,
        "profile": profile,
        "leaderboard": leaderboard,
    }


async def time_pages(db: AsyncSession, shape: Shape, samples: int, seed: int) -> dict[str, list[float]]:
    rng = random.Random(seed)
    out: dict[str, list[float]] = {}
    for name, make in pages(shape).items():
        for statement in make(rng):  # warm the statement cache
            (await db.execute(statement)).all()
        timings = []
        for _ in range(samples):
            statements = make(rng)
            started = time.perf_counter()
            for statement in statements:
                (await db.execute(statement)).all()
            timings.append((time.perf_counter() - started) * 1000)
        out[name] = timings
        log(f"{name}: {samples} samples")
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def run(
    shape: Shape, samples: int, keep: bool, table: Callable[[str], None] = print, reuse: str | None = None
) -> dict[str, Any]:
    """Fill a new database of `shape` (or time the pages on `reuse`, one an earlier `--keep` left with the
    same shape) and print each page's p50/p99."""
    name = reuse or f"miai_bench_queries_{uuid.uuid4().hex[:10]}"
    if reuse is None:
        await _admin(f'CREATE DATABASE "{name}"')
    dsn = f"{ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    engine = make_engine(dsn.replace("postgresql://", "postgresql+asyncpg://", 1))
    keep = keep or reuse is not None  # a database this run did not make is not this run's to drop
    try:
        if reuse is None:
            await migrate(engine)
            started = time.perf_counter()
            await fill(dsn, shape)
            log(f"loaded in {time.perf_counter() - started:.0f} s")
        async with sessions(engine)() as db:
            timings = await time_pages(db, shape, samples, shape.seed + 2)
        summary = {
            page: {"p50": percentile(t, 0.5), "p99": percentile(t, 0.99), "n": len(t)}
            for page, t in timings.items()
        }
        table(
            f"{'page':<24} {'p50 ms':>8} {'p99 ms':>8}   ({shape.finished} finished, {shape.active} active, "
            f"{shape.users} users, {samples} samples)"
        )
        for page, figures in summary.items():
            table(f"{page:<24} {figures['p50']:>8.2f} {figures['p99']:>8.2f}")
        return summary
    finally:
        await engine.dispose()
        if keep:
            log(f"kept database {name}")
        else:
            await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--finished", type=int, default=1_000_000)
    parser.add_argument("--active", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=50_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20,000 / 2,000 games, 2,000 users, 40 samples")
    parser.add_argument("--keep", action="store_true", help="keep the database (its name goes to stderr)")
    parser.add_argument(
        "--reuse", metavar="NAME", help="time the pages on a database an earlier --keep left (same counts)"
    )
    args = parser.parse_args(argv)
    if args.reuse is not None and not re.fullmatch(r"miai_bench_queries_[0-9a-f]{10}", args.reuse):
        parser.error("--reuse takes the name a --keep run printed (miai_bench_queries_ and 10 hex digits)")
    if args.quick:
        args.finished, args.active, args.users, args.samples = 20_000, 2_000, 2_000, 40
    if min(args.finished, args.active, args.samples) < 1 or args.users < 4:
        parser.error("counts must be positive (at least 4 users)")
    shape = Shape(args.finished, args.active, args.users, args.seed)
    asyncio.run(run(shape, args.samples, args.keep, reuse=args.reuse))


if __name__ == "__main__":
    main()

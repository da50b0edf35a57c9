"""Each finding page's queries use an index on PostgreSQL: EXPLAIN of the very statements the API runs
(storage/finding.py, the ratings leaderboard), on a small database filled by bench/queries.py and ANALYZEd,
shows no sequential scan of games, game_players or ratings. Also a small run of the benchmark itself."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.elements import ClauseElement

from miai.server.storage.db import make_engine, migrate, sessions
from tests.conftest import REPO, bench_module, need
from tests.server.conftest import PG_ADMIN, postgres_reachable

WATCHED = {"games", "game_players", "ratings"}
MADE_FOR = {
    "archive by user": {"ix_game_players_user_game"},
    "archive with filters": {"ix_games_finished", "ix_game_players_user_game"},
    "live list with filters": {"ix_games_live"},
    "profile": {"ix_game_players_user_game"},
    "leaderboard": {"ix_ratings_kind_key_rating"},
}
INDEXED = {"Index Scan", "Index Only Scan", "Bitmap Heap Scan"}


class Explain(Executable, ClauseElement):
    inherit_cache = False

    def __init__(self, statement: Any) -> None:
        self.statement = statement


@compiles(Explain, "postgresql")
def _explain(element: Explain, compiler: Any, **kw: Any) -> str:
    return "EXPLAIN (FORMAT JSON) " + str(compiler.process(element.statement, **kw))


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("queries.py")


@pytest.fixture(scope="module")
def small_database(bench: ModuleType) -> Iterator[tuple[str, Any]]:
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"miai_test_plans_{uuid.uuid4().hex[:10]}"
    shape = bench.Shape(finished=4000, active=600, users=300)

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    dsn = f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"

    async def prepare() -> None:
        engine = make_engine(dsn.replace("postgresql://", "postgresql+asyncpg://", 1))
        try:
            await migrate(engine)
        finally:
            await engine.dispose()
        await bench.fill(dsn, shape)

    try:
        asyncio.run(prepare())
        yield dsn, shape
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _plans(dsn: str, statements: list[Any]) -> list[dict[str, Any]]:
    engine = make_engine(dsn.replace("postgresql://", "postgresql+asyncpg://", 1))
    try:
        async with sessions(engine)() as db:
            # On a few thousand rows a whole-table read is honestly the cheapest plan for some pages, so the
            # planner is told to avoid one if it can: a Seq Scan still shown means no index serves the query.
            # Whether the planner picks the index by itself at scale is what bench/queries.py measures.
            await db.execute(text("SET enable_seqscan = off"))
            out = []
            for statement in statements:
                document = (await db.execute(Explain(statement))).scalar_one()
                out.append(document[0]["Plan"] if isinstance(document, list) else document)
            return out
    finally:
        await engine.dispose()


@pytest.mark.parametrize(
    "page", ["archive by user", "archive with filters", "live list with filters", "profile", "leaderboard"]
)
def test_each_page_reads_indexes_not_whole_tables(
    bench: ModuleType, small_database: tuple[str, Any], page: str
) -> None:
    dsn, shape = small_database
    rng = random.Random(page)
    statements = [s for _ in range(6) for s in bench.pages(shape)[page](rng)]
    names: set[str] = set()
    for statement, plan in zip(statements, asyncio.run(_plans(dsn, statements)), strict=True):
        names |= {n["Index Name"] for n in nodes(plan) if "Index Name" in n}
        scans = [(n["Node Type"], n.get("Relation Name")) for n in nodes(plan) if "Relation Name" in n]
        assert not [s for s in scans if s[0] == "Seq Scan" and s[1] in WATCHED], (str(statement), scans)
        # a Bitmap Heap Scan reads the rows a Bitmap Index Scan found
        used = [kind for kind, relation in scans if relation in WATCHED]
        assert used and set(used) <= INDEXED, (str(statement), scans)
    assert names & MADE_FOR[page], names  # the index made for the page (migrations 0011 and 0012)


def test_the_benchmark_runs_small_and_reports_every_page() -> None:
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    args = ["--finished", "3000", "--active", "300", "--users", "200", "--samples", "5"]
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "queries.py"), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for page in (
        "archive by user",
        "archive with filters",
        "live list with filters",
        "profile",
        "leaderboard",
    ):
        row = next(line for line in lines if line.startswith(page))
        p50, p99 = (float(x) for x in row[len(page) :].split())
        assert 0 < p50 <= p99
    assert "ANALYZE" in done.stderr


def test_a_kept_database_is_timed_again_without_loading_and_is_not_dropped() -> None:
    """`--keep` then `--reuse NAME`: the second run loads nothing and leaves the database for the next."""
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    small = ["--finished", "2000", "--active", "200", "--users", "100", "--samples", "3"]

    def bench(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(REPO / "bench" / "queries.py"), *small, *args],
            check=False, capture_output=True, text=True, timeout=120, cwd=REPO,
        )

    kept = bench("--keep")
    assert kept.returncode == 0, kept.stderr
    name = re.findall(r"kept database (miai_bench_queries_[0-9a-f]{10})", kept.stderr)[0]
    try:
        for _ in range(2):  # twice: the first reuse left it in place
            again = bench("--reuse", name)
            assert again.returncode == 0, again.stderr
            assert "loaded in" not in again.stderr and f"kept database {name}" in again.stderr
            assert any(line.startswith("profile") for line in again.stdout.splitlines())
    finally:
        asyncio.run(_drop(name))
    for hostile in ("postgres", 'miai_bench_queries_x"; DROP', "miai_bench_queries_" + "a" * 11, "é" * 40):
        refused = bench("--reuse", hostile)
        assert refused.returncode == 2 and "--reuse takes" in refused.stderr, hostile


async def _drop(name: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()

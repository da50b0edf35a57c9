"""The pool of migrated PostgreSQL test databases (conftest.py): what one test leaves, the next never sees."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import asyncpg
import pytest

from tests.server import conftest
from tests.server.conftest import _admin_url, fresh_database, need, postgres_reachable


def sql(name: str, statement: str) -> object:
    async def run() -> object:
        connection = await asyncpg.connect(_admin_url(name))
        try:
            return await connection.fetchval(statement)
        finally:
            await connection.close()

    return asyncio.run(run())


def add_users(name: str, *names: str) -> object:
    """Insert users `names` into database `name`; the id of the last."""
    rows = ", ".join(f"('{n}', 'x', false, '{{}}', now())" for n in names)
    columns = "username, password_hash, is_admin, settings, created_at"
    return sql(name, f"INSERT INTO users ({columns}) VALUES {rows} RETURNING id")


def name_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


@pytest.fixture(autouse=True)
def postgres() -> None:
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")


def test_the_next_test_gets_no_rows_ids_from_one_and_a_name_the_last_one_cannot_reach(tmp_path: Path) -> None:
    with fresh_database("postgres", tmp_path, migrated=True) as url:
        used = name_of(url)
        add_users(used, "ann", "bob")
        assert sql(used, "SELECT max(id) FROM users") == 2
    with fresh_database("postgres", tmp_path, migrated=True) as url:
        again = name_of(url)
        assert again != used and again in conftest._PG_CREATED
        assert sql(again, "SELECT count(*) FROM users") == 0
        assert add_users(again, "eve") == 1  # ids start again from 1
        with pytest.raises(asyncpg.InvalidCatalogNameError):  # what the last test held cannot write here
            sql(used, "SELECT 1")


class Names:
    """uuid for conftest: every database name the pool makes up is recorded."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def uuid4(self) -> uuid.UUID:
        value = uuid.uuid4()
        self.made.append(f"miai_test_{value.hex[:12]}")
        return value


def test_a_database_whose_schema_a_test_changed_is_dropped_not_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = Names()
    monkeypatch.setattr(conftest, "uuid", names)
    with fresh_database("postgres", tmp_path, migrated=True) as url:
        sql(name_of(url), "CREATE INDEX users_by_created ON users (created_at)")
    # Dropped, under whatever name it had by then: nothing the pool named is left beside the pool.
    made = f"ARRAY{names.made!r}"  # names of hex digits only: safe to quote this way
    existing = sql("postgres", f"SELECT array_agg(datname) FROM pg_database WHERE datname = ANY({made})")
    assert set(existing or []) <= set(conftest._PG_POOL) and set(conftest._PG_POOL) == conftest._PG_CREATED
    with fresh_database("postgres", tmp_path, migrated=True) as url:
        assert sql(name_of(url), "SELECT count(*) FROM pg_indexes WHERE indexname = 'users_by_created'") == 0

"""The Alembic migrations create exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import warnings

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from miai.server.storage.db import make_engine, migrate
from miai.server.storage.models import Base


def _differences(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": False})
    with warnings.catch_warnings():
        # SQLite's reflection cannot compare the index on lower(username) (PostgreSQL's does).
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        warnings.filterwarnings("ignore", "autogenerate skipping metadata-specified expression-based index")
        return list(compare_metadata(context, Base.metadata))


async def _check(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        await migrate(engine)
        await migrate(engine)  # a second start finds nothing to do
        async with engine.connect() as connection:
            return await connection.run_sync(_differences)
    finally:
        await engine.dispose()


def test_migrations_match_the_models(empty_database_url: str) -> None:
    assert asyncio.run(_check(empty_database_url)) == []

"""Alembic environment: run with a connection passed in by miai.server.storage.db.migrate."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from miai.server.storage.models import Base

config = context.config
target_metadata = Base.metadata


def run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite can only alter tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    engine = engine_from_config(
        config.get_section(config.config_ini_section) or {}, prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with engine.connect() as conn:
        run(conn)

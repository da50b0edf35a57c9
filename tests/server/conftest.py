"""Server test fixtures: every API test runs on SQLite and on PostgreSQL, each on a database of its own."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import shutil
import socket
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.server.app import create_app
from miai.server.scheduling.deadlines import enforce_due
from miai.server.settings import Settings
from tests.conftest import need

PG_ADMIN = os.environ.get("MIAI_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


def redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


async def _admin(sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(PG_ADMIN)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


# One migrated database of each kind per test process (each xdist worker has its own), copied for every test
# that wants the current schema: running every migration again for each test cost about a second a test on
# PostgreSQL (as Django's and pytest-django's test databases do: migrate once, copy per test).
_TEMPLATES: dict[str, str] = {}


async def _migrate(url: str) -> None:
    from miai.server.storage.db import make_engine, migrate

    engine = make_engine(url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


def _template(kind: str) -> str:
    """The migrated template of `kind` for this process: a SQLite file, or a PostgreSQL database name."""
    if kind in _TEMPLATES:
        return _TEMPLATES[kind]
    if kind == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="miai-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "miai.db"
        asyncio.run(_migrate(f"sqlite+aiosqlite:///{path.as_posix()}"))
        _TEMPLATES[kind] = str(path)
    else:
        name = f"miai_test_template_{uuid.uuid4().hex[:12]}"
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
        atexit.register(lambda: asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
        asyncio.run(_migrate(f"{_postgres_base()}/{name}"))
        _TEMPLATES[kind] = name
    return _TEMPLATES[kind]


def _postgres_base() -> str:
    return PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)


def _admin_url(name: str) -> str:
    """asyncpg's URL of the database `name`, as the administrator."""
    return f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"


@contextmanager
def fresh_database(kind: str, tmp_path: Path, migrated: bool = False) -> Iterator[str]:
    """The URL of a database of `kind` that no other test uses meanwhile ("sqlite": a file in tmp_path;
    "postgres": created here and dropped afterwards, or with `migrated` one of this process's pool): empty,
    or with `migrated` at the newest head with no rows."""
    if kind == "sqlite":
        path = tmp_path / "miai.db"
        if migrated:
            shutil.copyfile(_template(kind), path)
        yield f"sqlite+aiosqlite:///{path.as_posix()}"
        return
    need(postgres_reachable(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    if migrated:
        name = _PG_POOL.pop() if _PG_POOL else _new_pooled()
        try:
            yield f"{_postgres_base()}/{name}"
        finally:
            _give_back(name)
        return
    name = f"miai_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{_postgres_base()}/{name}"
    finally:
        _drop(name)


# Migrated PostgreSQL databases of this process, emptied after each test for the next one: a copy of the
# template cost about half a second a test on a loaded machine (CREATE DATABASE writes the whole template,
# system catalogues included, through the WAL), emptying one a few hundredths (as Django's
# TransactionTestCase empties its tables rather than create a database per test). Each is renamed when it
# is given back, so that nothing the last test left behind (a process, an engine's pool) can reach it again.
_PG_POOL: list[str] = []
_PG_CREATED: set[str] = set()  # every pooled database this process holds, dropped when it ends


def _new_pooled() -> str:
    name = f"miai_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}" TEMPLATE "{_template("postgres")}"'))
    if not _PG_CREATED:
        atexit.register(_drop_pool)
    _PG_CREATED.add(name)
    return name


def _drop(name: str) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    _PG_CREATED.discard(name)


def _drop_pool() -> None:
    for name in list(_PG_CREATED):
        with contextlib.suppress(Exception):  # the process is ending: a server already gone is no error
            _drop(name)


def _give_back(name: str) -> None:
    renamed = asyncio.run(_renamed(name))
    if renamed is None:
        _drop(name)
        return
    _PG_CREATED.discard(name)
    _PG_CREATED.add(renamed)
    if asyncio.run(_emptied(renamed)):
        _PG_POOL.append(renamed)
    else:
        _drop(renamed)


# What a database must look like to be used again: every column with its type, nullability and default,
# every index, constraint and trigger, and the schema version.
SCHEMA_PRINT = """
SELECT md5(coalesce(string_agg(line, E'\n' ORDER BY line), '')) FROM (
  SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' '
         || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') AS line
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
     AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid)
              FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'version ' || version_num FROM alembic_version
) AS schema
"""


async def _renamed(name: str) -> str | None:
    """A used pooled database under a new name, so that nothing the test left behind (a server process, an
    engine worker) reaches it again: its sessions are ended first, waiting up to 5 s for each, and the rename
    fails (None: drop it) if anything is still connected."""
    import asyncpg

    renamed = f"miai_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = await asyncpg.connect(PG_ADMIN)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                " WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
                name,
            )
            await admin.execute(f'ALTER DATABASE "{name}" RENAME TO "{renamed}"')
        finally:
            await admin.close()
    except (asyncpg.PostgresError, OSError):
        return None
    return renamed


async def _emptied(name: str) -> bool:
    """Whether a renamed pooled database was emptied for the next test: every table but the schema version
    emptied and the id sequences restarted. False (drop it) when the test changed its schema, the user is
    not a superuser (the replica role below), or a lock was held past a few seconds."""
    import asyncpg

    try:
        connection = await asyncpg.connect(_admin_url(name))
    except (asyncpg.PostgresError, OSError):
        return False
    try:
        if await connection.fetchval(SCHEMA_PRINT) != await _template_print():
            return False
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        # DELETE, not TRUNCATE: a few rows each, and TRUNCATE's new files cost 0.1-0.5 s a test. The foreign
        # keys' triggers are off meanwhile (replica role) so that the order does not matter.
        deletes = "".join(f'DELETE FROM "{row[0]}";' for row in tables)
        restarts = "SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S';"
        await connection.execute(
            f"SET lock_timeout = '5s'; SET session_replication_role = replica;{deletes}{restarts}"
            "RESET session_replication_role;"
        )
        return True
    except (asyncpg.PostgresError, OSError):
        return False
    finally:
        await connection.close()


_TEMPLATE_PRINT: list[str] = []


async def _template_print() -> str:
    if not _TEMPLATE_PRINT:
        import asyncpg

        connection = await asyncpg.connect(_admin_url(_template("postgres")))
        try:
            _TEMPLATE_PRINT.append(await connection.fetchval(SCHEMA_PRINT))
        finally:
            await connection.close()
    return _TEMPLATE_PRINT[0]


# The fixtures whose PostgreSQL runs are untraced (see pytest_collection_modifyitems).
DATABASE_FIXTURES = ("database_url", "empty_database_url", "fresh_database_url")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The PostgreSQL run of a server test is untraced (`no_cover`): it runs the same Python as its SQLite
    twin, which is traced, and tracing added half again to its time. The server's printed figure is so
    measured on the SQLite runs: PostgreSQL-only branches count as unrun (a lower figure, never a higher)."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if any(params.get(name) == "postgres" for name in DATABASE_FIXTURES):
            item.add_marker(pytest.mark.no_cover)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of its own at the newest migration, on SQLite and on PostgreSQL."""
    with fresh_database(request.param, tmp_path, migrated=True) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own, for the tests of the migrations themselves."""
    with fresh_database(request.param, tmp_path) as url:
        yield url


def unique_redis_prefix() -> str:
    """A Redis channel and key prefix no other test, nor another test run at the same time, uses: the Redis
    is shared, so a test that used the default prefix ("miai") would hear and count the others' traffic."""
    return f"test-{uuid.uuid4().hex[:12]}"


def make_settings(database_url: str, tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url,
        "data_dir": tmp_path,
        "confirm_window_seconds": 60,
        "rate_limits_enabled": False,  # tests of the limits turn them on (test_rate_limits.py)
        "redis_prefix": unique_redis_prefix(),  # instances meant to share channels share one Settings
        # The cheapest argon2id: a test registers and logs in many users, and the hash's cost is not what
        # it checks (Django's test settings use a fast hasher for the same reason)
        "argon2_time_cost": 1,
        "argon2_memory_kib": 64,
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class Player:
    """A registered user talking to the API with a personal token (no cookie, so no CSRF needed)."""

    client: TestClient
    username: str
    user_id: int
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, url: str, **kw: Any) -> Any:
        return self.client.get(url, headers=self.headers, **kw)

    def post(self, url: str, json: Any = None, **kw: Any) -> Any:
        return self.client.post(url, json=json, headers=self.headers, **kw)

    def ok(self, url: str, json: Any = None) -> Any:
        response = self.post(url, json)
        assert response.status_code < 300, response.text
        return response.json()


def register(client: TestClient, username: str, email: str | None = None) -> Player:
    response = client.post(
        "/api/v1/accounts", json={"username": username, "password": "correct horse", "email": email}
    )
    assert response.status_code == 201, response.text
    csrf = response.json()["csrf_token"]
    if email:
        follow_verification_link(client, email, {"X-CSRF-Token": csrf})
    token = client.post("/api/v1/me/tokens", json={"name": "tests"}, headers={"X-CSRF-Token": csrf})
    assert token.status_code == 201, token.text
    client.cookies.clear()
    return Player(client, username, response.json()["user"]["id"], token.json()["token"])


def follow_verification_link(client: TestClient, email: str, headers: dict[str, str]) -> None:
    """Verify a new address the way its owner would, with the link mailed to it (when the server mails at
    all), then drop that mail from the outbox: the tests using this helper count game mail only (the
    verification mail itself is tested in test_accounts.py)."""
    from sqlalchemy import delete, select

    from miai.server.storage.models import OutboxMail

    async def take_link() -> str | None:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            query = select(OutboxMail).where(
                OutboxMail.to_address == email, OutboxMail.dedupe_key.startswith("verify_email:")
            )
            mail = (await db.execute(query.order_by(OutboxMail.id.desc()))).scalars().first()
            if mail is None:
                return None
            await db.execute(delete(OutboxMail).where(OutboxMail.id == mail.id))
            await db.commit()
            return mail.body

    body = client.portal.call(take_link)  # type: ignore[union-attr]
    if body is None:
        return  # no SMTP configured: the server sends no mail, verified or not
    token = re.search(r"#token=(\S+)", body)
    assert token is not None, body
    verified = client.post("/api/v1/me/email/verify", json={"token": token.group(1)}, headers=headers)
    assert verified.status_code == 200, verified.text


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path), background=False)
    with TestClient(app) as test_client:
        yield test_client


def upgrade_to(connection: Any, revision: str) -> None:
    """Migrate a database (a synchronous connection, inside `run_sync`) to `revision`: for tests of one
    migration's data step, which need the schema as it was just before it."""
    from alembic import command

    from miai.server.storage.db import alembic_config

    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


class FakeClock:
    """The server's clock in tests with time: it moves only when told to."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=UTC)) -> None:
        self.moment = start

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def timed_client(database_url: str, tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    """A server on `clock`, with a two-minute confirmation window and no background tasks."""
    app = create_app(
        make_settings(database_url, tmp_path, confirm_window_seconds=120), now=clock, background=False
    )
    with TestClient(app) as test_client:
        yield test_client


def run_scheduler(client: TestClient) -> None:
    """One pass of the deadline scheduler (what the background task does every few seconds)."""
    state = client.app.state  # type: ignore[attr-defined]
    client.portal.call(enforce_due, state.sessions, state.games)  # type: ignore[union-attr]

"""A computer move job reads its game's rules state with a plain read (engine_jobs/playing.py `live_at`):
it answers while another transaction holds the game's row locked (a long command, an administrator's
correction), instead of queueing behind it. SQLite and PostgreSQL (where the lock is real)."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient
from sqlalchemy import select

from miai.server.engine_jobs.playing import live_at
from miai.server.storage.db import make_engine, sessions
from miai.server.storage.models import Game
from tests.server.conftest import register
from tests.server.ratings.test_ratings_api import game


async def _read_while_locked(client: TestClient, url: str, gid: int) -> tuple[bool, int | None]:
    stream = client.app.state.games.stream  # type: ignore[attr-defined]
    stream._cache.pop(gid, None)  # read from the database, not the cache
    engine = make_engine(url)
    try:
        async with sessions(engine)() as holder:
            await holder.begin()
            row = (await holder.execute(select(Game).where(Game.id == gid).with_for_update())).scalar_one()
            version = row.version
            live = await asyncio.wait_for(live_at(stream, gid, version), 5)
            await holder.rollback()
            return live is not None, None if live is None else live.version
    finally:
        await engine.dispose()


def test_live_at_reads_without_waiting_for_a_locked_game(client: TestClient) -> None:
    ann, ben = register(client, "ann"), register(client, "ben")
    gid = game(ben, ann)
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    found, version = client.portal.call(_read_while_locked, client, url, gid)  # type: ignore[union-attr]
    assert found and version == ben.get(f"/api/v1/games/{gid}").json()["version"]

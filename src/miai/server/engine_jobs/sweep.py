"""The sweep (web processes with the Redis queue): every few seconds, submit a move job for every active game
whose computer is on move. Submissions are deduplicated per (game, version), so this is idempotent; it is
what heals a submission lost to a Redis outage, or to a process that died before it submitted, without a
restart. It reads the stored games whose player on move is a computer only (no rules state is rebuilt)."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.engine_jobs.redis_queue import RedisJobs
from miai.server.engine_jobs.wire import MoveJob
from miai.server.identity.bots import is_computer
from miai.server.storage import repo

log = logging.getLogger(__name__)


async def computers_on_move(sessions: async_sessionmaker[AsyncSession]) -> list[MoveJob]:
    """A move job for every active game whose player on move is a computer, at the game's version."""
    async with sessions() as db:
        on_move = await repo.bots_on_move(db)
    return [
        MoveJob(game, version, user.id, user.settings["bot_level"])
        for game, version, user in on_move
        if is_computer(user)
    ]


async def sweep_once(sessions: async_sessionmaker[AsyncSession], jobs: RedisJobs) -> int:
    """Submit what is missing; returns how many jobs were added."""
    added = 0
    for job in await computers_on_move(sessions):
        added += await jobs.submit(job)
    return added


async def run_sweep(sessions: async_sessionmaker[AsyncSession], jobs: RedisJobs, interval: float) -> None:
    while True:
        try:
            added = await sweep_once(sessions, jobs)
            if added:
                log.info("engine sweep: %s computer move(s) submitted again", added)
        except Exception:
            log.exception("engine sweep failed")
        await asyncio.sleep(interval)

"""The sweep (every web process, every few seconds): heals lost engine jobs without a restart.

- Computer moves (the Redis queue): a move job for every active game whose computer is on move.
  Submissions are deduplicated per (game, version), so this is idempotent; it is what heals a submission
  lost to a Redis outage, or to a process that died before it submitted. It reads the stored games whose
  player on move is a computer only (no rules state is rebuilt).
- Reviews (both modes): an unfinished review whose row has not changed for `reviewing.STALLED` has no
  computer working on it (Redis was down when it was submitted, the process computing it stopped): it is
  submitted again, once per stall limit at most, without waiting for someone to ask for it again.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.engine_jobs.protocol import EngineJobs
from miai.server.engine_jobs.redis_queue import RedisJobs
from miai.server.engine_jobs.reviewing import STALLED
from miai.server.engine_jobs.wire import MoveJob
from miai.server.identity.bots import is_computer
from miai.server.play.stream import Clock, system_now
from miai.server.storage import repo, reviews

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


async def sweep_once(
    sessions: async_sessionmaker[AsyncSession], jobs: EngineJobs, now: Clock = system_now
) -> int:
    """Submit what is missing; returns how many jobs were added."""
    added = 0
    if isinstance(jobs, RedisJobs):  # in-process computers resume at start and chain their own moves
        for job in await computers_on_move(sessions):
            added += await jobs.submit(job)
    async with sessions() as db:
        stalled = await reviews.stalled(db, now() - STALLED)
    for review, user in stalled:
        added += await jobs.resubmit_review(review, user)
    return added


async def run_sweep(
    sessions: async_sessionmaker[AsyncSession], jobs: EngineJobs, interval: float, now: Clock = system_now
) -> None:
    while True:
        try:
            added = await sweep_once(sessions, jobs, now)
            if added:
                log.info("engine sweep: %s computer move(s) or review(s) submitted again", added)
        except Exception:
            log.exception("engine sweep failed")
        await asyncio.sleep(interval)

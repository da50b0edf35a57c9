"""Enforces stored deadlines: move timeouts and confirmation windows, also after a restart.

Each due game is handled through the game's command stream with the version read together with its
deadline, so a timeout is applied exactly once even with several server processes.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.play.service import GameService
from miai.server.storage import repo

log = logging.getLogger(__name__)


async def enforce_due(sessions: async_sessionmaker[AsyncSession], games: GameService) -> int:
    """Apply every deadline that has passed; returns how many games changed."""
    async with sessions() as db:
        due = await repo.due_games(db, games.stream.now())
    changed = 0
    for game_id, version, status in due:
        try:
            if status == "active":
                changed += await games.moves.timeout(game_id, version)
            else:
                await games.lobby.expire_confirmation(game_id, version)
                changed += 1
        except Exception:
            log.exception("deadline of game %s failed", game_id)
    return changed


async def run_scheduler(
    sessions: async_sessionmaker[AsyncSession], games: GameService, interval: float
) -> None:
    while True:
        try:
            await enforce_due(sessions, games)
            async with sessions() as db:
                upcoming = await repo.next_deadline(db)
        except Exception:
            log.exception("scheduler round failed")
            upcoming = None
        wait = interval
        if upcoming is not None:
            wait = max(0.05, min(interval, (upcoming - datetime.now(UTC)).total_seconds()))
        await asyncio.sleep(wait)

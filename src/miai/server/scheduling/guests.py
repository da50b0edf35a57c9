"""Expiry of guests: a guest unseen for `guest_idle_days` is deleted with their games, in batches, by one
periodic task (the only place that deletes guests)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.play.stream import Clock
from miai.server.storage import guests

log = logging.getLogger(__name__)
BATCH = 200  # guests per transaction: a backlog never holds locks for long


async def expire_guests(sessions: async_sessionmaker[AsyncSession], now: Clock, idle_days: float) -> int:
    """Delete every guest idle for longer than `idle_days`; returns how many."""
    cutoff = now() - timedelta(days=idle_days)
    total = 0
    while True:
        async with sessions() as db:
            deleted = await guests.delete_idle(db, cutoff, BATCH)
            await db.commit()
        total += deleted
        if deleted < BATCH:
            return total


async def run_guest_expiry(
    sessions: async_sessionmaker[AsyncSession], now: Clock, idle_days: float, interval: float
) -> None:
    while True:
        try:
            deleted = await expire_guests(sessions, now, idle_days)
            if deleted:
                log.info("deleted %d idle guest(s) and their games", deleted)
        except Exception:
            log.exception("guest expiry failed")  # the database may be away: tried again next round
        await asyncio.sleep(interval)

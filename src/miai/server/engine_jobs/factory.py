"""The engine jobs a web process uses, by its settings: `engine_queue=local` runs them here (with the
stand-in chooser of tests when one is given), `engine_queue=redis` only submits them to workers."""

from __future__ import annotations

from miai.server.engine_jobs.engine import Chooser, ChooserEngine, PoolEngine
from miai.server.engine_jobs.local import LocalJobs
from miai.server.engine_jobs.protocol import EngineJobs
from miai.server.engine_jobs.redis_queue import RedisJobs
from miai.server.engine_jobs.reviewing import review_playouts
from miai.server.play.service import GameService
from miai.server.settings import Settings


def engine_jobs(settings: Settings, games: GameService, chooser: Chooser | None = None) -> EngineJobs:
    if settings.engine_queue == "redis":
        return RedisJobs(settings.redis_url, settings.redis_prefix, settings.engine_reply_timeout)
    seconds = settings.computer_seconds
    engine = ChooserEngine(chooser, seconds) if chooser is not None else PoolEngine(seconds=seconds)
    return LocalJobs(games, engine, review_playouts(settings))

"""Running the server: `miai serve` and `uvicorn --factory miai.server.main:app_from_env`."""

from __future__ import annotations

import logging

import uvicorn
from fastapi import FastAPI

from miai.server.app import create_app
from miai.server.settings import Settings


def app_from_env() -> FastAPI:
    return create_app(Settings.from_env())


def serve(settings: Settings, workers: int = 1, log_level: str = "info") -> None:
    """Start uvicorn. Several workers need MIAI_REDIS_URL so realtime events reach every process."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if workers > 1:
        if not settings.redis_url:
            raise SystemExit("several workers need --redis-url (or MIAI_REDIS_URL) for realtime fan-out")
        if settings.effective_database_url.startswith("sqlite"):
            logging.warning("several workers on SQLite serialise every write; PostgreSQL scales better")
        uvicorn.run(
            "miai.server.main:app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=workers,
            log_level=log_level,
        )
        return
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level=log_level)

"""Running the server: `miai serve` and `uvicorn --factory miai.server.main:app_from_env`."""

from __future__ import annotations

import gc
import logging
from typing import Any

import uvicorn
from fastapi import FastAPI

from miai.server import logs
from miai.server.app import create_app
from miai.server.settings import Settings


def app_from_env() -> FastAPI:
    logs.install()  # also when started by `uvicorn --factory` with uvicorn's own logging
    settings = Settings.from_env().for_serving()
    app = create_app(settings)
    tune_gc(settings)
    return app


def tune_gc(settings: Settings) -> None:
    """Garbage collection for a server process, once its app is built (not in tests: they share a process).

    A full collection walks every object, and a server with thousands of websockets holds millions: Python's
    default thresholds start one every few events, a pause of up to a second (bench/server.md). Freezing
    what start-up made (modules, the app, the ORM's metadata: it lives as long as the process) takes it out of
    every later collection; a larger youngest generation (`gc_threshold`) makes collections rarer. Garbage
    with cycles is still collected, later: memory, not correctness, is what a threshold trades.
    """
    gc.collect()  # what start-up discarded is freed now, not frozen forever
    gc.freeze()
    gc.set_threshold(*settings.gc_threshold)


def serve(settings: Settings, workers: int = 1, log_level: str = "info") -> None:
    """Start uvicorn. Several workers need MIAI_REDIS_URL so realtime events reach every process."""
    settings = settings.for_serving()  # made once here, read by every worker (app_from_env)
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    options: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        "log_config": logs.uvicorn_log_config(),  # applied in every worker process too
        # Client addresses (rate limits, logs) from X-Forwarded-For, only when a trusted proxy sent it
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        # A websocket frame over the body limit is closed with 1009 before it is buffered (default 16 MiB)
        "ws_max_size": settings.max_body_bytes,
    }
    if workers > 1:
        if not settings.redis_url:
            raise SystemExit("several workers need --redis-url (or MIAI_REDIS_URL) for realtime fan-out")
        if settings.effective_database_url.startswith("sqlite"):
            logging.warning("several workers on SQLite serialise every write; PostgreSQL scales better")
        uvicorn.run("miai.server.main:app_from_env", factory=True, workers=workers, **options)
        return
    app = create_app(settings)
    tune_gc(settings)
    uvicorn.run(app, **options)

"""Health checks for load balancers and orchestrators (what each means: docs/operations.md, Health checks).

- `/health/live`: the process answers (restart it if not).
- `/health/ready`: it can serve: the database answers a trivial query (route traffic elsewhere while not).
  Redis is reported but does not decide: without it a process still serves, with local fan-out only, and
  taking every process out of rotation because the one Redis they share is away would stop the whole site.
- `/health`: both parts for people and dashboards; 200 with `"ok": true` while the database works (without
  Redis the server still works, with local fan-out only).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import miai

log = logging.getLogger(__name__)
router = APIRouter(tags=["meta"])
DATABASE_TIMEOUT = 3.0


async def database_state(engine: AsyncEngine) -> str:
    """`ok` when the database answers `SELECT 1` within a few seconds, else `down`."""
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT), engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception as err:  # any failure to answer means the same thing here: not ready
        log.warning("health check: the database does not answer (%s)", type(err).__name__)
        return "down"
    return "ok"


async def _parts(request: Request) -> dict[str, str]:
    return {
        "database": await database_state(request.app.state.engine),
        "redis": request.app.state.hub.redis_state,
    }


@router.get("/health", responses={503: {"description": "the database does not answer"}})
async def health(request: Request) -> JSONResponse:
    """The database and Redis separately: `database` "ok" | "down", `redis` "ok" | "down" | "off"."""
    parts = await _parts(request)
    ok = parts["database"] == "ok"
    body = {"ok": ok, "version": miai.__version__, **parts}
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/health/live")
async def live() -> dict[str, Any]:
    """The process answers; nothing else is checked."""
    return {"ok": True}


@router.get("/health/ready", responses={503: {"description": "not ready: the body names the parts down"}})
async def ready(request: Request) -> JSONResponse:
    """200 while the database answers (Redis reported alongside), else 503."""
    parts = await _parts(request)
    if parts["database"] == "ok":
        return JSONResponse({"ok": True, **parts})
    body = {"ok": False, "error": "not_ready", "message": "not ready: database down", **parts}
    return JSONResponse(body, status_code=503)

"""The ASGI application factory: API routes, websockets, static UI, and background loops in the lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as FrameworkError

import miai
from miai.server.api import accounts, admin, finding, games, health, openapi, outbox, practice, ratings, ws
from miai.server.api import bot_accounts as bot_routes
from miai.server.api import notifications as notification_routes
from miai.server.api import reviews as review_routes
from miai.server.api import uploads as upload_routes
from miai.server.api.body_limit import BodyLimit
from miai.server.api.headers import SecurityHeaders
from miai.server.api.rate_limits import rate_limits_for
from miai.server.engine_jobs.engine import Chooser, PoolEngine
from miai.server.engine_jobs.factory import engine_jobs
from miai.server.engine_jobs.redis_queue import RedisJobs
from miai.server.engine_jobs.sweep import run_sweep
from miai.server.errors import CommandError, RateLimited
from miai.server.identity.passwords import set_password_cost
from miai.server.notify.mailer import Mailer
from miai.server.notify.outbox import run_outbox
from miai.server.play.computer import Computers
from miai.server.play.practice import Practice
from miai.server.play.service import GameService
from miai.server.play.stream import Clock, system_now
from miai.server.play.uploads import MAX_RECORD_BYTES
from miai.server.realtime.hub import Hub
from miai.server.realtime.watchers import Watchers
from miai.server.scheduling.deadlines import run_scheduler
from miai.server.scheduling.guests import run_guest_expiry
from miai.server.settings import Settings
from miai.server.storage.db import make_engine, migrate, sessions

log = logging.getLogger(__name__)
WEB = Path(__file__).resolve().parent.parent / "web"


def _validation_message(err: RequestValidationError) -> str:
    parts = []
    for problem in err.errors():
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else str(problem.get("msg")))
    return "; ".join(parts) or "invalid request"


def create_app(
    settings: Settings | None = None,
    now: Clock = system_now,
    background: bool = True,
    chooser: Chooser | None = None,
) -> FastAPI:
    """Build the app. `background=False` leaves the scheduler and outbox loops to the caller (tests);
    `chooser` replaces the computer players' engine (tests)."""
    settings = settings or Settings.from_env()
    settings.check()
    set_password_cost(settings.argon2_time_cost, settings.argon2_memory_kib)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.effective_database_url)
        await migrate(engine)
        app.state.engine = engine
        app.state.sessions = sessions(engine)
        app.state.rate_limits = rate_limits_for(settings)
        app.state.hub = Hub(settings.redis_url, settings.redis_prefix)
        app.state.watchers = Watchers(app.state.hub)  # spectators: this app's sockets, with Redis every app's
        await app.state.hub.start()
        mailer = Mailer(enabled=bool(settings.smtp_host), base_url=settings.base_url, now=now)
        app.state.mailer = mailer
        app.state.games = GameService(
            app.state.sessions,
            app.state.hub,
            mailer,
            settings.confirm_window_seconds,
            now,
            bots_rated_vs_people=settings.bots_rated_vs_people,
        )
        # Engine work: here, or (engine_queue=redis) on `miai worker` processes; never both.
        jobs = app.state.jobs = engine_jobs(settings, app.state.games, chooser)
        await jobs.start()
        app.state.games.judging.use(jobs.judge)  # this app's verdicts, from its own engine jobs
        app.state.computers = Computers(app.state.games, jobs)
        app.state.practice = Practice(app.state.games)
        tasks: list[asyncio.Task[Any]] = []
        if background:
            tasks.append(
                asyncio.create_task(
                    run_scheduler(app.state.sessions, app.state.games, settings.scheduler_interval)
                )
            )
            if settings.smtp_host:
                tasks.append(asyncio.create_task(run_outbox(app.state.sessions, settings, now)))
            expiry = run_guest_expiry(
                app.state.sessions, now, settings.guest_idle_days, settings.guest_expiry_interval
            )
            tasks.append(asyncio.create_task(expiry))
        if background:  # the sweep heals lost jobs: stalled reviews, and with Redis the computers' moves
            interval = settings.engine_sweep_interval
            tasks.append(asyncio.create_task(run_sweep(app.state.sessions, jobs, interval, now)))
        if background and not isinstance(jobs, RedisJobs):
            await app.state.computers.resume()
            tasks.append(asyncio.create_task(asyncio.to_thread(_warm_up_estimator)))
            if settings.warm_engines:  # in the background: startup and /health never wait for it
                tasks.append(asyncio.create_task(_warm_up_engines(jobs)))
        try:
            yield
        finally:
            await jobs.stop()
            await app.state.games.close()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await app.state.watchers.close()
            await app.state.hub.stop()
            await app.state.rate_limits.close()
            await engine.dispose()

    app = FastAPI(
        title="Miai",
        version=miai.__version__,
        lifespan=lifespan,
        openapi_url="/api/v1/openapi.json",
        docs_url="/api/v1/docs",
        redoc_url=None,
    )
    openapi.install(app)
    app.add_middleware(  # inside the headers: a 413 gets them
        BodyLimit, max_bytes=settings.max_body_bytes, paths={upload_routes.UPLOAD_PATH: MAX_RECORD_BYTES}
    )
    app.add_middleware(SecurityHeaders, settings=settings)  # added last, so outermost: on every response
    app.state.settings = settings

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "bad_input", "message": _validation_message(err)}, status_code=422)

    @app.exception_handler(CommandError)
    async def command_error(_request: Request, err: CommandError) -> JSONResponse:
        """The one mapping of command errors to HTTP: status, stable code, and (429) when to retry."""
        headers = {"Retry-After": str(err.retry_after)} if isinstance(err, RateLimited) else None
        return JSONResponse(err.body(), status_code=err.status, headers=headers)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, err: HTTPException) -> JSONResponse:
        body = err.detail if isinstance(err.detail, dict) else {"error": "error", "message": str(err.detail)}
        return JSONResponse(body, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(FrameworkError)
    async def framework_error(request: Request, err: FrameworkError) -> Response:
        """The framework's own errors. Its 400 is a JSON body it could not parse at all (not UTF-8, nested
        too deep): `bad_input` like any other body that is not JSON. The rest keep its shape (405)."""
        if err.status_code == 400:
            message = "the body is not JSON (it must be UTF-8 text, nested at most a few hundred levels deep)"
            return JSONResponse({"error": "bad_input", "message": message}, status_code=422)
        return await http_exception_handler(request, err)

    app.include_router(health.router, prefix="/api/v1")  # /health, /health/live, /health/ready
    app.include_router(accounts.router, prefix="/api/v1")
    app.include_router(bot_routes.router, prefix="/api/v1")  # POST /me/bot
    app.include_router(finding.router, prefix="/api/v1")  # before games': /games/live is no game id
    app.include_router(upload_routes.router, prefix="/api/v1")  # POST /games/upload, GET /games/{id}/record
    app.include_router(games.router, prefix="/api/v1")
    app.include_router(admin.router, prefix="/api/v1")
    app.include_router(outbox.router, prefix="/api/v1")
    app.include_router(practice.router, prefix="/api/v1")
    app.include_router(review_routes.router, prefix="/api/v1")  # engine reviews of finished games
    app.include_router(ratings.router, prefix="/api/v1")
    app.include_router(notification_routes.router, prefix="/api/v1")
    app.include_router(ws.router, prefix="/api/v1")
    _mount_web(app)
    return app


async def _warm_up_engines(jobs: Any) -> None:
    """Load every game's compiled search in the engine pool's workers now (MIAI_WARM_ENGINES), so that the
    first computer move of a fresh server does not wait 10-15 s for compilation."""
    engine = getattr(jobs, "engine", None)
    if not isinstance(engine, PoolEngine):
        return  # a stand-in engine (tests), or the jobs run on `miai worker`s
    try:
        await engine.pool.warm_up()
    except Exception:  # a warm-up that fails costs nothing but the first move's wait
        log.warning("warming the engines failed", exc_info=True)


def _warm_up_estimator() -> None:
    """Load the estimator's compiled kernel now, so the first game that ends does not wait for it."""
    try:
        from miai.core.go import Rules, new_game
        from miai.server.play.judging import judge_now

        judge_now(new_game(5, Rules(allowed_sizes=(5,))))
    except Exception:  # no estimator installed: games are scored with every stone alive
        return


def _mount_web(app: FastAPI) -> None:
    """The browser UI (static ES modules, no build step), when it is present."""
    static = WEB / "static"
    if not static.is_dir():
        return
    from fastapi.staticfiles import StaticFiles
    from starlette.responses import FileResponse

    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/{path:path}", include_in_schema=False)
    async def index(path: str) -> FileResponse:
        if path.startswith("api/"):
            raise HTTPException(404, {"error": "not_found", "message": "no such API route"})
        return FileResponse(static / "index.html")

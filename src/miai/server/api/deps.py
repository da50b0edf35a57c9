"""Request dependencies: the database session, the current user (and its row to change), CSRF protection for
cookie writes, the administrator check, and the app's game service."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.api.cookies import session_token
from miai.server.identity.tokens import token_hash
from miai.server.play.service import GameService
from miai.server.storage import repo
from miai.server.storage.models import User

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessions() as db:
        yield db


DB = Annotated[AsyncSession, Depends(db_session)]


@dataclass
class Viewer:
    user: User
    via_cookie: bool
    csrf: str | None
    credential: str = ""  # the stored hash of the token or session cookie: what revocation closes sockets by


async def resolve_viewer(db: AsyncSession, request: Request) -> Viewer | None:
    """The user behind a bearer token (bots, scripts) or a session cookie (browsers), if any."""
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else request.query_params.get("token")
    if token:
        record = await repo.token_by_hash(db, token_hash(token))
        if record is None:
            raise HTTPException(401, {"error": "unauthorized", "message": "unknown API token"})
        user = await repo.user_by_id(db, record.user_id)
        if user is None or user.is_bot:  # computer accounts are never used from outside
            raise HTTPException(401, {"error": "unauthorized", "message": "unknown API token"})
        now = datetime.now(UTC)
        last = repo.utc(record.last_used_at)
        if last is None or (now - last).total_seconds() > 60:  # not a write on every request
            record.last_used_at = now
            await db.commit()
        return Viewer(user, via_cookie=False, csrf=None, credential=record.token_hash)
    cookie = session_token(request)  # None unless signed with our secret: no lookup for forgeries
    if not cookie:
        return None
    session = await repo.session_by_hash(db, token_hash(cookie))
    if session is None or (repo.utc(session.expires_at) or datetime.now(UTC)) < datetime.now(UTC):
        return None
    user = await repo.user_by_id(db, session.user_id)
    if user is None or user.is_bot:
        return None
    return Viewer(user, via_cookie=True, csrf=session.csrf_token, credential=session.token_hash)


async def optional_viewer(request: Request, db: DB) -> Viewer | None:
    viewer = await resolve_viewer(db, request)
    await db.close()  # hand the connection back: game commands open their own sessions
    if viewer is not None and viewer.via_cookie and request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        # bytes: compare_digest refuses str beyond ASCII, which a client may send in a header
        sent_bytes = sent.encode("utf-8", "surrogatepass")
        if not viewer.csrf or not secrets.compare_digest(sent_bytes, viewer.csrf.encode()):
            raise HTTPException(403, {"error": "csrf", "message": f"missing or wrong {CSRF_HEADER} header"})
    return viewer


async def required_viewer(viewer: Annotated[Viewer | None, Depends(optional_viewer)]) -> Viewer:
    if viewer is None:
        raise HTTPException(401, {"error": "unauthorized", "message": "log in or send an API token"})
    return viewer


MaybeViewer = Annotated[Viewer | None, Depends(optional_viewer)]
CurrentViewer = Annotated[Viewer, Depends(required_viewer)]


def admin_viewer(viewer: CurrentViewer) -> Viewer:
    """403 unless the viewer has the stored administrator role (`miai admin grant`), never a name."""
    if not viewer.user.is_admin:
        raise HTTPException(403, {"error": "forbidden", "message": "administrators only"})
    return viewer


AdminViewer = Annotated[Viewer, Depends(admin_viewer)]


async def fresh_user(viewer: CurrentViewer, db: DB) -> User:
    """The current user's row read again in this request's database session, for routes that change it: the
    viewer's copy was read before that session was closed (`optional_viewer`), so changes to it are not
    stored."""
    user = await repo.user_by_id(db, viewer.user.id)
    if user is None:  # deleted since the viewer was resolved
        raise HTTPException(401, {"error": "unauthorized", "message": "log in or send an API token"})
    return user


FreshUser = Annotated[User, Depends(fresh_user)]


def service_of(request: Request) -> GameService:
    """The app's game commands (lobby, moves, chat, score review; practice games: `app.state.practice`)."""
    return request.app.state.games  # type: ignore[no-any-return]

"""Request dependencies: the database session, the current user (and its row to change), CSRF protection for
cookie writes, sessions that may change the account (sudo), the administrator check, and the app's game
service."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from miai.server.api.cookies import session_token
from miai.server.errors import GuestsMayNot
from miai.server.identity import sudo
from miai.server.identity.bots import is_computer
from miai.server.identity.tokens import token_hash
from miai.server.play.service import GameService
from miai.server.storage import guests, repo
from miai.server.storage.models import User

CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
GUEST_SEEN_EVERY = 600  # seconds: a guest's activity is stored at most this often (it only decides expiry)


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
    password_checked_at: datetime | None = None  # a session's last password check (identity/sudo.py)


async def resolve_viewer(db: AsyncSession, request: Request) -> Viewer | None:
    """The user behind a bearer token (bots, scripts) or a session cookie (browsers), if any."""
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else request.query_params.get("token")
    if token:
        record = await repo.token_by_hash(db, token_hash(token))
        if record is None:
            raise HTTPException(401, {"error": "unauthorized", "message": "unknown API token"})
        user = await repo.user_by_id(db, record.user_id)
        if user is None or is_computer(user):  # computer accounts are never used from outside
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
    if user is None or is_computer(user):
        return None
    if user.is_guest:
        await _seen(db, request, user)
    checked = repo.utc(session.password_checked_at)
    return Viewer(user, True, session.csrf_token, session.token_hash, password_checked_at=checked)


async def _seen(db: AsyncSession, connection: HTTPConnection, guest: User) -> None:
    """Guests expire after inactivity (scheduling/guests.py): note that this one is here, on the server's
    clock, not on every request."""
    now: datetime = connection.app.state.games.stream.now()
    last = repo.utc(guest.last_active_at)
    if last is None or (now - last).total_seconds() > GUEST_SEEN_EVERY:
        await guests.touch(db, guest.id, now)
        await db.commit()


def check_csrf(request: Request, viewer: Viewer | None) -> None:
    """403 unless a cookie-authenticated write carries the session's CSRF token."""
    if viewer is not None and viewer.via_cookie and request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        # bytes: compare_digest refuses str beyond ASCII, which a client may send in a header
        sent_bytes = sent.encode("utf-8", "surrogatepass")
        if not viewer.csrf or not secrets.compare_digest(sent_bytes, viewer.csrf.encode()):
            raise HTTPException(403, {"error": "csrf", "message": f"missing or wrong {CSRF_HEADER} header"})


async def optional_viewer(request: Request, db: DB) -> Viewer | None:
    viewer = await resolve_viewer(db, request)
    await db.close()  # hand the connection back: game commands open their own sessions
    check_csrf(request, viewer)
    return viewer


async def required_viewer(viewer: Annotated[Viewer | None, Depends(optional_viewer)]) -> Viewer:
    if viewer is None:
        raise HTTPException(401, {"error": "unauthorized", "message": "log in or send an API token"})
    return viewer


MaybeViewer = Annotated[Viewer | None, Depends(optional_viewer)]
CurrentViewer = Annotated[Viewer, Depends(required_viewer)]


def member_viewer(viewer: CurrentViewer) -> Viewer:
    """403 for guests: what only accounts may do (multiplayer games, chat, e-mail, tokens, passwords)."""
    if viewer.user.is_guest:
        raise GuestsMayNot()
    return viewer


MemberViewer = Annotated[Viewer, Depends(member_viewer)]


def require_sudo(request: Request, viewer: Viewer) -> None:
    """403 `session_required` for an API token, `sudo_required` for a session whose password was not checked
    in the last MIAI_SUDO_MINUTES: what changing the account takes (the rule: identity/sudo.py)."""
    minutes = request.app.state.settings.sudo_minutes
    sudo.require(viewer.via_cookie, viewer.password_checked_at, datetime.now(UTC), minutes)


def session_viewer(viewer: MemberViewer) -> Viewer:
    """A member's login session, never an API token (403 `session_required`): account changes."""
    sudo.refuse_tokens(viewer.via_cookie)
    return viewer


def sudo_viewer(request: Request, viewer: MemberViewer) -> Viewer:
    """A member's session that checked its password a few minutes ago: account changes that open a way in."""
    require_sudo(request, viewer)
    return viewer


SessionViewer = Annotated[Viewer, Depends(session_viewer)]


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

"""Guest sessions: the first practice game of a visitor without an account makes them a guest
(identity/guests.py), with a session cookie and CSRF token like a member's login."""

from __future__ import annotations

from fastapi import Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from miai.server.api.cookies import set_session_cookie
from miai.server.api.deps import Viewer
from miai.server.api.rate_limits import client_address, enforce
from miai.server.identity.guests import new_guest
from miai.server.identity.tokens import new_session, token_hash


async def viewer_or_new_guest(
    request: Request, response: Response, viewer: Viewer | None, db: AsyncSession
) -> Viewer:
    """The logged-in viewer (member or guest), or a new guest whose session cookie this response sets.

    Called once the request's body is known to be good, so a refused request makes no guest. A visitor's
    request carries no cookie, so it needs no CSRF token; a form on another site cannot send a JSON body
    without a CORS preflight, which this server never grants."""
    if viewer is not None:
        return viewer
    await enforce(request, "guests", "address", client_address(request))
    guest = await new_guest(db, request.app.state.games.stream.now())
    days = request.app.state.settings.session_days
    token, csrf = await new_session(db, guest, days, password_checked=False)  # a guest has no password
    await db.commit()
    await db.refresh(guest)
    set_session_cookie(response, request, token)
    return Viewer(guest, via_cookie=True, csrf=csrf, credential=token_hash(token))

"""The session cookie: the session token signed with MIAI_SECRET_KEY (`token.signature`).

A cookie whose signature does not verify is ignored before any database lookup, so forged or guessed cookies
cost nothing; changing the secret key invalidates every cookie at once (the operator's "log everyone out").
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response

from miai.server.identity.signing import matches, signature

COOKIE = "miai_session"
PURPOSE = "session cookie"


def signed(secret: str, token: str) -> str:
    """The cookie value for a session token."""
    return f"{token}.{signature(secret, PURPOSE, token)}"


def verified(secret: str, value: str) -> str | None:
    """The session token in a cookie value, or None when the signature does not match."""
    token, dot, sent = value.rpartition(".")
    if not dot or not token:
        return None
    return token if matches(secret, PURPOSE, token, sent) else None


def set_session_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    """The browser keeps the signed session token (members and guests alike)."""
    settings = connection.app.state.settings
    response.set_cookie(
        COOKIE,
        signed(settings.secret_key, token),
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        max_age=settings.session_days * 86400,
        path="/",
    )


def session_token(connection: HTTPConnection) -> str | None:
    """The verified session token of a request or websocket, if it carries a good cookie."""
    value = connection.cookies.get(COOKIE)
    return verified(connection.app.state.settings.secret_key, value) if value else None

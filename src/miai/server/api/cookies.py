"""The session cookie: the session token signed with MIAI_SECRET_KEY (`token.signature`).

A cookie whose signature does not verify is ignored before any database lookup, so forged or guessed cookies
cost nothing; changing the secret key invalidates every cookie at once (the operator's "log everyone out").
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from starlette.requests import HTTPConnection

COOKIE = "miai_session"
_PURPOSE = b"miai-session:"  # the same secret may sign other things later: keep their signatures apart


def _signature(secret: str, token: str) -> str:
    digest = hmac.new(secret.encode(), _PURPOSE + token.encode("utf-8", "replace"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def signed(secret: str, token: str) -> str:
    """The cookie value for a session token."""
    return f"{token}.{_signature(secret, token)}"


def verified(secret: str, value: str) -> str | None:
    """The session token in a cookie value, or None when the signature does not match."""
    token, dot, signature = value.rpartition(".")
    if not dot or not token:
        return None
    expected = _signature(secret, token).encode()
    # bytes: compare_digest refuses str with characters beyond ASCII, which a client may send
    return token if hmac.compare_digest(signature.encode("utf-8", "replace"), expected) else None


def session_token(connection: HTTPConnection) -> str | None:
    """The verified session token of a request or websocket, if it carries a good cookie."""
    value = connection.cookies.get(COOKIE)
    return verified(connection.app.state.settings.secret_key, value) if value else None

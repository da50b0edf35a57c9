"""Security headers on every HTTP response: a content security policy fitting the browser UI, no framing, no
MIME sniffing, no referrer beyond the site, and HSTS when the public address is https.

The UI loads only its own files (ES modules, one stylesheet, an SVG icon; inline SVG drawn by the scripts)
and talks to its own host over fetch and websockets, so everything is 'self' except the websocket URLs,
which older browsers do not count as 'self'. The API documentation page (Swagger UI) loads its script and
styles from a CDN with an inline bootstrap script, so it gets a policy of its own.
"""

from __future__ import annotations

import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from miai.server.settings import Settings

DOCS_PREFIX = "/api/v1/docs"
CDN = "https://cdn.jsdelivr.net"

UI_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = (
    f"default-src 'self'; script-src 'self' 'unsafe-inline' {CDN}; style-src 'self' 'unsafe-inline' {CDN}; "
    "img-src 'self' data: https://fastapi.tiangolo.com; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
FIXED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # invite links carry their code in the query
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000"  # a year; no includeSubDomains: other hosts of the domain are not ours to decide
# A Host header worth naming in the policy: a name or address and an optional port, nothing else.
HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")


def content_policy(path: str, host: str) -> str:
    if path.startswith(DOCS_PREFIX):
        return DOCS_POLICY
    sockets = f" ws://{host} wss://{host}" if HOST.match(host) else ""
    return f"{UI_POLICY}; connect-src 'self'{sockets}"


class SecurityHeaders:
    """Pure ASGI middleware (websockets and streamed bodies pass untouched); a header a route set wins."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.fixed = dict(FIXED)
        if settings.https:
            self.fixed["Strict-Transport-Security"] = HSTS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for key, value in scope["headers"] if key == b"host"), "")
        policy = content_policy(scope["path"], host)

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for name, value in self.fixed.items():
                    headers.setdefault(name, value)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # A server fault: answer in the API's error shape, with these headers too (Starlette's own 500
            # page would be sent outside every middleware), then let the server log it.
            if not started:
                body = b'{"error":"server_error","message":"the server failed on this request"}'
                headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
                await send_with_headers({"type": "http.response.start", "status": 500, "headers": headers})
                await send_with_headers({"type": "http.response.body", "body": body})
            raise

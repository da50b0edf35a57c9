"""A limit on the size of HTTP request bodies, enforced before the application reads them.

Without it, FastAPI reads a whole body into memory before validating it, so one client could make the
server hold 100 MB per request. This pure ASGI middleware answers `413 {"error": "too_large", ...}` as soon as
the declared `Content-Length` or the bytes actually received (chunked uploads) go over the limit; the
application never sees such a request. Bodies within the limit are buffered (at most the limit) and handed on
unchanged. Websockets are not affected (their frames are limited by the websocket layer).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY_BYTES = 64 * 1024


class BodyLimit:
    """`max_bytes` for every request; `paths` may allow more on a few exact paths (the SGF upload)."""

    def __init__(
        self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES, paths: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.paths = dict(paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = max(self.max_bytes, self.paths.get(scope.get("path", ""), 0))
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(send, limit)
            return
        body = bytearray()
        while True:  # read the whole body here, never more than the limit
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(send, limit)
                return
            if not message.get("more_body", False):
                break
        first: Message = {"type": "http.request", "body": bytes(body), "more_body": False}
        await self.app(scope, _replay([first], receive), send)

    async def _refuse(self, send: Send, limit: int) -> None:
        payload = json.dumps(
            {"error": "too_large", "message": f"the request body is over {limit} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),  # the rest of the body is not read
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # malformed: the server rejects it, or we count the bytes
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that hands out `messages` first, then asks the real one (e.g. for http.disconnect)."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed

"""The few HTTP calls a bot makes, with every answer checked: a server answering garbage is an error
(`ServerError`) the bot logs and survives, never a crash."""

from __future__ import annotations

import json
from typing import Any

import httpx

MAX_ANSWER = 8 * 1024 * 1024  # a game snapshot of a long game is far smaller


class ServerError(Exception):
    """The server could not be reached, refused the call, or answered something that is not our API."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class MiaiApi:
    """`base`: the server's address (http[s]://host[:port]); `token`: the bot account's API token."""

    def __init__(
        self, base: str, token: str, timeout: float = 30.0, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.base = base.rstrip("/")
        self._client = httpx.AsyncClient(
            base_url=f"{self.base}/api/v1",
            headers={"authorization": f"Bearer {token}", "user-agent": "miai-bot"},
            timeout=timeout,
            transport=transport,  # tests: a server answering garbage
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            status, content = await self._fetch(method, path, body)
        except httpx.HTTPError as err:
            raise ServerError(f"{method} {path}: {type(err).__name__}: {err}") from None
        try:
            data = json.loads(content)
        except (ValueError, RecursionError):  # RecursionError: JSON nested too deep to parse
            raise ServerError(f"{method} {path}: HTTP {status}, not JSON", status) from None
        if not isinstance(data, dict):
            raise ServerError(f"{method} {path}: HTTP {status}, not a JSON object", status)
        if status >= 400:
            message = data.get("message") or data.get("detail") or data
            raise ServerError(f"{method} {path}: HTTP {status}: {message}", status)
        return data

    async def _fetch(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, bytes]:
        """(status, body), read in pieces: a body larger than MAX_ANSWER is never held whole."""
        async with self._client.stream(method, path, json=body) as answer:
            chunks: list[bytes] = []
            size = 0
            async for chunk in answer.aiter_bytes():
                size += len(chunk)
                if size > MAX_ANSWER:
                    raise ServerError(
                        f"{method} {path}: an answer larger than {MAX_ANSWER} bytes", answer.status_code
                    )
                chunks.append(chunk)
            return answer.status_code, b"".join(chunks)

    async def me(self) -> dict[str, Any]:
        user = (await self._call("GET", "/me")).get("user")
        if not isinstance(user, dict) or not isinstance(user.get("id"), int):
            raise ServerError("GET /me: no user in the answer")
        return user

    async def dashboard(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(my unfinished games, the challenges to me)."""
        data = await self._call("GET", "/dashboard")
        games, challenges = data.get("games"), data.get("challenges")
        if not isinstance(games, list) or not isinstance(challenges, list):
            raise ServerError("GET /dashboard: no games or challenges in the answer")
        return [g for g in games if _has_id(g)], [c for c in challenges if _has_id(c)]

    async def game(self, game_id: int) -> dict[str, Any]:
        data = await self._call("GET", f"/games/{game_id}")
        if not isinstance(data.get("status"), str) or not isinstance(data.get("options"), dict):
            raise ServerError(f"GET /games/{game_id}: not a game")
        return data

    async def accept(self, game_id: int) -> None:
        await self._call("POST", f"/games/{game_id}/join", {})

    async def decline(self, game_id: int, reason: str) -> None:
        await self._call("POST", f"/games/{game_id}/decline", {"reason": reason[:200]})

    async def move(self, game_id: int, move: str, version: int | None) -> None:
        await self._call("POST", f"/games/{game_id}/moves", {"move": move, "version": version})

    async def resign(self, game_id: int) -> None:
        await self._call("POST", f"/games/{game_id}/resign", {})


def _has_id(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("id"), int) and not isinstance(item.get("id"), bool)

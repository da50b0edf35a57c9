"""The bot's life: stay connected to the user websocket, answer challenges by the policy, and keep one
game loop per game being played. Every (re)connection starts with a full resync from the dashboard."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from miai.bot.api import MiaiApi, ServerError
from miai.bot.game import GameLoop
from miai.bot.policy import Policy

UNAUTHORIZED = 4401  # the server's close code for an unknown or revoked token
MAX_MESSAGE = 1024 * 1024
PLAYING = frozenset({"confirming", "active"})
RETRIED = frozenset({408, 425, 429})  # answers to a challenge call that are worth repeating


class BotStopped(Exception):
    """The bot cannot go on at all (its token is refused, the account is not a bot)."""


def websocket_url(base: str) -> str:
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/api/v1/ws", "", ""))


class Bot:
    def __init__(
        self,
        base: str,
        token: str,
        argv: Sequence[str],
        policy: Policy,
        log: Callable[[str], None],
        poll: float = 5.0,
    ) -> None:
        self.api = MiaiApi(base, token)
        self.url = websocket_url(base)
        self.token = token
        self.argv = list(argv)
        self.policy = policy
        self.log = log
        self.poll = poll
        self.me = 0
        self.loops: dict[int, GameLoop] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._answered: set[int] = set()  # challenges accepted or declined (a ping may repeat them)

    async def run(self) -> None:
        try:
            await self._who_am_i()
            backoff = 1.0
            while True:
                try:
                    await self._connected()
                    backoff = 1.0
                except BotStopped:
                    raise
                except (OSError, TimeoutError, WebSocketException, ServerError) as err:
                    self.log(f"disconnected ({type(err).__name__}: {err}); reconnecting in {backoff:g} s")
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
        finally:
            for task in self._tasks.values():
                task.cancel()
            for task in self._tasks.values():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await self.api.close()

    async def _who_am_i(self) -> None:
        try:
            user = await self.api.me()
        except ServerError as err:
            if err.status == 401:
                raise BotStopped("the server refuses this token") from None
            raise BotStopped(f"cannot reach the server: {err}") from None
        if not user.get("is_bot"):
            raise BotStopped(
                f"{user.get('username')!r} is not a bot account: "
                "mark it first (POST /api/v1/me/bot, docs/bots.md)"
            )
        self.me = user["id"]
        self.log(f"logged in as {user.get('username')} (id {self.me})")

    async def _connected(self) -> None:
        headers = {"authorization": f"Bearer {self.token}"}
        try:
            async with connect(
                self.url, additional_headers=headers, max_size=MAX_MESSAGE, open_timeout=10
            ) as ws:
                self.log("connected")
                await self.sync()  # what happened while away: challenges, games under way
                while True:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=self.poll * 4)
                    except TimeoutError:
                        await self.sync()  # a quiet socket: look anyway, and keep the connection warm
                        continue
                    await self._on_message(text)
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == UNAUTHORIZED:
                raise BotStopped("the server refused this token on the websocket") from None
            raise
        except InvalidStatus as err:
            raise WebSocketException(f"the websocket was refused: HTTP {err.response.status_code}") from None

    async def _on_message(self, text: str | bytes) -> None:
        try:
            message = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            self.log("the server sent a message that is not JSON; ignored")
            return
        if not isinstance(message, dict):
            return
        kind = _text(message.get("t"))
        if kind not in {"dashboard", "challenge", "resync"}:
            return  # lobby pings and pongs
        data = message.get("d") if isinstance(message.get("d"), dict) else {}
        game_id = data.get("game_id") if data else None
        loop = self.loops.get(game_id) if isinstance(game_id, int) else None
        if loop is not None:
            loop.wake.set()
        else:
            await self.sync()

    async def sync(self) -> None:
        """Answer every open challenge and make sure every game under way has its loop.

        One game or challenge the bot cannot handle (an answer nobody foresaw, a bug) is logged and left
        (a challenge declined, a game's loop resigns it), never the end of the bot."""
        games, challenges = await self.api.dashboard()
        for game in games:
            try:
                if _text(game.get("status")) in PLAYING and game.get("kind") == "go":
                    self._start(game["id"])
            except Exception as err:  # this game only
                self.log(f"game {game['id']}: cannot follow the game: {type(err).__name__}: {err}")
        # An id off the dashboard is answered for good: the set is never larger than the dashboard.
        self._answered &= {challenge["id"] for challenge in challenges}
        for challenge in challenges:
            try:
                await self._answer(challenge)
            except Exception as err:  # this challenge only: not tried again
                self._answered.add(challenge["id"])
                self.log(f"game {challenge['id']}: cannot answer the challenge: {type(err).__name__}: {err}")

    async def _answer(self, challenge: dict[str, Any]) -> None:
        """Accept or decline; marked answered once the server took the answer, so a failed call is tried
        again at the next sync."""
        game_id = challenge["id"]
        assert isinstance(game_id, int)
        if game_id in self._answered:
            return
        try:
            refusal = self._refusal_of(challenge)
        except Exception as err:  # this challenge only: declined
            self.log(f"game {game_id}: cannot judge the challenge ({type(err).__name__}: {err})")
            refusal = "this bot could not read the challenge"
        who = str(challenge.get("from_username"))[:32]
        try:
            if refusal is not None:
                await self.api.decline(game_id, refusal)
                self._answered.add(game_id)
                self.log(f"game {game_id}: declined the challenge of {who}: {refusal}")
                return
            await self.api.accept(game_id)
            self._answered.add(game_id)
            self.log(f"game {game_id}: accepted the challenge of {who}")
            self._start(game_id)
        except ServerError as err:
            if err.status is not None and 400 <= err.status < 500 and err.status not in RETRIED:
                self._answered.add(game_id)  # the server decided: asking again changes nothing
            self.log(f"game {game_id}: could not answer the challenge: {err}")

    def _refusal_of(self, challenge: dict[str, Any]) -> str | None:
        options = challenge.get("options")
        kind = challenge.get("kind")
        return self.policy.refusal(
            kind if isinstance(kind, str) else "",
            options if isinstance(options, dict) else {},
            len(self.loops),
        )

    def _start(self, game_id: int) -> None:
        if game_id in self.loops:
            self.loops[game_id].wake.set()
            return
        loop = GameLoop(self.api, game_id, self.me, self.argv, self.log, self.poll)
        self.loops[game_id] = loop
        task = asyncio.create_task(loop.run())
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._ended(game_id, done))

    def _ended(self, game_id: int, task: asyncio.Task[None]) -> None:
        self.loops.pop(game_id, None)
        self._tasks.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            self.log(f"game {game_id}: the game loop failed: {task.exception()!r}")


def _text(value: Any) -> str:
    """A server field that should be a string ("" otherwise: a list cannot even be looked up in a set)."""
    return value if isinstance(value, str) else ""

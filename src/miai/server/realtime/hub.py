"""Publish/subscribe of versioned events to websocket clients, in process or across processes via Redis.

Topics are strings: `game:<id>` for a game's events, `user:<id>` for one user's dashboard, `lobby` for the
list of open games. Every message is `{"t": type, "d": data, "v": version}` plus an `audience` that the
subscriber side filters on (private team chat must never reach other teams or spectators).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)
QUEUE_LIMIT = 1000


@dataclass(frozen=True)
class Message:
    topic: str
    t: str
    d: dict[str, Any]
    v: int | None = None
    audience: str = "all"  # all | team:N | teams:A,B | users:a,b

    def wire(self) -> dict[str, Any]:
        return {"t": self.t, "d": self.d, "v": self.v}

    @functools.cached_property
    def wire_text(self) -> str:
        """Serialised once, however many sockets it goes to (as Starlette's send_json would)."""
        return json.dumps(self.wire(), separators=(",", ":"), ensure_ascii=False)


def visible(audience: str, user_id: int | None, team: int | None) -> bool:
    """Whether a viewer (user id and team in this game, either may be None) may see a message."""
    if audience == "all":
        return True
    kind, _, value = audience.partition(":")
    if kind == "team":
        return team is not None and str(team) == value
    if kind == "teams":
        return team is not None and str(team) in value.split(",")
    if kind == "users":
        return user_id is not None and str(user_id) in value.split(",")
    return False


class Subscription:
    def __init__(self, hub: Hub, topics: set[str]) -> None:
        self.hub = hub
        self.topics = topics
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False

    def deliver(self, message: Message) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True  # the client will resync from its last version

    async def get(self) -> Message | None:
        """The next message, or None once `wake` was called (the socket's reader has stopped)."""
        return await self.queue.get()

    def wake(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # a full queue wakes the reader soon anyway
            self.queue.put_nowait(None)


class Hub:
    """In-process fan-out; with a Redis URL, messages go through Redis so every process receives them."""

    def __init__(self, redis_url: str = "") -> None:
        self.redis_url = redis_url
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._observers: list[Callable[[Message], None]] = []

    def observe(self, observer: Callable[[Message], None]) -> None:
        """Call `observer` with every message that arrives through Redis (from any process)."""
        self._observers.append(observer)

    async def start(self) -> None:
        if not self.redis_url:
            return
        import redis.asyncio as aioredis  # optional: only multi-process deployments need it

        self._redis = aioredis.from_url(self.redis_url)
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe("miai:*")
        self._listener = asyncio.create_task(self._listen(pubsub))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._redis is not None:
            await self._redis.aclose()

    async def _listen(self, pubsub: Any) -> None:
        async for raw in pubsub.listen():
            if raw.get("type") != "pmessage":
                continue
            try:
                message = Message(**json.loads(raw["data"]))
                for observer in self._observers:
                    observer(message)
                self._dispatch(message)
            except (ValueError, TypeError):
                log.warning("ignoring a malformed realtime message")

    def _dispatch(self, message: Message) -> None:
        for sub in list(self._subs.get(message.topic, ())):
            sub.deliver(message)

    async def publish(self, message: Message) -> None:
        if self._redis is not None:
            m = message  # its fields only: __dict__ may also hold the cached wire text
            payload = json.dumps({"topic": m.topic, "t": m.t, "d": m.d, "v": m.v, "audience": m.audience})
            await self._redis.publish(f"miai:{message.topic}", payload)
        else:
            self._dispatch(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, *topics: str) -> AsyncIterator[Subscription]:
        sub = Subscription(self, set(topics))
        for topic in topics:
            self._subs[topic].add(sub)
        try:
            yield sub
        finally:
            for topic in topics:
                self._subs[topic].discard(sub)
                if not self._subs[topic]:
                    del self._subs[topic]

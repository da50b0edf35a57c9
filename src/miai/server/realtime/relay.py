"""The hub's link to Redis: one pub/sub connection kept alive with bounded, jittered exponential back-off.

Redis is optional and may go away at any time. The relay never raises into the code that publishes: a
failed publish returns False (the hub then delivers locally) and makes the listener reconnect. Every
successful (re)connection is reported with `on_connected(again)`, `again` being True unless it is the very
first attempt, so that the hub can tell its subscribers to resync what they may have missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import EqualJitterBackoff, NoBackoff
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
QUIET = 5.0  # seconds without a message before the listener pings Redis
SILENT_PINGS = 3  # quiet periods without anything, pongs included, before the link counts as lost

Sleep = Callable[[float], Awaitable[None]]
MAX_EXPONENT = 30  # the back-off is capped long before 2**30; this keeps the float in range


class RedisRelay:
    def __init__(
        self,
        url: str,
        patterns: str,
        control: str,
        on_message: Callable[[Any], None],
        on_control: Callable[[Any], None],
        on_connected: Callable[[bool], None],
        backoff_base: float = 0.25,
        backoff_cap: float = 10.0,
        sleep: Sleep = asyncio.sleep,
        quiet: float = QUIET,
    ) -> None:
        self.patterns = patterns
        self.control = control
        self.connected = False
        self._on_message = on_message
        self._on_control = on_control
        self._on_connected = on_connected
        self._backoff = EqualJitterBackoff(cap=backoff_cap, base=backoff_base)
        self._sleep = sleep
        self._quiet = quiet
        # Publishing may retry once on a fresh connection (a pooled one may be stale after an outage); the
        # listener does not retry by itself, so that every reconnection goes through `_run` and is reported.
        options: dict[str, Any] = {"socket_connect_timeout": 2, "socket_keepalive": True}
        self._publisher = Redis.from_url(url, retry=Retry(NoBackoff(), 1), socket_timeout=2, **options)
        self._listener = Redis.from_url(url, retry=Retry(NoBackoff(), 0), **options)
        self._task: asyncio.Task[None] | None = None
        self._reading: asyncio.Task[None] | None = None
        self._attempted = asyncio.Event()
        self._outage_logged = False

    async def start(self, wait: float) -> None:
        """Start listening; wait up to `wait` seconds for the first attempt, so that a server started with
        Redis up is connected before it answers, and one started without it starts anyway."""
        self._task = asyncio.create_task(self._run(), name="miai-redis-relay")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._attempted.wait(), wait)
        if not self.connected:
            log.warning("Redis is unreachable: local fan-out only, retrying in the background")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for client in (self._publisher, self._listener):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def publish(self, channel: str, payload: str) -> bool:
        """Send one message to every process; False (logged once per outage) when Redis did not take it."""
        try:
            await self._publisher.publish(channel, payload)
        except (RedisError, OSError) as err:
            self.lost(err)
            return False
        return True

    def lost(self, err: BaseException) -> None:
        """The link failed somewhere: drop the listening connection too, so that it reconnects and resyncs."""
        self.connected = False
        if not self._outage_logged:
            self._outage_logged = True
            log.warning("lost Redis (%s): local fan-out only until it is back", err)
        if self._reading is not None:
            self._reading.cancel()

    async def _run(self) -> None:
        failures = 0
        attempts = 0
        while True:
            attempts += 1
            pubsub: Any = self._listener.pubsub()
            try:
                await pubsub.psubscribe(self.patterns)
                await pubsub.subscribe(self.control)
                failures = 0
                self._reading = asyncio.create_task(self._read(pubsub))
                self._up(again=attempts > 1)
                await asyncio.wait({self._reading})
                if not self._reading.cancelled() and self._reading.exception() is not None:
                    self.lost(self._reading.exception() or RuntimeError())
            except Exception as err:  # whatever went wrong, this loop must go on: it is the only listener
                self.lost(err)
            finally:
                self.connected = False
                self._attempted.set()
                if self._reading is not None:
                    self._reading.cancel()
                    self._reading = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await self._sleep(self._backoff.compute(min(failures, MAX_EXPONENT)))
            failures += 1

    def _up(self, again: bool) -> None:
        self.connected = True
        self._attempted.set()
        if self._outage_logged:
            log.warning("Redis is back: subscribers resync")
        self._outage_logged = False
        self._on_connected(again)

    async def _read(self, pubsub: Any) -> None:
        """Deliver what arrives. A quiet link is pinged every `quiet` seconds, and one that stays silent for
        three times as long (a connection dropped without a close: NAT, firewall, partition) counts as lost,
        so that the relay reconnects and every subscriber resyncs instead of waiting forever."""
        heard = time.monotonic()
        while True:
            raw = await pubsub.get_message(timeout=self._quiet)
            if raw is None:
                if time.monotonic() - heard > SILENT_PINGS * self._quiet:
                    raise ConnectionError("Redis answered nothing, not even a ping")
                await pubsub.ping()
                continue
            heard = time.monotonic()
            kind = raw.get("type")
            if kind == "pmessage":
                self._on_message(raw["data"])
            elif kind == "message":
                self._on_control(raw["data"])

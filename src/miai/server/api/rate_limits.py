"""Rate limits shared by every server process: moving windows of the `limits` library, counted in Redis when
MIAI_REDIS_URL is set (so N workers allow the same number of attempts as one) and in this process's memory
otherwise.

Every use is also counted in this process's memory. If Redis cannot be reached, the limits are checked there
for a short while (they then hold per process, as without Redis) and Redis is tried again: a Redis outage
never turns a request into an error.

Identifiers (user ids, addresses, usernames as typed) are hashed before they become keys, so any text a
client sends is a safe key. Logins have their own rules on top: login_limits.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from fastapi import Depends, Request
from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import ConnectionPool

from miai.server.api.deps import MaybeViewer
from miai.server.errors import RateLimited
from miai.server.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")

# What each limit protects, for the 429's message ("too many login attempts; ...").
RULES: dict[str, str] = {
    "login": "login attempts from this address",
    "login_checks": "password checks for this account",
    "register": "new accounts from this address",
    "guests": "new guest accounts from this address",
    "chat": "chat messages",
    "challenge": "challenges",
    "games": "new games",
    "seats": "joins and leaves",
    "practice": "practice games",
    "area": "territory estimates",
    "reviews": "game reviews asked for",
    "password_reset": "password reset requests",
}
REDIS_TIMEOUT = 0.5  # seconds one Redis call may take before the request counts in memory instead
REDIS_RETRY_AFTER = 5.0  # seconds of counting in memory after a Redis failure before Redis is tried again


def parse_rule(name: str, text: str) -> RateLimitItem:
    """A limit from its text, e.g. "10/minute" or "10 per 15 minutes"; ValueError naming the setting."""
    try:
        item = parse(text)
    except ValueError:
        item = None
    if item is None or item.amount < 1:
        raise ValueError(
            f"MIAI_RATE_LIMIT_{name.upper()}: {text!r} is not a limit like '10/minute' or '5 per 15 minutes'"
        )
    return item


def _key(who: tuple[str, ...]) -> str:
    # surrogatepass: a username with a lone surrogate is still one stable key, never an encoding error
    joined = "\x1f".join(who).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(joined, digest_size=16).hexdigest()


class RateLimits:
    """The server's named limits (`RULES`), each a moving window per identifier."""

    def __init__(
        self,
        rules: Mapping[str, str],
        redis_url: str = "",
        key_prefix: str = "miai:limits",
        enabled: bool = True,
    ) -> None:
        unknown = set(rules) - set(RULES)
        if unknown:
            raise ValueError(f"unknown rate limit(s): {', '.join(sorted(unknown))}")
        self.items = {name: parse_rule(name, text) for name, text in rules.items()}
        self.enabled = enabled
        self._memory = MovingWindowRateLimiter(MemoryStorage())
        self._redis: MovingWindowRateLimiter | None = None
        self._pool: ConnectionPool | None = None
        if redis_url:
            # Our own pool, so that `close` can hand its connections back.
            self._pool = ConnectionPool.from_url(
                redis_url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
            )
            scheme = "async+redis+" if redis_url.startswith("unix:") else "async+"  # limits' names of them
            storage = RedisStorage(
                scheme + redis_url,
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix=key_prefix,
                connection_pool=self._pool,  # type: ignore[arg-type]
            )
            self._redis = MovingWindowRateLimiter(storage)
        self._redis_down_until = 0.0

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()

    @property
    def shared(self) -> bool:
        """Whether counts are in Redis right now (False without Redis or while it is unreachable)."""
        return self._redis is not None and time.monotonic() >= self._redis_down_until

    async def _count(self, call: Callable[[MovingWindowRateLimiter], Awaitable[T]]) -> T:
        """Run `call` on Redis, or on this process's memory without Redis or while Redis fails."""
        if self._redis is not None and self.shared:
            try:
                async with asyncio.timeout(2 * REDIS_TIMEOUT):
                    return await call(self._redis)
            except (StorageError, OSError, TimeoutError) as err:
                log.warning(
                    "rate limits: Redis failed (%s); counting in this process for %.0f s",
                    err,
                    REDIS_RETRY_AFTER,
                )
                self._redis_down_until = time.monotonic() + REDIS_RETRY_AFTER
        return await call(self._memory)

    async def _refuse(self, rule: str, limiter: MovingWindowRateLimiter, key: str) -> RateLimited:
        stats = await limiter.get_window_stats(self.items[rule], rule, key)
        return RateLimited(f"too many {RULES[rule]}", max(1, math.ceil(stats.reset_time - time.time())))

    async def hit(self, rule: str, *who: str) -> None:
        """Count one use of `rule` by `who`; RateLimited (nothing counted) when the limit is reached."""
        if not self.enabled or rule not in self.items:
            return
        item, key = self.items[rule], _key(who)

        async def attempt(limiter: MovingWindowRateLimiter) -> RateLimited | None:
            if await limiter.hit(item, rule, key):
                if limiter is not self._memory:
                    # Mirrored in memory: if Redis fails, this process goes on from its own recent uses.
                    await self._memory.hit(item, rule, key)
                return None
            return await self._refuse(rule, limiter, key)

        refused = await self._count(attempt)
        if refused is not None:
            raise refused

    async def check(self, rule: str, *who: str) -> None:
        """RateLimited if `rule` is used up for `who`, without counting a use."""
        if not self.enabled or rule not in self.items:
            return
        item, key = self.items[rule], _key(who)

        async def attempt(limiter: MovingWindowRateLimiter) -> RateLimited | None:
            if await limiter.test(item, rule, key):
                return None
            return await self._refuse(rule, limiter, key)

        refused = await self._count(attempt)
        if refused is not None:
            raise refused


def rate_limits_of(app: Any) -> RateLimits:
    return app.state.rate_limits  # type: ignore[no-any-return]


def client_address(request: Request) -> str:
    """The client's address (behind a reverse proxy: from X-Forwarded-For, see MIAI_FORWARDED_ALLOW_IPS)."""
    return request.client.host if request.client else "unknown"


def user_key(user_id: int) -> tuple[str, str]:
    return ("user", str(user_id))


async def enforce(request: Request, rule: str, *who: str) -> None:
    """`RateLimits.hit` for an HTTP route: RateLimited (429 with Retry-After, see app.py) over the limit."""
    await rate_limits_of(request.app).hit(rule, *who)


def per_address(rule: str) -> Any:
    """A route dependency counting `rule` per client address."""

    async def dependency(request: Request) -> None:
        await enforce(request, rule, "address", client_address(request))

    return Depends(dependency)


def per_user(rule: str) -> Any:
    """A route dependency counting `rule` per logged-in user, or per address for anonymous requests and
    guests (a new guest is a cookie away: their address is what they cannot shed)."""

    async def dependency(request: Request, viewer: MaybeViewer) -> None:
        member = viewer is not None and not viewer.user.is_guest
        who = user_key(viewer.user.id) if member and viewer else ("address", client_address(request))
        await enforce(request, rule, *who)

    return Depends(dependency)


def rate_limits_for(settings: Settings) -> RateLimits:
    """The limits a server's settings configure (`rate_limit_<rule>` for each of `RULES`)."""
    return RateLimits(
        {name: getattr(settings, f"rate_limit_{name}") for name in RULES},
        redis_url=settings.redis_url,
        key_prefix=f"{settings.redis_prefix}:limits",  # servers sharing a prefix share their counts
        enabled=settings.rate_limits_enabled,
    )

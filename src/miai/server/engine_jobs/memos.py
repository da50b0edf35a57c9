"""Players' memos in Redis, one hash per game (seat -> JSON), so that a game's computer player is restored
on whichever worker takes its next move (resign streak, dynamic komi: see `miai.engines.players`)."""

from __future__ import annotations

import json
import logging
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from miai.server.engine_jobs.wire import Keys

log = logging.getLogger(__name__)
MEMO_SECONDS = 7 * 86400  # an abandoned game's memos go away by themselves
MAX_MEMO = 65536  # characters: a memo is a few numbers


class RedisMemos:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def get(self, game: int, seat: int) -> dict[str, Any] | None:
        """The seat's memo; None when there is none, it is unreadable, or Redis failed (a fresh player then
        plays on: a memo is a refinement, never needed for a legal move)."""
        try:
            raw = await self.redis.hget(self.keys.memo(game), str(seat))
        except (RedisError, OSError) as err:
            log.warning("memo of game %s not read: %s", game, err)
            return None
        if raw is None or len(raw) > MAX_MEMO:
            return None
        try:
            memo = json.loads(raw)
        except ValueError:
            return None
        return memo if isinstance(memo, dict) else None

    async def put(self, game: int, seat: int, memo: dict[str, Any] | None) -> None:
        key = self.keys.memo(game)
        try:
            if memo is None:
                await self.redis.hdel(key, str(seat))
                return
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hset(key, str(seat), json.dumps(memo, separators=(",", ":")))
                pipe.expire(key, MEMO_SECONDS)
                await pipe.execute()
        except (RedisError, OSError, TypeError, ValueError) as err:
            log.warning("memo of game %s not kept: %s", game, err)

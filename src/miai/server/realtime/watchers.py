"""Who is watching a game: the one place its spectators are counted (the game page's "N watching" and the
live list's `spectators`).

A spectator is a game socket of someone not seated in the game (anonymous sockets included); players' own
pages are not counted. Changes reach the game's sockets that asked for them (`?watchers=1`) as
`{"t": "watchers", "d": {"count": n}, "v": null}`, at most once a second: a crowd arriving is one message a
second to each socket, not one per arrival.

Each process counts its own sockets. Without Redis that is the count. With Redis (the hub's `redis_url`) the
count is the deployment's: each process writes its counts of the games that changed, once a second, into
one hash per game (`PREFIX!watchers:<game>`, out of the hub's channel pattern `PREFIX:*`), field = the
process's random id, value = `"<count> <Redis time>"`, and announces the total to every process's sockets
through `Hub.publish`. Every `heartbeat` seconds a process re-writes its counts, and readers ignore fields
older than `max_age`: a process killed with -9 stops counting within that time (the next heartbeat of any
process that knows the game announces the drop). Readers add their own live count to the others' fields,
so a socket that just arrived is counted before its process has written it.

Redis failing never fails a socket or the live list: counts fall back to this process's own (logged once)
and Redis is tried again (reads after `RETRY_AFTER`, writes at the next change or heartbeat).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Iterable

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from miai.server.realtime.hub import Hub, Message

log = logging.getLogger(__name__)
WATCHERS = "watchers"  # the message type
ANNOUNCE_EVERY = 1.0  # seconds: the most often counts are written and announced
HEARTBEAT = 30.0  # seconds between re-writes of this process's counts
MAX_AGE = 90.0  # seconds after which a process's count is no longer believed (it died)
REDIS_TIMEOUT = 0.5  # seconds one Redis call may take (connecting included)
RETRY_AFTER = 5.0  # seconds of local counts for readers after a Redis failure
BATCH = 500  # games per script call: a long heartbeat does not hold Redis for long
FAILURES = (RedisError, OSError, TimeoutError)

# KEYS: one hash per game. ARGV: this process's id, MAX_AGE in seconds, then for each key this process's
# count to write ('' to only read). Returns for each key the total of the other processes' fresh fields.
# Redis's own clock stamps and judges the fields, so the hosts' clocks need not agree.
SHARE = """
local now = tonumber(redis.call('TIME')[1])
local id, max_age = ARGV[1], tonumber(ARGV[2])
local totals = {}
for i, key in ipairs(KEYS) do
  local mine = ARGV[i + 2]
  if mine ~= '' then
    if tonumber(mine) > 0 then
      redis.call('HSET', key, id, mine .. ' ' .. now)
      redis.call('EXPIRE', key, math.ceil(max_age))
    else
      redis.call('HDEL', key, id)
    end
  end
  local total = 0
  local fields = redis.call('HGETALL', key)
  for j = 1, #fields, 2 do
    if fields[j] ~= id then
      local count, at = string.match(fields[j + 1], '^(%d+) (%d+)$')
      if count and now - tonumber(at) <= max_age then
        total = total + tonumber(count)
      elseif mine ~= '' then
        redis.call('HDEL', key, fields[j])
      end
    end
  end
  totals[i] = total
end
return totals
"""


class Watchers:
    """One app's spectator counts: made with its hub (`app.state.watchers`), whose sockets they count."""

    def __init__(
        self, hub: Hub, every: float = ANNOUNCE_EVERY, heartbeat: float = HEARTBEAT, max_age: float = MAX_AGE
    ) -> None:
        self.hub = hub
        self.every = every
        self.heartbeat = heartbeat
        self.max_age = max_age
        self._counts: Counter[int] = Counter()  # this process's spectators
        self._changed_games: set[int] = set()  # to write and announce at the next flush
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._id = secrets.token_hex(8)  # this process's field in the games' hashes
        self._known: dict[int, int] = {}  # the last total announced by any process, games with spectators
        self._down_until = 0.0
        self._outage_logged = False
        self._redis: Redis | None = None
        if hub.redis_url:
            pool = BlockingConnectionPool.from_url(
                hub.redis_url,
                max_connections=8,  # a crowd arriving waits for a connection, it does not open thousands
                timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
                socket_timeout=REDIS_TIMEOUT,
                retry=Retry(NoBackoff(), 1),  # once, on a fresh connection: a pooled one may be stale
            )
            self._redis = Redis.from_pool(pool)
            self._share_script = self._redis.register_script(SHARE)
            hub.observe(self._heard)

    def _key(self, game_id: int) -> str:
        return f"{self.hub.prefix}!watchers:{game_id}"

    # ------------------------------------------------------------------------------------ reading

    async def counts(self, game_ids: Iterable[int]) -> dict[int, int]:
        """The spectators of each game, every process's with Redis (one round trip for them all), this
        process's own without it or while it fails."""
        games = sorted(set(game_ids))
        local = {game: self._counts.get(game, 0) for game in games}
        if self._redis is None or not games or time.monotonic() < self._down_until:
            return local
        try:
            others = await self._share(games, None)
        except FAILURES as err:
            self._failed(err)
            return local
        self._recovered()
        return {game: local[game] + other for game, other in zip(games, others, strict=True)}

    async def message(self, game_id: int) -> Message:
        """The count as a socket is told it (right after its catch-up): the last total announced, or this
        process's own if larger. No Redis read per arriving socket (a crowd would queue on the connection
        pool and look like an outage): the total that counts this socket is announced within `every`."""
        local = self._counts.get(game_id, 0)
        return self._message(game_id, max(local, self._known.get(game_id, 0)))

    @staticmethod
    def _message(game_id: int, count: int) -> Message:
        return Message(f"game:{game_id}", WATCHERS, {"count": count})

    # ------------------------------------------------------------------------------------ counting

    def add(self, game_id: int) -> None:
        """One more spectator of the game (a socket: each `add` is matched by one `discard`)."""
        self._counts[game_id] += 1
        self._changed(game_id)

    def discard(self, game_id: int) -> None:
        """One spectator fewer (a socket closed, or its viewer took a seat)."""
        self._counts[game_id] -= 1
        if self._counts[game_id] <= 0:
            del self._counts[game_id]
        self._changed(game_id)

    def _changed(self, game_id: int) -> None:
        if self._closed:
            return
        self._changed_games.add(game_id)
        self._wake.set()
        self._run_once()

    def _heard(self, message: Message) -> None:
        """Every process's announcements (through Redis): the totals a heartbeat checks are still true."""
        if message.t != WATCHERS or not message.topic.startswith("game:") or not isinstance(message.d, dict):
            return
        game, count = message.topic[5:], message.d.get("count")
        if not (game.isascii() and game.isdigit() and len(game) <= 18) or type(count) is not int:
            return
        if count > 0:
            self._known[int(game)] = count
        else:
            self._known.pop(int(game), None)
        self._run_once()  # a process that only listens still heartbeats what it heard

    def _run_once(self) -> None:
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="miai-watchers")

    async def _run(self) -> None:
        """The one task that writes and announces: a change waits `every` seconds, gathering the others
        that come meanwhile; with Redis, a heartbeat comes every `heartbeat` seconds."""
        beat_at = time.monotonic() + self.heartbeat
        while not self._closed:
            if self._redis is None:
                await self._wake.wait()
            else:  # asyncio.timeout, not wait_for: that can lose a cancellation arriving with a wake-up
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, beat_at - time.monotonic())):
                        await self._wake.wait()
            if self._wake.is_set():
                await asyncio.sleep(self.every)
            self._wake.clear()
            changed, self._changed_games = self._changed_games, set()
            beat = self._redis is not None and time.monotonic() >= beat_at
            if beat:
                beat_at = time.monotonic() + self.heartbeat
            try:
                await self._flush(changed, beat)
            except Exception:  # this task must go on: it is the only one announcing
                log.exception("spectator counts: announcing failed")

    async def _flush(self, changed: set[int], beat: bool) -> None:
        if self._redis is None:
            for game in sorted(changed):
                self.hub.dispatch_here(self._message(game, self._counts.get(game, 0)))
            return
        games = sorted(changed | (set(self._counts) | set(self._known) if beat else set()))
        if not games:
            return
        try:
            others = await self._share(games, [self._counts.get(game, 0) for game in games])
        except FAILURES as err:
            self._failed(err)
            self._changed_games |= changed  # written with the next change or heartbeat
            for game in sorted(changed):
                self.hub.dispatch_here(self._message(game, self._counts.get(game, 0)))
            return
        self._recovered()
        for game, other in zip(games, others, strict=True):
            total = other + self._counts.get(game, 0)
            if game not in changed and self._known.get(game, 0) == total:
                continue  # a heartbeat announces only what changed (a dead process's count expiring)
            if total > 0:
                self._known[game] = total
            else:
                self._known.pop(game, None)
            await self.hub.publish(self._message(game, total))  # one at a time: the hub's connections

    async def _share(self, games: list[int], mine: list[int] | None) -> list[int]:
        """The other processes' totals of `games`, after writing this process's counts `mine` (None: read)."""
        assert self._redis is not None
        totals: list[int] = []
        for start in range(0, len(games), BATCH):
            batch = games[start : start + BATCH]
            counts = [""] * len(batch) if mine is None else [str(n) for n in mine[start : start + BATCH]]
            async with asyncio.timeout(2 * REDIS_TIMEOUT):
                answer = await self._share_script(
                    keys=[self._key(game) for game in batch], args=[self._id, self.max_age, *counts]
                )
            totals += [int(total) for total in answer]
        return totals

    def _failed(self, err: BaseException) -> None:
        self._down_until = time.monotonic() + RETRY_AFTER
        if not self._outage_logged:
            self._outage_logged = True
            log.warning("spectator counts: Redis failed (%s); this process's own until it is back", err)

    def _recovered(self) -> None:
        self._down_until = 0.0
        if self._outage_logged:
            self._outage_logged = False
            log.warning("spectator counts: Redis is back; counting every process's spectators")

    # ------------------------------------------------------------------------------------ shutdown

    async def close(self) -> None:
        """The app is shutting down: nothing is announced any more (the hub is stopping), and this process's
        counts leave Redis (best effort: otherwise they expire after `max_age`)."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=2 * REDIS_TIMEOUT)  # shutdown never hangs on it
            self._task = None
        if self._redis is None:
            return
        games = sorted(set(self._counts) | self._changed_games)
        with contextlib.suppress(*FAILURES):
            if games:
                await self._share(games, [0] * len(games))
        with contextlib.suppress(*FAILURES):
            await self._redis.aclose()

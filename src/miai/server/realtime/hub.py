"""Publish/subscribe of versioned events to websocket clients, in process or across processes via Redis.

Topics are strings: `game:<id>` for a game's events, `user:<id>` for one user's dashboard, `lobby` for the
list of open games. Every message is `{"t": type, "d": data, "v": version}` plus an `audience` that the
subscriber side filters on (private chat must never reach other teams or spectators: the rule is
`play/privacy.py`).

Redis is optional and its loss is survivable (see `relay.py`): while it is away, messages reach this
process's own subscribers only; when it is back, every subscription of every process is told to resync
(`Subscription.resync`), and game sockets catch up from the database by version. Besides the messages, a
control channel carries those resync requests and credential revocations (`revocation.py`).

Fan-out without a task per socket: a socket's reader task waits on its subscription's queue, but while it
waits with nothing queued (caught up, not overflowed, no resync, not revoked) it lends the hub a `direct`
function, and the hub's dispatch hands each message straight to it: the socket's filter runs (privacy.py,
as on the queue path) and the already serialised frame is written at once (`eager.run`: a websocket send
only waits when the client's buffer is full). So one event to 5,000 idle sockets is one loop in the code that
received it, as in a bare relay, not 5,000 task wake-ups (bench/server.md). Everything else takes the queue:
a message the direct function declines (one that needs the database, such as a team change), anything
while a direct send is still waiting on a slow client (the reader finishes that send before the queue, so
no message overtakes an earlier one, and the slow client holds up no one else), catch-up, overflow, resync
and revocation. A direct send that fails (the socket closed) queues its message: the reader meets the error
and ends; the hub never sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from miai.server.realtime import eager
from miai.server.realtime.relay import RedisRelay, Sleep

log = logging.getLogger(__name__)
QUEUE_LIMIT = 1000
PREFIX = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")  # no glob characters: it becomes a PSUBSCRIBE pattern
REVOKED = 4401  # the close code of a socket whose token or session was revoked
MAX_PENDING_CONTROL = 10_000

# Takes a message in the dispatching code for an idle socket: True once it is sent (or filtered out), False
# to queue it for the socket's reader task after all.
Direct = Callable[["Message"], bool]


@dataclass(frozen=True)
class Message:
    topic: str
    t: str
    d: dict[str, Any]
    v: int | None = None
    audience: str = "all"  # who may read it: see play/privacy.py

    def wire(self) -> dict[str, Any]:
        return {"t": self.t, "d": self.d, "v": self.v}

    @functools.cached_property
    def wire_text(self) -> str:
        """Serialised once, however many sockets it goes to (as Starlette's send_json would)."""
        return json.dumps(self.wire(), separators=(",", ":"), ensure_ascii=False)


def resync_notice(topic: str) -> Message:
    """Queued to tell a socket to resync. No viewer may see it as an event (audience "nobody"): game sockets
    act on `overflowed`; the user socket sends it on as `{"t": "resync", "d": {}, "v": null}`."""
    return Message(topic, "resync", {}, None, "nobody")


class Subscription:
    def __init__(self, hub: Hub, topics: set[str], owner: tuple[int, str] | None = None) -> None:
        self.hub = hub
        self.topics = topics
        self.owner = owner  # (user id, credential key) of an authenticated socket
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue(QUEUE_LIMIT)
        self.overflowed = False
        self.close_code: int | None = None  # set when the socket must close (its credential was revoked)
        self.direct: Direct | None = None  # set only while the reader waits on an empty queue
        self.sending: asyncio.Task[None] | None = None  # a direct send waiting for a slow client

    def deliver(self, message: Message) -> None:
        direct = self.direct
        if direct is not None and not self.overflowed and self.queue.empty():
            try:
                if direct(message):
                    return
            except Exception:  # the send failed (the socket closed): the reader meets the error with it
                self.direct = None
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True  # the client will resync from its last version

    async def get(self, direct: Direct | None = None) -> Message | None:
        """The next message, or None once `wake` was called (the socket's reader has stopped). While this
        waits on an empty queue, `direct` takes the messages in the hub's dispatch instead (see above)."""
        self.direct = direct
        try:
            message = await self.queue.get()
        finally:
            self.direct = None
        if self.sending is not None:  # finish the direct send first: nothing overtakes it
            sending, self.sending = self.sending, None
            await sending  # its error (the socket closed) is the reader's, as if it had sent
        return message

    def send_now(self, send: Coroutine[Any, Any, None]) -> None:
        """For a `direct` function: run a send here; if it has to wait for a slow client, it goes on in a
        task, and later messages queue behind it. An error raised at once reaches `deliver`."""
        task = eager.run(send)
        if task is not None:
            self.sending = task
            self.direct = None

    def close(self) -> None:
        """The socket is done: no more direct sends, and a waiting one is abandoned."""
        self.direct = None
        sending, self.sending = self.sending, None
        if sending is not None:
            sending.cancel()
            sending.add_done_callback(_consume)

    def wake(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):  # a full queue wakes the reader soon anyway
            self.queue.put_nowait(None)

    def resync(self) -> None:
        """Messages may have been lost: make the reader catch up (as after an overflow). Several requests
        before the reader gets to it make one catch-up."""
        if self.overflowed:
            return  # the reader has not caught up since the last request: that one will do
        self.overflowed = True
        with contextlib.suppress(asyncio.QueueFull):  # a full queue wakes the reader soon anyway
            self.queue.put_nowait(resync_notice(next(iter(self.topics), "")))

    def revoke(self) -> None:
        """Close the socket: nothing queued is sent any more, the reader stops at once."""
        self.close_code = REVOKED
        self.direct = None
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


def _consume(task: asyncio.Task[None]) -> None:
    """An abandoned send's error (the socket closed) is expected: read it so asyncio does not log it."""
    if not task.cancelled():
        task.exception()


class Hub:
    """In-process fan-out; with a Redis URL, messages go through Redis so every process receives them."""

    def __init__(
        self,
        redis_url: str = "",
        prefix: str = "miai",
        backoff_base: float = 0.25,
        backoff_cap: float = 10.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if not PREFIX.match(prefix):
            raise ValueError("the Redis channel prefix must be 1-64 letters, digits, '_', '.' or '-'")
        self.redis_url = redis_url
        self.prefix = prefix
        self._id = secrets.token_hex(8)  # this process, to ignore its own control messages
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._owned: dict[int, set[Subscription]] = defaultdict(set)
        self._observers: list[Callable[[Message], None]] = []
        self._pending_control: list[dict[str, Any]] = []  # revocations to send once Redis is back
        self._sending: set[asyncio.Future[None]] = set()
        self._relay: RedisRelay | None = None
        if redis_url:
            self._relay = RedisRelay(
                redis_url,
                f"{prefix}:*",
                f"{prefix}!control",
                self._received,
                self._control_received,
                self._connected,
                backoff_base,
                backoff_cap,
                sleep,
            )

    @property
    def redis_state(self) -> str:
        """`off` without a Redis URL, else `ok` or `down` (local fan-out only, reconnecting)."""
        if self._relay is None:
            return "off"
        return "ok" if self._relay.connected else "down"

    def observe(self, observer: Callable[[Message], None]) -> None:
        """Call `observer` with every message that arrives through Redis (from any process)."""
        self._observers.append(observer)

    async def start(self, wait: float = 2.0) -> None:
        """Connect to Redis if configured; a Redis that is down is retried in the background (see relay)."""
        if self._relay is not None:
            await self._relay.start(wait)

    async def stop(self) -> None:
        for task in list(self._sending):
            task.cancel()
        if self._relay is not None:
            await self._relay.stop()

    def _received(self, data: Any) -> None:
        try:
            message = Message(**json.loads(data))
        except (ValueError, TypeError):
            log.warning("ignoring a malformed realtime message")
            return
        for observer in self._observers:
            try:
                observer(message)
            except Exception:  # one observer's failure must not cost every socket the message or the link
                log.exception("a realtime observer failed on a %r message of %s", message.t, message.topic)
        self._dispatch(message)

    def _dispatch(self, message: Message) -> None:
        for sub in list(self._subs.get(message.topic, ())):
            sub.deliver(message)

    async def publish(self, message: Message) -> None:
        """Deliver to every subscriber of every process; never raises for Redis: without it, this process's
        subscribers still get the message and the others resync when the link is back."""
        relay = self._relay
        if relay is not None and relay.connected:
            m = message  # its fields only: __dict__ may also hold the cached wire text
            payload = json.dumps({"topic": m.topic, "t": m.t, "d": m.d, "v": m.v, "audience": m.audience})
            if await relay.publish(f"{self.prefix}:{message.topic}", payload):
                return
        self._dispatch(message)

    # ------------------------------------------------------------------------- resync and revocation

    def _connected(self, again: bool) -> None:
        """Redis is (back) up. After an outage this process and the others may have missed messages of each
        other: resync here and ask every other process to resync too; send revocations held back."""
        if not again:
            return
        self.resync_all()
        pending, self._pending_control = self._pending_control, []
        task = asyncio.ensure_future(self._send_control([*pending, {"op": "resync"}]))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_control(self, controls: list[dict[str, Any]]) -> None:
        """Send control messages in order; those not sent wait for the next reconnection (a resync request
        is not kept: the next reconnection sends its own)."""
        for index, control in enumerate(controls):
            sent = self._relay is not None and await self._relay.publish(
                f"{self.prefix}!control", json.dumps({**control, "from": self._id})
            )
            if not sent:
                self._pending_control.extend(c for c in controls[index:] if c["op"] == "revoke")
                del self._pending_control[:-MAX_PENDING_CONTROL]  # a very long outage drops the oldest
                return

    def _control_received(self, data: Any) -> None:
        try:
            control = json.loads(data)
            if control.get("from") == self._id:
                return
            if control.get("op") == "resync":
                self.resync_all()
            elif control.get("op") == "revoke":
                user_id, credential = control["user_id"], control.get("credential")
                if isinstance(user_id, int) and (credential is None or isinstance(credential, str)):
                    self._revoke_here(user_id, credential)
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("ignoring a malformed realtime control message")

    def resync_all(self) -> None:
        subs = {sub for topic_subs in self._subs.values() for sub in topic_subs}
        for sub in subs:
            sub.resync()

    async def revoke(self, user_id: int, credential: str | None) -> None:
        """Close every socket of `user_id` opened with `credential` (every one of theirs if None), here and in
        every other process."""
        self._revoke_here(user_id, credential)
        if self._relay is None:
            return
        control = {"op": "revoke", "user_id": user_id, "credential": credential}
        if self._relay.connected:
            await self._send_control([control])
        else:
            self._pending_control.append(control)  # sent when Redis is back, before the resync request
            del self._pending_control[:-MAX_PENDING_CONTROL]

    def _revoke_here(self, user_id: int, credential: str | None) -> None:
        for sub in list(self._owned.get(user_id, ())):
            assert sub.owner is not None
            if credential is None or sub.owner[1] == credential:
                sub.revoke()

    def dispatch_here(self, message: Message) -> None:
        """Deliver to this process's subscribers only (a count that is this process's own, say)."""
        self._dispatch(message)

    @contextlib.asynccontextmanager
    async def subscribe(
        self, *topics: str, owner: tuple[int, str] | None = None
    ) -> AsyncIterator[Subscription]:
        """Subscribe to topics; `owner` (user id, credential key) makes the subscription revocable."""
        sub = Subscription(self, set(topics), owner)
        for topic in topics:
            self._subs[topic].add(sub)
        if owner is not None:
            self._owned[owner[0]].add(sub)
        try:
            yield sub
        finally:
            sub.close()
            for topic in topics:
                self._subs[topic].discard(sub)
                if not self._subs[topic]:
                    del self._subs[topic]
            if owner is not None:
                self._owned[owner[0]].discard(sub)
                if not self._owned[owner[0]]:
                    del self._owned[owner[0]]

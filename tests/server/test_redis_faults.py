"""Redis is optional and its loss is survivable (issue 15, finding 5).

Redis is taken away through a local TCP proxy (`tcp_proxy.py`): the shared Redis itself is never stopped.
First the hub alone, in process (back-off, local delivery, resync, revocations held back); then two real
server processes: moves stay acknowledged and stored while Redis is away, readiness says so, and live events
cross processes again once it is back.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.sync.client import ClientConnection, connect

from miai.server.realtime.hub import Hub, Message, Subscription
from tests.conftest import need
from tests.server.conftest import redis_reachable
from tests.server.processes import uvicorn_factory
from tests.server.tcp_proxy import TcpProxy, ThreadedTcpProxy

T = TypeVar("T")
REDIS = ("127.0.0.1", 6379)
BASE, CAP = 0.01, 0.08  # back-off of the in-process hub: tiny, so that the test is fast


def _prefix() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"  # channels of this test only: the Redis is shared


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def _next(sub: Subscription, seconds: float = 5.0) -> Message | None:
    return await asyncio.wait_for(sub.get(), seconds)


def test_the_hub_survives_redis_going_away_and_coming_back() -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    asyncio.run(_hub_survives())


async def _hub_survives() -> None:
    proxy = TcpProxy(*REDIS)
    port = await proxy.start()
    delays: list[float] = []

    async def sleep(delay: float) -> None:
        delays.append(delay)
        await asyncio.sleep(delay)

    prefix = _prefix()
    here = Hub(f"redis://127.0.0.1:{port}/0", prefix, backoff_base=BASE, backoff_cap=CAP, sleep=sleep)
    other = Hub(f"redis://{REDIS[0]}:{REDIS[1]}/0", prefix)  # another process, whose Redis link stays up
    await here.start()
    await other.start()
    try:
        assert here.redis_state == "ok"
        async with (
            here.subscribe("game:1") as game_here,
            here.subscribe("user:7", owner=(7, "session-a")) as user_here,
            other.subscribe("game:1") as game_other,
            other.subscribe("user:7", owner=(7, "session-a")) as user_other_a,
            other.subscribe("user:7", owner=(7, "token-b")) as user_other_b,
        ):
            await other.publish(Message("game:1", "move", {"move": "E5"}, 2))
            assert (await _next(game_here)) == Message("game:1", "move", {"move": "E5"}, 2)
            assert (await _next(game_other)) == Message("game:1", "move", {"move": "E5"}, 2)

            await proxy.cut()
            # Publishing never fails: this process's own subscribers still get the message.
            await here.publish(Message("game:1", "move", {"move": "D4"}, 3))
            assert (await _next(game_here)) == Message("game:1", "move", {"move": "D4"}, 3)
            assert here.redis_state == "down"
            # A revocation closes the sockets here at once, and the others' once Redis is back.
            await here.revoke(7, "session-a")
            assert user_here.close_code == 4401 and (await _next(user_here)) is None
            await _until(lambda: len(delays) >= 6)
            # Bounded exponential back-off with jitter: attempt n waits between half and all of base * 2**n.
            for attempt, delay in enumerate(delays[:6]):
                ceiling = min(CAP, BASE * 2**attempt)
                assert ceiling / 2 <= delay <= ceiling, (attempt, delays)
            assert user_other_a.close_code is None

            await proxy.restore()
            await _until(lambda: here.redis_state == "ok")
            # Every subscription resyncs, here and (asked through Redis) in the other process.
            assert game_here.overflowed
            assert (await _next(game_here)) == Message("game:1", "resync", {}, None, "nobody")
            await _until(lambda: game_other.overflowed)
            await _until(lambda: user_other_a.close_code == 4401)
            assert user_other_b.close_code is None
            # And live messages flow again from the other process to this one.
            await other.publish(Message("game:1", "move", {"move": "C3"}, 4))
            message = await _next(game_here)
            assert message == Message("game:1", "move", {"move": "C3"}, 4)
    finally:
        await here.stop()
        await other.stop()
        await proxy.close()


def test_an_observer_that_fails_costs_nobody_the_message_or_the_link() -> None:
    """An observer of Redis messages (the stream's cache, the spectator counts) that raises on one message:
    the subscribers still get it, the link stays up, and the next message arrives too."""
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    asyncio.run(_failing_observer())


async def _failing_observer() -> None:
    prefix, url = _prefix(), f"redis://{REDIS[0]}:{REDIS[1]}/0"
    here, other = Hub(url, prefix), Hub(url, prefix)
    seen: list[str] = []

    def fragile(message: Message) -> None:
        seen.append(message.t)
        raise KeyError("an observer's bug")

    here.observe(fragile)
    await here.start()
    await other.start()
    try:
        async with here.subscribe("game:1") as game_here:
            for version, move in ((2, "E5"), (3, "D4")):
                await other.publish(Message("game:1", "move", {"move": move}, version))
                assert (await _next(game_here)) == Message("game:1", "move", {"move": move}, version)
            assert seen == ["move", "move"] and here.redis_state == "ok" and not game_here.overflowed
    finally:
        await here.stop()
        await other.stop()


def test_a_silently_dropped_redis_link_is_noticed_and_reconnected() -> None:
    """A connection that stays open but carries nothing (NAT, firewall, partition) must not leave the
    process deaf to the others for ever: the listener pings a quiet link and reconnects when nothing
    answers, and its subscribers resync."""
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    asyncio.run(_silent_link())


async def _silent_link() -> None:
    from miai.server.realtime.relay import RedisRelay

    proxy = TcpProxy(*REDIS)
    port = await proxy.start()
    reconnected: list[bool] = []
    received: list[Any] = []
    prefix = _prefix()
    relay = RedisRelay(
        f"redis://127.0.0.1:{port}/0",
        f"{prefix}:*",
        f"{prefix}!control",
        on_message=received.append,
        on_control=lambda _data: None,
        on_connected=reconnected.append,
        backoff_base=BASE,
        backoff_cap=CAP,
        quiet=0.1,
    )
    try:
        await relay.start(wait=5)
        assert relay.connected and reconnected == [False]
        proxy.stall()
        await _until(lambda: not relay.connected)  # noticed: nothing came back, not even a pong
        proxy.unstall()
        await _until(lambda: relay.connected and reconnected[-1] is True)  # back, and told to resync
        # ... and really back: a message published now arrives (a reconnection during the stall would not).
        for _ in range(200):
            await relay.publish(f"{prefix}:game:1", "after the stall")
            if received:
                break
            await asyncio.sleep(0.02)
        assert received[:1] in ([b"after the stall"], ["after the stall"])
    finally:
        await relay.stop()
        await proxy.close()


def test_a_server_started_without_redis_runs_degraded_and_connects_later() -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    asyncio.run(_starts_degraded())


async def _starts_degraded() -> None:
    proxy = TcpProxy(*REDIS)
    port = await proxy.start()
    await proxy.cut()
    prefix = _prefix()
    hub = Hub(f"redis://127.0.0.1:{port}/0", prefix, backoff_base=BASE, backoff_cap=CAP)
    other = Hub(f"redis://{REDIS[0]}:{REDIS[1]}/0", prefix)
    await hub.start(wait=0.5)
    await other.start()
    try:
        assert hub.redis_state == "down"
        async with hub.subscribe("lobby") as lobby:
            await hub.publish(Message("lobby", "lobby", {"game_id": 1}))
            assert (await _next(lobby)) == Message("lobby", "lobby", {"game_id": 1})
            await proxy.restore()
            await _until(lambda: hub.redis_state == "ok")
            assert (await _next(lobby)) == Message("lobby", "resync", {}, None, "nobody")
            await other.publish(Message("lobby", "lobby", {"game_id": 2}))
            assert (await _next(lobby)) == Message("lobby", "lobby", {"game_id": 2})
    finally:
        await hub.stop()
        await other.stop()
        await proxy.close()


# --------------------------------------------------------------------------- two real server processes


def _redis_ok(health: httpx.Response) -> bool:
    return health.status_code == 200 and health.json()["redis"] == "ok"


@contextmanager
def _server(database_url: str, data_dir: Path, redis_url: str, prefix: str, name: str) -> Iterator[str]:
    """A server process (uvicorn's factory) once it reaches Redis; its output in `data_dir`/`name`.log."""
    with uvicorn_factory(
        data_dir / f"{name}.log",
        ready=_redis_ok,
        MIAI_DATABASE_URL=database_url,
        MIAI_DATA_DIR=str(data_dir),
        MIAI_REDIS_URL=redis_url,
        MIAI_REDIS_PREFIX=prefix,
        MIAI_RATE_LIMITS_ENABLED="false",
    ) as server:
        yield server.base


def _poll(probe: Callable[[], T], done: Callable[[T], bool], seconds: float = 30.0) -> T:
    deadline = time.monotonic() + seconds
    while True:
        value = probe()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def _player(base: str, name: str) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30) as http:
        registered = http.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
        assert registered.status_code == 201, registered.text
        csrf = {"X-CSRF-Token": registered.json()["csrf_token"]}
        token = http.post("/api/v1/me/tokens", json={"name": "faults"}, headers=csrf)
        assert token.status_code == 201, token.text
        return {
            "token": token.json()["token"],
            "headers": {"Authorization": f"Bearer {token.json()['token']}"},
        }


def _post(base: str, player: dict[str, Any], path: str, body: Any = None) -> httpx.Response:
    return httpx.post(f"{base}/api/v1{path}", json=body, headers=player["headers"], timeout=30)


def _play(base: str, player: dict[str, Any], gid: int, move: str) -> httpx.Response:
    """A move, repeated while refused as stale (a process that missed a move refuses once, then re-reads)."""
    play = partial(_post, base, player, f"/games/{gid}/moves", {"move": move})
    return _poll(play, lambda reply: reply.status_code != 409, seconds=10)


def _receive_move(sock: ClientConnection, move: str, seconds: float = 30.0) -> dict[str, Any]:
    """The `move` event of `move`, skipping anything before it (bounded)."""
    deadline = time.monotonic() + seconds
    while True:
        event = json.loads(sock.recv(timeout=max(0.01, deadline - time.monotonic())))
        if event["t"] == "move" and event["d"]["move"] == move:
            return dict(event)


def test_moves_survive_a_redis_outage_across_two_processes(database_url: str, tmp_path: Path) -> None:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    prefix = _prefix()
    with ThreadedTcpProxy(*REDIS) as proxy:
        redis_url = f"redis://127.0.0.1:{proxy.port}/0"
        with (
            _server(database_url, tmp_path, redis_url, prefix, "first") as first,
            _server(database_url, tmp_path, redis_url, prefix, "second") as second,
        ):
            suffix = uuid.uuid4().hex[:6]
            alice, bob = _player(first, f"alice{suffix}"), _player(first, f"bob{suffix}")
            gid = _post(first, alice, "/games", {"size": 9, "team": 1}).json()["id"]
            for base, player, path, body in [
                (first, bob, f"/games/{gid}/join", {"team": 2}),
                (first, alice, f"/games/{gid}/confirm", None),
                (first, bob, f"/games/{gid}/confirm", None),
            ]:
                assert _post(base, player, path, body).status_code == 200
            socket_url = second.replace("http", "ws", 1) + f"/api/v1/games/{gid}/ws?token={bob['token']}"
            with connect(socket_url, open_timeout=10) as sock:
                assert json.loads(sock.recv(timeout=10))["t"] == "snapshot"
                assert _post(first, alice, f"/games/{gid}/moves", {"move": "E5"}).status_code == 200
                _receive_move(sock, "E5")  # through Redis, from the first process to the second

                proxy.cut()
                health = _poll(
                    lambda: httpx.get(f"{first}/api/v1/health"), lambda r: r.json()["redis"] == "down"
                )
                assert health.status_code == 200 and health.json()["ok"] is True, health.text
                assert health.json()["redis"] == "down" and health.json()["database"] == "ok"
                ready = httpx.get(f"{first}/api/v1/health/ready")  # still serving, degraded
                assert ready.status_code == 200 and ready.json()["redis"] == "down", ready.text
                # Moves are acknowledged and stored while Redis is away, on both processes.
                for base, player, move in [(second, bob, "C3"), (first, alice, "F6")]:
                    reply = _play(base, player, gid, move)
                    assert reply.status_code == 200, reply.text
                _receive_move(sock, "C3")  # the second process still serves its own sockets
                game = httpx.get(f"{first}/api/v1/games/{gid}", headers=alice["headers"]).json()
                assert [m["move"] for m in game["moves"]] == ["E5", "C3", "F6"]

                proxy.restore()
                for base in (first, second):
                    health = _poll(
                        partial(httpx.get, f"{base}/api/v1/health"), lambda r: r.json()["redis"] == "ok"
                    )
                    assert health.status_code == 200 and health.json()["redis"] == "ok", health.text
                _receive_move(sock, "F6")  # missed during the outage: the socket resynced from its version
                reply = _play(first, bob, gid, "G7")
                assert reply.status_code == 200, reply.text
                _receive_move(sock, "G7")  # live again across processes

"""Spectator counts across web processes (realtime/watchers.py; docs/realtime.md, "watchers"): with Redis,
every process counts every process's spectators; a dead process's count expires; Redis failing leaves each
process its own count, and nothing raises.

Each test has a Redis prefix of its own (the Redis is shared: it is never flushed) and removes its keys."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from redis import Redis

from miai.server.app import create_app
from miai.server.realtime import watchers as watchers_module
from miai.server.realtime.hub import Hub, Subscription
from miai.server.realtime.watchers import WATCHERS, Watchers
from tests.conftest import need
from tests.server.conftest import make_settings, redis_reachable, register, unique_redis_prefix
from tests.server.tcp_proxy import TcpProxy
from tests.server.test_finding import new_game
from tests.server.test_watching import hears_count

REDIS_URL = "redis://127.0.0.1:6379/0"
UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1
FAILED = "spectator counts: Redis failed"


@pytest.fixture
def prefix() -> Iterator[str]:
    need(redis_reachable(), "Redis is not reachable on 127.0.0.1:6379")
    name = unique_redis_prefix()
    yield name
    with Redis.from_url(REDIS_URL) as redis:
        keys = list(redis.scan_iter(match=f"{name}*", count=1000))
        if keys:
            redis.delete(*keys)


async def heard(page: Subscription, count: int, seconds: float = 5.0) -> None:
    """The page's socket is told `count` (earlier counts may come first)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"never heard {count} watching"
        message = await asyncio.wait_for(page.get(), left)
        if message is not None and message.t == WATCHERS and message.d == {"count": count}:
            return


async def until(probe: Callable[[], Awaitable[object]], expected: object, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while (got := await probe()) != expected:
        assert asyncio.get_running_loop().time() < deadline, (got, expected)
        await asyncio.sleep(0.02)


def test_two_processes_count_and_announce_each_others_spectators(prefix: str) -> None:
    async def run() -> None:
        hub_a, hub_b = Hub(REDIS_URL, prefix), Hub(REDIS_URL, prefix)
        await hub_a.start()
        await hub_b.start()
        a, b = Watchers(hub_a, every=0.05), Watchers(hub_b, every=0.05)
        try:
            async with hub_a.subscribe("game:7") as page_on_a:
                b.add(7)
                b.add(7)
                a.add(7)
                await heard(page_on_a, 3)  # B's spectators reach A's sockets
                assert await a.counts([7, 8]) == {7: 3, 8: 0}  # and A's live list
                b.discard(7)
                await heard(page_on_a, 2)
                assert (await b.message(7)).d == {"count": 2}
            await b.close()  # B shuts down: its spectators leave the count at once
            assert await a.counts([7]) == {7: 1}
        finally:
            await a.close()
            await b.close()
            await hub_a.stop()
            await hub_b.stop()
        with Redis.from_url(REDIS_URL) as redis:
            assert not redis.exists(f"{prefix}!watchers:7")  # nothing left behind

    asyncio.run(run())


def test_hostile_announcements_on_the_channel_change_nothing(prefix: str) -> None:
    """Anyone who can publish on the Redis channels may send nonsense: it is ignored, the link stays up."""

    async def run() -> None:
        hub = Hub(REDIS_URL, prefix)
        await hub.start()
        watchers = Watchers(hub, every=0.01)
        try:
            async with hub.subscribe("game:7") as page:
                with Redis.from_url(REDIS_URL) as redis:
                    for topic, data in [
                        ("game:7", [1]),
                        ("game:²", {"count": 1}),
                        ("game:" + "9" * 40, {"count": 1}),
                        ("game:7", {"count": "3"}),
                        ("game:7", {"count": True}),
                    ]:
                        body = {"topic": topic, "t": WATCHERS, "d": data, "v": None, "audience": "all"}
                        redis.publish(f"{prefix}:game:7", json.dumps(body))
                watchers.add(7)
                await heard(page, 1)
                assert hub.redis_state == "ok"
        finally:
            await watchers.close()
            await hub.stop()

    asyncio.run(run())


def test_a_dead_processes_spectators_stop_counting(prefix: str) -> None:
    key = f"{prefix}!watchers:7"
    with Redis.from_url(REDIS_URL) as redis:
        now = int(redis.time()[0])
        # One process died long ago, another is alive (for now: it will write no more, as if killed -9).
        redis.hset(key, mapping={"dead": f"5 {now - 200}", "killed": f"2 {now}"})

    async def run() -> None:
        hub = Hub(REDIS_URL, prefix)  # not started: its announcements reach this process's pages only
        watchers = Watchers(hub, every=0.01, heartbeat=0.2, max_age=2)
        try:
            assert await watchers.counts([7]) == {7: 2}
            async with hub.subscribe("game:7") as page:
                watchers.add(7)
                await heard(page, 3)
                with Redis.from_url(REDIS_URL) as redis:
                    assert not redis.hexists(key, "dead")  # a write clears dead fields away
                # The killed process's count grows old: a heartbeat announces the drop, with no one moving.
                await heard(page, 1, seconds=10)
            assert await watchers.counts([7]) == {7: 1}
        finally:
            await watchers.close()
        with Redis.from_url(REDIS_URL) as redis:
            assert not redis.exists(key)

    asyncio.run(run())


def test_counts_are_local_while_redis_is_away_and_shared_again_when_back(
    prefix: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(watchers_module, "RETRY_AFTER", 0.2)
    caplog.set_level(logging.WARNING, logger=watchers_module.__name__)

    async def run() -> None:
        proxy = TcpProxy("127.0.0.1", 6379)
        port = await proxy.start()
        hub = Hub(f"redis://127.0.0.1:{port}/0", prefix)
        here = Watchers(hub, every=0.01)
        other = Watchers(Hub(REDIS_URL, prefix), every=0.01)  # another process, whose Redis stays up
        try:
            other.add(7)
            here.add(7)
            await until(lambda: here.counts([7]), {7: 2})
            await until(lambda: other.counts([7]), {7: 2})
            await proxy.cut()
            async with hub.subscribe("game:7") as page:
                here.add(7)
                await heard(page, 2)  # its own two, announced here
                for _ in range(3):
                    assert await here.counts([7, 8]) == {7: 2, 8: 0}
                    assert (await here.message(7)).d == {"count": 2}
                assert sum(FAILED in r.getMessage() for r in caplog.records) == 1  # logged once
                await proxy.restore()
                here.discard(7)  # the next change writes what the outage held back
                await heard(page, 2)  # its one and the other's
            await until(lambda: other.counts([7]), {7: 2})
            await until(lambda: here.counts([7]), {7: 2})
            assert any("Redis is back" in r.getMessage() for r in caplog.records)
        finally:
            await here.close()
            await other.close()
            await proxy.close()

    asyncio.run(run())


def test_an_unreachable_redis_never_fails_a_count() -> None:
    async def run() -> None:
        hub = Hub(UNREACHABLE, unique_redis_prefix())
        watchers = Watchers(hub, every=0.01)
        async with hub.subscribe("game:7") as page:
            watchers.add(7)
            assert await watchers.counts([7, 8]) == {7: 1, 8: 0}
            await heard(page, 1)
        watchers.discard(7)
        await watchers.close()  # nothing to remove, nothing raised

    asyncio.run(run())


def test_a_spectator_on_one_server_is_counted_by_the_other(
    database_url: str, tmp_path: Path, prefix: str
) -> None:
    settings = make_settings(database_url, tmp_path, redis_url=REDIS_URL, redis_prefix=prefix)
    with (
        TestClient(create_app(settings, background=False)) as first,
        TestClient(create_app(settings, background=False)) as second,
    ):
        ann, bob = register(first, "ann"), register(first, "bob")  # a fresh database: any names
        gid = new_game(ann, bob)
        url = f"/api/v1/games/{gid}/ws?watchers=1"
        with first.websocket_connect(f"{url}&token={ann.token}") as player:
            assert player.receive_json()["t"] == "snapshot"
            assert player.receive_json()["d"] == {"count": 0}
            with second.websocket_connect(url) as spectator:
                assert spectator.receive_json()["t"] == "snapshot"
                assert spectator.receive_json()["d"] == {"count": 1}
                hears_count(player, 1)  # told on the first server
                live = first.get("/api/v1/games/live").json()["games"]
                assert [g["spectators"] for g in live] == [1]
                with first.websocket_connect(url) as another:
                    another.receive_json()
                    # First the total last announced (no Redis read per arriving socket), then within a
                    # second the one that counts it with the second server's spectator.
                    assert another.receive_json()["d"] == {"count": 1}
                    hears_count(another, 2)
                    hears_count(spectator, 2)
            hears_count(player, 0)
            assert [g["spectators"] for g in first.get("/api/v1/games/live").json()["games"]] == [0]


def test_a_server_whose_redis_is_unreachable_counts_its_own(database_url: str, tmp_path: Path) -> None:
    settings = make_settings(database_url, tmp_path, redis_url=UNREACHABLE)
    with TestClient(create_app(settings, background=False)) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        gid = new_game(ann, bob)
        with client.websocket_connect(f"/api/v1/games/{gid}/ws?watchers=1") as spectator:
            assert spectator.receive_json()["t"] == "snapshot"
            assert spectator.receive_json()["d"] == {"count": 1}
            answer = client.get("/api/v1/games/live")
            assert answer.status_code == 200, answer.text
            assert [g["spectators"] for g in answer.json()["games"]] == [1]

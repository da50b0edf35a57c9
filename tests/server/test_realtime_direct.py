"""The hub's direct fan-out (hub.py): idle sockets get events in the dispatch itself, without a task wake-up;
slow, failing and overflowing sockets fall back to their queue without holding up the others."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.server.realtime import eager
from miai.server.realtime.hub import QUEUE_LIMIT, Hub, Message, Subscription
from tests.server.test_websocket import team_chat_reaches_only_the_team


class Socket:
    """A client as the hub's subscriber sees it: `send` is instant unless `gate` is closed (a full buffer
    waits for the client), and raises once `closed`."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.closed = False

    async def send(self, text: str) -> None:
        if self.closed:
            raise RuntimeError("the socket is closed")
        await self.gate.wait()
        if self.closed:
            raise RuntimeError("the socket closed while sending")
        self.received.append(text)


async def serve(sub: Subscription, socket: Socket, resyncs: list[int]) -> None:
    """The reader loop of ws.py, reduced to what the hub asks of it."""

    def direct(message: Message) -> bool:
        sub.send_now(socket.send(message.t))
        return True

    while True:
        message = await sub.get(direct)
        if message is None:
            return
        if sub.overflowed:
            sub.overflowed = False
            resyncs.append(len(socket.received))
            continue
        await socket.send(message.t)


def event(number: int) -> Message:
    return Message("game:1", f"e{number}", {}, number)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.fixture
def hub() -> Hub:
    return Hub()


def run_readers(hub: Hub, sockets: list[Socket], body: Callable[[list[list[int]]], Any]) -> None:
    """Subscribe one reader per socket to `game:1`, run `body(resyncs)`, then stop the readers."""

    async def main() -> None:
        resyncs: list[list[int]] = [[] for _ in sockets]
        async with contextlib.AsyncExitStack() as stack:
            subs = [await stack.enter_async_context(hub.subscribe("game:1")) for _ in sockets]
            readers = [
                asyncio.create_task(serve(sub, socket, resync))
                for sub, socket, resync in zip(subs, sockets, resyncs, strict=True)
            ]
            await settle()  # every reader waits on its empty queue
            await body(resyncs)
            for sub in subs:
                sub.wake()
            await asyncio.gather(*readers, return_exceptions=True)

    asyncio.run(main())


def test_idle_sockets_receive_within_the_publish_call(hub: Hub) -> None:
    sockets = [Socket() for _ in range(3)]

    async def body(_resyncs: list[list[int]]) -> None:
        await hub.publish(event(1))
        # No task ran since the publish: the frames were written in it.
        assert [s.received for s in sockets] == [["e1"]] * 3

    run_readers(hub, sockets, body)


def test_a_slow_socket_gets_every_event_in_order_and_holds_up_no_one(hub: Hub) -> None:
    slow, fast = Socket(), Socket()

    async def body(_resyncs: list[list[int]]) -> None:
        slow.gate.clear()  # its buffer is full: a send waits
        for number in range(1, 6):
            await hub.publish(event(number))
        assert fast.received == ["e1", "e2", "e3", "e4", "e5"]
        assert slow.received == []
        await settle()
        assert slow.received == []  # still waiting for the client, nothing overtook e1
        slow.gate.set()
        await settle()
        assert slow.received == ["e1", "e2", "e3", "e4", "e5"]
        await hub.publish(event(6))  # caught up again: the direct path once more
        assert slow.received[-1] == fast.received[-1] == "e6"

    run_readers(hub, [slow, fast], body)


def test_a_socket_closing_mid_fan_out_does_not_stop_the_others(hub: Hub) -> None:
    sockets = [Socket() for _ in range(3)]
    sockets[0].closed = True

    async def body(_resyncs: list[list[int]]) -> None:
        await hub.publish(event(1))  # does not raise
        assert [s.received for s in sockets] == [[], ["e1"], ["e1"]]
        sockets[1].gate.clear()
        await hub.publish(event(2))
        sockets[1].closed = True  # closes while its send waits
        sockets[1].gate.set()
        await settle()
        await hub.publish(event(3))
        assert sockets[2].received == ["e1", "e2", "e3"]
        assert sockets[1].received == ["e1"]

    run_readers(hub, sockets, body)


def test_an_overflowing_slow_socket_is_told_to_resync(hub: Hub) -> None:
    slow, fast = Socket(), Socket()

    async def body(resyncs: list[list[int]]) -> None:
        slow.gate.clear()
        for number in range(1, QUEUE_LIMIT + 10):
            await hub.publish(event(number))
        assert len(fast.received) == QUEUE_LIMIT + 9
        slow.gate.set()
        await settle()
        assert resyncs[0], "the slow socket's reader was never told it lost messages"
        assert resyncs[1] == []

    run_readers(hub, [slow, fast], body)


def test_eager_run_finishes_at_once_or_in_a_task() -> None:
    async def main() -> None:
        done: list[str] = []

        async def instant() -> None:
            done.append("instant")

        async def waits(gate: asyncio.Event) -> None:
            await gate.wait()
            done.append("waited")

        async def fails() -> None:
            raise OSError("gone")

        assert eager.run(instant()) is None and done == ["instant"]
        with pytest.raises(OSError):
            eager.run(fails())
        gate = asyncio.Event()
        task = eager.run(waits(gate))
        assert task is not None and done == ["instant"]
        gate.set()
        await task
        assert done == ["instant", "waited"]

        async def fails_later(gate: asyncio.Event) -> None:
            await gate.wait()
            raise OSError("closed while waiting")

        gate = asyncio.Event()
        task = eager.run(fails_later(gate))
        assert task is not None
        gate.set()
        with pytest.raises(OSError, match="closed while waiting"):
            await task

    asyncio.run(main())


def test_team_chat_takes_the_direct_path_and_still_reaches_only_the_team(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    direct: list[tuple[str, bool]] = []
    deliver = Subscription.deliver

    def spy(sub: Subscription, message: Message) -> None:
        queued = sub.queue.qsize()
        deliver(sub, message)
        if message.t == "chat":
            direct.append((message.audience, sub.queue.qsize() == queued))

    monkeypatch.setattr(Subscription, "deliver", spy)
    team_chat_reaches_only_the_team(client)
    # The team chat went to all three sockets the direct way (sent to the mate, filtered out for the
    # others); the test client's send may wait, so a socket's next event can take the queue.
    assert [taken for audience, taken in direct if audience == "team:1"] == [True] * 3, direct
    assert [audience for audience, _taken in direct].count("all") == 3

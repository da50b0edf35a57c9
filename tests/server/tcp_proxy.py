"""Test support: a TCP proxy on a free loopback port that can be cut and restored.

It stands in front of a real service (the shared Redis) so that tests can take the service away from a
server without stopping it: `cut()` resets every live connection and refuses new ones, `restore()` listens
again on the same port; `stall()` keeps every connection open but lets nothing through (a link dropped
without a close), `unstall()` lets data through again. `TcpProxy` runs in the caller's event loop;
`ThreadedTcpProxy` runs one in a thread of its own, for tests that drive real server processes with
blocking clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._pipes: set[asyncio.Task[None]] = set()
        self.stalled = False

    async def start(self) -> int:
        await self._listen()
        return self.port

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Refuse new connections and reset the live ones (as a crashed service or a lost network would)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        for pipe in list(self._pipes):
            pipe.cancel()

    async def restore(self) -> None:
        if self._server is None:
            await self._listen()

    def stall(self) -> None:
        self.stalled = True

    def unstall(self) -> None:
        self.stalled = False

    async def close(self) -> None:
        await self.cut()
        if self._pipes:
            await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        self._writers.update((client_writer, upstream_writer))
        for reader, writer in ((client_reader, upstream_writer), (upstream_reader, client_writer)):
            task = asyncio.ensure_future(self._pipe(reader, writer))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if self.stalled:
                    continue  # swallowed: neither side hears of it
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.discard(writer)
            writer.transport.abort()


class ThreadedTcpProxy:
    """A `TcpProxy` in its own event loop thread, driven by blocking calls."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self._proxy = TcpProxy(target_host, target_port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tcp-proxy", daemon=True)

    def _call(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    def __enter__(self) -> ThreadedTcpProxy:
        self._thread.start()
        self.port = self._call(self._proxy.start())
        return self

    def __exit__(self, *_exc: object) -> None:
        with contextlib.suppress(Exception):
            self._call(self._proxy.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def cut(self) -> None:
        self._call(self._proxy.cut())

    def restore(self) -> None:
        self._call(self._proxy.restore())

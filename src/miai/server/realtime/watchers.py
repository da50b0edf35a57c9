"""Who is watching a game: the one place its spectators are counted (the game page's "N watching" and the
live list's `spectators`).

A spectator is a game socket of someone not seated in the game (anonymous sockets included); players' own
pages are not counted. The count is this process's sockets (other processes' are not counted). Changes
reach the game's sockets that asked for them (`?watchers=1`) as `{"t": "watchers", "d": {"count": n},
"v": null}`, at most once a second per game: a crowd arriving is one message a second to each socket, not
one per arrival.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from miai.server.realtime.hub import Hub, Message

WATCHERS = "watchers"  # the message type
ANNOUNCE_EVERY = 1.0  # seconds: the most often a game's count is sent


class Watchers:
    """One app's spectator counts: made with its hub (`app.state.watchers`), whose sockets they count."""

    def __init__(self, hub: Hub, every: float = ANNOUNCE_EVERY) -> None:
        self.hub = hub
        self.every = every
        self._counts: Counter[int] = Counter()
        self._pending: dict[int, asyncio.TimerHandle] = {}

    def count(self, game_id: int) -> int:
        return self._counts.get(game_id, 0)

    def message(self, game_id: int) -> Message:
        return Message(f"game:{game_id}", WATCHERS, {"count": self.count(game_id)})

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

    def close(self) -> None:
        """The app is shutting down: no count is announced any more (the hub is stopping)."""
        for timer in self._pending.values():
            timer.cancel()
        self._pending.clear()

    def _changed(self, game_id: int) -> None:
        if game_id not in self._pending:
            loop = asyncio.get_running_loop()
            self._pending[game_id] = loop.call_later(self.every, self._announce, game_id)

    def _announce(self, game_id: int) -> None:
        self._pending.pop(game_id, None)
        self.hub.dispatch_here(self.message(game_id))

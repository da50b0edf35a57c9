"""What the game commands ask of engine work for their computer players: `server/engine_jobs`, above this
package, implements it in its `EngineJobs`, and app.py hands that to `computer.Computers`.

A module of its own, light to import: engine processes import the engine jobs' protocol, and with it this,
but never the game service.
"""

from __future__ import annotations

from typing import Protocol


class ComputerJobs(Protocol):
    """What the computer players (`computer.Computers`) ask of the engine jobs."""

    def play(self, game: int, version: int, seat: int, level: int | str) -> None:
        """The computer `seat` (its user id) is on move in `game` at `version`: let it play (fire and forget;
        its move is stored through the game's command stream with `expected=version`)."""

    def game_over(self, game: int) -> None:
        """The game ended: its computer players may be released (external engines closed)."""

    async def idle(self) -> None:
        """Wait until no computer move of this process is in progress (tests)."""

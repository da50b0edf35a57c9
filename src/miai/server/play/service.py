"""Game commands, one concept per module, put together for the app:

- `stream.py`: the command stream every command runs through (locks, versions, group commit, caches);
- `lobby.py`: creating games, seats and confirmations;
- `moves.py`: the start, moves and clocks, timeouts, agreed draws;
- `chat.py`: game chat; `score_review.py`: score reports and corrections;
- `computer.py` and `practice.py` (built on these): computer players, and games against the computer.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from miai.server.notify.mailer import Mailer
from miai.server.play.chat import Chat
from miai.server.play.judging import Judge, Judging
from miai.server.play.lobby import Lobby
from miai.server.play.moves import Moves
from miai.server.play.score_review import ScoreReview
from miai.server.play.stream import Clock, CommandStream, system_now
from miai.server.realtime.hub import Hub


class GameService:
    """Every game command of this process, by concept (see the module docstring)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        mailer: Mailer,
        confirm_window: float = 300,
        now: Clock = system_now,
        judge: Judge | None = None,
        bots_rated_vs_people: bool = False,
    ) -> None:
        self.stream = CommandStream(sessions, hub, now)
        # Dead stones at the end of games: `judge` (engine jobs), by default a thread of this process.
        self.judging = Judging(judge)
        # The operator's MIAI_BOTS_RATED_VS_PEOPLE: checked at challenges and seats, and on the result.
        self.moves = Moves(self.stream, mailer, self.judging, bots_rated_vs_people)
        self.lobby = Lobby(self.stream, self.moves, mailer, confirm_window, bots_rated_vs_people)
        self.chat = Chat(self.stream)
        self.score_review = ScoreReview(self.stream)

    async def close(self) -> None:
        """Wait for the last group of commands to be stored (server shutdown)."""
        await self.stream.close()

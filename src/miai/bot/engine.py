"""One GTP engine process for one game: kept in step with the game's moves, told the clock, asked for moves.

Calls block (GTP is a pipe), so the game loop runs them in a thread. Anything wrong with the engine (it
died, hung, or printed garbage) is an `EngineFailed`: the game loop resigns that game and the next game
starts a fresh engine.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from miai.formats.gtp.channels import GtpChannelError, GtpController, SubprocessChannel
from miai.formats.gtp.protocol import RESIGN, GtpError, format_vertex, parse_vertex

COLOURS = ("b", "w")  # team 1 is Black, team 2 White
PASSES = frozenset({"pass", "autopass"})  # autopass: a pass the server made for a player


T = TypeVar("T")


class EngineFailed(Exception):
    """The engine cannot go on with this game."""


@dataclass(frozen=True)
class Clock:
    """What GTP's time commands need: seconds of main time, then `period_time` for `stones` moves."""

    main_time: float
    period_time: float
    stones: int


class Engine:
    def __init__(self, argv: Sequence[str], size: int, komi: float, timeout: float = 120.0) -> None:
        try:
            self._channel = SubprocessChannel(argv, timeout=timeout)
        except (GtpChannelError, ValueError) as err:
            raise EngineFailed(str(err)) from None
        self._gtp = GtpController(self._channel)
        self.size = size
        self.komi = komi
        self._played: list[str] = []  # the moves the engine has, as the server writes them

    @property
    def pid(self) -> int:
        return self._channel.pid

    def close(self) -> None:
        with contextlib.suppress(GtpChannelError, OSError):
            self._channel.close()

    def _guard(self, name: str, call: Callable[[], T]) -> T:
        """`call` (a GTP command); any engine trouble is an EngineFailed naming the command."""
        try:
            return call()
        except (GtpChannelError, GtpError) as err:
            raise EngineFailed(f"{name}: {err}") from None

    def start(self, clock: Clock | None) -> None:
        """The empty board of this game's size and komi, and its time settings (if it has a clock)."""
        self._guard("boardsize", partial(self._gtp.boardsize, self.size))
        self._guard("clear_board", self._gtp.clear_board)
        self._guard("komi", partial(self._gtp.komi, self.komi))
        if clock is not None:
            main, period, stones = clock.main_time, clock.period_time, clock.stones
            try:  # engines without time commands still play
                self._gtp.command("time_settings", str(int(main)), str(int(period)), str(stones))
            except GtpError:
                pass
            except GtpChannelError as err:
                raise EngineFailed(f"time_settings: {err}") from None
        self._played = []

    def catch_up(self, moves: Sequence[tuple[int, str]]) -> None:
        """Give the engine the game's moves (team, text) it does not have yet; replay from the start when
        the record is not a continuation of what it has (after a reconnect or an undo)."""
        texts = [text for _, text in moves]
        if texts[: len(self._played)] != self._played:
            self._guard("clear_board", self._gtp.clear_board)
            self._played = []
        for team, text in moves[len(self._played) :]:
            vertex = self._vertex(text)
            self._guard("play", partial(self._gtp.play, COLOURS[(team - 1) % 2], vertex))
            self._played.append(text)

    def _vertex(self, text: str) -> tuple[int, int] | None:
        """The server's move as a vertex; a pass (or the server's automatic pass) is None. Any other text
        is a record the engine cannot follow: passing instead would put it on another board."""
        if text.lower() in PASSES:
            return None
        try:
            return parse_vertex(text, self.size)
        except GtpError:
            raise EngineFailed(f"the game's record has a move the bot cannot read: {text[:40]!r}") from None

    def time_left(self, team: int, seconds: float, stones: int) -> None:
        try:
            self._gtp.command("time_left", COLOURS[(team - 1) % 2], str(max(0, int(seconds))), str(stones))
        except GtpError:
            pass
        except GtpChannelError as err:
            raise EngineFailed(f"time_left: {err}") from None

    def genmove(self, team: int) -> str:
        """The engine's move as the server writes it: "D4", "pass" or "resign"."""
        move = self._guard("genmove", partial(self._gtp.genmove, COLOURS[(team - 1) % 2]))
        if move == RESIGN:
            return RESIGN
        text = format_vertex(move, self.size)
        self._played.append(text)  # the engine has placed it on its own board
        return text

    def undo_last(self) -> None:
        """Forget the engine's own last move (the server refused it): replayed from the record next time."""
        self._played = ["\0"]  # never a prefix of a record: the next catch_up starts over

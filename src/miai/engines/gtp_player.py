"""An external GTP engine (GNU Go, KataGo, ...) as a Miai move generator.

The engine keeps its own board. Before each `genmove` the wrapper brings it in line with the game: when
the game merely went on since the last call, only the new moves are sent; otherwise (another game, an undo)
it starts over with `clear_board`, the komi, the starting stones (`set_free_handicap` for a handicap, else
one `play` per stone) and every move of the game. GTP engines play two colours only.

An answer that Miai's rules refuse (engines differ on superko, for one) is replaced by the fallback
generator's move when one is given; otherwise it raises ExternalEngineError, as do transport failures.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence

from miai.core.go import PASS, RESIGN, GoState, Move, Pass, Place
from miai.core.go.scoring import score
from miai.formats.gtp import (
    GtpChannelError,
    GtpController,
    GtpError,
    SubprocessChannel,
    format_vertex,
)
from miai.formats.gtp.go_players import MoveGenerator

_COLOURS = ("b", "w")


class ExternalEngineError(RuntimeError):
    """The external engine failed, hung, or answered something unusable."""


def _vertex(point: int, size: int) -> tuple[int, int]:
    row, col = divmod(point, size)
    return col, row


class GtpPlayer:
    """Plays Go through an external GTP engine; one instance keeps one engine process."""

    def __init__(
        self,
        command: Sequence[str],
        name: str = "",
        timeout: float = 60.0,
        fallback: MoveGenerator | None = None,
    ) -> None:
        if not command:
            raise ValueError("an external engine needs a command to start it")
        self.command = list(command)
        self.name = name or self.command[0]
        self.timeout = timeout
        self.fallback = fallback
        self._controller: GtpController | None = None
        self._game: tuple[object, ...] | None = None
        self._sent: list[tuple[int, Move]] = []
        self._time_setting: int | None = None

    def __call__(self, state: GoState, colour: int, seconds: float | None = None) -> Move:
        return self.choose(state, colour, seconds)

    def choose(self, state: GoState, colour: int | None = None, seconds: float | None = None) -> Move:
        if state.colours != 2:
            raise ExternalEngineError(f"{self.name} plays two colours only; this game has {state.colours}")
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        colour = state.to_move if colour is None else colour
        try:
            controller = self._sync(state)
            if seconds is not None:
                self._set_time(controller, seconds)
            answer = controller.genmove(_COLOURS[colour])
        except (GtpChannelError, GtpError, OSError, ExternalEngineError) as exc:
            if isinstance(exc, GtpChannelError | OSError) and self._controller is not None:
                self._controller.close()  # a transport that failed once is unusable: restart next time
                self._controller = None
            self._forget()
            if self.fallback is not None:
                return self.fallback(state, colour, seconds)
            if isinstance(exc, ExternalEngineError):
                raise
            raise ExternalEngineError(f"external engine {self.name} failed: {exc}") from exc
        if answer == "resign":
            return RESIGN
        move: Move = PASS if answer is None else Place(answer[1] * state.size + answer[0])
        if isinstance(move, Place) and not state.analyze(move, colour).legal:
            self._forget()  # its board and ours disagree now
            if self.fallback is not None:
                return self.fallback(state, colour, seconds)
            raise ExternalEngineError(f"external engine {self.name} answered an illegal move {answer}")
        self._sent.append((colour, move))
        return move

    def close(self) -> None:
        if self._controller is not None:
            self._controller.close()
            self._controller = None
        self._forget()

    def __enter__(self) -> GtpPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- keeping the engine in step

    def _forget(self) -> None:
        self._game = None
        self._sent = []

    def _start(self) -> GtpController:
        if self._controller is None:
            try:
                channel = SubprocessChannel(self.command, timeout=self.timeout)
            except GtpChannelError as exc:
                raise ExternalEngineError(f"cannot start external engine {self.name}: {exc}") from exc
            self._controller = GtpController(channel)
        return self._controller

    def _sync(self, state: GoState) -> GtpController:
        controller = self._start()
        *_, root = state.lineage()
        komi = score(state)[1].komi - score(state)[0].komi
        game = (state.size, tuple(sorted(root.position().items())), root.handicap, komi)
        events = state.moves()
        if self._game != game or events[: len(self._sent)] != self._sent:
            controller.boardsize(state.size)
            controller.clear_board()
            controller.komi(komi)
            self._setup(controller, root)
            self._game = game
            self._sent = []
        for colour, move in events[len(self._sent) :]:
            if isinstance(move, Place):
                controller.play(_COLOURS[colour], _vertex(move.point, state.size))
            elif isinstance(move, Pass):
                controller.play(_COLOURS[colour], None)
            self._sent.append((colour, move))
        return controller

    @staticmethod
    def _setup(controller: GtpController, root: GoState) -> None:
        stones = root.position()
        size = root.size
        if root.handicap >= 2 and all(c == 0 for c in stones.values()) and len(stones) == root.handicap:
            vertices = [format_vertex(_vertex(p, size), size) for p in sorted(stones)]
            try:
                controller.command("set_free_handicap", *vertices)
                return
            except GtpError:
                controller.clear_board()  # the engine does not know free handicap: place them as moves
        for point, colour in sorted(stones.items()):
            controller.play(_COLOURS[colour], _vertex(point, size))

    def _set_time(self, controller: GtpController, seconds: float) -> None:
        per_move = max(1, math.ceil(seconds))
        if per_move == self._time_setting:
            return
        # Byo-yomi of `per_move` seconds for every single move; engines without time control ignore it.
        with contextlib.suppress(GtpError):
            controller.command("time_settings", "0", str(per_move), "1")
        self._time_setting = per_move

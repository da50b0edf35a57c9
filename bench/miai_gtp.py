"""A small GTP engine around Miai's move generator, for the match runner (bench/strength.py).

    python bench/miai_gtp.py --level 10 --time 2 [--seed 0] [--rules chinese]

It speaks the commands a match needs (boardsize, clear_board, komi, play, genmove, time_settings,
showboard) plus `miai-stats`, which reports the last search's playouts, seconds and win rate for the
match log. The match runner can drive `miai gtp` (the engine users add to Sabaki or GoGui) instead, with
its --miai-command option; the log then has no playouts or win rates.
"""

from __future__ import annotations

import argparse
import sys

from miai.core.go import PASS, GoState, Move, Place, Resign, new_game, preset
from miai.engines.go_player import GoPlayer
from miai.engines.levels import make_move_generator
from miai.formats.ascii import render
from miai.formats.gtp import (
    GtpEngine,
    GtpError,
    parse_colour,
    parse_float,
    parse_int,
    parse_vertex,
    run_gtp_loop,
)
from miai.formats.gtp.go_players import MoveGenerator
from miai.formats.gtp.protocol import format_vertex


class MiaiGtp:
    def __init__(self, level: int | str, seconds: float | None, seed: int, rules: str) -> None:
        self.level = level
        self.seconds = seconds
        self.seed = seed
        self.rules_key = rules
        self.size = 19
        self.komi = 7.5
        self.games = 0
        self.state = self._new()
        self.generator: MoveGenerator = make_move_generator(level, seconds, seed)
        self.engine = GtpEngine(name="Miai")
        for name, handler, lo, hi in (
            ("boardsize", self.boardsize, 1, 1),
            ("clear_board", self.clear_board, 0, 0),
            ("komi", self.set_komi, 1, 1),
            ("play", self.play, 2, 2),
            ("genmove", self.genmove, 1, 1),
            ("time_settings", lambda args: "", 3, 3),
            ("showboard", lambda args: "\n" + render(self.state), 0, 0),
            ("miai-stats", self.stats, 0, 0),
        ):
            self.engine.register(name, handler, min_args=lo, max_args=hi)

    def _new(self) -> GoState:
        return new_game(self.size, preset(self.rules_key, self.size, komi=self.komi))

    def _restart(self) -> None:
        self.state = self._new()
        self.games += 1
        # A fresh generator per game: its tree and resignation count belong to one game.
        self.generator = make_move_generator(self.level, self.seconds, self.seed + self.games)

    def boardsize(self, args: list[str]) -> str:
        size = parse_int(args[0], "boardsize")
        if not 5 <= size <= 25:
            raise GtpError("unacceptable size")
        self.size = size
        self._restart()
        return ""

    def clear_board(self, args: list[str]) -> str:
        self._restart()
        return ""

    def set_komi(self, args: list[str]) -> str:
        self.komi = parse_float(args[0], "komi")
        if not self.state.moves():
            self.state = self._new()
        return ""

    def play(self, args: list[str]) -> str:
        colour = 0 if parse_colour(args[0]) == "b" else 1
        vertex = parse_vertex(args[1], self.size)
        move: Move = PASS if vertex is None else Place(vertex[1] * self.size + vertex[0])
        try:
            self.state = self.state.play_as(colour, move)  # type: ignore[arg-type]
        except ValueError as exc:
            raise GtpError(f"illegal move: {exc}") from None
        return ""

    def genmove(self, args: list[str]) -> str:
        colour = 0 if parse_colour(args[0]) == "b" else 1
        if self.state.is_over:
            move: Move = PASS
        else:
            move = self.generator(self.state, colour, None)
        if isinstance(move, Resign):
            return "resign"
        if isinstance(move, Place):
            self.state = self.state.play_as(colour, move)
            return format_vertex((move.point % self.size, move.point // self.size), self.size)
        self.state = self.state.play_as(colour, PASS)
        return "pass"

    def stats(self, args: list[str]) -> str:
        player = self.generator
        if isinstance(player, GoPlayer) and player.last is not None:
            return f"{player.last.playouts} {player.last.seconds:.3f} {player.last.win_rate:.3f}"
        return "0 0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="10", help="1..10, or an external engine's name")
    parser.add_argument("--time", type=float, default=None, help="seconds per move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="chinese", help="rules preset (default chinese)")
    args = parser.parse_args(argv)
    level: int | str = int(args.level) if args.level.isdigit() else args.level
    engine = MiaiGtp(level, args.time, args.seed, args.rules)
    run_gtp_loop(engine.engine, sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == "__main__":
    sys.exit(main())

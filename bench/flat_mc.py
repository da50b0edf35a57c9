"""Tanbo for bench/strength_games.py: Miai against flat Monte Carlo given more time (`--game tanbo`).

    python bench/strength_games.py --game tanbo --size 9 --games 10 --seconds 1

There is no Tanbo in OpenSpiel, so the baseline is the textbook flat Monte Carlo player: for each legal
move it plays uniformly random games to the end (round-robin over the moves, on Miai's compiled rules, so
both sides play at the same speed) and picks the move with the best mean result. It gets `--factor` (4 by
default) times Miai's seconds a move. Colours alternate, Miai Black in game 1. Reported: Miai's wins with
a 95% Wilson interval, each side's seconds per move and the baseline's playouts per move.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from miai.core.tanbo import CAP, LAYOUT_SIZES, TanboState, new_game
from miai.core.twoplayer import Place, Resign, Timeout
from miai.engines.kernel.playout import new_rng
from miai.engines.players import AnyGameSeat
from miai.engines.pool import portable
from miai.engines.tanbo.board import legal_at, legal_count, unpadded
from miai.engines.tanbo.search import to_board
from miai.engines.tanbo.tree import flat_search
from strength import mean, wilson


class FlatMonteCarlo:
    """Uniform playouts per legal move until the time is up; the best mean result wins."""

    def __init__(self, seed: int) -> None:
        self.rng = new_rng(seed)
        self.playouts: list[int] = []

    def move(self, state: TanboState, seconds: float, rounds: int = 1) -> Place:
        """The best move found in `seconds`, after at least `rounds` playouts of every legal move."""
        start = time.monotonic()
        b = to_board(state)
        count = legal_count(b)
        wins = np.zeros(count, dtype=np.float64)
        visits = np.zeros(count, dtype=np.float64)
        chunk = count
        done = 0
        while True:
            flat_search(b, self.rng, wins, visits, chunk, CAP)
            done += 1
            if done >= rounds and time.monotonic() - start >= seconds:
                break
        self.playouts.append(int(visits.sum()))
        best = int(np.argmax(wins / np.maximum(visits, 1.0)))
        return Place(unpadded(legal_at(b, best), state.size))


@dataclass
class Tally:
    wins: float = 0.0
    games: int = 0
    miai_seconds: list[float] = field(default_factory=list)
    flat_seconds: list[float] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)


def play_game(
    size: int, level: int, seconds: float, factor: float, miai_player: int, seed: int, tally: Tally,
    flat: FlatMonteCarlo,
) -> float:  # fmt: skip
    """One game; returns Miai's score (1 win, 0.5 draw at the ply cap, 0 loss)."""
    seat = AnyGameSeat(level)
    state = new_game(size)
    try:
        while not state.is_over:
            start = time.monotonic()
            if state.to_move == miai_player:
                move = seat.move(portable(state), seconds, seed + state.plies)  # as the server sends it
                tally.miai_seconds.append(time.monotonic() - start)
                if isinstance(move, Resign | Timeout):
                    return 0.0
            else:
                move = flat.move(state, factor * seconds)
                tally.flat_seconds.append(time.monotonic() - start)
            state = state.play(move)
    finally:
        seat.close()
    tally.plies.append(state.plies)
    return 0.5 if state.winner is None else float(state.winner == miai_player)


def tanbo_main(args: argparse.Namespace) -> int:
    """The Tanbo match for strength_games.py's arguments (`--size`: 9, 13 or 19, the default)."""
    size = args.size or 19
    if size not in LAYOUT_SIZES:
        print(f"Tanbo has start layouts for sizes {LAYOUT_SIZES}, not {size}", file=sys.stderr)
        return 2
    factor = float(getattr(args, "factor", 4.0))
    if not 0 < factor <= 100:
        print(f"--factor must be a number of times in (0, 100], not {factor!r}", file=sys.stderr)
        return 2
    warm = AnyGameSeat(args.level)  # compiling (or loading) Miai's engine is not thinking time
    warm.move(new_game(size), 0.05, args.seed)
    warm.close()
    FlatMonteCarlo(args.seed).move(new_game(size), 0.01)
    tally = Tally()
    flat = FlatMonteCarlo(args.seed)
    for number in range(args.games):
        miai_player = number % 2  # Black (0) moves first
        seed = args.seed + number
        score = play_game(size, args.level, args.seconds, factor, miai_player, seed, tally, flat)
        tally.games += 1
        tally.wins += score
        low, high = wilson(tally.wins, tally.games)
        result = {1.0: "won", 0.5: "drew", 0.0: "lost"}[score]
        print(
            f"game {number + 1}: Miai {'first' if miai_player == 0 else 'second'}, {result} in "
            f"{tally.plies[-1] if tally.plies else '?'} plies; {tally.wins:g}/{tally.games} "
            f"[{low:.2f}, {high:.2f}]; s/move Miai {mean(tally.miai_seconds):.2f} "
            f"flat MC {mean(tally.flat_seconds):.2f}",
            file=sys.stderr,
            flush=True,
        )
    low, high = wilson(tally.wins, tally.games)
    print(
        f"tanbo {size} Miai level {args.level} at {args.seconds:g} s a move vs flat Monte Carlo at "
        f"{factor * args.seconds:g} s: {tally.wins:g}/{tally.games} = {tally.wins / tally.games:.0%}, "
        f"95% [{low:.2f}, {high:.2f}]; s/move Miai {mean(tally.miai_seconds):.2f}, "
        f"flat MC {mean(tally.flat_seconds):.2f} ({mean(flat.playouts):.0f} playouts a move); "
        f"plies per game {mean(tally.plies):.0f}"
    )
    return 0

"""Multi-colour Go: Miai level 10 against weaker Miai players (level 5 by default) in 3-colour games.

    python bench/strength_colours.py --games 12 --seconds 1

Every game is 9×9 (`--size`) under the DipGo preset, the multi-colour one, for `--colours` colours (3 by
default, no komi); the strong seat rotates through the colours (colour 1 in game 1, 2 in game 2, ...), the
other seats play at level `--others`. Each seat is one computer player for the whole game, as on the
server (its tree kept between moves). A game ends by passes (or after `--max-rounds` rounds) and is scored
with the dead-stone estimator; a shared first place counts as its share. Reported: the strong seat's wins
with a 95% Wilson interval against the 1/colours baseline, and each kind of seat's seconds per move.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from miai.core.go import GoState, new_game, preset
from miai.engines.estimator import score_with_estimate
from miai.engines.levels import make_move_generator
from strength import mean, wilson


def share(winners: tuple[int, ...] | list[int], colour: int) -> float:
    """`colour`'s part of the win: 1 alone, 1/k of a k-way shared first place, 0 otherwise."""
    return 1.0 / len(winners) if colour in winners else 0.0


@dataclass
class Tally:
    wins: float = 0.0
    games: int = 0
    strong_seconds: list[float] = field(default_factory=list)
    other_seconds: list[float] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)


def play_game(args: argparse.Namespace, strong: int, seed: int, tally: Tally) -> tuple[float, list[int]]:
    """One game; returns the strong seat's share of the win and the winning colours."""
    rules = preset(args.preset, args.size, colours=args.colours, komi=0.0)  # no komi beyond two colours
    state: GoState = new_game(args.size, rules, colours=args.colours)
    players = [
        make_move_generator(args.level if c == strong else args.others, args.seconds, seed * 16 + c)
        for c in range(args.colours)
    ]
    limit = args.max_rounds * args.colours
    try:
        while not state.is_over and state.plies < limit:
            colour = state.to_move
            start = time.monotonic()
            move = players[colour](state, colour, args.seconds)
            spent = tally.strong_seconds if colour == strong else tally.other_seconds
            spent.append(time.monotonic() - start)
            state = state.play(move)
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    tally.plies.append(state.plies)
    winners = sorted(score_with_estimate(state).winners)
    return share(winners, strong), winners


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Multi-colour Go: level 10 vs weaker players, 95% interval")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per move (every seat)")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--colours", type=int, default=3)
    parser.add_argument("--level", type=int, default=10, help="the strong seat's level")
    parser.add_argument("--others", type=int, default=5, help="the other seats' level")
    parser.add_argument("--preset", default="dipgo")
    parser.add_argument("--max-rounds", type=int, default=200, help="rounds before a game is scored as is")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1 or not (math.isfinite(args.seconds) and 0 < args.seconds < 3600):
        parser.error("--games must be at least 1 and --seconds in (0, 3600)")
    if not 5 <= args.size <= 19 or not 3 <= args.colours <= 8 or args.max_rounds < 1:
        parser.error("--size must be 5..19, --colours 3..8 and --max-rounds at least 1")
    if not (1 <= args.level <= 10 and 1 <= args.others <= 10):
        parser.error("--level and --others must be Miai levels 1..10")
    tally = Tally()
    for number in range(args.games):
        strong = number % args.colours
        start = time.monotonic()
        points, winners = play_game(args, strong, args.seed + number, tally)
        tally.games += 1
        tally.wins += points
        low, high = wilson(tally.wins, tally.games)
        print(
            f"game {number + 1}: level {args.level} as colour {strong + 1}, winners "
            f"{'+'.join(str(w + 1) for w in winners)} ({points:g}) in {tally.plies[-1]} moves, "
            f"{time.monotonic() - start:.0f} s; {tally.wins:g}/{tally.games} [{low:.2f}, {high:.2f}]",
            file=sys.stderr,
            flush=True,
        )
    low, high = wilson(tally.wins, tally.games)
    baseline = 1.0 / args.colours
    verdict = "above" if low > baseline else "not clearly above"
    print(
        f"{args.colours} colours {args.size}x{args.size} ({args.preset}), level {args.level} vs level "
        f"{args.others} at {args.seconds:g} s a move: {tally.wins:g}/{tally.games} = "
        f"{tally.wins / tally.games:.0%}, 95% [{low:.2f}, {high:.2f}], {verdict} the {baseline:.2f} "
        f"baseline; "
        f"s/move level {args.level} {mean(tally.strong_seconds):.2f}, level {args.others} "
        f"{mean(tally.other_seconds):.2f}; moves per game {mean(tally.plies):.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

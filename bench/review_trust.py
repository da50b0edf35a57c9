"""Review trust benchmark (issue 34): does a review's final lead agree with the game's count, and how much
does Black's winning chance move from position to position near the end of a game?

    PYTHONPATH=src .venv/bin/python bench/review_trust.py [--games 10] [--playouts 200] [--size 9]
                                                           [--last 20]

Games: the finished records of ../shared/data/gnugo/games on the board size asked for (ended by passes,
with a result, more than 40 moves), in path order. Each game is counted as the server counts it: the
estimator's dead stones on the final position (`judge_end(state)`, as
`server.play.judging` does). For each game the
review reads its last `--last` positions (`review_position`, `--playouts` a position, seed 1); the figures:
* agree: the share of games whose final position's score lead (Black's score minus White's) is within 2
  points of the count;
* change: the mean absolute change of Black's winning chance between consecutive positions before the
  final one (the final one is the decided result), averaged over the games;
* parity: the mean of Black's share at each position minus its neighbours' mean, signed + when Black is
  to move: the part of the change that follows the side to move.
Progress to stderr. (The "before" figures of docs/engine.md were read with a copy of the old review kept
here as `--before` until commit a3caf7a: check that out to measure them again.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import pairwise
from pathlib import Path

from miai.core.go import GoState, Pass
from miai.engines import review
from miai.engines.estimator import judge_end, score_judged
from miai.formats.sgf.go import load_go

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "gnugo" / "games"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def finished(size: int, limit: int) -> list[tuple[Path, GoState]]:
    out: list[tuple[Path, GoState]] = []
    for path in sorted(DATA.rglob("*.sgf")):
        data = path.read_bytes()
        if b"RE[" not in data:
            continue
        try:
            state = load_go(data).state
        except Exception:  # a record the loader refuses is no finished game here
            continue
        ended = state.is_over and isinstance(state.last_move, Pass)
        if state.size == size and state.colours == 2 and ended and sum(1 for _ in state.lineage()) > 40:
            out.append((path, state))
        if len(out) >= limit:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="how many finished games (default 10)")
    parser.add_argument("--playouts", type=int, default=200, help="review playouts a position (default 200)")
    parser.add_argument("--size", type=int, default=9, help="board size (default 9)")
    parser.add_argument("--last", type=int, default=20, help="positions read at the end of each game")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        log(f"bench/review_trust.py: {DATA} is missing (../shared/data)")
        return 1
    read = review.review_position
    games = finished(args.size, args.games)
    agree = 0
    errors: list[float] = []
    changes: list[float] = []
    parities: list[float] = []
    started = time.perf_counter()
    for number, (path, final) in enumerate(games, start=1):
        result = score_judged(final, judge_end(final))  # as the server judges it
        count = result.scores[0].total - result.scores[1].total
        states = list(reversed(list(final.lineage())))[-(args.last + 1) :]
        seen = [read(s, args.playouts, 1) for s in states]
        lead = seen[-1].score[0] - seen[-1].score[1]
        error = abs(lead - count)
        errors.append(error)
        agree += error <= 2.0
        black = [p.shares[0] for p in seen[:-1]]
        change = statistics.mean(abs(a - b) for a, b in pairwise(black))
        changes.append(change)
        parity = [
            (black[i] - (black[i - 1] + black[i + 1]) / 2) * (1 if states[i].to_move == 0 else -1)
            for i in range(1, len(black) - 1)
        ]
        parities.append(statistics.mean(parity))
        log(
            f"[{number}/{len(games)}] {path.name}: count {count:+.1f}, final lead {lead:+.1f}, "
            f"change {change:.3f}, parity {parities[-1]:+.3f} ({time.perf_counter() - started:.0f} s)"
        )
    print(f"{len(games)} finished {args.size}x{args.size} games, {args.playouts} playouts a position:")
    print(f"  final lead within 2 points of the count: {agree}/{len(games)} ({agree / len(games):.0%})")
    print(f"  final lead error: mean {statistics.mean(errors):.1f}, max {max(errors):.1f} points")
    print(
        f"  mean |change| of Black's winning chance over the last {args.last} moves: "
        f"{statistics.mean(changes):.3f}"
    )
    print(f"  parity (the part that follows the side to move): {statistics.mean(parities):+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

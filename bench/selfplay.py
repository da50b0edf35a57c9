"""A/B test of the Go engine's settings: Miai against Miai with one change, colours alternating.

    python bench/selfplay.py --size 13 --games 40 --seconds 0.5 --b knobs.two_libs=0 --jobs 2

Side A plays with the defaults plus `--a` overrides, side B with the defaults plus `--b` overrides. An
override is `params.NAME=VALUE` (a tree parameter of `miai.engines.kernel.tree`, e.g. params.rave_equiv)
or `knobs.NAME=VALUE` (a playout-policy knob of `miai.engines.kernel.playout`, e.g. knobs.fill_board).
Each game is played to two passes or a resignation under Chinese rules (komi 7.5 unless told otherwise)
and scored with the dead-stone estimator. Games run in `--jobs` worker processes, one search thread each,
so a time budget is fair only when no other work shares the machine. Reported: B's wins with a 95% Wilson
interval; progress goes to stderr after every game.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from miai.core.go import RESIGN, GoState, new_game, preset
from miai.engines.estimator import score_with_estimate
from miai.engines.go_player import GoPlayer, Style
from miai.engines.kernel import playout, tree
from strength import wilson


@dataclass(frozen=True)
class Side:
    params: tuple[tuple[int, float], ...]
    knobs: tuple[tuple[int, float], ...]


def parse_overrides(text: list[str]) -> Side:
    """`params.NAME=VALUE` / `knobs.NAME=VALUE` overrides as (index, value) pairs."""
    params: list[tuple[int, float]] = []
    knobs: list[tuple[int, float]] = []
    for item in text:
        try:
            name, value = item.split("=", 1)
            group, field = name.split(".", 1)
            number = float(value)
        except ValueError:
            wanted = "params.NAME=VALUE or knobs.NAME=VALUE"
            raise SystemExit(f"selfplay: an override reads {wanted}, not {item!r}") from None
        if group == "params":
            index = getattr(tree, field.upper(), None)
            target = params
        elif group == "knobs":
            index = getattr(playout, "K_" + field.upper(), None)
            target = knobs
        else:
            raise SystemExit(f"selfplay: {group!r} is neither params nor knobs")
        if not isinstance(index, int):
            raise SystemExit(f"selfplay: no {group} setting named {field!r}")
        target.append((index, number))
    return Side(tuple(params), tuple(knobs))


def make_player(side: Side, args: argparse.Namespace, seed: int) -> GoPlayer:
    player = GoPlayer(Style(args.playouts, args.seconds, threads=1), seed=seed)
    params = tree.default_params()
    knobs = playout.policy_knobs()
    for index, value in side.params:
        params[index] = value
        if index == tree.PRIOR_NET:
            player.search.net_prior = value  # the search sets this one per board size
    for index, value in side.knobs:
        knobs[index] = value
    player.search.params = params
    player.search.knobs = np.asarray(knobs)
    return player


def play_one(game: int, a: Side, b: Side, args: argparse.Namespace) -> tuple[int, float, int]:
    """One game; returns (game number, B's score 1/0.5/0, moves played)."""
    b_colour = game % 2  # B is Black in even games
    players = {b_colour: make_player(b, args, 1000 + game), 1 - b_colour: make_player(a, args, 2000 + game)}
    state: GoState = new_game(args.size, preset("chinese", args.size, komi=args.komi))
    moves = 0
    while not state.is_over and moves < 3 * args.size * args.size:
        colour = state.to_move
        move = players[colour].choose(state, colour)
        if move == RESIGN:
            return game, 0.0 if colour == b_colour else 1.0, moves
        state = state.play(move)
        moves += 1
    result = score_with_estimate(state)
    winners = result.winners
    if len(winners) != 1:
        return game, 0.5, moves
    return game, 1.0 if b_colour in winners else 0.0, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Miai against Miai with one change: B's wins, 95% interval")
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=None, help="time per move")
    parser.add_argument("--playouts", type=int, default=None, help="playouts per move")
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--a", nargs="*", default=[], help="side A's overrides")
    parser.add_argument("--b", nargs="*", default=[], help="side B's overrides")
    args = parser.parse_args(argv)
    if args.seconds is None and args.playouts is None:
        parser.error("give --seconds, --playouts or both")
    if not 5 <= args.size <= 25 or args.games < 1 or args.jobs < 1:
        parser.error("need a size of 5..25, at least one game and one job")
    a, b = parse_overrides(args.a), parse_overrides(args.b)
    print(f"A: {' '.join(args.a) or 'defaults'}; B: {' '.join(args.b) or 'defaults'}; size {args.size}")
    start = time.monotonic()
    score = 0.0
    done = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(play_one, game, a, b, args) for game in range(args.games)]
        for job in as_completed(jobs):
            game, points, moves = job.result()
            score += points
            done += 1
            low, high = wilson(score, done)
            print(
                f"game {game + 1}: B {'won' if points == 1 else 'lost' if points == 0 else 'drew'} as"
                f" {'Black' if game % 2 == 0 else 'White'} in {moves} moves; B {score:g}/{done}"
                f" [{low:.0%}, {high:.0%}], {time.monotonic() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    low, high = wilson(score, done)
    print(f"B wins {score:g}/{done} = {score / done:.0%}, 95% interval [{low:.0%}, {high:.0%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())

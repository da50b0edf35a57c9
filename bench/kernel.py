"""Playouts per second of the compiled kernel, beside the pure-Python core measured in the same run.

    python bench/kernel.py [--seconds 3] [--sizes 9 19]

A random playout starts from the empty board and plays uniformly random legal moves that do not fill
the player's own eye until both sides pass, then scores by area (the classic benchmark of Go engines).
Rates are per CPU second of this process (one core; `time.process_time`), so other load on the machine
disturbs them less than wall-clock rates. Also shown: the light policy of the search's playouts, and
whole simulations of the tree search (selection, expansion, playout, back-up), and evaluations of the
tree's move predictor (`kernel.policy_net`). Targets: >= 30,000 random
playouts/s on 9x9 and >= 7,000 on 19x19.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numpy as np

from miai.core.go import PASS, GoState, Place, Rules, new_game
from miai.engines.go_search import POLICY_NET, KernelSearch
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import MAX_SIZE, P
from miai.engines.kernel.patterns import PATTERNS
from miai.engines.kernel.playout import new_rng, policy_knobs, repeated_playouts
from miai.engines.kernel.policy_net import N_PLANES, Buffers, encode, forward

TARGETS = {9: 30_000, 19: 7_000}


def rate(run: Callable[[int], None], seconds: float, first: int = 1) -> float:
    """Batches of growing size until `seconds` of CPU time are spent; returns items per CPU second."""
    done = 0
    batch = first
    start = time.process_time()
    while True:
        run(batch)
        done += batch
        spent = time.process_time() - start
        if spent >= seconds:
            return done / spent
        batch = min(batch * 2, 100_000)


def kernel_playouts(size: int, light: bool) -> Callable[[int], None]:
    position = from_state(new_game(size, Rules(komi=(0.0, 7.5))))
    rng = new_rng(1)
    limit = 3 * size * size + 50
    knobs = policy_knobs(light)

    def run(count: int) -> None:
        repeated_playouts(
            position.b, position.hz, position.zob, position.komi, rng, PATTERNS, knobs, count, limit
        )

    run(1)  # compile or load from the cache outside the measurement
    return run


def _own_eye(state: GoState, colour: int, point: int) -> bool:
    """The same eye test as the kernel's playouts, on the core's public API."""
    geo = state.geo
    if any(state.colour_at(n) != colour for n in geo.neighbours[point]):
        return False
    col, row = geo.col_row(point)
    diagonals = [(col + dc, row + dr) for dc in (-1, 1) for dr in (-1, 1)]
    inside = [geo.point(c, r) for c, r in diagonals if 0 <= c < state.size and 0 <= r < state.size]
    bad = sum(1 for d in inside if state.colour_at(d) not in (None, colour))
    return bad == 0 if len(inside) < 4 else bad < 2


def core_playouts(size: int) -> Callable[[int], None]:
    start = new_game(size, Rules(komi=(0.0, 7.5)))
    rng = random.Random(1)
    limit = 3 * size * size + 50

    def run(count: int) -> None:
        for _ in range(count):
            state = start
            for _ in range(limit):
                if state.is_over:
                    break
                colour = state.to_move
                points = [p for p in state.legal_points(colour) if not _own_eye(state, colour, p)]
                state = state.play(Place(rng.choice(points)) if points else PASS)
            state.rewards()

    return run


def search_simulations(size: int) -> Callable[[int], None]:
    state = new_game(size, Rules(komi=(0.0, 7.5)))
    search = KernelSearch(seed=1, capacity=2_000_000, reuse=False)
    search.search(state, playouts=8)

    def run(count: int) -> None:
        search.search(state, playouts=count)

    return run


def net_evaluations(size: int) -> Callable[[int], None]:
    """The tree's move predictor on the empty board (encoding included), as the search calls it."""
    position = from_state(new_game(size, Rules()))
    planes = np.zeros((MAX_SIZE, MAX_SIZE, N_PLANES), dtype=np.float32)
    libs, tmp = np.empty(P, dtype=np.int32), np.empty(8, dtype=np.int32)
    buf = Buffers(POLICY_NET.widest)
    net = POLICY_NET
    logits = np.zeros(MAX_SIZE * MAX_SIZE, dtype=np.float32)

    def run(count: int) -> None:
        for _ in range(count):
            encode(position.b, 0, planes, libs, tmp)
            forward(planes, size, net.weights, net.layers, buf.act_a, buf.act_b, buf.cols, buf.out, logits)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="kernel playouts per second vs the pure-Python core")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    args = parser.parse_args(argv)
    print(
        f"{'board':>6} {'random kernel':>14} {'random core':>12} {'ratio':>8} {'light kernel':>13} "
        f"{'search sims':>12} {'net evals':>10} {'target':>8}"
    )
    ok = True
    for size in args.sizes:
        print(f"measuring {size}x{size} ...", file=sys.stderr, flush=True)
        kernel = rate(kernel_playouts(size, light=False), args.seconds, first=64)
        core = rate(core_playouts(size), args.seconds)
        light = rate(kernel_playouts(size, light=True), args.seconds, first=64)
        sims = rate(search_simulations(size), args.seconds, first=64)
        evals = rate(net_evaluations(size), args.seconds, first=4)
        target = TARGETS.get(size)
        met = "" if target is None else ("met" if kernel >= target else "MISSED")
        ok = ok and met != "MISSED"
        print(
            f"{size:>4}x{size:<1} {kernel:>14,.0f} {core:>12,.1f} {kernel / core:>7,.0f}x {light:>13,.0f} "
            f"{sims:>12,.0f} {evals:>10,.0f} {met:>8}"
        )
    print("rates are playouts (simulations, move-predictor evaluations) per CPU second on one core")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

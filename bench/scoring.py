"""Speed of Miai's dead-stone estimator on finished 19x19 games, beside GNU Go's final_score on the same.

    .venv/bin/python bench/scoring.py [--positions N] [--playouts N] [--no-gnugo]

Positions: the 19x19 games of GNU Go's scoring regression set (../shared/data/gnugo/games/scoring), each
at its end, counted as GNU Go does by default (Japanese rules, the record's komi). For each position:
* Miai: CPU seconds of `estimate` plus scoring, in this process (the estimator runs on one thread);
* GNU Go: CPU seconds of `loadsgf` plus `final_score` in its own process (read from /proc; wall-clock
  seconds where /proc is missing, which then include the GTP round trip).
CPU time keeps other jobs on a shared machine from distorting either side. The first estimate of a
process loads (or compiles) the compiled playouts; it is measured apart on a small board. Also measured:
the live territory estimate (`area_estimate`, default playouts) on an empty 19x19 board and after move 100
of each game. Target: under 1 s per finished 19x19 position for Miai, and for the live estimate.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from miai.core.go import GoState, new_game, preset
from miai.engines.estimator import AREA_PLAYOUTS, DEFAULT_PLAYOUTS, area_estimate, estimate, score_judged
from miai.formats.gtp import GtpController, find_gnugo, gnugo_channel
from miai.formats.sgf.go import load_go

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "gnugo"
TARGET = 1.0  # seconds per finished 19x19 position


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cpu() -> float:
    return time.process_time()


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of another process, or None where /proc cannot tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def records(limit: int | None) -> list[Path]:
    """The 19x19 records the scoring regression files load, in their order."""
    paths: list[Path] = []
    for name in ("score.tst", "score2.tst"):
        for line in (DATA / name).read_text().splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] == "loadsgf" and (DATA / words[1]) not in paths:
                paths.append(DATA / words[1])
    nineteen = [path for path in paths if load_go(path.read_bytes()).state.size == 19]
    return nineteen[:limit] if limit else nineteen


def japanese(path: Path, upto: int | None = None) -> GoState:
    data = path.read_bytes()
    first = load_go(data)
    size = first.state.size
    handicap = first.state.handicap if first.state.handicap >= 2 else 0
    rules = replace(preset("japanese", size, 2, handicap, first.rules.komi_of(1)), allowed_sizes=(size,))
    return load_go(data, rules=rules, upto=upto).state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10, help="how many games (default 10; 0 = all)")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS, help="estimator playouts")
    parser.add_argument("--no-gnugo", action="store_true", help="measure Miai only")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        log(f"bench/scoring.py: {DATA} is missing (../shared/data)")
        return 1
    paths = records(args.positions or None)
    gnugo_path = None if args.no_gnugo else find_gnugo()
    if not args.no_gnugo and gnugo_path is None:
        log("GNU Go not found: measuring Miai only")

    started = cpu()
    estimate(new_game(9), 10)
    first_call = cpu() - started

    rows: list[tuple[str, float, float | None, str, str]] = []
    channel = gnugo_channel(timeout=900.0) if gnugo_path else None
    controller = GtpController(channel) if channel else None
    try:
        for path in paths:
            state = japanese(path)
            started = cpu()
            result = score_judged(state, estimate(state, args.playouts))
            miai_seconds = cpu() - started
            margin = result.scores[0].total - result.scores[1].total
            miai_answer = f"{'B' if margin > 0 else 'W'}+{abs(margin):.1f}" if margin else "0"
            gnugo_seconds: float | None = None
            gnugo_answer = "-"
            if controller is not None and channel is not None:
                before = process_cpu(channel.pid)
                wall = time.perf_counter()
                controller.loadsgf(path)
                gnugo_answer = controller.final_score()
                after = process_cpu(channel.pid)
                gnugo_seconds = after - before if before is not None and after is not None else None
                if gnugo_seconds is None:
                    gnugo_seconds = time.perf_counter() - wall
            rows.append((path.stem, miai_seconds, gnugo_seconds, miai_answer, gnugo_answer))
            gnugo_text = "-" if gnugo_seconds is None else f"{gnugo_seconds:.2f} s"
            log(f"{path.stem}: Miai {miai_seconds:.3f} s {miai_answer}; GNU Go {gnugo_text} {gnugo_answer}")
    finally:
        if channel is not None:
            channel.close()

    area_rows = []
    for state in [new_game(19)] + [japanese(path, upto=100) for path in paths]:
        started = cpu()
        area_estimate(state)
        area_rows.append(cpu() - started)

    miai_times = [row[1] for row in rows]
    print(f"Dead-stone estimate on {len(rows)} finished 19x19 games ({args.playouts} playouts), CPU seconds:")
    print(f"{'game':<48} {'Miai':>8} {'GNU Go':>8}  answers (Miai / GNU Go)")
    for name, miai_seconds, gnugo_seconds, miai_answer, gnugo_answer in rows:
        gnugo_text = f"{gnugo_seconds:8.2f}" if gnugo_seconds is not None else f"{'-':>8}"
        print(f"{name:<48} {miai_seconds:8.3f} {gnugo_text}  {miai_answer} / {gnugo_answer}")
    print(f"first estimate in this process (loads or compiles the playouts): {first_call:.2f} s")
    print(f"Miai: mean {statistics.mean(miai_times):.3f} s, max {max(miai_times):.3f} s per position")
    gnugo_times = [row[2] for row in rows if row[2] is not None]
    if gnugo_times:
        ratio = statistics.mean(gnugo_times) / statistics.mean(miai_times)
        print(
            f"GNU Go final_score: mean {statistics.mean(gnugo_times):.2f} s, max {max(gnugo_times):.2f} s "
            f"per position ({ratio:.0f}x Miai's mean)"
        )
    print(
        f"Live territory estimate ({AREA_PLAYOUTS} playouts): empty 19x19 {area_rows[0]:.3f} s; "
        f"after move 100, mean {statistics.mean(area_rows[1:] or [0.0]):.3f} s, "
        f"max {max(area_rows[1:] or [0.0]):.3f} s"
    )
    verdict = "met" if max(miai_times) < TARGET and max(area_rows) < TARGET else "NOT met"
    print(f"Target (< {TARGET:g} s per 19x19 position, estimate and live view): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Scoring accuracy beside GNU Go, in one run on the same positions (moved here from the test suite: it
compares two programs' figures, and GNU Go's reading of the scoring games takes minutes of CPU).

* OGS autoscore positions (`../shared/data/ogs-autoscore`): ownership point by point and position by
  position against the human-agreed `correct_ownership`; Miai's estimator, then GNU Go's
  `final_status_list dead` and `seki` mapped to ownership the same way.
* GNU Go's scoring regression games (`../shared/data/gnugo`): the score under Japanese counting against the
  expected `final_score`, Miai's and GNU Go's own.

    python bench/scoring_accuracy.py [--limit N] [--data DIR]

The suite (tests/conformance/test_scoring_accuracy.py) keeps Miai's side, held to GNU Go's figures measured
here; docs/engine.md has the numbers.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from miai.core.go import GoState
from miai.engines.estimator import estimate, judged_ownership, score_judged
from miai.formats.gtp import GtpController, find_gnugo, gnugo_channel, parse_vertex
from scoring_data import (
    OgsPosition,
    ScoreCase,
    margin_text,
    matching_points,
    ogs_positions,
    score_cases,
    setup_sgf,
    territory_record,
)

PLAYOUTS = 1000  # the suite's and the server's estimator
SEED = 0
GNUGO_TIMEOUT = 900.0  # seconds for one answer: GNU Go reads some scoring games for minutes
DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def gnugo_points(controller: GtpController, state: GoState, status: str) -> frozenset[int]:
    out = set()
    for word in controller.command("final_status_list", status).split():
        vertex = parse_vertex(word, state.size)
        if vertex is not None:
            out.add(vertex[1] * state.size + vertex[0])
    return frozenset(out)


def gnugo_ogs_owners(positions: list[OgsPosition], folder: Path) -> list[tuple[int | None, ...]]:
    owners = []
    with gnugo_channel(timeout=GNUGO_TIMEOUT) as channel:
        controller = GtpController(channel)
        for position in positions:
            path = folder / f"{position.name}.sgf"
            path.write_text(setup_sgf(position.state))
            controller.loadsgf(path)
            dead = gnugo_points(controller, position.state, "dead")
            seki = gnugo_points(controller, position.state, "seki")
            owners.append(judged_ownership(position.state, dead, seki)[0])
    return owners


def gnugo_scores(cases: list[ScoreCase], gnugo: Path) -> list[str]:
    with gnugo_channel(timeout=GNUGO_TIMEOUT) as channel:
        controller = GtpController(channel)
        answers = []
        for case in cases:
            controller.loadsgf(gnugo / case.record, case.move)
            answers.append(controller.final_score())
    return answers


def ogs_lines(positions: list[OgsPosition], owners: dict[str, list[tuple[int | None, ...]]]) -> list[str]:
    total = sum(len(p.expected) for p in positions)
    lines = [f"OGS autoscore: {len(positions)} positions, {total} points (Miai: {PLAYOUTS} playouts)"]
    for name, found in owners.items():
        right = [matching_points(p, owner) for p, owner in zip(positions, found, strict=True)]
        exact = sum(r == len(p.expected) for r, p in zip(right, positions, strict=True))
        share, of = sum(right) / total, len(positions)
        lines.append(f"  {name:6}: points right {share:.2%}, positions exactly right {exact}/{of}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=0, help="the first N positions and games of each set")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    if find_gnugo() is None:
        print("GNU Go is not installed (apt-get install gnugo)", file=sys.stderr)
        return 2
    positions = ogs_positions(args.data / "ogs-autoscore")
    cases = score_cases(args.data / "gnugo")
    if args.limit:
        positions, cases = positions[: args.limit], cases[: args.limit]
    started = time.monotonic()
    print(f"OGS positions: Miai, then GNU Go ({len(positions)})", file=sys.stderr, flush=True)
    miai = [estimate(p.state, PLAYOUTS, SEED).owner for p in positions]
    with tempfile.TemporaryDirectory() as folder:
        gnugo = gnugo_ogs_owners(positions, Path(folder))
    for line in ogs_lines(positions, {"Miai": miai, "GNU Go": gnugo}):
        print(line, flush=True)
    print(f"scoring games: Miai, then GNU Go ({len(cases)}; minutes)", file=sys.stderr, flush=True)
    ours = []
    for case in cases:
        state = territory_record(args.data / "gnugo" / case.record, case.move)
        result = score_judged(state, estimate(state, PLAYOUTS, SEED))
        ours.append(margin_text(result.scores[0].total, result.scores[1].total))
    theirs = gnugo_scores(cases, args.data / "gnugo")
    print(f"GNU Go scoring games: {len(cases)} finished games (Japanese counting)")
    for name, answers in (("Miai", ours), ("GNU Go", theirs)):
        right = sum(case.accepts(answer) for case, answer in zip(cases, answers, strict=True))
        print(f"  {name:6}: {right}/{len(cases)} right", flush=True)
    print(f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Scoring accuracy on real finished games, held to what GNU Go 3.8 scores on the same positions.

* OGS autoscore positions: Miai's ownership (the estimator's dead stones and seki, then counting under the
  position's rules) against the human-agreed `correct_ownership`, point by point and position by position.
* GNU Go's scoring regression games: Miai's score under Japanese counting against the expected
  `final_score`.

GNU Go's own figures on these sets are measured by bench/scoring_accuracy.py, which runs both programs in
one run (its reading of the scoring games takes minutes, so it is no longer part of the suite); Miai must
do at least as well, and get at least 90% of the OGS positions exactly right.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from miai.engines.estimator import estimate, score_judged
from tests.conftest import bench_module, shared_data

# no_cover: untraced, a whole corpus (README, "Tests and benchmarks")
pytestmark = [pytest.mark.conformance, pytest.mark.no_cover]

PLAYOUTS = 1000
SEED = 0
OGS_EXACT_TARGET = 0.9
# GNU Go 3.8 on the same sets (bench/scoring_accuracy.py, 2026-11-28): 97.25% of the 6,575 OGS points and
# 24 of 31 positions exactly right; 52 of 57 scoring games right.
GNUGO_OGS_POINTS, GNUGO_OGS_EXACT, GNUGO_GAMES_RIGHT = 0.9725, 24, 52

data = bench_module("scoring_data.py")


def report(capsys: pytest.CaptureFixture[str], lines: list[str]) -> None:
    with capsys.disabled():  # the numbers belong in the test log even when the test passes
        print("\n" + "\n".join(lines), file=sys.stderr)


def test_ogs_ownership_at_least_as_right_as_gnugo(capsys: pytest.CaptureFixture[str]) -> None:
    positions = data.ogs_positions(shared_data("ogs-autoscore"))
    assert len(positions) == 31, "the reference figures are for the 31 shared OGS positions"
    total = sum(len(position.expected) for position in positions)
    right = [data.matching_points(p, estimate(p.state, PLAYOUTS, SEED).owner) for p in positions]
    exact = sum(r == len(p.expected) for r, p in zip(right, positions, strict=True))
    wrong = [
        f"{p.name} ({len(p.expected) - r})"
        for r, p in zip(right, positions, strict=True)
        if r < len(p.expected)
    ]
    line = (
        f"OGS autoscore: Miai {sum(right) / total:.2%} of {total} points, {exact}/{len(positions)} positions "
        f"exactly right (GNU Go {GNUGO_OGS_POINTS:.2%}, {GNUGO_OGS_EXACT}); wrong: {', '.join(wrong) or '-'}"
    )
    report(capsys, [line])
    assert sum(right) / total >= GNUGO_OGS_POINTS, line
    assert exact >= max(GNUGO_OGS_EXACT, math.ceil(OGS_EXACT_TARGET * len(positions))), line


def test_gnugo_scoring_games_at_least_as_right_as_gnugo(capsys: pytest.CaptureFixture[str]) -> None:
    folder = shared_data("gnugo")
    cases = data.score_cases(folder)
    assert len(cases) == 57, "the reference figure is for the 57 shared scoring games"
    answers = []
    for case in cases:
        state = data.territory_record(folder / case.record, case.move)
        result = score_judged(state, estimate(state, PLAYOUTS, SEED))
        answers.append(data.margin_text(result.scores[0].total, result.scores[1].total))
    wrong = [
        f"{Path(case.record).stem} {answer} (expected {case.pattern.replace(chr(92), '')})"
        for case, answer in zip(cases, answers, strict=True)
        if not case.accepts(answer)
    ]
    right = len(cases) - len(wrong)
    line = f"GNU Go scoring games: Miai {right}/{len(cases)} right (GNU Go {GNUGO_GAMES_RIGHT})"
    report(capsys, [f"{line}; wrong: {', '.join(wrong) or 'none'}"])
    assert right >= GNUGO_GAMES_RIGHT, line

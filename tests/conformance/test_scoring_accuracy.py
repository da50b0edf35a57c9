"""Scoring accuracy on real finished games, with GNU Go's answers on the same positions in the same run.

* OGS autoscore positions: Miai's ownership (the estimator's dead stones and seki, then counting under
  the position's rules) against the human-agreed `correct_ownership`, point by point and position by
  position. GNU Go's answer: its `final_status_list dead` and `seki` mapped to ownership the same way.
* GNU Go's scoring regression games: Miai's score under Japanese counting against the expected
  `final_score`, beside GNU Go's own `final_score`.

Targets: Miai at least as accurate as GNU Go on both sets, and at least 90% of the OGS positions exactly
right. GNU Go answers from one process in a background thread while Miai works, so the run takes about as
long as GNU Go alone (its reading takes minutes on the scoring games).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest

from miai.core.go import GoState
from miai.engines.estimator import estimate, judged_ownership, score_judged
from miai.formats.gtp import GtpController, find_gnugo, gnugo_channel, parse_vertex
from tests.conformance.scoring_data import (
    OgsPosition,
    ScoreCase,
    margin_text,
    matching_points,
    ogs_positions,
    score_cases,
    setup_sgf,
    territory_record,
)
from tests.conftest import need, shared_data

# no_cover: untraced, a whole corpus (README, "Tests and benchmarks")
pytestmark = [pytest.mark.conformance, pytest.mark.gnugo, pytest.mark.slow, pytest.mark.no_cover]

PLAYOUTS = 1000
SEED = 0
OGS_EXACT_TARGET = 0.9
GNUGO_TIMEOUT = 900.0  # seconds for one answer: GNU Go reads some scoring games for minutes

T = TypeVar("T")


def in_background(job: Callable[[], T]) -> tuple[ThreadPoolExecutor, Future[T]]:
    pool = ThreadPoolExecutor(max_workers=1)
    return pool, pool.submit(job)


def gnugo_points(controller: GtpController, state: GoState, status: str) -> frozenset[int]:
    size = state.size
    out = set()
    for word in controller.command("final_status_list", status).split():
        vertex = parse_vertex(word, size)
        if vertex is not None:
            out.add(vertex[1] * size + vertex[0])
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
    answers = []
    with gnugo_channel(timeout=GNUGO_TIMEOUT) as channel:
        controller = GtpController(channel)
        for case in cases:
            controller.loadsgf(gnugo / case.record, case.move)
            answers.append(controller.final_score())
    return answers


def report(capsys: pytest.CaptureFixture[str], lines: list[str]) -> None:
    with capsys.disabled():  # the numbers belong in the test log even when the test passes
        print("\n" + "\n".join(lines), file=sys.stderr)


def test_ogs_ownership_beside_gnugo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    positions = ogs_positions(shared_data("ogs-autoscore"))
    need(find_gnugo() is not None, "GNU Go not installed")
    assert positions, "no OGS positions found"
    pool, gnugo_job = in_background(lambda: gnugo_ogs_owners(positions, tmp_path))
    try:
        miai = [estimate(position.state, PLAYOUTS, SEED).owner for position in positions]
        gnugo = gnugo_job.result()
    finally:
        pool.shutdown()
    total = sum(len(position.expected) for position in positions)
    lines = [f"OGS autoscore: {len(positions)} positions, {total} points (Miai: {PLAYOUTS} playouts)"]
    shares = {}
    for name, owners in (("Miai", miai), ("GNU Go", gnugo)):
        right = [matching_points(position, owner) for position, owner in zip(positions, owners, strict=True)]
        exact = sum(r == len(position.expected) for r, position in zip(right, positions, strict=True))
        wrong = [
            f"{position.name} ({len(position.expected) - r})"
            for r, position in zip(right, positions, strict=True)
            if r < len(position.expected)
        ]
        shares[name] = (sum(right) / total, exact)
        lines.append(
            f"  {name:6}: points right {sum(right) / total:.2%}, "
            f"positions exactly right {exact}/{len(positions)}; wrong (points): {', '.join(wrong) or 'none'}"
        )
    report(capsys, lines)
    miai_points, miai_exact = shares["Miai"]
    gnugo_points_share, gnugo_exact = shares["GNU Go"]
    assert miai_points >= gnugo_points_share, "\n".join(lines)
    assert miai_exact >= gnugo_exact, "\n".join(lines)
    assert miai_exact >= math.ceil(OGS_EXACT_TARGET * len(positions)), "\n".join(lines)


def test_gnugo_scoring_games_beside_gnugo(capsys: pytest.CaptureFixture[str]) -> None:
    gnugo_folder = shared_data("gnugo")
    cases = score_cases(gnugo_folder)
    need(find_gnugo() is not None, "GNU Go not installed")
    assert len(cases) >= 50, f"only {len(cases)} scoring cases found"
    pool, gnugo_job = in_background(lambda: gnugo_scores(cases, gnugo_folder))
    try:
        miai = []
        for case in cases:
            state = territory_record(gnugo_folder / case.record, case.move)
            result = score_judged(state, estimate(state, PLAYOUTS, SEED))
            miai.append(margin_text(result.scores[0].total, result.scores[1].total))
        gnugo = gnugo_job.result()
    finally:
        pool.shutdown()
    lines = [f"GNU Go scoring games: {len(cases)} finished games (Japanese counting)"]
    right = {}
    for name, answers in (("Miai", miai), ("GNU Go", gnugo)):
        right[name] = sum(case.accepts(answer) for case, answer in zip(cases, answers, strict=True))
        wrong = [
            f"{Path(case.record).stem} {answer} (expected {case.pattern.replace(chr(92), '')})"
            for case, answer in zip(cases, answers, strict=True)
            if not case.accepts(answer)
        ]
        lines.append(f"  {name:6}: {right[name]}/{len(cases)} right; wrong: {', '.join(wrong) or 'none'}")
    report(capsys, lines)
    assert right["Miai"] >= right["GNU Go"], "\n".join(lines)

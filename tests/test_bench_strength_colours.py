"""bench/strength_colours.py: the share of a shared first place, a tiny match and its arguments."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from tests.conftest import bench_module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("strength_colours.py")


def test_a_shared_first_place_counts_as_its_share(bench: ModuleType) -> None:
    assert bench.share([1], 1) == 1.0
    assert bench.share([0, 2], 2) == 0.5
    assert bench.share([0, 1, 2], 0) == pytest.approx(1 / 3)
    assert bench.share([0], 2) == 0.0


def test_a_tiny_match_reports_wins_interval_baseline_and_think_times(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--size", "5", "--games", "2", "--seconds", "0.02", "--others", "1", "--max-rounds", "8"]
    assert bench.main(argv) == 0
    out, err = capsys.readouterr()
    assert "3 colours 5x5 (dipgo), level 10 vs level 1" in out
    assert "/2 = " in out and "95% [" in out and "0.33 baseline" in out and "s/move level 10" in out
    assert "game 1: level 10 as colour 1" in err and "game 2: level 10 as colour 2" in err
    moves = [int(n) for n in re.findall(r" in (\d+) moves", err)]
    # At most 8 rounds of 3 moves, and the automatic passes of colours left without a legal point that the
    # last of them may bring (the core plays those itself: at most the two other colours').
    assert len(moves) == 2 and all(0 < n <= 24 + 2 for n in moves), err


@pytest.mark.parametrize(
    "argv",
    [["--games", "0"], ["--seconds", "nan"], ["--seconds", "inf"], ["--colours", "2"], ["--others", "11"]],
)
def test_bad_arguments_are_refused(bench: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(argv)

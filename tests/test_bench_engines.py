"""bench/engines.py's own logic: its option checks and the ratios it reports (the run itself needs
PostgreSQL, Redis and minutes of CPU: it is run by hand, see bench/server.md)."""

from __future__ import annotations

import pytest

from tests.conftest import bench_module

engines = bench_module("engines.py")


def phase(name: str, seconds: float, waits: list[float], people: list[float]) -> object:
    result = engines.Phase(name, seconds=seconds, computer_moves=len(waits), waits=waits, people=people)
    result.worker_cpu = 0.05 * len(waits)
    return result


def test_the_report_gives_two_workers_against_one_and_busy_against_idle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = engines.parse_args([])
    engines.report(
        args,
        [
            phase("idle", 10, [], [0.010] * 100),
            phase("1 worker", 10, [2.0] * 50, [0.020] * 100),
            phase("2 workers", 5, [1.0] * 50, [0.040] * 100),
        ],
    )
    out = capsys.readouterr().out
    assert "2 workers / 1 worker: computer moves/s 2.00 x, reply wait p50 0.50 x, p99 0.50 x" in out
    assert "busy (1 worker) / idle, people's moves: p50 2.00 x, p99 2.00 x" in out
    assert "busy (2 workers) / idle, people's moves: p50 4.00 x, p99 4.00 x" in out
    assert "50 ms" in out  # the workers' CPU per computer move


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games must be 1..1000"),
        (["--level", "11"], "--level must be 1..10"),
        (["--rate", "nan"], "--rate must be a positive number"),
        (["--people", "1", "--rate", "100", "--idle-seconds", "60"], "would run out of moves"),
    ],
)
def test_bad_options_are_refused(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        engines.parse_args(argv)
    assert refused.value.code == 2
    assert message in capsys.readouterr().err

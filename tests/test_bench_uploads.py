"""The SGF upload benchmark (bench/uploads.py): its records, its reading of /proc, its table, a small run."""

from __future__ import annotations

import os
import subprocess
import sys
from types import ModuleType

import pytest

from miai.formats.sgf import parse_sgf
from tests.conftest import REPO, bench_module

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def uploads() -> ModuleType:
    return bench_module("uploads.py")


def test_every_hostile_shape_is_as_large_as_asked_and_what_it_says(uploads: ModuleType) -> None:
    shapes = uploads.hostile_shapes(MIB)
    for name, data in shapes.items():
        assert MIB - 16 <= len(data) <= MIB, (name, len(data))
    assert shapes["compressed lists"].count(b"AB[aa:yy]") > 100_000  # the shape
    assert parse_sgf(uploads.hostile_shapes(4096)["one compressed list"])[0].root.get_all("AB")[:2] == [
        "aa:yy",
        "aa:yy",
    ]
    values = uploads.rectangles(25, 7 * 1000)
    assert len(values) == 7 * 1000 and len(set(values.split(b"]"))) == 1001  # distinct, and never yy
    assert b"y" not in values


def test_the_reference_game_is_a_real_game_of_that_length(uploads: ModuleType) -> None:
    from miai.formats.sgf.go import load_go

    record = load_go(uploads.long_game(9, 60))
    assert record.state.plies == 60 and not record.problems


def test_proc_status_lines_are_read_in_kib(uploads: ModuleType) -> None:
    status = "Name:\tpython\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n"
    assert uploads.status_kib(status, "VmRSS") == 102400
    assert uploads.status_kib(status, "VmHWM") == 204800
    assert uploads.status_kib(status, "VmSwap") == 0
    memory = uploads.Memory(os.getpid())
    assert memory.rss() > 0


def test_a_run_is_one_line_of_the_table(uploads: ModuleType) -> None:
    run = uploads.Run("empty nodes", 2, MIB, before=100 * 1024, peak=130 * 1024, after=101 * 1024)
    run.answers = [(422, "bad_sgf: too many nodes")] * 2
    run.seconds = [0.5, 0.7]
    run.health = [0.002, 0.004, 0.1]
    line = run.line()
    assert line.startswith("empty nodes")
    for part in ("2 x   1024 KiB", "2 x 422", "max  0.70 s", "peak +  30.0 MB", "after +   1.0 MB"):
        assert part in line, line
    assert "/health p50    4.0 ms, max   100.0 ms" in line and line.endswith("bad_sgf: too many nodes")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--size-kib", "2048"], "--size-kib must be 1..1024"),
        (["--concurrent", "0"], "--concurrent must be 1..32"),
        (["--shapes", "bombs"], "unknown shapes bombs"),
    ],
)
def test_bad_options_are_refused(
    uploads: ModuleType, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        uploads.parse_args(options)
    assert message in capsys.readouterr().err


def test_a_small_run_measures_a_real_server() -> None:
    command = [sys.executable, "bench/uploads.py", "--size-kib", "16", "--concurrent", "2", "--no-reference"]
    command += ["--shapes", "open parentheses,huge comment", "--one-server"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120, check=False, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = run.stdout.splitlines()[1:]
    assert [(row[:26].strip(), int(row[26:29])) for row in rows] == [
        ("no upload (2 s)", 0),
        ("open parentheses", 1),
        ("open parentheses", 2),
        ("huge comment", 1),
        ("huge comment", 2),
    ]
    assert "2 x 422" in rows[2] and "variations nested more than 1,000 deep" in rows[2]
    assert "1 x 201" in rows[3] and "2 x 201" in rows[4]
    assert all("/health p50" in row for row in rows)

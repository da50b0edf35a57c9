"""bench/scoring_accuracy.py (Miai's scoring beside GNU Go's): a run on the first two of each set."""

from __future__ import annotations

import subprocess
import sys

import pytest

from miai.formats.gtp import find_gnugo
from tests.conftest import REPO, need, shared_data


@pytest.mark.gnugo
@pytest.mark.conformance
def test_a_small_run_reports_both_programs_on_both_sets() -> None:
    need(find_gnugo() is not None, "GNU Go not installed")
    data = shared_data("gnugo").parent
    command = [sys.executable, "bench/scoring_accuracy.py", "--limit", "2", "--data", str(data)]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert any(line.startswith("  Miai  : points right") for line in lines), run.stdout
    assert any(line.startswith("  GNU Go: points right") for line in lines), run.stdout
    assert "  GNU Go: " in run.stdout.split("GNU Go scoring games: 2 finished games")[1], run.stdout

"""Conformance: every record of GNU Go's regression games replays identically in Miai and in GNU Go.

After every move (and every setup) `list_stones black` and `list_stones white` must agree. Records that
break the rules GNU Go plays by (simple ko, suicide forbidden) are reported with file, move and reason,
and GNU Go must refuse the same move. One GNU Go process serves all records (`clear_board` between them).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from miai.formats.gtp import find_gnugo
from tests.conformance.gnugo_replay import PipelinedGtp, build_script, first_mismatch, records
from tests.conftest import need, shared_data

RECORDS = 1622  # what ../shared/data/README.md promises


@pytest.mark.no_cover  # untraced: a whole corpus (README, "Tests and benchmarks")
@pytest.mark.conformance
@pytest.mark.gnugo
def test_every_record_replays_like_gnugo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = shared_data("gnugo", "games")
    gnugo = find_gnugo()
    need(gnugo is not None, "GNU Go not installed")
    assert gnugo is not None
    started = time.perf_counter()
    engine = PipelinedGtp([gnugo, "--mode", "gtp"])
    paths = list(records(games))
    moves = 0
    mismatches: list[str] = []
    illegal: list[str] = []
    skipped: list[str] = []
    try:
        for path in paths:
            name = path.relative_to(games).as_posix()
            script = build_script(path, tmp_path)
            if script.skipped:
                skipped.append(f"{name}: {script.skipped}")
                continue
            answers = engine.run([line.command for line in script.lines])
            moves += script.moves
            mismatch = first_mismatch(script, answers)
            for problem in (mismatch, script.inconsistent):
                if problem:
                    mismatches.append(f"{name}: {problem}")
            if script.illegal:
                illegal.append(f"{name}: {script.illegal}")
    finally:
        engine.close()
    seconds = time.perf_counter() - started
    report = [
        f"GNU Go replay: {len(paths)} records, {moves} moves, {len(mismatches)} mismatches, "
        f"{len(illegal)} illegal records, {len(skipped)} not replayed, {seconds:.1f} s",
        *(f"  illegal: {line}" for line in illegal),
        *(f"  not replayed: {line}" for line in skipped),
        *(f"  MISMATCH: {line}" for line in mismatches),
    ]
    with capsys.disabled():  # the summary belongs in the test log even when the test passes
        print("\n" + "\n".join(report), file=sys.stderr)
    assert len(paths) == RECORDS
    assert not mismatches, "\n".join(report)


def test_an_illegal_record_is_reported_with_move_and_reason(tmp_path: Path) -> None:
    record = tmp_path / "suicide.sgf"
    record.write_bytes(b"(;SZ[5];B[ba];W[ee];B[ab];W[aa])")  # White A5 has no liberty and captures nothing
    script = build_script(record, tmp_path)
    assert script.illegal is not None and script.illegal.startswith("move 4 (W A5)")
    assert "suicide" in script.illegal
    assert script.lines[-1].command == "play white A5" and not script.lines[-1].ok


def test_setup_is_sent_as_plays_and_removals_through_loadsgf(tmp_path: Path) -> None:
    record = tmp_path / "setup.sgf"
    record.write_bytes(b"(;SZ[5]AB[aa][bb]AW[cc];B[dd];AE[aa]AW[ee];W[ab])")
    script = build_script(record, tmp_path)
    commands = [line.command for line in script.lines]
    assert commands[2:5] == ["play black A5", "play black B4", "play white C3"]
    assert any(command.startswith("loadsgf ") for command in commands)
    assert script.lines[-2].words == frozenset({"B4", "D2"})  # list_stones black after the last move
    assert script.lines[-1].words == frozenset({"C3", "E1", "A4"})
    assert script.illegal is None and script.inconsistent is None

"""The match runner's own arithmetic and records (bench/strength.py), without playing a match."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from miai.core.go import PASS, Place
from miai.formats.sgf.go import load_go
from tests.conftest import bench_module


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    return bench_module("strength.py")


def test_wilson_interval(strength: ModuleType) -> None:
    low, high = strength.wilson(0, 2)
    assert low == 0.0 and high == pytest.approx(0.658, abs=0.001)
    low, high = strength.wilson(5, 10)
    assert low == pytest.approx(0.237, abs=0.001) and high == pytest.approx(0.763, abs=0.001)
    assert strength.wilson(0, 0) == (0.0, 1.0)


def test_a_game_record_replays_in_miai_and_names_the_players(strength: ModuleType) -> None:
    moves = [(3, 15), (15, 3), None]  # D16, Q4, a pass
    info = {"PB": "Miai level 10", "PW": "GNU Go level 10", "RE": "W+R"}
    record = load_go(strength.game_record(moves, 19, 7.5, info))
    assert [move for _, move in record.state.moves()] == [Place(15 * 19 + 3), Place(3 * 19 + 15), PASS]
    assert record.info["PB"] == "Miai level 10" and record.info["RE"] == "W+R"
    assert record.state.rules.komi_of(1) == 7.5


def test_a_move_miai_refuses_ends_the_record_with_a_comment(strength: ModuleType) -> None:
    record = load_go(strength.game_record([(3, 3), (3, 3), (4, 4)], 9, 7.5, {"RE": "B+R"}))
    assert [move for _, move in record.state.moves()] == [Place(3 * 9 + 3)]
    assert b"replay stopped at move 2" in strength.game_record([(3, 3), (3, 3)], 9, 7.5, {})


def test_the_tally_averages_what_was_played(strength: ModuleType) -> None:
    tally = strength.LevelResult("10", move_seconds=[1.0, 2.0, 3.0], playouts=9_000, search_seconds=3.0)
    assert tally.seconds_per_move() == 2.0 and tally.playouts_per_second() == 3_000
    empty = strength.LevelResult("1")
    assert empty.seconds_per_move() == 0.0 == empty.playouts_per_second()


CRASHING_ENGINE = """#!{python}
# A GTP engine that plays A1 and dies on its second genmove, as GNU Go 3.8 sometimes does. With --passes it
# passes every time instead; with --referee it estimates the score as W+45.5, and with --no-estimate it
# cannot estimate at all.
import sys

moves = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "genmove":
        moves += 1
        if "--passes" in sys.argv:
            print("= pass\\n", flush=True)
            continue
        if moves == 2:
            sys.exit(11)
        print("= A1\\n", flush=True)
    elif words[0] == "estimate_score":
        if "--no-estimate" in sys.argv:
            sys.exit(11)
        print("= W+45.5 (upper bound: 50.0, lower: 40.0)\\n", flush=True)
    else:
        print("= \\n", flush=True)
"""


@pytest.mark.parametrize("referee_estimates", [True, False])
def test_a_game_the_opponent_cannot_finish_is_judged_or_void_and_the_match_goes_on(
    strength: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    referee_estimates: bool,
) -> None:
    fake = tmp_path / "fake-gnugo"
    fake.write_text(CRASHING_ENGINE.format(python=sys.executable))
    fake.chmod(0o755)
    if not referee_estimates:
        # The referee is the same program: make it fail the estimate as well.
        wrapper = tmp_path / "fake-gnugo-no-estimate"
        wrapper.write_text(f"#!/bin/sh\nexec {fake} --no-estimate \"$@\"\n")
        wrapper.chmod(0o755)
        fake = wrapper
    monkeypatch.setenv("MIAI_GNUGO", str(fake))
    miai = f"{sys.executable} {tmp_path / 'fake-gnugo'} --passes"
    assert strength.main(["--size", "5", "--games", "2", "--levels", "1", "--miai-command", miai]) == 0
    out, err = capsys.readouterr()
    if referee_estimates:
        assert "game 1: engine" in err and "adjudicated by the referee's estimate" in err
        assert "game 2/2: Miai White, W+45.5 (win)" in err and "game 1/2: Miai Black, W+45.5 (loss)" in err
        assert " 1/2 " in out and "(2 adjudicated: GNU Go crashed)" in out
    else:
        assert "game 1: void" in err and "game 2: void" in err
        assert "0/0" in out and "(2 void: GNU Go crashed)" in out

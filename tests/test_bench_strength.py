"""The match runner's own arithmetic and records (bench/strength.py), without playing a match."""

from __future__ import annotations

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

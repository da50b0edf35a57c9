"""bench/flat_mc.py, `strength_games.py --game tanbo`: the flat Monte Carlo baseline and a tiny match.

No OpenSpiel is needed for Tanbo, so these run everywhere."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from miai.core.tanbo import new_game
from miai.core.twoplayer import Place
from tests.conftest import bench_module


@pytest.fixture(scope="module")
def games() -> ModuleType:
    return bench_module("strength_games.py")


@pytest.fixture(scope="module")
def flat() -> ModuleType:
    return bench_module("flat_mc.py")


def test_flat_monte_carlo_avoids_a_move_that_loses_at_once(flat: ModuleType) -> None:
    rng = random.Random(2)
    found = 0
    while found < 3:
        state = new_game(9)
        while not state.is_over:
            points = state.legal_points()
            losing = {p for p in points if state.play(Place(p)).winner == 1 - state.to_move}
            if losing and len(losing) < len(points):
                player = flat.FlatMonteCarlo(seed=found)
                assert player.move(state, 0.0, rounds=50).point not in losing
                assert player.playouts[-1] == 50 * len(points)
                found += 1
                break
            state = state.play(Place(rng.choice(points)))


def test_a_tiny_tanbo_match_reports_wins_interval_and_think_times(
    games: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert games.main(["--game", "tanbo", "--size", "9", "--games", "2", "--seconds", "0.02"]) == 0
    out, err = capsys.readouterr()
    assert "tanbo 9 Miai level 10 at 0.02 s a move vs flat Monte Carlo at 0.08 s: " in out
    assert "/2 = " in out and "95% [" in out and "playouts a move" in out and "s/move Miai" in out
    assert "game 1: Miai first" in err and "game 2: Miai second" in err


@pytest.mark.parametrize("argv", [["--size", "11"], ["--factor", "nan"], ["--factor", "0"]])
def test_bad_tanbo_arguments_are_refused(games: ModuleType, argv: list[str]) -> None:
    assert games.main(["--game", "tanbo", "--games", "1", "--seconds", "0.02", *argv]) == 2

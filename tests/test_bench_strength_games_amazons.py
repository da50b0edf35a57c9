"""bench/strength_games.py's Amazons adapter: OpenSpiel's three actions a turn against Miai's moves.

OpenSpiel is the benchmark's own dependency (the `bench` extra, which dev.py installs): these tests skip
without it, except under CI.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from miai.core.amazons import QueenMove, parse_move
from tests.conftest import bench_module, need_module

pyspiel = need_module("pyspiel", "OpenSpiel is not installed (pip install -e '.[bench]')")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("strength_games.py")


def test_amazons_mapping_agrees_on_moves_and_winners(bench: ModuleType) -> None:
    bench.check_mapping(bench.AmazonsAdapter(), pyspiel, 2, seed=4)


def test_a_mapping_without_the_row_flip_is_caught(bench: ModuleType) -> None:
    class Unflipped(bench.AmazonsAdapter):  # type: ignore[name-defined,misc]
        def actions(self, state: Any, move: Any) -> list[int]:
            return list(move)

    with pytest.raises(bench.MismatchError):
        bench.check_mapping(Unflipped(), pyspiel, 1, seed=4)


def test_the_adapter_maps_a_move_both_ways(bench: ModuleType) -> None:
    adapter = bench.AmazonsAdapter()
    state = adapter.miai_start()
    move = parse_move("d1-d7/g7")
    # OpenSpiel counts rows from the top: d1 is row 9, d7 and g7 row 3.
    assert adapter.actions(state, move) == [93, 33, 36]
    assert adapter.move(state, [93, 33, 36]) == move == QueenMove(3, 63, 66)


def test_a_tiny_amazons_match_reports_its_result(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--game", "amazons", "--games", "1", "--seconds", "0.05", "--check", "0"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("amazons default Miai level 10") and "/1 = " in out and "95% [" in out
    assert "game 1: Miai first" in err


def test_other_amazons_sizes_are_refused(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--game", "amazons", "--size", "8"])
    assert "10x10 only" in capsys.readouterr().err

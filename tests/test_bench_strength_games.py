"""bench/strength_games.py: the Miai <-> OpenSpiel mapping and a tiny match.

OpenSpiel is the benchmark's own dependency (the `bench` extra, which dev.py installs): these tests skip
without it, except under CI.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from miai.core.twoplayer import Place
from tests.conftest import bench_module, need_module

pyspiel = need_module("pyspiel", "OpenSpiel is not installed (pip install -e '.[bench]')")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("strength_games.py")


def test_hex_mapping_agrees_on_legal_moves_and_winners(bench: ModuleType) -> None:
    bench.check_mapping(bench.HexAdapter(5), pyspiel, 30, seed=3)


def test_a_transposed_mapping_is_caught(bench: ModuleType) -> None:
    class Transposed(bench.HexAdapter):  # type: ignore[name-defined,misc]
        def actions(self, state: Any, move: Any) -> list[int]:
            r, c = divmod(move.point, self.size)
            return [c * self.size + r]

    with pytest.raises(bench.MismatchError):
        bench.check_mapping(Transposed(5), pyspiel, 30, seed=3)


def test_a_tiny_match_reports_wins_interval_and_think_times(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "hex", "--size", "5", "--games", "2", "--seconds", "0.05", "--check", "2"]
    assert bench.main(argv) == 0
    out, err = capsys.readouterr()
    assert "/2 = " in out and "95% [" in out and "OpenSpiel simulations" in out
    assert "s/move Miai" in out
    assert "game 1: Miai first" in err and "game 2: Miai second" in err


def test_hex_adapter_maps_cells_one_to_one(bench: ModuleType) -> None:
    adapter = bench.HexAdapter(11)
    state = adapter.miai_start()
    assert adapter.actions(state, Place(13)) == [13] and adapter.move(state, [13]) == Place(13)


def test_bad_arguments_are_refused(bench: ModuleType) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--games", "0"])
    with pytest.raises(SystemExit):
        bench.main(["--seconds", "nan"])


@pytest.mark.parametrize(
    "argv",
    [["--size", "1"], ["--size", "400"], ["--check", "-1"], ["--simulations", "-5"], ["--level", "11"]],
)
def test_hostile_arguments_are_refused_with_a_usage_error(bench: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--game", "hex", *argv])
    assert stopped.value.code == 2

"""The server-path match (bench/server_strength.py): a tiny match through `miai serve` reports its row."""

from __future__ import annotations

import pytest

from tests.conftest import bench_module


def test_moves_cross_between_the_server_and_gtp() -> None:
    bench = bench_module("server_strength.py")
    assert bench.gtp_vertex("F4", 9) == (5, 3) and bench.gtp_vertex("pass", 9) is None
    assert bench.notation((5, 3), 9) == "F4" and bench.notation((8, 8), 9) == "J9"
    assert bench.notation(None, 9) == "pass" and bench.notation("resign", 9) == "resign"


def test_a_short_match_through_the_server_reports_wins_with_an_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = bench_module("server_strength.py")
    # 4 rounds each: the server ends both games at its move limit and scores them (a move of each side).
    assert bench.main(["--games", "2", "--seconds", "0.2", "--max-moves", "8", "--level", "2"]) == 0
    out, err = capsys.readouterr()
    assert "game 1/2: server Black" in err and "game 2/2: server White" in err
    assert "void" not in err, err
    lines = out.strip().splitlines()
    assert "ended: move_limit 2" in lines, out
    wins, rate, low, high, server, gtp = lines[-1].replace("[", "").replace(",", "").replace("]", "").split()
    assert wins.endswith("/2") and rate.endswith("%") and low.endswith("%") and high.endswith("%")
    assert 0 < float(server) < 10 and 0 < float(gtp) < 10

"""Learned 3×3 shapes: symmetry, the rates file, the value table, counting, and the shipped table."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from miai.core.go import Rules, new_game
from miai.engines.kernel.choices import count_choices
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import padded
from miai.engines.kernel.open_area import CLASSES, OPEN_RATES_FILE, open_rates_text, parse_open_rates
from miai.engines.kernel.shapes import (
    RATES_FILE,
    SHAPE_VALUES,
    canonical,
    parse_rates,
    values_from_rates,
    variants,
)
from miai.engines.shape_learning import learn, rates_text
from tests.conftest import shared_data

EMPTY_AREA = 0
FIRST_LINE = 0b00_00_00_00_00_11_11_11  # empty but the three points below are off the board


def _code(rows: str) -> int:
    """A code from a 3×3 picture such as 'X.O/.*./###' (X the mover, O another colour, # off)."""
    cells = [c for c in rows.replace("/", "") if c != "*"]
    code = 0
    for c in cells:
        code = code * 4 + ".XO#".index(c)
    return code


def test_variants_are_the_eight_symmetries() -> None:
    corner = _code("##./#*./...")  # a corner point: off the board above and to the left
    assert len(variants(corner)) == 4  # symmetric along the diagonal
    assert _code(".../.*./###") in variants(_code("###/.*./..."))
    assert len(variants(_code("X../.*./..."))) == 4
    assert len(variants(_code("XO./.*./..."))) == 8
    assert canonical(_code("###/.*./...")) == canonical(_code(".../.*./###"))
    assert all(canonical(v) == canonical(corner) for v in variants(corner))


def test_parse_rates_reads_rows_and_rejects_nonsense() -> None:
    assert parse_rates("# header\n\n0 3 100\n63 1 7\n") == {0: (3, 100), 63: (1, 7)}
    with pytest.raises(ValueError, match="line 2: expected 'code chosen available'"):
        parse_rates("# ok\n1 2\n")
    with pytest.raises(ValueError, match="impossible counts"):
        parse_rates("5 9 3\n")
    with pytest.raises(ValueError, match="impossible counts"):
        parse_rates(f"{1 << 16} 0 3\n")


def test_values_rank_shapes_by_how_often_they_are_chosen() -> None:
    hane = canonical(_code("XO./.*./..."))
    values = values_from_rates(
        {EMPTY_AREA: (10, 10_000), canonical(FIRST_LINE): (0, 5_000), hane: (90, 1_000)}
    )
    assert values[FIRST_LINE] < 0.5 < values[hane]
    assert all(values[v] == values[hane] for v in variants(hane))
    assert values[_code("O.X/.*./.X.")] == 0.5  # never seen: neutral
    assert (values_from_rates({}) == 0.5).all()


def test_counting_replays_the_moves_counting_shapes_from_the_movers_side() -> None:
    state = new_game(5, Rules())
    position = from_state(state)
    chosen = np.zeros(1 << 16, dtype=np.int64)
    available = np.zeros(1 << 16, dtype=np.int64)
    open_areas = np.zeros(CLASSES, dtype=np.int64), np.zeros(CLASSES, dtype=np.int64)
    colours = np.array([0, 1, 0], dtype=np.int32)
    points = np.array([padded(12, 5), -1, padded(13, 5)], dtype=np.int32)  # C3, a pass, D3
    board = position.b, position.hz, position.zob
    assert count_choices(*board, colours, points, chosen, available, *open_areas) == 3
    assert chosen.sum() == 2
    assert available.sum() == 25 + 24
    assert chosen[EMPTY_AREA] == 1  # C3 on the empty board
    assert chosen[_code(".../X*./...")] == 1  # D3 beside the mover's own stone
    assert open_areas[0].sum() == open_areas[1].sum() == 0  # no open areas on small boards
    # A record the board cannot follow stops the count there.
    again = np.array([padded(12, 5)], dtype=np.int32)
    assert count_choices(*board, colours[:1], again, chosen, available, *open_areas) == 0


def test_the_shipped_values_favour_contact_shapes_over_the_first_line() -> None:
    assert SHAPE_VALUES[FIRST_LINE] < 0.1
    assert SHAPE_VALUES[_code("XO./.*./...")] > 0.8  # hane at the head of a contact fight
    assert SHAPE_VALUES[_code(".X./X*X/.X.")] < 0.1  # filling one's own eye
    assert 0.2 < SHAPE_VALUES[EMPTY_AREA] < 0.6


def test_the_learner_counts_the_placements_of_the_two_colour_records_it_reads(tmp_path: Path) -> None:
    (tmp_path / "game.sgf").write_bytes(b"(;SZ[9];B[ee];W[cc];B[gg];W[];B[ec])")  # four placements, a pass
    (tmp_path / "setup-only.sgf").write_bytes(b"(;SZ[9]AB[aa];W[])")  # no placement: not a game to learn from
    (tmp_path / "broken.sgf").write_bytes(b"junk")  # skipped with a note
    counts = learn(sorted(tmp_path.glob("*.sgf")), progress=False)
    assert (counts.games, counts.moves) == (1, 4)
    assert counts.chosen.sum() == 4  # one chosen shape a placement
    assert counts.available.sum() > 4 * 60  # each choice among the empty points of a 9x9 board
    rows = parse_rates(rates_text(counts.chosen, counts.available, "x", 1, 4))
    assert sum(chosen for chosen, _ in rows.values()) == 4  # every move in the empty shape (code 0)
    assert rows[EMPTY_AREA][0] == 4 and all(chosen <= seen for chosen, seen in rows.values())


@pytest.mark.no_cover  # untraced: a whole corpus (README, "Tests and benchmarks"); the test above traces it
@pytest.mark.conformance
def test_the_shipped_rates_are_what_the_learner_makes_of_the_shared_games() -> None:
    folder = shared_data("gnugo", "games")
    counts = learn(folder.rglob("*.sgf"), progress=False)
    shipped = resources.files("miai.engines.kernel").joinpath(RATES_FILE).read_text(encoding="utf-8")
    made = rates_text(counts.chosen, counts.available, "x", counts.games, counts.moves)
    assert counts.games > 1000 and counts.moves > 150_000
    assert parse_rates(made) == parse_rates(shipped)
    shipped = resources.files("miai.engines.kernel").joinpath(OPEN_RATES_FILE).read_text(encoding="utf-8")
    made = open_rates_text(counts.open_chosen, counts.open_available, "x")
    assert parse_open_rates(made) == parse_open_rates(shipped)

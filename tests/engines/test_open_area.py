"""The open-area prior of big boards: classes by distance to the edges, the rates file, the shipped values,
and the tree seeding its AMAF statistics with the priors."""

from __future__ import annotations

import numpy as np
import pytest

from miai.core.go import Place, Rules, new_game
from miai.engines.go_search import KernelSearch
from miai.engines.kernel.choices import count_choices
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import PASS as KERNEL_PASS
from miai.engines.kernel.layout import padded
from miai.engines.kernel.open_area import (
    CLASSES,
    MAX_LINE,
    OPEN_AREA_VALUES,
    open_area_class,
    open_rates_text,
    open_values_from_rates,
    parse_open_rates,
)
from miai.engines.kernel.tree import (
    COUNT,
    FIRST,
    MOVE,
    PRIOR_EDGE,
    PRIOR_N,
    PRIOR_RAVE,
    PRIOR_W,
    RAVE_N,
    RAVE_W,
    default_params,
)


def _class(near: int, far: int) -> int:
    return near * (MAX_LINE + 1) + far


def _at(size: int, col: int, row: int) -> int:
    return padded(row * size + col, size)


def test_classes_count_lines_from_the_nearest_edges() -> None:
    b = from_state(new_game(19)).b
    assert open_area_class(b, _at(19, 3, 3)) == _class(4, 4)  # the 4-4 point
    assert open_area_class(b, _at(19, 15, 2)) == _class(3, 4)  # the 3-4 point, any corner and side
    assert open_area_class(b, _at(19, 2, 15)) == _class(3, 4)
    assert open_area_class(b, _at(19, 0, 0)) == _class(1, 1)
    assert open_area_class(b, _at(19, 9, 9)) == _class(7, 7)  # the centre: seventh line or beyond
    assert open_area_class(b, _at(19, 2, 9)) == _class(3, 7)
    assert open_area_class(from_state(new_game(9)).b, _at(9, 2, 2)) == -1  # small boards have none


def test_a_stone_within_three_points_closes_the_area() -> None:
    state = new_game(19).play(Place(3 * 19 + 3))
    b = from_state(state).b
    assert open_area_class(b, _at(19, 5, 4)) == -1  # distance 3
    assert open_area_class(b, _at(19, 5, 5)) == _class(6, 6)  # distance 4


def test_parse_open_rates_reads_rows_and_rejects_nonsense() -> None:
    assert parse_open_rates("# h\n4 4 10 100\n3 7 1 50\n") == {_class(4, 4): (10, 100), _class(3, 7): (1, 50)}
    with pytest.raises(ValueError, match="line 1: expected 'near far chosen available'"):
        parse_open_rates("4 4 10\n")
    with pytest.raises(ValueError, match="impossible row"):
        parse_open_rates("5 4 1 10\n")  # the near line comes first
    with pytest.raises(ValueError, match="impossible row"):
        parse_open_rates("4 4 11 10\n")


def test_rates_text_round_trips() -> None:
    chosen = np.zeros(CLASSES, dtype=np.int64)
    available = np.zeros(CLASSES, dtype=np.int64)
    chosen[_class(4, 4)], available[_class(4, 4)] = 7, 70
    available[_class(1, 1)] = 300
    assert parse_open_rates(open_rates_text(chosen, available, "test")) == {
        _class(4, 4): (7, 70),
        _class(1, 1): (0, 300),
    }


def test_counting_replays_the_moves() -> None:
    position = from_state(new_game(19))
    chosen = np.zeros(CLASSES, dtype=np.int64)
    available = np.zeros(CLASSES, dtype=np.int64)
    points = np.array([_at(19, 3, 3), _at(19, 15, 15), -1, _at(19, 9, 9)], dtype=np.int32)
    colours = np.array([0, 1, 0, 0], dtype=np.int32)
    shapes = np.zeros(1 << 16, dtype=np.int64), np.zeros(1 << 16, dtype=np.int64)
    board = position.b, position.hz, position.zob
    assert count_choices(*board, colours, points, *shapes, chosen, available) == 4
    assert shapes[0].sum() == 3 and shapes[1].sum() == 361 + 360 + 359
    assert chosen[_class(4, 4)] == 2 and chosen[_class(7, 7)] == 1 and chosen.sum() == 3
    assert available[_class(4, 4)] == 4 + 3 + 2  # four corners, then the ones left open
    assert available.sum() < 3 * 361


def test_values_favour_what_players_choose() -> None:
    values = open_values_from_rates({_class(4, 4): (500, 5_000), _class(7, 7): (5, 100_000)})
    assert values[_class(4, 4)] > 0.9 and values[_class(7, 7)] < 0.5
    assert values[_class(2, 5)] == 0.5  # never seen: neutral
    assert (open_values_from_rates({}) == 0.5).all()


def test_the_shipped_values_rank_corners_over_sides_over_the_centre_and_edges() -> None:
    v = OPEN_AREA_VALUES
    for corner in (_class(4, 4), _class(3, 4), _class(3, 3)):
        assert v[corner] > 0.9
    assert v[_class(3, 4)] > v[_class(3, 7)] > v[_class(7, 7)]
    assert v[_class(1, 7)] < 0.2 and v[_class(2, 7)] < 0.2


def test_the_open_area_prior_and_its_amaf_seed() -> None:
    state = new_game(19, Rules(komi=(0.0, 7.5)))
    search = KernelSearch(seed=1)
    search.search(state, playouts=1)
    ni, nf, _ = search._pool
    position = from_state(state)
    weight = default_params()[PRIOR_EDGE]
    seen = 0
    for child in range(int(ni[0, FIRST]), int(ni[0, FIRST] + ni[0, COUNT])):
        q = int(ni[child, MOVE])
        if q == KERNEL_PASS:
            continue
        area = open_area_class(position.b, q)
        assert area >= 0
        seen += 1
        # The AMAF statistics start from the prior (the one playout run may have added one sample).
        share = default_params()[PRIOR_RAVE]
        assert nf[child, RAVE_N] == pytest.approx(nf[child, PRIOR_N] * share, abs=1.001)
        assert nf[child, RAVE_W] == pytest.approx(nf[child, PRIOR_W] * share, abs=1.001)
        if q == _at(19, 3, 3):
            hoshi = float(nf[child, PRIOR_W])
        if q == _at(19, 9, 9):
            tengen = float(nf[child, PRIOR_W])
    assert seen == 361
    # The open-area part of the prior is its weight, valued as the shipped table says.
    assert hoshi - tengen == pytest.approx(
        weight * (OPEN_AREA_VALUES[_class(4, 4)] - OPEN_AREA_VALUES[_class(7, 7)]), abs=1e-3
    )

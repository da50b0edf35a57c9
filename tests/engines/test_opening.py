"""The top level's opening rule: empty corners first on big boards, unless the search finds better."""

from __future__ import annotations

from miai.core.go import PASS, GoState, Move, Place, new_game
from miai.engines.go_player import GoPlayer, Style
from miai.engines.levels import style
from miai.engines.opening import corners_first, empty_corner_points
from miai.engines.result import MoveStats, SearchResult


def _result(best: Move, rate: float, children: list[tuple[Move, int, float]]) -> SearchResult[Move]:
    stats = [MoveStats(m, v, r) for m, v, r in children]
    return SearchResult(best, stats[0].visits, rate, 100, 1.0, [best], stats, 0)


def _p(col: int, row: int, size: int = 19) -> int:
    return row * size + col


def test_the_empty_corners_offer_their_third_and_fourth_line_points() -> None:
    points = empty_corner_points(new_game(19))
    assert len(points) == 16
    assert {_p(2, 2), _p(3, 2), _p(2, 3), _p(3, 3), _p(15, 15), _p(3, 16)} <= set(points)
    taken = new_game(19).play(Place(_p(16, 3)))  # a stone anywhere in the corner takes it
    assert len(empty_corner_points(taken)) == 12
    assert _p(15, 3) not in empty_corner_points(taken)


def test_a_corner_point_replaces_a_side_move_of_the_opening() -> None:
    state = new_game(19)
    side, corner = Place(_p(9, 2)), Place(_p(3, 3))
    result = _result(side, 0.52, [(side, 50, 0.52), (corner, 20, 0.50), (Place(_p(2, 2)), 10, 0.51)])
    assert corners_first(state, result) == corner


def test_the_search_keeps_a_clearly_better_move() -> None:
    state = new_game(19)
    answer, corner = Place(_p(9, 2)), Place(_p(3, 3))
    assert corners_first(state, _result(answer, 0.60, [(answer, 500, 0.60), (corner, 100, 0.50)])) is None
    noisy = _result(answer, 0.60, [(answer, 500, 0.60), (corner, 99, 0.50)])
    assert corners_first(state, noisy) == corner  # too few visits of the corner to tell
    on_corner = _result(corner, 0.5, [(corner, 50, 0.5)])
    assert corners_first(state, on_corner) is None  # already a corner point


def test_the_rule_ends_with_the_opening_the_corners_or_the_big_board() -> None:
    side, corner = Place(_p(9, 2)), Place(_p(3, 3))
    result = _result(side, 0.52, [(side, 50, 0.52), (corner, 20, 0.50)])
    late: GoState = new_game(19)
    for k in range(20):
        late = late.play(Place(_p(9, k % 19) if k < 19 else _p(10, 9)))
    assert corners_first(late, result) is None
    full = new_game(19)
    for col, row in ((3, 3), (15, 15), (3, 15), (15, 3)):
        full = full.play(Place(_p(col, row)))
    assert corners_first(full, result) is None
    small = _result(Place(_p(4, 4, 9)), 0.5, [(Place(_p(4, 4, 9)), 5, 0.5), (Place(_p(2, 2, 9)), 5, 0.5)])
    assert corners_first(new_game(9), small) is None
    assert corners_first(new_game(19, colours=3), result) is None


def test_the_top_level_opens_in_the_corners() -> None:
    assert style(10).corners_first and not style(9).corners_first
    player = GoPlayer(Style(playouts=300, seconds=None, corners_first=True), seed=2)
    state = new_game(19)
    for _ in range(4):
        move = player.choose(state)
        assert move != PASS and isinstance(move, Place)
        row, col = divmod(move.point, 19)
        assert min(row, 18 - row) in (2, 3) and min(col, 18 - col) in (2, 3)
        state = state.play(move)

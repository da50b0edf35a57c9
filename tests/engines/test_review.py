"""Reviewing finished games: a won position reads as won, a blunder that loses a big group is a swing."""

from __future__ import annotations

import pytest

from miai.core.amazons import new_game as new_amazons
from miai.core.go import Place, new_game
from miai.core.go.vertex import parse_point
from miai.core.hex import HexState
from miai.core.hex import new_game as new_hex
from miai.core.tanbo import new_game as new_tanbo
from miai.engines import mcts
from miai.engines.review import PositionReview, review_position, swings
from tests.core.go.helpers import from_diagram

# Black owns nearly everything; White's few stones in the corner are dead.
BLACK_WINS = """
 9 . X . X . X O . .
 8 X X X X X X O O O
 7 . X . X . X X X O
 6 X X X X X X . X O
 5 . X . X . X X X O
 4 X X X X X X X O O
 3 . X . X . X O . O
 2 X X X X X X O O .
 1 . X . X . X O . O
   A B C D E F G H J
"""

# Black's big group lives with B1 (two eyes) and wins by 9; anything else lets White kill it at B1.
ONE_MOVE_TO_LIVE = """
 9 X X X X X O O O .
 8 X X X X X O O O O
 7 X X X X X O O O O
 6 X X X X X O O O O
 5 X X X X X O O O .
 4 X X X X X O O O O
 3 X X X X X O O O O
 2 X X X X X O O O O
 1 . . . X X O O O .
   A B C D E F G H J
"""


def test_a_clearly_won_position_gives_the_winner_more_than_nine_in_ten() -> None:
    state, _ = from_diagram(BLACK_WINS, to_move=1)  # even with White to move
    review = review_position(state, 300)
    assert review.shares[0] > 0.9
    assert sum(review.shares) == pytest.approx(1.0)
    assert len(review.score) == 2  # each colour's expected points, komi included
    assert review.score[0] - review.score[1] > 20  # Black leads
    assert review.ownership is not None and len(review.ownership) == 81
    assert review.ownership.count("1") > 60  # most points are Black's (team 1)


def test_a_blunder_that_loses_a_big_group_is_that_players_swing_at_that_move() -> None:
    start, _ = from_diagram(ONE_MOVE_TO_LIVE, to_move=0)
    states = [start]
    for text in ("A1", "B1"):  # Black's blunder (the eye space shrinks), then White's killing move
        states.append(states[-1].play(Place(parse_point(text, 9))))
    positions = [review_position(s, 300, seed=i) for i, s in enumerate(states)]
    assert positions[0].shares[0] > 0.7 and positions[0].best == "B1"
    assert positions[1].shares[0] < 0.3
    found = swings(positions, [0, 1])
    black = [s for s in found if s.player == 0]
    assert black[0].move == 1 and black[0].loss > 0.5
    assert black[0].wire() == {
        "move": 1,
        "team": 1,
        "loss": pytest.approx(black[0].loss, abs=1e-4),
        "best": "B1",
    }


def test_swings_keep_the_three_biggest_losses_of_each_player() -> None:
    black = [0.9, 0.8, 0.7, 0.45, 0.4, 0.25, 0.2, 0.13, 0.7]  # Black's share at each position
    positions = [PositionReview((b, 1 - b), best=f"M{i}") for i, b in enumerate(black)]
    movers = [i % 2 for i in range(len(black) - 1)]  # Black makes moves 1, 3, 5, 7
    found = swings(positions, movers)
    by_black = [(s.move, round(s.loss, 2)) for s in found if s.player == 0]
    by_white = [(s.move, round(s.loss, 2)) for s in found if s.player == 1]
    assert by_black == [(3, 0.25), (5, 0.15), (1, 0.1)]  # 7 loses 0.07: three at most
    assert by_white == [(8, 0.57)]  # White's other moves gained
    assert [s.loss for s in found] == sorted((s.loss for s in found), reverse=True)
    assert next(s for s in found if s.move == 3).best == "M2"  # what the engine preferred before it


def test_nobodys_moves_and_short_reviews_make_no_swings() -> None:
    positions = [PositionReview((0.9, 0.1)), PositionReview((0.1, 0.9))]
    assert swings(positions, [-1]) == []  # an agreed draw is no player's move
    assert swings(positions[:1], [0, 1]) == []


def test_more_colours_share_the_winning_chance() -> None:
    review = review_position(new_game(7, colours=3), 64)
    assert len(review.shares) == 3 and sum(review.shares) == pytest.approx(1.0)
    assert all(0 < s < 1 for s in review.shares)
    assert len(review.score) == 3  # each colour's expected points
    assert review.best is not None and review.ownership is not None and len(review.ownership) == 49


def test_the_end_of_a_game_by_resignation_belongs_to_the_other_side() -> None:
    from miai.core.go.moves import RESIGN

    state = new_game(7).play(Place(24)).play(RESIGN)
    review = review_position(state, 32)
    assert review.shares == (1.0, 0.0) and review.best is None
    # The board is read as it was before the resignation (White's stones are not taken off by playouts).
    assert review.ownership == review_position(state.parent, 32).ownership
    assert review.score == review_position(state.parent, 32).score


def test_hex_and_amazons_get_a_winning_chance() -> None:
    for state in (new_hex(3), new_amazons(4, white=[0], black=[15])):
        review = review_position(state, 40)
        assert len(review.shares) == 2 and sum(review.shares) == pytest.approx(1.0)
        assert review.ownership is None and review.best is None


def _hex(setup: dict[tuple[int, int], int], to_move: int) -> HexState:
    """A 5x5 Hex position, cells by (row, column); player 0 joins the top and bottom rows."""
    return new_hex(
        5, opening="none", setup={r * 5 + c: who for (r, c), who in setup.items()}, to_move=to_move
    )


def test_hex_a_chain_one_move_from_connecting_is_won() -> None:
    column = {(0, 2): 0, (1, 2): 0, (2, 2): 0}
    others = {(0, 0): 1, (1, 0): 1, (2, 0): 1}
    one_gap = _hex({**column, (3, 2): 0, **others, (4, 4): 1}, to_move=0)  # (4, 2) connects
    bridged = _hex({**column, (4, 1): 0, **others}, to_move=1)  # (3, 1) and (3, 2) both connect
    for state in (one_gap, bridged):
        review = review_position(state, 16)
        assert review.shares[0] > 0.9 and sum(review.shares) == pytest.approx(1.0)


def test_an_amazons_queen_walled_in_has_lost() -> None:
    # Black's queen in the corner has one square left; White's has the board.
    state = new_amazons(6, white=[0], black=[35], arrows=[28, 29, 33], to_move=0)
    assert review_position(state, 40).shares[0] > 0.9


class _NoGenericSearch:
    def __init__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("the generic search was used")


def test_amazons_hex_and_tanbo_are_read_by_their_compiled_searchers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcts, "MCTS", _NoGenericSearch)
    hex_swap = new_hex(5).play(new_hex(5).legal_moves()[12])  # the swap available: valued too
    for state in (
        new_hex(5, opening="none"),
        hex_swap,
        new_amazons(6, white=[1, 4], black=[31, 34]),
        new_tanbo(9),
    ):
        review = review_position(state, 16, seed=3)
        assert len(review.shares) == 2 and sum(review.shares) == pytest.approx(1.0)
        assert review == review_position(state, 16, seed=3)  # deterministic for a seed


@pytest.mark.parametrize("playouts", [0, -1, 10**9])
def test_a_budget_out_of_range_is_refused(playouts: int) -> None:
    with pytest.raises(ValueError, match="playouts"):
        review_position(new_game(5), playouts)

"""The compiled Amazons player: legal moves at every level, wins it sees, and its tree kept between moves."""

from __future__ import annotations

import pytest

from miai.core.amazons import WHITE, AmazonsState, QueenMove, new_game
from miai.engines.amazons.searcher import AmazonsSearcher
from miai.engines.players import AnyGameSeat
from miai.engines.pool import portable
from miai.engines.searchers import choose_move_any_game


def shut_in_position() -> AmazonsState:
    """5×5, White to move: Black's only queen (a1) has one empty neighbour left, a2, which a White
    arrow can fill; nearly every other move lets Black go on."""
    return new_game(5, white=[12, 24], black=[0], arrows=[1, 6])


def test_level_10_takes_the_win_it_sees() -> None:
    searcher = AmazonsSearcher()
    try:
        state = shut_in_position()
        move = searcher.move(state, 10, 0.3, seed=1)
        after = state.play(move)
        assert after.is_over and after.winner == WHITE
    finally:
        searcher.close()


@pytest.mark.parametrize("level", [1, 3, 5, 7, 9, 10])
def test_every_level_plays_legal_moves_on_the_standard_board(level: int) -> None:
    state = new_game()
    seat = AnyGameSeat(level)
    try:
        for ply in range(4):
            move = seat.move(state, 0.2, seed=ply)
            assert isinstance(move, QueenMove) and move in state.legal_moves()
            state = state.play(move)
        assert seat.stats() == {"engine": "compiled"}
    finally:
        seat.close()


def test_the_tree_is_kept_when_the_game_goes_on_and_dropped_otherwise() -> None:
    searcher = AmazonsSearcher()
    try:
        state = new_game()
        mine = searcher.move(state, 10, 0.5, seed=1)
        assert searcher.carried_visits == 0
        after = state.play(mine)
        reply = searcher.move(after, 10, 0.3, seed=2)  # as if the opponent had the same idea
        searcher.move(after.play(reply), 10, 0.2, seed=3)
        assert searcher.carried_visits > 0  # the reply's subtree was searched while thinking of `after`
        searcher.move(shut_in_position(), 10, 0.1, seed=4)  # another game: a new tree
        assert searcher.carried_visits == 0
    finally:
        searcher.close()


def test_the_tree_is_kept_when_states_travel_without_their_record() -> None:
    """An engine process gets each state with one step back (`pool.portable`): the tree follows anyway."""
    searcher = AmazonsSearcher()
    try:
        after = new_game().play(searcher.move(portable(new_game()), 10, 0.5, seed=1))
        reply = searcher.move(portable(after), 10, 0.3, seed=2)
        searcher.move(portable(after.play(reply)), 10, 0.2, seed=3)
        assert searcher.carried_visits > 0
    finally:
        searcher.close()


def test_a_one_off_search_goes_through_the_compiled_player() -> None:
    state = shut_in_position()
    move = choose_move_any_game(state, 8, seed=5, seconds=1.0)
    assert state.play(move).winner == WHITE


def test_a_finished_game_has_no_move() -> None:
    over = new_game(4, white=[0], black=[15], arrows=[1, 4, 5])
    with pytest.raises(ValueError, match="over"):
        AmazonsSearcher().move(over, 10, 0.1, seed=0)


@pytest.mark.parametrize("level", [0, 11, "x", True, 2.5])
def test_bad_levels_are_refused(level: object) -> None:
    with pytest.raises(ValueError, match="levels"):
        AnyGameSeat(level).move(new_game(), 0.1, seed=0)  # type: ignore[arg-type]

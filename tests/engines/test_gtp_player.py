"""External GTP engines as move generators, against the real GNU Go."""

from __future__ import annotations

import pytest

from miai.core.go import PASS, GoState, Move, Place, Rules, new_game
from miai.engines.gtp_player import ExternalEngineError, GtpPlayer
from miai.formats.gtp.gnugo import find_gnugo
from tests.conftest import need


def gnugo_player(**options: object) -> GtpPlayer:
    path = find_gnugo()
    need(path is not None, "GNU Go is not installed")
    assert path is not None
    return GtpPlayer([path, "--mode", "gtp", "--level", "0"], "gnugo", **options)  # type: ignore[arg-type]


@pytest.mark.gnugo
def test_gnugo_plays_a_legal_game_in_step_with_the_core() -> None:
    with gnugo_player() as player:
        state: GoState = new_game(9, Rules(komi=(0.0, 7.5)), handicap=2)
        for _ in range(30):
            if state.is_over:
                break
            move = player(state, state.to_move, None)
            assert move == PASS or state.is_legal(move), move
            state = state.play(move)
        assert player._sent == state.moves()  # only new moves were sent each time


@pytest.mark.gnugo
def test_gnugo_resyncs_after_an_undo_and_answers_for_either_colour() -> None:
    with gnugo_player() as player:
        start = new_game(9, Rules(komi=(0.0, 7.5)))
        state = start.play(Place(40)).play(Place(30)).play(Place(50))
        player(state, state.to_move, None)
        earlier = start.play(Place(20))  # another line of play: clear_board and replay
        move: Move = player(earlier, 0, 1.0)  # Black, though White is to move
        assert move == PASS or earlier.is_legal(move, 0)
        assert player._sent[:1] == [(0, Place(20))]


@pytest.mark.gnugo
def test_illegal_answers_fall_back_and_multicolour_is_refused() -> None:
    calls: list[int] = []

    def fallback(state: GoState, colour: int, seconds: float | None) -> Move:
        calls.append(colour)
        return PASS

    with gnugo_player(fallback=fallback) as player:
        with pytest.raises(ExternalEngineError, match="two colours"):
            player(new_game(7, Rules(komi=(0.0,) * 3), colours=3), 0, None)
        state = new_game(9, Rules(komi=(0.0, 7.5)))
        assert player(state, 0, None) != PASS or calls  # a normal answer needs no fallback
    broken = GtpPlayer(["/nonexistent/engine"], fallback=fallback)
    assert broken(new_game(9), 0, None) == PASS and calls
    with pytest.raises(ExternalEngineError, match="cannot start"):
        GtpPlayer(["/nonexistent/engine"])(new_game(9), 0, None)

"""Attack on the compiled Hex / Amazons / Tanbo computer players (issue #20) through a game seat, the
object the engine pool asks for moves: odd thinking times and positions the searcher did not expect."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from miai.core import amazons, hex, tanbo
from miai.engines.players import AnyGameSeat

STARTS: dict[str, Callable[[], Any]] = {
    "hex": partial(hex.new_game, 5),
    "amazons": amazons.new_game,
    "tanbo": partial(tanbo.new_game, 9),
}


@pytest.mark.parametrize("seconds", [math.nan, math.inf])
@pytest.mark.parametrize("kind", sorted(STARTS))
def test_a_top_level_seat_given_an_unusable_time_plays_a_legal_move(kind: str, seconds: float) -> None:
    """Every game takes a NaN or infinite time as "the level's own" (attack: the Tanbo searcher once passed
    them on to an int() and raised ValueError / OverflowError instead of answering a move)."""
    state = STARTS[kind]()
    seat = AnyGameSeat(10)
    try:
        move = seat.move(state, seconds, 1)
    finally:
        seat.close()
    assert move in state.legal_moves()


@pytest.mark.parametrize("level", [1, 5, 10])
def test_the_hex_searcher_plays_a_legal_move_on_the_smallest_board(level: int) -> None:
    """Found by attack: on a 2x2 board (the core plays 2..26) the Hex searcher at level 5 or 10 answers
    Place(point=-6), a cell off the board."""
    state = hex.new_game(2)
    seat = AnyGameSeat(level)
    try:
        move = seat.move(state, 0.1, 1)
    finally:
        seat.close()
    assert move in state.legal_moves()

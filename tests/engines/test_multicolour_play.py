"""Computers fill every seat of a 4-colour 9x9 game and play it to its end by passes, never stalling."""

from __future__ import annotations

from miai.core.go import PASS, new_game, preset
from miai.engines.levels import make_move_generator

COLOURS = 4
BOUND = 2 * COLOURS * 81  # plies: twice a full board per colour is far more than such a game needs


def test_a_four_colour_game_of_computers_ends_by_passes_within_a_bound() -> None:
    state = new_game(9, preset("dipgo", 9, colours=COLOURS, komi=0.0), colours=COLOURS)
    players = [make_move_generator(1 + c % 2, None, seed=c) for c in range(COLOURS)]  # levels 1, 2, 1, 2
    placed = [0] * COLOURS
    while not state.is_over and state.plies < BOUND:
        colour = state.to_move
        move = players[colour](state, colour, None)
        placed[colour] += move != PASS
        state = state.play(move)  # raises on an illegal move
    assert state.is_over, f"no end after {state.plies} plies"
    assert state.ended == "passes"
    assert all(placed), placed  # every seat played, none passed from the start

"""The compiled Tanbo rules (engines/tanbo/board.py) must agree with the pure core on every rule.

Seeded random games on every start layout and on small set-up boards (where roots are bounded often) are
replayed in both: after every move the compiled cells, the legal points of the player to move, the stones
removed, the end and the winner are compared with the core's, and every root's kept liberty count with a
count from scratch. The SPEC's worked examples T1-T3 are replayed too, and the move effects that the
playout policy and the priors read are checked against actually playing the move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from miai.core.tanbo import BLACK, WHITE, TanboState, new_game, parse_move
from miai.core.twoplayer import Place
from miai.engines.tanbo.board import (
    CELL,
    E_OWN_LIBS,
    E_OWN_LOST,
    E_TAKEN,
    H_COUNT,
    H_REMOVED,
    H_ROOTS,
    H_TO_MOVE,
    H_WINNER,
    N_EFFECTS,
    NO_WINNER,
    R_COLOUR,
    R_HEAD,
    R_LIBS,
    R_SIZE,
    count_liberties,
    effects,
    legal_at,
    legal_count,
    padded,
    play,
    unpadded,
)
from miai.engines.tanbo.search import to_board
from tests.core.diagrams import tanbo_position
from tests.core.test_tanbo import T1_BEFORE, T2_BEFORE, T3_BEFORE


def legal(b: np.ndarray, size: int) -> list[int]:
    return sorted(unpadded(legal_at(b, i), size) for i in range(legal_count(b)))


def cells(b: np.ndarray, size: int) -> bytes:
    return bytes(int(b[CELL + padded(p, size)]) for p in range(size * size))


def check_same(b: np.ndarray, state: TanboState, where: str) -> None:
    size = state.size
    assert cells(b, size) == state.cells, f"boards differ {where}"
    assert legal(b, size) == (state.legal_points() if not state.is_over else []), f"legal points {where}"
    assert (int(b[H_COUNT]), int(b[H_COUNT + 1])) == state.counts, f"stone counts {where}"
    for r in range(int(b[H_ROOTS])):
        if b[R_HEAD + r] >= 0:
            assert b[R_LIBS + r] == count_liberties(b, r) > 0, f"root {r}'s liberties {where}"
    winner = int(b[H_WINNER])
    if state.is_over:
        assert winner == (2 if state.winner is None else state.winner), f"winner {where}"
    else:
        assert winner == NO_WINNER and int(b[H_TO_MOVE]) == state.to_move, f"turn {where}"


def random_setup(size: int, rng: random.Random) -> TanboState:
    """A few single stones of each colour apart from each other (no bounded root at the start)."""
    while True:
        points = rng.sample(range(size * size), 6)
        try:
            return new_game(size, {p: i % 2 for i, p in enumerate(points)}, rng.randrange(2))
        except ValueError:
            continue


def replay(state: TanboState, rng: random.Random, where: str) -> int:
    """Play random moves in both to the end; returns the number of removals seen."""
    b = to_board(state)
    check_same(b, state, f"{where} at the start")
    removals = 0
    while not state.is_over:
        point = rng.choice(state.legal_points())
        state = state.play(Place(point))
        play(b, padded(point, state.size))
        here = f"{where} after ply {state.plies}"
        assert int(b[H_REMOVED]) == len(state.removed), f"removed stones {here}"
        removals += bool(state.removed)
        check_same(b, state, here)
    return removals


@pytest.mark.parametrize("size", [9, 13, 19])
def test_random_games_from_the_start_layouts_agree(size: int) -> None:
    removals = sum(replay(new_game(size), random.Random(1000 * size + seed), f"{size}x{size} game {seed}")
                   for seed in range(6))  # fmt: skip
    assert removals > 6  # the games did exercise removal


def test_random_games_on_small_set_up_boards_agree() -> None:
    rng = random.Random(7)
    removals = 0
    for game in range(60):
        size = rng.choice([4, 5, 6, 7])
        removals += replay(random_setup(size, rng), rng, f"{size}x{size} set-up game {game}")
    assert removals > 30


@pytest.mark.parametrize(
    ("diagram", "to_move", "vertex", "removed"),
    [(T1_BEFORE, BLACK, "C3", 5), (T2_BEFORE, WHITE, "C3", 8), (T3_BEFORE, BLACK, "A4", 2)],
)
def test_the_worked_examples(diagram: str, to_move: int, vertex: str, removed: int) -> None:
    state = tanbo_position(diagram, to_move)
    b = to_board(state)
    move = parse_move(vertex, 5)
    assert isinstance(move, Place)
    after = state.play(move)
    play(b, padded(move.point, 5))
    assert int(b[H_REMOVED]) == removed == len(after.removed)
    check_same(b, after, vertex)


def test_move_effects_match_what_playing_the_move_does() -> None:
    rng = random.Random(3)
    out = np.zeros(N_EFFECTS, dtype=np.int32)
    checked = {"bounds itself": 0, "takes": 0, "loses others": 0}
    for game in range(40):
        state = random_setup(rng.choice([5, 6, 7]), rng) if game % 2 else new_game(9)
        while not state.is_over:
            b = to_board(state)
            mover = state.to_move
            for point in state.legal_points():
                effects(b, padded(point, state.size), out)
                after = state.play(Place(point))
                if after.current_root_removed:
                    assert out[E_OWN_LIBS] == 0
                    checked["bounds itself"] += 1
                    continue
                assert out[E_OWN_LIBS] > 0
                lost = [p for p in after.removed if state.cells[p] == mover + 1]
                taken = [p for p in after.removed if state.cells[p] == 2 - mover]
                assert (out[E_OWN_LOST], out[E_TAKEN]) == (len(lost), len(taken)), state.diagram()
                checked["takes"] += bool(taken)
                checked["loses others"] += bool(lost)
            state = state.play(Place(rng.choice(state.legal_points())))
    assert min(checked.values()) > 0, checked


def test_roots_keep_their_ids_and_colours() -> None:
    state = new_game(9)
    b = to_board(state)
    assert int(b[H_ROOTS]) == 4
    colours = sorted(int(b[R_COLOUR + r]) for r in range(4))
    assert colours == [0, 0, 1, 1] and all(b[R_SIZE + r] == 1 for r in range(4))

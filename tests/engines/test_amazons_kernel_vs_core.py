"""The compiled Amazons rules agree with the pure core on random games: legal moves, boards, game ends.

Random seeded games on the standard 10×10 board and on small set-up boards (where queens are shut in and
games end early) are replayed in both; before every move the compiled move list must equal the core's,
and after it the compiled board must equal the core's cells and `can_move` the core's end of game. The
evaluation's distances are checked against a plain breadth-first search.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest

from miai.core.amazons import AmazonsState, QueenMove, new_game, rays
from miai.engines.amazons.board import apply_move, can_move, legal_moves, pack, unpack
from miai.engines.amazons.board import rays as ray_table
from miai.engines.amazons.evaluate import FAR, distances, evaluate, new_work


def compiled_moves(state: AmazonsState) -> list[QueenMove]:
    cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
    out = np.zeros(40_000, dtype=np.int64)
    n = legal_moves(cells, ray_table(state.size), state.to_move, out)
    n2 = state.size * state.size
    return [QueenMove(*(int(x) for x in unpack(int(m), n2))) for m in out[:n]]


def random_start(rng: random.Random, size: int) -> AmazonsState:
    squares = rng.sample(range(size * size), 2 + 2 + rng.randrange(size))
    return new_game(size, white=squares[:2], black=squares[2:4], arrows=squares[4:])


def play_random_game(state: AmazonsState, rng: random.Random) -> int:
    """Plays to the end checking every ply; returns the plies played."""
    size, n2 = state.size, state.size * state.size
    ray = ray_table(size)
    cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
    plies = 0
    while not state.is_over:
        expected = state.legal_moves()
        assert compiled_moves(state) == expected, f"moves differ at ply {state.plies}"
        move = rng.choice(expected)
        mover = state.to_move
        apply_move(cells, pack(*move, n2), mover)
        state = state.play(move)
        plies += 1
        assert bytes(cells.astype(np.uint8)) == state.cells, f"boards differ at ply {state.plies}"
        assert bool(can_move(cells, ray, state.to_move)) == (not state.is_over)
    assert state.winner == 1 - state.to_move  # the player to move with no move has lost
    return plies


@pytest.mark.parametrize("seed", range(3))
def test_standard_games_agree_with_the_core(seed: int) -> None:
    rng = random.Random(seed)
    assert play_random_game(new_game(), rng) > 20


def test_small_set_up_games_agree_with_the_core() -> None:
    rng = random.Random(7)
    ends = 0
    for _ in range(40):
        size = rng.choice((4, 5, 6, 7))
        play_random_game(random_start(rng, size), rng)
        ends += 1
    assert ends == 40


def test_a_player_shut_in_at_the_start_is_seen_by_both() -> None:
    # White's queen in the corner a1 is boxed in by arrows on a2, b1 and b2.
    state = new_game(4, white=[0], black=[15], arrows=[1, 4, 5])
    cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
    assert state.is_over and not can_move(cells, ray_table(4), 0) and compiled_moves(state) == []


def plain_distances(state: AmazonsState, player: int, king: bool) -> list[int]:
    size = state.size
    dist = [FAR] * (size * size)
    todo: deque[int] = deque()
    for p in state.queens(player):
        dist[p] = 0
        todo.append(p)
    while todo:
        p = todo.popleft()
        for ray in rays(size)[p]:
            for q in ray[:1] if king else ray:
                if state.cells[q]:
                    break
                if dist[q] > dist[p] + 1:
                    dist[q] = dist[p] + 1
                    todo.append(q)
    return dist


def test_distances_match_a_plain_breadth_first_search() -> None:
    rng = random.Random(11)
    for _ in range(30):
        state = random_start(rng, rng.choice((5, 8, 10)))
        cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
        work = new_work(state.size)
        for player in (0, 1):
            for king in (False, True):
                distances(cells, ray_table(state.size), player, king, work[0], work[4])
                got = [int(d) if state.cells[p] == 0 else None for p, d in enumerate(work[0])]
                want = [
                    d if state.cells[p] == 0 else None
                    for p, d in enumerate(plain_distances(state, player, king))
                ]
                assert got == want


def test_the_evaluation_counts_walled_off_territory() -> None:
    # 6×6: a wall of arrows on column c; White alone on the right (17 empty squares), Black on the left
    # (11): 6 squares ahead by queen distance and by king distance alike.
    wall = [r * 6 + 2 for r in range(6)]
    state = new_game(6, white=[5], black=[0], arrows=wall)
    cells = np.frombuffer(state.cells, dtype=np.uint8).astype(np.int8)
    work = new_work(6)
    white = evaluate(cells, ray_table(6), 0, 0, work)
    black = evaluate(cells, ray_table(6), 1, 0, work)
    assert white == pytest.approx(6 * 1.4) and black == pytest.approx(-white)

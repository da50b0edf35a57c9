"""The compiled Go search: determinism, budgets, tree reuse, tactics and multi-colour legality."""

from __future__ import annotations

import random

import pytest

from miai.core.go import PASS, GoState, Move, Place, Rules, new_game
from miai.engines.go_search import KernelSearch
from tests.engines.problems import PROBLEMS, Problem
from tests.engines.test_mcts import FakeClock


def nine() -> GoState:
    return new_game(9, Rules(komi=(0.0, 7.5)))


def fingerprint(search: KernelSearch, state: GoState, playouts: int) -> tuple[object, ...]:
    result = search.search(state, playouts=playouts)
    return (
        result.move,
        result.visits,
        result.principal_variation,
        [(c.move, c.visits) for c in result.children],
    )


def test_same_seed_same_search() -> None:
    state = nine().play(Place(40)).play(Place(30))
    assert fingerprint(KernelSearch(seed=7), state, 400) == fingerprint(KernelSearch(seed=7), state, 400)
    assert fingerprint(KernelSearch(seed=7), state, 400) != fingerprint(KernelSearch(seed=8), state, 400)


def test_result_statistics() -> None:
    result = KernelSearch(seed=1).search(nine(), playouts=300)
    assert result.playouts == 300
    assert sum(c.visits for c in result.children) == 300
    assert result.visits == result.children[0].visits == max(c.visits for c in result.children)
    assert 0.0 <= result.win_rate <= 1.0
    assert result.principal_variation[0] == result.move
    assert len(result.principal_variation) >= 2


def test_time_budget_uses_the_injected_clock() -> None:
    clock = FakeClock(0.1)  # every chunk of simulations "takes" a tenth of a second
    result = KernelSearch(seed=1, now=clock).search(nine(), seconds=0.5)
    assert result.seconds == pytest.approx(0.6, abs=0.01)
    # The first chunk "took" 0.1 s for 16 simulations, so later chunks shrink to fit the time left.
    assert 16 < result.playouts < 16 + 32 + 64
    again = KernelSearch(seed=1, now=FakeClock(0.1)).search(nine(), seconds=0.5)
    assert again.playouts == result.playouts and again.move == result.move


def test_tree_reuse_follows_the_moves_played() -> None:
    search = KernelSearch(seed=3)
    state = nine()
    first = search.search(state, playouts=2000)
    state = state.play(first.move)
    reply_line = first.principal_variation[1]
    state = state.play(reply_line)
    second = search.search(state, playouts=100)
    assert second.reused > 0  # the subtree after (our move, the expected reply) was kept
    unrelated = nine().play(Place(0))
    assert search.search(unrelated, playouts=50).reused == 0


def test_search_for_another_colour_than_the_one_to_move() -> None:
    state = nine().play(Place(40))  # White to move; GTP may still ask for Black
    result = KernelSearch(seed=2).search(state, colour=0, playouts=200)
    assert isinstance(result.move, Place) and state.is_legal(result.move, 0)


@pytest.mark.parametrize("problem", PROBLEMS, ids=[p.name for p in PROBLEMS])
def test_finds_the_only_good_move(problem: Problem) -> None:
    state = problem.state()
    result = KernelSearch(seed=1).search(state, playouts=3000)
    assert isinstance(result.move, Place), f"{problem.name}: played {result.move}"
    assert result.move.point in problem.answer_points(), f"{problem.name}: played {result.move}"
    assert result.win_rate > 0.8


@pytest.mark.parametrize(("colours", "size"), [(3, 7), (4, 7), (3, 9), (4, 9)])
def test_multi_colour_games_stay_legal(colours: int, size: int) -> None:
    for seed in range(3):
        state = new_game(size, Rules(komi=(0.0,) * colours), colours=colours)
        search = KernelSearch(seed=seed, capacity=50_000)
        rng = random.Random(seed)
        for _ in range(3 * size * size):
            if state.is_over:
                break
            move: Move = search.search(state, playouts=24).move
            if move != PASS:
                assert state.is_legal(move), f"{colours} colours seed {seed}: illegal {move}"
            # Sometimes a random legal reply instead, so that many positions (and captures) are visited.
            if rng.random() < 0.3:
                move = rng.choice(state.legal_moves())
            state = state.play(move)

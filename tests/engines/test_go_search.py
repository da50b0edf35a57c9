"""The compiled Go search: determinism, budgets, tree reuse, tactics and multi-colour legality."""

from __future__ import annotations

import random

import pytest

from miai.core.go import PASS, GoState, KoRule, Move, Place, Rules, new_game
from miai.engines.go_search import KernelSearch
from miai.engines.kernel.board import is_eye
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import PASS as KERNEL_PASS
from miai.engines.kernel.layout import padded, unpadded
from miai.engines.kernel.playout import pattern_code
from miai.engines.kernel.shapes import SHAPE_VALUES
from miai.engines.kernel.tree import (
    COUNT,
    EXPLORE,
    FIRST,
    MOVE,
    PRIOR_N,
    PRIOR_PASS_N,
    PRIOR_PASS_W,
    PRIOR_SHAPE,
    PRIOR_W,
    default_params,
)
from tests.engines.problems import PROBLEMS, Problem, three_colour_capture
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


def tree_lines(search: KernelSearch, root: GoState) -> list[tuple[tuple[Move, ...], GoState, set[int]]]:
    """Every expanded node of the first tree: the moves leading to it, the core state there, its children."""
    ni, _, _ = search._pool
    out = []
    todo: list[tuple[int, tuple[Move, ...], GoState]] = [(0, (), root)]
    while todo:
        node, line, state = todo.pop()
        first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
        if first < 0:
            continue
        codes = {int(ni[child, MOVE]) for child in range(first, first + count)}
        out.append((line, state, codes))
        for child in range(first, first + count):
            code = int(ni[child, MOVE])
            move = PASS if code == KERNEL_PASS else Place(unpadded(code, root.size))
            todo.append((child, (*line, move), state.play_as(state.to_move, move)))
    return out


@pytest.mark.parametrize("ko", list(KoRule))
def test_tree_children_follow_the_superko_history_of_their_line(ko: KoRule) -> None:
    """Each expanded node's children are the core's legal points on its line (minus own-eye fillings) plus
    pass: the tree's own superko history, with the situations of its passes under situational superko (G3)."""
    # 3x3: Black B1, White A1, Black C2, White B2. If Black passes and White takes the ko at C1, Black's
    # retake at B1 recreates the stones after B2 with White to move, the situation Black's pass created.
    state = new_game(3, Rules(ko=ko, allowed_sizes=(3,)))
    for point in (1, 0, 5, 4):
        state = state.play(Place(point))
    params = default_params()
    params[EXPLORE] = 1.0  # a wide tree, whose passes look promising, so that the line above is expanded
    params[PRIOR_PASS_W] = params[PRIOR_PASS_N]
    search = KernelSearch(seed=1, params=params)
    search.search(state, playouts=3000)
    lines = tree_lines(search, state)
    for line, there, codes in lines:
        b = from_state(there).b
        expected = {padded(p, 3) for p in there.legal_points() if not is_eye(b, there.to_move, padded(p, 3))}
        assert codes == expected | {KERNEL_PASS}, f"children after {line}"
    retake = [codes for line, _, codes in lines if line == (PASS, Place(2))]
    assert retake, "the tree never expanded the ko capture after Black's pass"
    assert padded(1, 3) not in retake[0], "every ko rule forbids the immediate retake at B1"


def test_multi_colour_search_plays_for_the_colour_to_move() -> None:
    # Only the capture wins for the third colour; a search backing up anyone else's reward misses it.
    state, capture = three_colour_capture()
    for seed in range(3):
        result = KernelSearch(seed=seed).search(state, playouts=1000)
        assert result.move == Place(capture), f"seed {seed}: {result.move}"
        assert result.win_rate > 0.8


def test_threads_search_side_by_side_and_sum_their_roots() -> None:
    state = nine().play(Place(40)).play(Place(30))
    search = KernelSearch(seed=7, threads=2)
    result = search.search(state, playouts=401)
    assert search.threads == 2
    assert result.playouts == 401 == search.total_playouts
    assert sum(c.visits for c in result.children) == 401  # both trees' root moves, summed
    assert len({c.move for c in result.children}) == len(result.children)
    # Ownership counts every thread's playouts: per point, the colours' shares add up to the share of
    # playouts in which someone owned it, and by the end of a playout nearly every point is owned.
    assert search.ownership_playouts == 401
    shares = search.ownership()
    owned = [sum(s[p] for s in shares) for p in range(81)]
    assert all(0.0 <= s[p] <= 1.0 for s in shares for p in range(81))
    assert all(total <= 1.0 + 1e-9 for total in owned) and sum(owned) / 81 > 0.9
    # Each thread has its own seeded generator, so a playout budget stays reproducible.
    again = KernelSearch(seed=7, threads=2)
    assert fingerprint(again, state, 400) == fingerprint(KernelSearch(seed=7, threads=2), state, 400)


def test_threads_keep_their_trees_between_moves() -> None:
    search = KernelSearch(seed=3, threads=2)
    state = nine()
    first = search.search(state, playouts=2000)
    state = state.play(first.move).play(first.principal_variation[1])
    assert search.search(state, playouts=100).reused > 0


@pytest.mark.parametrize("threads", [0, 65])
def test_thread_counts_are_checked(threads: int) -> None:
    with pytest.raises(ValueError, match=r"search threads must be 1\.\.64"):
        KernelSearch(threads=threads)


def test_priors_follow_the_learned_shape_values() -> None:
    # Black has stones nearby, so the root's moves see many different 3×3 shapes.
    state = nine().play(Place(40)).play(Place(41)).play(Place(31)).play(Place(50))
    without = default_params()
    without[PRIOR_SHAPE] = 0.0
    plain, shaped = KernelSearch(seed=1, params=without), KernelSearch(seed=1)
    plain.search(state, playouts=1)
    shaped.search(state, playouts=1)
    position = from_state(state)
    weight = default_params()[PRIOR_SHAPE]
    (ni, nf_plain, _), (_, nf_shaped, _) = plain._pool, shaped._pool
    codes = set()
    for child in range(int(ni[0, FIRST]), int(ni[0, FIRST] + ni[0, COUNT])):
        q = int(ni[child, MOVE])
        if q == KERNEL_PASS:
            continue
        code = pattern_code(position.b, q, 0)
        codes.add(code)
        assert nf_shaped[child, PRIOR_N] - nf_plain[child, PRIOR_N] == pytest.approx(weight)
        gain = nf_shaped[child, PRIOR_W] - nf_plain[child, PRIOR_W]
        assert gain == pytest.approx(weight * SHAPE_VALUES[code], abs=1e-4)
    assert len(codes) > 5

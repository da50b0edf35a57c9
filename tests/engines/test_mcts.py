"""The generic Monte Carlo tree search over the common game interface."""

from __future__ import annotations

import random
from typing import Any

import pytest

from miai.core.go import Place, Rules, new_game
from miai.core.registry import GameState
from miai.engines.go_playout import kernel_playout
from miai.engines.mcts import MCTS, Prior, random_playout, widening
from miai.engines.result import SearchResult
from tests.engines.problems import three_colour_capture


class FakeClock:
    """Advances by `step` seconds every time it is read, so time budgets are deterministic."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.t = 0.0

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def summary(result: SearchResult[Any]) -> tuple[Any, ...]:
    return (
        result.move,
        result.visits,
        result.principal_variation,
        [(c.move, c.visits) for c in result.children],
    )


def go5() -> GameState[Any]:
    return new_game(5, Rules(komi=(0.0, 0.5)))


def hex5() -> GameState[Any]:
    from miai.core import hex

    return hex.new_game(5, opening="none")


def tanbo9() -> GameState[Any]:
    from miai.core import tanbo

    return tanbo.new_game(9)


def amazons6() -> GameState[Any]:
    from miai.core import amazons

    return amazons.new_game(6, white=[1, 4], black=[31, 34])


GAMES = {"go": go5, "hex": hex5, "tanbo": tanbo9, "amazons": amazons6}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_search(game: str) -> None:
    playout = kernel_playout() if game == "go" else random_playout(max_plies=200)
    runs = [MCTS(random.Random(seed), playout).search(GAMES[game](), playouts=60) for seed in (3, 3, 4)]
    assert summary(runs[0]) == summary(runs[1])
    assert runs[0].playouts == 60
    assert runs[0].move in GAMES[game]().legal_moves()
    assert runs[0].principal_variation[0] == runs[0].move


def test_hex_finds_the_only_winning_cell() -> None:
    from miai.core import hex

    # Both sides need cell c5 (row 5, column c): the first player (top-bottom) to move must take it.
    state = hex.new_game(5, opening="none", setup={2: 0, 7: 0, 12: 0, 17: 0, 20: 1, 21: 1, 23: 1, 24: 1})
    result = MCTS(random.Random(1), random_playout()).search(state, playouts=400)
    assert result.move == hex.Place(22)
    assert result.win_rate > 0.9


def test_go_three_colours_every_move_is_legal() -> None:
    state: Any = new_game(5, Rules(komi=(0.0, 0.0, 0.0)), colours=3)
    search = MCTS(random.Random(5), kernel_playout())
    for _ in range(12):
        if state.is_over:
            break
        result = search.search(state, playouts=30)
        assert result.move in state.legal_moves()
        state = state.play(result.move)
        search.advance(result.move)


def test_go_three_colours_the_mover_plays_for_its_own_result() -> None:
    # Only the capture wins for the third colour; a search backing up anyone else's reward misses it.
    state, capture = three_colour_capture()
    for seed in range(3):
        result = MCTS(random.Random(seed), kernel_playout()).search(state, playouts=300)
        assert result.move == Place(capture), f"seed {seed}: {result.move}"
        assert result.win_rate > max(c.win_rate for c in result.children[1:])


def test_tree_reuse_keeps_the_played_subtree() -> None:
    state: Any = go5()
    search = MCTS(random.Random(2), kernel_playout())
    first = search.search(state, playouts=200)
    assert first.reused == 0
    state = state.play(first.move)
    search.advance(first.move)
    reply = search.search(state, playouts=50)
    assert reply.reused == first.visits  # the chosen child's visits carry over
    state = state.play(reply.move)
    search.advance(Place(-1))  # a move the tree never saw: start afresh
    assert search.search(state, playouts=10).reused == 0


def test_time_budget_reads_the_injected_clock() -> None:
    clock = FakeClock(0.01)
    result = MCTS(random.Random(0), kernel_playout(), now=clock).search(go5(), seconds=0.5)
    # One clock read per simulation plus the start and the end: about 48 simulations, every run.
    again = MCTS(random.Random(0), kernel_playout(), now=FakeClock(0.01)).search(go5(), seconds=0.5)
    assert 40 <= result.playouts <= 50
    assert summary(result) == summary(again)


def test_prior_hook_and_progressive_widening() -> None:
    state: Any = go5()
    centre = [Place(12), Place(7), Place(11)]

    def prior(game: GameState[Any], moves: Any) -> list[Prior[Any]]:
        allowed = [m for m in centre if m in moves] if game is state else list(moves)
        return [Prior(m, visits=5, value=0.6) for m in allowed]

    result = MCTS(random.Random(0), kernel_playout(), prior=prior).search(state, playouts=100)
    assert {c.move for c in result.children} <= set(centre)
    narrow = MCTS(random.Random(0), kernel_playout(), widen=widening(base=1, factor=0.0)).search(
        state, playouts=50
    )
    assert len(narrow.children) == 1


def test_refuses_without_budget_or_after_the_end() -> None:
    search = MCTS(random.Random(0))
    with pytest.raises(ValueError, match="budget"):
        search.search(go5())
    over: Any = go5().play(Place(0)).play(Place(24))
    over = over.play(over.legal_moves()[-1]).play(over.legal_moves()[-1])
    assert over.is_over
    with pytest.raises(ValueError, match="over"):
        search.search(over, playouts=5)

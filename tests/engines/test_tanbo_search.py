"""The compiled Tanbo search and the seat's searcher: reproducible, reusing its tree, finding the win,
levels as the other games' table says, and plugged in for Tanbo games."""

from __future__ import annotations

import random

import pytest

from miai.core import hex
from miai.core.tanbo import TanboState, new_game
from miai.core.twoplayer import RESIGN, Place
from miai.engines.levels import game_budget
from miai.engines.players import AnyGameSeat
from miai.engines.searchers import choose_move_any_game, searcher_for
from miai.engines.tanbo.search import TanboSearch, TanboSearcher, useful_points
from tests.engines.test_mcts import FakeClock


def fingerprint(search: TanboSearch, state: TanboState, playouts: int) -> tuple[object, ...]:
    result = search.search(state, playouts=playouts)
    return result.move, [(c.move, c.visits) for c in result.children]


def test_same_seed_same_search() -> None:
    state = new_game(9)
    assert fingerprint(TanboSearch(seed=4), state, 300) == fingerprint(TanboSearch(seed=4), state, 300)
    assert fingerprint(TanboSearch(seed=4), state, 300) != fingerprint(TanboSearch(seed=5), state, 300)


def test_a_time_budget_is_kept_by_the_injected_clock() -> None:
    result = TanboSearch(seed=1, now=FakeClock(0.1)).search(new_game(9), seconds=0.5)
    assert result.move in new_game(9).legal_moves() and result.playouts > 0
    assert result.seconds <= 0.7


def test_the_tree_is_kept_for_the_moves_played_since_and_dropped_for_another_game() -> None:
    search = TanboSearch(seed=2)
    state = new_game(9)
    first = search.search(state, playouts=2000)
    assert first.reused == 0
    state = state.play(first.move)
    state = state.play(state.legal_moves()[0])
    second = search.search(state, playouts=100)
    assert second.reused > 0  # the subtree under the two moves played
    assert second.move in state.legal_moves()
    other = search.search(new_game(13), playouts=50)
    assert other.reused == 0


def immediate_win(rng: random.Random) -> tuple[TanboState, set[int]]:
    """A position from random play on a 9x9 start where some but not all moves win at once."""
    while True:
        state = new_game(9)
        while not state.is_over:
            points = state.legal_points()
            winning = {p for p in points if state.play(Place(p)).winner == state.to_move}
            if winning and len(winning) < len(points) / 2:
                return state, winning
            state = state.play(Place(rng.choice(points)))


def test_the_search_takes_a_winning_capture() -> None:
    rng = random.Random(11)
    for _ in range(3):
        state, winning = immediate_win(rng)
        result = TanboSearch(seed=1).search(state, playouts=300)
        assert result.move.point in winning, state.diagram()
        assert result.win_rate > 0.9


def test_levels_below_ten_search_their_playout_budget() -> None:
    searcher = TanboSearcher()
    state = new_game(9)
    for level in (6, 8):  # no deliberate errors at these levels
        move = searcher.move(state, level, None, seed=1)
        assert move in state.legal_moves()
        assert searcher.last is not None and searcher.last.playouts == game_budget(level, None).playouts
    searcher.close()


def test_level_ten_searches_for_the_time_given() -> None:
    searcher = TanboSearcher(now=FakeClock(0.1))
    searcher.move(new_game(9), 10, 0.5, seed=1)
    assert searcher.last is not None and searcher.last.playouts > 16  # more than its first chunk


def test_low_levels_err_reproducibly() -> None:
    state, winning = immediate_win(random.Random(5))
    moves = [TanboSearcher().move(state, 1, None, seed) for seed in range(30)]
    assert moves == [TanboSearcher().move(state, 1, None, seed) for seed in range(30)]
    assert len({m.point for m in moves}) > 1  # level 1 does not always play the best move
    assert any(m.point not in winning for m in moves)


def test_useful_points_leave_out_moves_that_bound_the_movers_own_root() -> None:
    state, _ = immediate_win(random.Random(5))
    for point in set(state.legal_points()) - set(useful_points(state)):
        after = state.play(Place(point))
        lost = sum(1 for p in after.removed if state.cells[p] == state.to_move + 1)
        assert after.current_root_removed or lost > len(after.removed) - lost


def test_tanbo_games_get_the_compiled_searcher() -> None:
    state = new_game(9)
    assert isinstance(searcher_for(state), TanboSearcher)
    seat = AnyGameSeat(3)
    try:
        assert seat.move(state, None, 1) in state.legal_moves()
        assert seat.stats() == {"engine": "compiled"}
    finally:
        seat.close()
    assert choose_move_any_game(state, 2, seed=4, seconds=0.2) in state.legal_moves()


def test_refuses_what_is_not_a_tanbo_position_to_play() -> None:
    with pytest.raises(TypeError):
        TanboSearcher().move(hex.new_game(5, opening="none"), 3, None, 1)  # type: ignore[arg-type]
    over = new_game(5, {0: 0, 24: 1}).leave(0, RESIGN)
    with pytest.raises(ValueError, match="over"):
        TanboSearcher().move(over, 3, None, 1)
    with pytest.raises(ValueError):
        TanboSearcher().move(new_game(9), 0, None, 1)


def test_the_tree_is_kept_when_states_travel_without_their_record() -> None:
    """A worker process gets each state with one step back (`pool.portable`): the tree follows anyway."""
    from miai.engines.pool import portable

    search = TanboSearch(seed=3)
    state = new_game(9)
    for _ in range(3):
        result = search.search(portable(state), playouts=500)
        state = state.play(result.move)
        state = state.play(state.legal_moves()[-1])
    assert search.search(portable(state), playouts=10).reused > 0
    stranger = new_game(9).play(Place(new_game(9).legal_points()[0]))
    assert search.search(portable(stranger.play(stranger.legal_moves()[0])), playouts=10).reused == 0


def test_the_first_timed_move_loads_the_compiled_search_before_its_clock_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading (or, on a fresh install, compiling) the kernel is not thinking time: it happens before the
    searcher first reads its clock."""
    from miai.engines.tanbo import search as module

    events: list[str] = []

    def clock() -> float:
        events.append("clock")
        return 0.0 if events.count("clock") < 3 else 1e9  # time is up after the first chunk

    monkeypatch.setattr(module, "_warmed", [])
    real_warm_up = module.warm_up
    monkeypatch.setattr(module, "warm_up", lambda: (events.append("warm"), real_warm_up()))
    TanboSearcher(now=clock).move(new_game(9), 10, 0.5, 1)
    assert events[0] == "warm" and "clock" in events
    assert module._warmed == [True]
